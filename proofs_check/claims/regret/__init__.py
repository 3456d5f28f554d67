"""Claims of the regret guarantees (sec:regret), all in one place, with every appendix that proves
them: the stochastic recursion (app:stochastic_analysis; :mod:`.recursion`), localization
(app:localization; :mod:`.localization`), the concentration of the stopped terms
(app:stopped-stochastic-control; :mod:`.concentration`, the initialization bound in
:mod:`.init_bound`), the localized estimation rate
(app:localized-estimation; :mod:`.estimation`), the conversion to regret and the regret rate
(app:error-to-regret, thm:regret-rate; :mod:`.error_to_regret`) and the empirical regret-rate
study (:mod:`.study`). Importing the package registers them."""

from . import (  # noqa: F401  (registers on import)
    concentration,
    error_to_regret,
    estimation,
    init_bound,
    localization,
    recursion,
    study,
)

__all__ = [
    "concentration",
    "error_to_regret",
    "estimation",
    "init_bound",
    "localization",
    "recursion",
    "study",
]
