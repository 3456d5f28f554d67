"""Claims of the Stein identification (sec:stein) with app:gaussian_stein (:mod:`.identities`)
and the randomized initialization of app:initialization (:mod:`.initialization`). Importing the
package registers them."""

from . import identities, initialization  # noqa: F401  (registers on import)

__all__ = ["identities", "initialization"]
