"""Claims of Natural Boundary Learning (sec:nbl) with the appendices that prove them:
app:conditional_population_field and app:local_stability_in_2D (:mod:`.population`),
app:local_jacobian (:mod:`.local_jacobian`) and app:local_stability (:mod:`.local_stability`).
Importing the package registers them."""

from . import local_jacobian, local_stability, population  # noqa: F401  (registers on import)

__all__ = ["local_jacobian", "local_stability", "population"]
