"""The paper in one place: its named links, their reference separation, the printed values and
the printed experimental settings, with one key scheme.

Keys
----
``tt-<regime>``
    the three two-transition links of app:tanh-geometry (eq:link_tanh with the printed mu2):
    ``tt-stable``, ``tt-near-critical``, ``tt-unstable``;
``we-<rho>``
    the weighted-entropy link φ_ρ of app:elicitation-geometry. The three links the paper names
    are ``we-0.60``, ``we-0.72``, ``we-0.80`` (ρ as printed there); any other ρ is accepted
    (``we-0.2``), and two keys with the same number (``we-0.6``, ``we-0.60``) are the same link;
a family name
    a family without parameters (``logistic``, ``probit``, ...).

:func:`paper_link` is the one resolver from a key to a :class:`~nbl_theory.links.Link`;
:func:`canonical_key` says which key two spellings share.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from .errors import NBLInputError
from .expressions import exact_number
from .families import FAMILIES, make_family
from .links import Link
from .results import decimal_str

__all__ = [
    "PaperLink",
    "PAPER_LINKS",
    "TWO_TRANSITION_KEYS",
    "WEIGHTED_ENTROPY_KEYS",
    "PAPER_MU2",
    "REFERENCE_DELTA",
    "RHO_SWEEP",
    "STOCHASTIC_SETTING",
    "COMPARISON_SETTING",
    "STOCHASTIC_DELTAS",
    "paper_link",
    "canonical_key",
]

#: The separation at which the paper classifies its named links (app:tanh-geometry,
#: app:elicitation-geometry).
REFERENCE_DELTA = "0.2"


@dataclass(frozen=True)
class PaperLink:
    """One named link of the paper with what the paper prints about it at Δ = 0.2.

    Parameters
    ----------
    key : str
        The link's key (e.g. ``"logistic"``, ``"we-0.6"``).
    family : str
        The family it belongs to (:func:`nbl_theory.families.make_family`).
    params : dict
        Its parameter values as the paper prints them.
    regime : str
        The printed regime at Δ = 0.2 (``REFERENCE_DELTA``).
    printed_lambda : str or None
        The printed λ* at Δ = 0.2 (3 significant figures), if the paper prints one.
    label : str
        The ``\\label`` where the paper defines it.
    """

    key: str
    family: str
    params: dict = field(hash=False)
    regime: str  # printed regime at REFERENCE_DELTA
    printed_lambda: str | None  # printed λ* at REFERENCE_DELTA (3 significant figures)
    label: str  # where the paper defines it

    @property
    def parameter(self) -> tuple[str, str]:
        """(name, printed value) of the link's one parameter."""
        return next(iter(self.params.items()))

    @property
    def delta(self) -> str:
        """The separation Δ at which the paper prints its values (``REFERENCE_DELTA``,
        ``"0.2"``)."""
        return REFERENCE_DELTA

    def link(self) -> Link:
        """The :class:`~nbl_theory.links.Link` of this entry.

        Returns
        -------
        Link
            :func:`paper_link` of the key (the same object on every call).
        """
        return paper_link(self.key)


def _row(key, fam, params, regime, printed, label):
    return key, PaperLink(key, fam, params, regime, printed, label)


#: The six named links, in the paper's order.
PAPER_LINKS: dict[str, PaperLink] = dict(
    [
        _row(
            "tt-stable", "two-transition", {"mu2": "-1.074037"}, "stable", None, "app:tanh-geometry"
        ),
        _row(
            "tt-near-critical",
            "two-transition",
            {"mu2": "2.144072"},
            "near-critical",
            None,
            "app:tanh-geometry",
        ),
        _row(
            "tt-unstable",
            "two-transition",
            {"mu2": "1.244122"},
            "unstable",
            None,
            "app:tanh-geometry",
        ),
        _row(
            "we-0.60",
            "weighted-entropy",
            {"rho": "0.60"},
            "stable",
            "3.70e-3",
            "app:elicitation-geometry",
        ),
        _row(
            "we-0.72",
            "weighted-entropy",
            {"rho": "0.72"},
            "near-critical",
            "2.15e-5",
            "app:elicitation-geometry",
        ),
        _row(
            "we-0.80",
            "weighted-entropy",
            {"rho": "0.80"},
            "unstable",
            "-2.45e-3",
            "app:elicitation-geometry",
        ),
    ]
)
#: Keys of the three two-transition links (stable, near-critical, unstable at Δ = 0.2).
TWO_TRANSITION_KEYS = tuple(k for k, r in PAPER_LINKS.items() if r.family == "two-transition")
#: Keys of the three weighted-entropy links of app:elicitation-geometry (ρ = 0.60, 0.72, 0.80).
WEIGHTED_ENTROPY_KEYS = tuple(k for k, r in PAPER_LINKS.items() if r.family == "weighted-entropy")
#: mu2 of the three two-transition links by regime.
PAPER_MU2 = {PAPER_LINKS[k].regime: PAPER_LINKS[k].params["mu2"] for k in TWO_TRANSITION_KEYS}

#: ρ of the Greedy Logistic comparison, fig:numerical-summary(g) (app:logistic-comparison).
RHO_SWEEP = ("0", "0.2", "0.4", "0.6", "0.8")
#: app:simulation-setup / app:stochastic-nbl: 10° start, γ = 10, t0 = 500, n = 10,000, 100
#: replications, d = 2.
STOCHASTIC_SETTING = {
    "init_angle": 10.0,
    "gamma": 10.0,
    "t0": 500.0,
    "n": 10_000,
    "reps": 100,
    "d": 2,
}
#: The separations of fig:app-stochastic-angle(b).
STOCHASTIC_DELTAS = ("0.2", "1.0", "1.8")
#: app:logistic-comparison: Δ = 1, n = 2000, n0 = 200, η_t = 10/(t + 500), 100 replications.
COMPARISON_SETTING = {
    "delta": "1",
    "n": 2000,
    "n0": 200,
    "gamma": 10.0,
    "t0": 500.0,
    "reps": 100,
    "d": 2,
}


def canonical_key(key: str) -> str:
    """The key two spellings of the same link share: a paper key as it is, ``we-<rho>`` with
    ρ written as the paper prints it for its named links and otherwise as the shortest decimal.

    Parameters
    ----------
    key : str
        A paper key, a family name or ``we-<rho>``.

    Returns
    -------
    str
        The canonical key.

    Raises
    ------
    NBLInputError
        A key that is not a string.
    """
    if not isinstance(key, str):
        raise NBLInputError(f"a link key must be a string, got {type(key).__name__}")
    if key in PAPER_LINKS or key in FAMILIES:
        return key
    if key.startswith("we-"):
        rho = exact_number(key[3:])
        for k in WEIGHTED_ENTROPY_KEYS:
            if exact_number(PAPER_LINKS[k].params["rho"]) == rho:
                return k
        return "we-" + decimal_str(rho)
    raise NBLInputError(
        f"unknown link key {key!r}; known: {', '.join(PAPER_LINKS)}, "
        "we-<rho>, or a family name without parameters "
        f"({', '.join(sorted(FAMILIES))})"
    )


@functools.cache
def _resolve(key: str) -> Link:
    if key in PAPER_LINKS:
        row = PAPER_LINKS[key]
        return make_family(row.family, **row.params)
    if key.startswith("we-"):
        return make_family("weighted-entropy", rho=key[3:])
    return make_family(key)


def paper_link(key: str) -> Link:
    """The link named ``key`` (see the module docstring); the same object for every spelling.

    Parameters
    ----------
    key : str
        A paper key, a family name or ``we-<rho>``.

    Returns
    -------
    Link
        The link (cached per canonical key).
    """
    return _resolve(canonical_key(key))
