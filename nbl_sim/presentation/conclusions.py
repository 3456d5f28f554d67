"""Every conclusion in words, next to the numbers it is drawn from.

The ``nbl`` command's tables give numbers; the functions here turn one computed row into the
sentence a reader needs ("v* is no longer an equilibrium: NBL settles 39.46° from v* and pays
8.6e-3 per round — regret linear in n; ..."). Every number in a sentence is formatted from the
row passed in — nothing here states a value, a sign or a verdict the computation did not give.

* :func:`stability_conclusion` — a :class:`~nbl_theory.results.StabilityResult` (the paper's
  Gaussian model): the sign of λ* (eq:decision_stability) and what it means for v*
  (cor:local_stability), with the exact rates of prop:local_jacobian;
* :func:`beyond_conclusion` — a row of :func:`nbl_sim.beyond.exact_stability` (beyond the
  paper): v*'s fate under the exact population field, where NBL settles instead, what it pays
  per round there, and every other attractor.
"""

from __future__ import annotations

import math

__all__ = ["stability_conclusion", "beyond_conclusion", "per_round", "ZERO_REGRET"]

#: a per-round regret below this (in absolute value) is written "0": the exact analysis
#: computes regrets in float64 from sums of O(1) terms, so |r| < 1e-12 is rounding, not regret
ZERO_REGRET = 1e-12


def per_round(x: float) -> str:
    """A per-round regret with two significant digits ("8.6e-03"), "0" below
    :data:`ZERO_REGRET`.

    Parameters
    ----------
    x : float
        A regret per round.

    Returns
    -------
    str
        ``"0"`` or two significant digits in scientific notation.
    """
    return "0" if abs(x) < ZERO_REGRET else f"{x:.1e}"


def _deg(x: float) -> str:
    text = f"{x:.2f}"
    return "0.00" if text == "-0.00" else text


def _num(x, digits: int = 6) -> str:
    import mpmath

    if isinstance(x, (int, float)):
        return f"{float(x):.{digits}g}"
    return mpmath.nstr(x, digits)


def stability_conclusion(r) -> str:
    """One sentence for a :class:`~nbl_theory.results.StabilityResult`.

    λ* > 0: v* is a locally attracting equilibrium of the population dynamics
    (cor:local_stability). λ* < 0: assum:positive-stability fails; the exact rates of
    prop:local_jacobian say how v* is unstable (d ≥ 3: a saddle, repelling along θ at rate λ*
    and attracting on the d − 2 directions orthogonal to θ at rate Δμ* > 0; d = 2 through
    ``contraction_rate_d2``). Undecided: the sign is
    within the error at this precision.

    Parameters
    ----------
    r : StabilityResult
        The result of :func:`nbl_theory.stability.stability`.

    Returns
    -------
    str
        The sentence.
    """
    lam = _num(r.lambda_star)
    how = (
        "sign certified (Arb enclosure)"
        if r.certified
        else f"sign from the {r.tier} tier with its error estimate"
    )
    head = f"at delta = {r.delta}: lambda* = {lam}"
    if r.sign == "stable":
        return (
            f"{head} > 0 ({how}): v* is a locally attracting equilibrium of NBL's "
            f"population dynamics (cor:local_stability); its linearization Dh(v*) "
            f"(prop:local_jacobian) contracts every tangent direction at rate >= {lam}."
        )
    if r.sign == "unstable":
        d2 = r.jacobian_rates["contraction_rate_d2"]
        orth = r.jacobian_rates["orthogonal"]
        d2_text = (
            f"in d = 2 its exact rate is {_num(d2)} > 0, so v* still attracts in d = 2"
            if d2 > 0
            else f"in d = 2 v* repels (exact rate {_num(d2)})"
        )
        rest = (
            f"a saddle: it repels along theta (rate {lam}) and attracts in the d - 2 "
            f"directions orthogonal to theta (rate {_num(orth)})"
            if orth > 0
            else f"repelling along theta (rate {lam}) and orthogonal to it (rate {_num(orth)})"
        )
        return (
            f"{head} < 0 ({how}): the paper's positive-stability condition "
            f"(assum:positive-stability) fails; in d >= 3 v* is {rest}; {d2_text}."
        )
    return (
        f"{head}: its sign is not decided at this precision (|lambda*| is within the "
        "error): raise --dps or use --certify before drawing a conclusion."
    )


_VERB = {"attracting": "attracts", "repelling": "repels"}


def _attractors(row) -> list:
    learned = row.get("bias_deg")
    out = []
    for e in row.get("equilibria") or []:
        if e["stability"] != "attracting":
            continue
        if learned is not None and abs(e["angle_deg"] - learned) < 1e-6:
            continue
        out.append(e)
    return out


def beyond_conclusion(row: dict) -> str:
    """One paragraph for a row of :func:`nbl_sim.beyond.exact_stability`: v*'s fate, where the
    population flow from v* takes NBL (``bias_deg``) and its regret per round there
    (``learned_regret``: a positive value means regret linear in n), the Gaussian prediction it
    confirms or contradicts, and every other attracting equilibrium found.

    Parameters
    ----------
    row : dict
        A row of :func:`nbl_sim.beyond.exact_stability` (its ``to_dict``).

    Returns
    -------
    str
        The paragraph.
    """
    pred = row["gaussian_predicts"]
    bias, lr = row.get("bias_deg"), row.get("learned_regret")
    rate = row.get("exact_rate")
    settle = ""
    if bias is not None and lr is not None:
        pays = (
            f"pays {per_round(lr)} per round against the optimal action — regret linear in n"
            if abs(lr) >= ZERO_REGRET
            else "pays no regret per round"
        )
        settle = f"NBL settles {_deg(bias)} deg from v* and {pays}"
    elif bias is None:
        settle = "the population flow from v* reaches no attracting equilibrium"
    if not row["vstar_equilibrium"]:
        text = f"v* is no longer an equilibrium: {settle}"
        text += f" (the Gaussian lambda* predicted an equilibrium that {_VERB[pred]})"
    elif row["vstar_stability"] == "attracting":
        agree = (
            "as the Gaussian lambda* predicts"
            if pred == "attracting"
            else "although the Gaussian lambda* predicts it repels"
        )
        text = (
            f"v* is an attracting equilibrium (exact rate {rate:.6g}), {agree}: started near "
            f"v*, NBL converges to it and its regret per round vanishes"
        )
    elif row["vstar_stability"] == "repelling":
        agree = (
            "as the Gaussian lambda* predicts"
            if pred == "repelling"
            else "although the Gaussian lambda* predicts it attracts"
        )
        text = f"v* is a repelling equilibrium (exact rate {rate:.6g}), {agree}: " + settle
    else:
        text = (
            "v* is an equilibrium whose stability is not decided (its exact rate "
            f"{'-' if rate is None else f'{rate:.3g}'} is within the model's error "
            f"{row.get('exact_rate_error', math.nan):.1e})"
        )
    others = _attractors(row)
    if others:
        where = ", ".join(
            f"{e['angle_deg']:.1f} deg ({per_round(e['regret'])} per round)" for e in others
        )
        text += (
            f"; {'a second attractor' if len(others) == 1 else 'other attractors'} at "
            f"{where}: which one NBL reaches depends on where it starts"
        )
    blr = row.get("best_linear_regret")
    if (
        bias is not None
        and lr is not None
        and blr is not None
        and abs(lr) >= ZERO_REGRET
        and lr - blr >= ZERO_REGRET
        and row.get("best_linear_angle_deg") is not None
    ):
        text += (
            f"; the best linear boundary ({_deg(row['best_linear_angle_deg'])} deg from v*) "
            f"pays {per_round(blr)} per round"
        )
    return text + "."
