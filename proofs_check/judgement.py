"""The one place where a claim's verdict about the paper is decided from two computations.

docs/architecture.md, "Statuses and the two computations": a claim that judges a number, regime,
threshold, root, equilibrium, rate, spectrum or figure of the paper compares the paper with the
library *and* with an independent witness (:mod:`proofs_check.witnesses`). The rule, applied by
:func:`judge` and by no claim module on its own:

1. library and witness disagree beyond the stated tolerance → ``FAIL``, worded as a toolkit
   defect ("toolkit defect: library … and witness … disagree …; the paper is not judged");
2. they agree, and the paper's statement holds for both → ``PASS``;
3. they agree, and the paper's statement fails for both → ``DISCREPANCY`` (or the finding
   status the claim names, e.g. ``CAVEAT``);
4. they agree within the tolerance but fall on opposite sides of the paper's statement →
   ``FAIL`` ("undecided"): two computations within their tolerance of each other cannot say
   which side the truth is on, and the paper is not judged.

A claim made of several such comparisons (one per link, per separation) combines them with
:func:`combine`: any ``FAIL`` makes the claim ``FAIL`` (the toolkit defect is reported first and
the paper is not judged), else any finding makes it that finding, else ``PASS``.

Example
-------
>>> j = judge("lambda*", library=0.00388, witness=0.00370, tol=1e-9,
...           holds=lambda v: abs(v - 0.0037) < 5e-6)
>>> j.status, j.detail.startswith("toolkit defect")
('FAIL', True)
>>> judge("lambda*", library=0.0037, witness=0.0037, tol=1e-9, holds=lambda v: v > 0).status
'PASS'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import mpmath

from .registry import DISCREPANCY, FAIL, FINDINGS, PASS, Outcome

__all__ = [
    "Judgement",
    "judge",
    "agreement",
    "moment_agreements",
    "means_agreement",
    "gate",
    "gate_noting",
    "combine",
    "agree_abs",
    "agree_rel",
    "agree_max_abs",
    "agree_rel_to",
    "toolkit_defect",
    "tree_agreement",
    "encloses",
    "error_bars",
    "bracket_defect",
    "delta_written",
    "sign_written",
]


@dataclass(frozen=True)
class Judgement:
    """One comparison: the status it gives and a sentence saying why (the library and witness
    values as shown).

    Parameters
    ----------
    status : str
        ``PASS``, ``FAIL`` or a finding (``DISCREPANCY``, ``CAVEAT``).
    detail : str
        The sentence saying why.
    quantity : str
        What was compared, as the report names it.
    library : str
        The library's value as shown.
    witness : str
        The witness's value as shown.
    """

    status: str
    detail: str
    quantity: str
    library: str
    witness: str


def agree_abs(tol: float) -> Callable:
    """``|library − witness| ≤ tol``.

    Parameters
    ----------
    tol : float
        The absolute tolerance.

    Returns
    -------
    callable
        ``agree(library, witness) -> bool``; its docstring states the rule (quoted in a
        toolkit-defect message).
    """

    def agree(a, b) -> bool:
        return abs(a - b) <= tol

    agree.__doc__ = f"|library - witness| <= {tol:g}"
    return agree


def agree_rel(tol: float, floor: float = 0.0) -> Callable:
    """``|library − witness| ≤ tol·max(|library|, |witness|) + floor``.

    Parameters
    ----------
    tol : float
        The relative tolerance.
    floor : float, default 0.0
        An absolute floor added to the bound (for values near 0).

    Returns
    -------
    callable
        ``agree(library, witness) -> bool``; its docstring states the rule.
    """

    def agree(a, b) -> bool:
        return abs(a - b) <= tol * max(abs(a), abs(b)) + floor

    agree.__doc__ = f"|library - witness| <= {tol:g} x max(|library|, |witness|)" + (
        f" + {floor:g}" if floor else ""
    )
    return agree


def agree_rel_to(tol: float) -> Callable:
    """``|value − reference| ≤ tol·|reference|``: relative to the second argument (an exact
    value), not to the larger of the two as :func:`agree_rel`.

    Parameters
    ----------
    tol : float
        The relative tolerance.

    Returns
    -------
    callable
        ``agree(value, reference) -> bool``; its docstring states the rule.
    """

    def agree(a, b) -> bool:
        return abs(a - b) <= tol * abs(b)

    agree.__doc__ = f"|value - reference| <= {tol:g} x |reference|"
    return agree


def agree_max_abs(tol: float, what: str) -> Callable:
    """Same shape and ``max |library − witness| ≤ tol`` over arrays (two empty arrays agree).

    Parameters
    ----------
    tol : float
        The absolute tolerance.
    what : str
        What the arrays hold (quoted in the rule).

    Returns
    -------
    callable
        ``agree(library, witness) -> bool``; its docstring states the rule.
    """
    import numpy as np

    def agree(a, b) -> bool:
        a, b = np.asarray(a, float), np.asarray(b, float)
        return a.shape == b.shape and float(np.abs(a - b).max(initial=0.0)) <= tol

    agree.__doc__ = f"max |library - witness| over {what} <= {tol:g}"
    return agree


def agree_max_rel(tol: float, what: str) -> Callable:
    """Same shape and ``max |library − witness| / max(|library|, |witness|) ≤ tol`` elementwise
    over arrays (two zeros agree).

    Parameters
    ----------
    tol : float
        The relative tolerance.
    what : str
        What the arrays hold (quoted in the rule).

    Returns
    -------
    callable
        ``agree(library, witness) -> bool``; its docstring states the rule.
    """
    import numpy as np

    def agree(a, b) -> bool:
        a, b = np.asarray(a, float), np.asarray(b, float)
        if a.shape != b.shape:
            return False
        return bool(np.all(np.abs(a - b) <= tol * np.maximum(np.abs(a), np.abs(b))))

    agree.__doc__ = f"|library - witness| <= {tol:g} x max(|library|, |witness|) over {what}"
    return agree


def _show(v, fmt) -> str:
    if fmt is not None:
        return fmt(v)
    try:
        return f"{float(v):.12g}"
    except (TypeError, ValueError):
        return str(v)


def toolkit_defect(quantity: str, library: str, witness: str, rule: str) -> str:
    """The sentence of a library–witness disagreement (rule 1 of the module docstring).

    Parameters
    ----------
    quantity : str
        What was compared.
    library : str
        The library's value as shown.
    witness : str
        The witness's value as shown.
    rule : str
        The agreement rule that failed.

    Returns
    -------
    str
        The sentence.
    """
    return (
        f"toolkit defect: library {quantity} = {library} and witness {quantity} = {witness} "
        f"disagree ({rule} fails); the paper is not judged"
    )


def judge(
    quantity: str,
    *,
    library,
    witness,
    holds: Callable,
    tol=None,
    agree=None,
    finding: str = DISCREPANCY,
    fmt: Callable | None = None,
) -> Judgement:
    """Judge the paper's statement about ``quantity`` from the library's and a witness's values.

    Parameters
    ----------
    quantity : str
        What is compared, as the report names it (e.g. ``"lambda*(rho = 0.6, Delta = 0.2)"``).
    library : object
        The library's value (a number, or anything ``agree`` and ``holds`` accept).
    witness : object
        The witness's value, of the same kind.
    holds : callable
        ``holds(value) -> bool``: the paper's statement is true of ``value`` (the printed number
        at its printed figures, the printed regime, the printed bound, ...).
    tol : float, optional
        Absolute tolerance of ``|library − witness|`` (shorthand for ``agree_abs(tol)``).
    agree : callable, optional
        ``agree(library, witness) -> bool`` (e.g. :func:`agree_rel`); its docstring is quoted
        in a toolkit-defect message. Exactly one of ``tol`` and ``agree`` is given.
    finding : str
        The status when both computations contradict the paper (``DISCREPANCY``, or ``CAVEAT``
        for a statement that needs an unstated condition).
    fmt : callable, optional
        How a value is shown (default: 12 significant figures, or ``str``).

    Returns
    -------
    Judgement
        ``PASS`` (both agree and confirm the paper), ``finding`` (both agree and contradict
        it), or ``FAIL`` (they disagree, or lie on opposite sides of the statement), with
        the sentence saying which.

    Raises
    ------
    ValueError
        Not exactly one of ``tol`` and ``agree``, or ``finding`` not a finding status.
    """
    if (tol is None) == (agree is None):
        raise ValueError("judge: give exactly one of tol and agree")
    if finding not in FINDINGS:
        raise ValueError(f"judge: finding must be one of {FINDINGS}")
    agree = agree_abs(tol) if agree is None else agree
    rule = (agree.__doc__ or "the agreement rule").strip()
    lib, wit = _show(library, fmt), _show(witness, fmt)
    if not agree(library, witness):
        return Judgement(FAIL, toolkit_defect(quantity, lib, wit, rule), quantity, lib, wit)
    h_lib, h_wit = bool(holds(library)), bool(holds(witness))
    if h_lib and h_wit:
        return Judgement(
            PASS,
            f"{quantity}: library {lib} and witness {wit} agree ({rule}) and "
            "both confirm the paper",
            quantity,
            lib,
            wit,
        )
    if not h_lib and not h_wit:
        return Judgement(
            finding,
            f"{quantity}: library {lib} and witness {wit} agree ({rule}) "
            + (
                "and both contradict the paper"
                if finding == DISCREPANCY
                else "and both show the caveat (the paper's statement is not contradicted)"
            ),
            quantity,
            lib,
            wit,
        )
    return Judgement(
        FAIL,
        f"toolkit undecided: library {quantity} = {lib} and witness {wit} "
        f"agree ({rule}) but lie on opposite sides of the paper's statement; the "
        "paper is not judged",
        quantity,
        lib,
        wit,
    )


def agreement(
    quantity: str, *, library, witness, tol=None, agree=None, fmt: Callable | None = None
) -> Judgement:
    """A library-versus-witness comparison that judges nothing of the paper (the witness's value
    is the one a paper formula is then evaluated with): ``PASS`` when they agree, the
    toolkit-defect ``FAIL`` otherwise.

    Parameters
    ----------
    quantity : str
        What is compared, as the report names it.
    library : object
        The library's value.
    witness : object
        The witness's value.
    tol : float, optional
        Absolute tolerance (shorthand for ``agree_abs(tol)``).
    agree : callable, optional
        ``agree(library, witness) -> bool``; exactly one of ``tol`` and ``agree`` is given.
    fmt : callable, optional
        How a value is shown (default: 12 significant figures, or ``str``).

    Returns
    -------
    Judgement
        ``PASS`` or ``FAIL`` (a toolkit defect).
    """
    j = judge(
        quantity,
        library=library,
        witness=witness,
        tol=tol,
        agree=agree,
        holds=lambda v: True,
        fmt=fmt,
    )
    if j.status != PASS:
        return j
    rule = ((agree or agree_abs(tol)).__doc__ or "the agreement rule").strip()
    # judged nothing of the paper: the sentence says only that the two computations agree
    text = f"{quantity}: library {j.library} and witness {j.witness} agree ({rule})"
    return Judgement(PASS, text, quantity, j.library, j.witness)


def _leaves(witness, library, floors=None, path: str = ""):
    """(path, library value, witness value, floor) for every number of ``witness`` (nested
    dicts and lists), paired with what ``library`` holds at the same path (None where it holds
    nothing) and the absolute floor ``floors`` holds there (0.0 where it holds none)."""
    if isinstance(witness, dict):
        for k, w in witness.items():
            sub = library.get(k) if isinstance(library, dict) else None
            fl = floors.get(k) if isinstance(floors, dict) else None
            yield from _leaves(w, sub, fl, f"{path}[{k!r}]")
    elif isinstance(witness, (list, tuple)):
        for i, w in enumerate(witness):
            ok = isinstance(library, (list, tuple)) and i < len(library)
            fok = isinstance(floors, (list, tuple)) and i < len(floors)
            yield from _leaves(
                w, library[i] if ok else None, floors[i] if fok else None, f"{path}[{i}]"
            )
    elif witness is not None:
        yield path, library, witness, float(floors) if isinstance(floors, (int, float)) else 0.0


def tree_agreement(
    quantity: str, *, library, witness, tol: float, floors=None, floor_rule: str = ""
) -> Judgement:
    """:func:`agreement` of every number of ``witness`` (nested dicts and lists) with the
    library's at the same path: ``|library − witness| ≤ tol·max(|library|, |witness|) + floor``
    (two zeros agree; a number the library lacks, or a witness with no number at all,
    disagrees); the sentence names the path nearest to (or furthest past) its bound.

    Parameters
    ----------
    quantity : str
        What is compared, as the report names it.
    library : dict or list
        The library's values (it may hold more than the witness).
    witness : dict or list
        The witness's values.
    tol : float
        The relative tolerance.
    floors : dict or list, optional
        Absolute floors at some of the witness's paths (the same nesting): the rounding a value
        can carry whatever its size, for values that a cancellation brings near zero (a fitted
        coefficient, a slope). 0 where absent.
    floor_rule : str, optional
        How the floors were computed, for the sentence.

    Returns
    -------
    Judgement
        ``PASS`` or ``FAIL`` (a toolkit defect naming the path that disagrees most).
    """
    rule = f"|library - witness| <= {tol:g} x max(|library|, |witness|)"
    # the floors' rule is named only where some floor is given
    rule += f" + {floor_rule}" if floors and floor_rule else ""
    rule += " at every value"
    worst, where, n = -1.0, ("", None, None), 0
    for path, lib, wit, floor in _leaves(witness, library, floors):
        n += 1
        try:
            a, b = float(lib), float(wit)
        except (TypeError, ValueError):
            a = b = float("nan")
        if a != a or b != b:  # NaN on either side (or a number the library lacks) disagrees
            used = float("inf")
        else:
            bound = tol * max(abs(a), abs(b)) + floor
            diff = abs(a - b)
            used = diff / bound if bound > 0 else (0.0 if diff == 0 else float("inf"))
        if used > worst:
            worst, where = used, (path, lib, wit)
    if n == 0:  # nothing compared is no agreement: a gate that cannot fail
        return Judgement(
            FAIL,
            f"toolkit defect: the witness's {quantity} hold no number to compare with the "
            "library's; the paper is not judged",
            quantity,
            "",
            "",
        )
    path, lib, wit = where
    name = f"{quantity}{path}"
    if worst > 1.0:
        return Judgement(
            FAIL,
            toolkit_defect(name, _shown(lib), _shown(wit), rule),
            name,
            _shown(lib),
            _shown(wit),
        )
    text = (
        f"{quantity}: library and witness agree on {n} values (the largest difference is "
        f"{max(worst, 0.0):.1e} of its bound, {rule})"
    )
    return Judgement(PASS, text, quantity, "", "")


def _shown(v) -> str:
    return f"{v:.12g}" if isinstance(v, float) else str(v)


def moment_agreements(library: dict, witness: dict, keys, label: str, tol: float) -> list:
    """:func:`agreement` of ``library[k]`` and ``witness[k]`` for every ``k`` in ``keys``
    (absolute ``tol``), named ``"k(label)"``.

    Parameters
    ----------
    library : dict
        The library's values by key.
    witness : dict
        The witness's values by key.
    keys : iterable of str
        The keys compared (e.g. ``("mu_star", "m2")``).
    label : str
        Where they were computed, shown in each quantity's name (e.g. ``"logistic, Delta = 0.2"``).
    tol : float
        The absolute tolerance.

    Returns
    -------
    list of Judgement
        One per key.
    """
    return [
        agreement(f"{k}({label})", library=library[k], witness=witness[k], tol=tol) for k in keys
    ]


def combine(judgements: Iterable[Judgement], computed, detail: str = "", **outcome) -> Outcome:
    """The claim's :class:`~proofs_check.registry.Outcome` from its comparisons.

    Any ``FAIL`` → ``FAIL`` with the toolkit's defects first (the paper is not judged); else any
    finding → that finding (the most serious: ``DISCREPANCY`` before ``CAVEAT``); else ``PASS``.
    ``detail`` (the claim's own explanation) follows the comparisons' sentences for a verdict
    about the paper and is dropped for a ``FAIL``; ``outcome`` (consequence, figure, evidence)
    goes to the Outcome.

    Parameters
    ----------
    judgements : iterable of Judgement
        The claim's comparisons (at least one).
    computed : str or None
        The toolkit's value shown beside the paper's.
    detail : str, default ""
        The claim's own explanation.
    **outcome
        ``consequence``, ``figure``, ``evidence`` of the :class:`~proofs_check.registry.Outcome`.

    Returns
    -------
    Outcome
        The claim's verdict.

    Raises
    ------
    ValueError
        No comparisons.
    """
    js = list(judgements)
    if not js:
        raise ValueError("combine: no comparisons")
    fails = [j for j in js if j.status == FAIL]
    if fails:
        outcome.pop("consequence", None)
        return Outcome(
            FAIL,
            computed,
            "; ".join(j.detail for j in fails),
            evidence=outcome.get("evidence") or {},
        )
    for status in FINDINGS:
        hits = [j for j in js if j.status == status]
        if hits:
            return Outcome(
                status,
                computed,
                "; ".join(j.detail for j in hits) + (f". {detail}" if detail else ""),
                **outcome,
            )
    outcome.pop("consequence", None)
    return Outcome(
        PASS,
        computed,
        (detail + " " if detail else "")
        + f"[{len(js)} comparison(s): library and witness agree and confirm the "
        "paper]",
        **outcome,
    )


def means_agreement(what: str, error: float) -> Judgement:
    """A shared realization judged: ``error`` is the largest |recorded mean reward − g(β_aᵀX_t)
    recomputed by the witness| (:func:`proofs_check.witnesses.reruns.realization_means_error`).
    The realization is common to library and witness, so a bug in drawing it would move both
    alike; this is its check. The same g with sums in another order: rounding only (~1e-16),
    so 1e-12.

    Parameters
    ----------
    what : str
        Which realization (named in the defect's sentence).
    error : float
        The largest difference.

    Returns
    -------
    Judgement
        ``PASS``, or the toolkit-defect ``FAIL``.
    """
    return agreement(
        f"mean rewards m_a(X_t) of {what}",
        library=error,
        witness=0.0,
        agree=agree_abs(1e-12),
        fmt=lambda v: f"max |recorded - recomputed| {v:.3g}",
    )


def gate(outcome: Outcome, agreements: Iterable[Judgement]) -> Outcome:
    """``outcome`` (a verdict computed from the witness's values) unless one of the
    library-versus-witness ``agreements`` fails: then ``FAIL`` with the toolkit defects (the
    paper is not judged).

    Parameters
    ----------
    outcome : Outcome
        The verdict computed from the witness's values.
    agreements : iterable of Judgement
        The library-versus-witness comparisons.

    Returns
    -------
    Outcome
        ``outcome`` itself, or a ``FAIL`` listing the failed agreements.
    """
    fails = [j for j in agreements if j.status != PASS]
    if not fails:
        return outcome
    return Outcome(
        FAIL, outcome.computed, "; ".join(j.detail for j in fails), evidence=outcome.evidence
    )


def gate_noting(outcome: Outcome, agreements: Iterable[Judgement], note: str) -> Outcome:
    """:func:`gate`, and when every agreement holds, ``note`` (a sentence saying what the library
    computed the same) appended to the outcome's detail, so the report says the verdict rests
    on two computations.

    Parameters
    ----------
    outcome : Outcome
        The verdict computed from the witness's values.
    agreements : iterable of Judgement
        The library-versus-witness comparisons.
    note : str
        The sentence to append when they all agree.

    Returns
    -------
    Outcome
        ``outcome`` with the note, or the ``FAIL`` of :func:`gate`.
    """
    out = gate(outcome, agreements)
    if out is outcome:
        text = outcome.detail.rstrip()
        stop = "" if not text or text.endswith(".") else "."
        outcome.detail = f"{text}{stop} {note}".strip()
    return out


def encloses(lo, hi, value, slack: float) -> bool:
    """Whether ``lo − slack ≤ value ≤ hi + slack`` (the endpoints as floats): a library's
    enclosure holding a witness's value, widened by the witness's own error bound.

    Parameters
    ----------
    lo, hi : float or mpmath.mpf
        The enclosure's endpoints.
    value : float
        The witness's value.
    slack : float
        The witness's error bound (≥ 0).

    Returns
    -------
    bool
        True when the widened enclosure holds ``value``.
    """
    return float(lo) - slack <= float(value) <= float(hi) + slack


#: The float64 tier's resolution, relative to the moments' scale: it prints 16 digits as error
#: estimates (not proofs); on the weighted-entropy links at Δ = 0.2, 1, 1.8 its estimates are
#: ≤ 1.3e-15 against a scale ≥ 0.1 (measured 2026-11-30, docs/mutation.md, top section), so
#: 1e-12 leaves the cancellation in λ* three digits and still refuses an estimate that has lost
#: the tier's accuracy.
FLOAT_RESOLUTION = 1e-12


def error_bars(result, witness: dict, keys, witness_bound: float) -> list:
    """The library's own error accounting judged against an independent, more precise witness:
    one :class:`Judgement` per quantity of ``keys``.

    A tier's result prints each value with an error estimate (float64) or a bound (mpmath at
    ``result.digits`` digits). Three things must hold, or the judgement is the toolkit-defect
    ``FAIL``: the estimate is a number ≥ 0; it is within the tier's resolution — at most
    :data:`FLOAT_RESOLUTION` (float64) or ``10**-digits`` (mpmath) times the moments' scale
    (the largest of |μ*|, |m2| and |value|); and the witness's value lies within it:
    ``|value − witness| ≤ error + witness_bound × max(1, |witness|)``. Arithmetic at 60
    digits (mpmath's precision restored after).

    Parameters
    ----------
    result : nbl_theory.results.StabilityResult
        A float64 or mpmath tier's result (``values``, ``errors``, ``tier``, ``digits``).
    witness : dict
        The witness's values of ``keys`` (float or mpmath.mpf).
    keys : iterable of str
        The quantities judged (e.g. ``("mu_star", "m2", "lambda_star")``).
    witness_bound : float
        The witness's own relative error bound.

    Returns
    -------
    list of Judgement
        ``PASS`` (the error bar holds the witness's value and is as tight as the tier says) or
        the toolkit-defect ``FAIL``, one per key.
    """
    out = []
    with mpmath.workdps(60):
        values = {k: mpmath.mpf(result.values[k]) for k in result.values}
        scale = max(abs(values["mu_star"]), abs(values["m2"]))
        if result.tier == "float64":
            resolution = mpmath.mpf(FLOAT_RESOLUTION)
        else:
            resolution = mpmath.mpf(10) ** -int(result.digits)
        for k in keys:
            v, e, w = values[k], mpmath.mpf(result.errors[k]), mpmath.mpf(witness[k])
            allowed = resolution * max(scale, abs(v))
            slack = e + mpmath.mpf(witness_bound) * max(1, abs(w))
            quantity = f"{k} ({result.tier} tier, {result.digits} digits)"
            lib = f"{mpmath.nstr(v, 20)} +/- {mpmath.nstr(e, 3)}"
            wit = mpmath.nstr(w, 20)
            if not (mpmath.isfinite(e) and e >= 0):
                rule = "an error estimate is a number >= 0"
            elif e > allowed:
                rule = f"an error estimate within the tier's resolution {mpmath.nstr(allowed, 3)}"
            elif abs(v - w) > slack:
                rule = (
                    f"|library - witness| = {mpmath.nstr(abs(v - w), 3)} within the error "
                    f"estimate plus the witness's bound {witness_bound:g} relative"
                )
            else:
                out.append(
                    Judgement(
                        PASS,
                        f"{quantity}: the library's error bar {lib} holds the witness's {wit}",
                        quantity,
                        lib,
                        wit,
                    )
                )
                continue
            out.append(
                Judgement(FAIL, toolkit_defect(quantity, lib, wit, rule), quantity, lib, wit)
            )
    return out


def bracket_defect(what: str, lib_roots, wit_roots, slack: float, width: float):
    """The first certified bracket of ``lib_roots`` that does not back the root it certifies:
    one that misses the witness's root of the same crossing (widened by the witness's ``slack``)
    or is wider than ``width`` × max(1, |root|) — the resolution the claim judges roots to, so
    a wider certificate proves less than the verdict reads. None when every certified bracket
    holds (uncertified roots are judged elsewhere; a different number of roots is the
    root comparison's FAIL).

    Parameters
    ----------
    what : str
        The roots' name in the report.
    lib_roots : sequence
        The library's roots (``value``, ``bracket`` = (lo, hi) decimal strings, ``certified``,
        ``crossing``), in order.
    wit_roots : sequence of (float, str)
        The witness's roots and crossings, in order.
    slack : float
        The witness's root tolerance.
    width : float
        The widest certificate accepted, relative to max(1, |root|).

    Returns
    -------
    Judgement or None
        The toolkit-defect ``FAIL``, or None.
    """
    if len(lib_roots) != len(wit_roots):
        return None
    for r, (w, _) in zip(lib_roots, wit_roots):
        if not r.certified:
            continue
        lo, hi = (float(x) for x in r.bracket)
        if encloses(lo, hi, w, slack) and hi - lo <= width * max(1.0, abs(w)):
            continue
        lib = f"{r.value} in [{r.bracket[0]}, {r.bracket[1]}] (width {hi - lo:.1g})"
        rule = (
            f"the certified bracket holds the witness's root to {slack:g} and is at most "
            f"{width:g} wide"
        )
        return Judgement(FAIL, toolkit_defect(what, lib, f"{w:.12g}", rule), what, lib, f"{w}")
    return None


def delta_written(result, delta: str) -> Judgement:
    """The separation as the library's result writes it (``result.delta``, what its reports
    print) against the decimal the claim asked for: the same text, or the toolkit-defect
    ``FAIL`` (a result labelled with another Δ misreports every number next to it).

    Parameters
    ----------
    result : nbl_theory.results.StabilityResult
        The library's result.
    delta : str
        The decimal Δ the claim asked for, as the paper writes it (e.g. ``"0.2"``).

    Returns
    -------
    Judgement
        ``PASS`` or the toolkit-defect ``FAIL``.
    """
    quantity = "Delta as the library's result writes it"
    if result.delta == delta:
        return Judgement(PASS, f"{quantity}: {delta}", quantity, result.delta, delta)
    rule = "the decimal asked for, written back exactly"
    return Judgement(
        FAIL,
        toolkit_defect(quantity, repr(result.delta), repr(delta), rule),
        quantity,
        result.delta,
        delta,
    )


def sign_written(result, witness_lambda, witness_bound: float) -> Judgement:
    """The regime word of a tier's result (``result.sign``: what ``nbl stability`` prints)
    against the sign of the witness's λ*: where the witness's |λ*| exceeds twice the tier's
    error of λ* plus the witness's own bound (so any enclosure that holds the witness — see
    :func:`error_bars` — excludes 0), the word must be ``stable`` for λ* > 0 and ``unstable``
    for λ* < 0; nearer 0 the word is not judged. Otherwise the toolkit-defect ``FAIL``: a
    wrong word would tell a user the opposite regime beside a correct number.

    Parameters
    ----------
    result : nbl_theory.results.StabilityResult
        A float64 or mpmath tier's result (``sign``, ``errors``, ``tier``).
    witness_lambda : float or mpmath.mpf
        The witness's λ*.
    witness_bound : float
        The witness's own relative error bound.

    Returns
    -------
    Judgement
        ``PASS`` or the toolkit-defect ``FAIL``.
    """
    quantity = f"regime word ({result.tier} tier)"
    with mpmath.workdps(60):
        w = mpmath.mpf(witness_lambda)
        margin = 2 * mpmath.mpf(result.errors["lambda_star"]) + mpmath.mpf(witness_bound) * max(
            1, abs(w)
        )
        shown = mpmath.nstr(w, 8)
    if not abs(w) > margin:
        return Judgement(
            PASS,
            f"{quantity}: not judged (|witness lambda*| {shown} within the error)",
            quantity,
            result.sign,
            shown,
        )
    want = "stable" if w > 0 else "unstable"
    if result.sign == want:
        return Judgement(
            PASS, f"{quantity}: {want} (witness lambda* = {shown})", quantity, result.sign, shown
        )
    rule = "stable for lambda* > 0, unstable for lambda* < 0, beyond the error"
    return Judgement(
        FAIL,
        toolkit_defect(quantity, repr(result.sign), f"{want!r} (lambda* = {shown})", rule),
        quantity,
        result.sign,
        shown,
    )
