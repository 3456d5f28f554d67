"""Run the ledger: match every step of a paper text to its transcription and check it.

Step statuses
-------------
``PASS``          the step's method confirms it (symbolic, certified, expectation, cited,
                  asymptotic);
``EVIDENCE``      the *sampled* method found no counterexample (evidence, not proof);
``DISCREPANCY``   the method refutes the step and a second method agrees (a finding: the
                  proof, the line, the relation and the counterexample at 50 digits);
``CAVEAT``        the step holds only under a condition the paper does not state (a finding:
                  the transcription's ``finding`` names the missing condition, and the checks
                  show the step failing without it and holding with it);
``FAIL``          the toolkit could not confirm the step (undecided, the two methods disagree,
                  or the check raised): a defect of the transcription until shown otherwise;
``STALE``         the paper's text of the step differs from the text the transcription was made
                  from (its hash) — never checked against old text;
``UNTRANSCRIBED`` no transcription yet;
``PROSE``         no mathematical relation (a definition, a condition, a sentence), said so.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import asdict, dataclass, field

from .methods import PROOF_METHODS, Verdict, check, flip
from .parse import Ledger, Step, parse_ledger
from .store import Transcription, load_transcriptions

__all__ = [
    "STEP_STATUSES",
    "StepResult",
    "LedgerRun",
    "run_ledger",
    "check_step",
    "mutant_of",
    "FINDING_STATUSES",
    "coverage",
]

STEP_STATUSES = (
    "FAIL",
    "DISCREPANCY",
    "CAVEAT",
    "STALE",
    "UNTRANSCRIBED",
    "EVIDENCE",
    "PASS",
    "PROSE",
)
FINDING_STATUSES = ("DISCREPANCY", "CAVEAT")
_EQ = {":=": "=", "=:": "=", "equiv": "="}


@dataclass
class StepResult:
    """One step's check."""

    id: str
    owner: str
    line: int
    rel: str
    latex: str
    status: str
    method: str = ""
    transcription: str = ""
    detail: str = ""
    counterexample: dict = field(default_factory=dict)
    second: str = ""
    moved_from: str = ""
    seconds: float = 0.0

    def to_dict(self) -> dict:
        return asdict(self)


def mutant_of(t: Transcription, step: Step) -> tuple[Transcription, str, str]:
    """The step's mutant: (mutated transcription, relation, what was changed). A custom
    ``mutant`` entry ({"lhs"/"rhs"/"rel": ...}) wins; otherwise an equality's left side is
    scaled by 8/7 and shifted by 1/7 (by var^k/7 for an equality up to o(var^k)); a sympy
    ``Matrix`` left side has only its entry [0, 0] shifted by 1/7 (var^k/7): one wrong
    coordinate of a vector, the others right, and something a Matrix can be added to (a
    scalar raised; scaling the entry too made sympy's simplification of a long entry take a
    minute); an inequality is negated; an order statement's left side is multiplied by the
    sequence variable (divided, for a sequence tending to 0)."""
    rel = _EQ.get(t.rel or step.rel, t.rel or step.rel)
    if t.mutant:
        m = dict(t.mutant)
        new_rel = m.pop("rel", rel)
        return (
            t.with_(**m),
            new_rel,
            "custom: " + ", ".join(f"{k} -> {v}" for k, v in t.mutant.items()),
        )
    if t.method == "asymptotic":
        ((var, vals),) = t.sequence.items()
        from fractions import Fraction

        if Fraction(str(vals[-1])) < Fraction(str(vals[0])):  # a sequence tending to 0
            return t.with_(lhs=f"({t.lhs})/{var}"), rel, f"lhs divided by {var}"
        return t.with_(lhs=f"({t.lhs})*{var}"), rel, f"lhs multiplied by {var}"
    if rel == "=":
        shape = _matrix_shape(t)
        if shape is not None:  # perturb one entry, not every entry by a scalar
            unit = _unit_matrix(shape)
            if t.modulo:
                var, k = t.modulo
                return (
                    t.with_(lhs=f"({t.lhs}) + {unit}*{var}**{k}/7"),
                    rel,
                    f"lhs[0, 0] + {var}^{k}/7 (a {shape[0]}x{shape[1]} matrix)",
                )
            return (
                t.with_(lhs=f"({t.lhs}) + {unit}/7"),
                rel,
                f"lhs[0, 0] + 1/7 (a {shape[0]}x{shape[1]} matrix)",
            )
        if t.modulo:
            var, k = t.modulo
            return t.with_(lhs=f"({t.lhs}) + {var}**{k}/7"), rel, f"lhs + {var}^{k}/7"
        return (
            t.with_(lhs=f"({t.lhs})*Rational(8, 7) + Rational(1, 7)"),
            rel,
            "lhs -> 8/7 lhs + 1/7",
        )
    return t, flip(rel), f"relation {rel} -> {flip(rel)}"


def _matrix_shape(t: Transcription) -> tuple[int, int] | None:
    """The shape of the transcription's left side if it is a sympy Matrix (None for a scalar,
    or when the text does not parse: the mutant is then the scalar one and the check says
    why it fails)."""
    import sympy as sp

    from .expr import build

    try:
        _ns, (lhs,) = build(dict(t.symbols), dict(t.defs), [t.lhs])
    except Exception:  # noqa: BLE001 - a broken transcription fails its own check, not here
        return None
    return tuple(lhs.shape) if isinstance(lhs, sp.MatrixBase) else None


def _unit_matrix(shape: tuple[int, int]) -> str:
    """``Matrix`` text of the given shape with 1 at [0, 0] and 0 elsewhere."""
    rows = [[1 if (i, j) == (0, 0) else 0 for j in range(shape[1])] for i in range(shape[0])]
    return f"Matrix({rows})"


def _second_method(t: Transcription) -> tuple[str, Transcription]:
    """The method (and transcription) a refutation must be confirmed by: *sampled* at 50
    digits for the exact methods (*expectation* when the step is about Gaussian expectations),
    *symbolic* for *sampled*, and for *asymptotic* the same ratio along four more decades."""
    from fractions import Fraction

    if t.second:
        return t.second, t
    if t.method in ("symbolic", "certified", "cited"):
        if t.gaussian:
            return "expectation", t
        return "sampled", t
    if t.method == "sampled":
        return "symbolic", t
    if t.method == "asymptotic":
        ((var, vals),) = t.sequence.items()
        more = (
            list(vals) + [vals[-1] * 10**k for k in range(1, 5)]
            if Fraction(str(vals[-1])) >= Fraction(str(vals[0]))
            else list(vals) + [Fraction(str(vals[-1])) / 10**k for k in range(1, 5)]
        )
        return "asymptotic", t.with_(sequence={var: more[len(more) // 4 :]})
    return t.method, t


def check_step(step: Step, t: Transcription, rel: str | None = None) -> StepResult:
    """Check one step against its (current) transcription; ``rel`` overrides the relation."""
    rel = rel or _EQ.get(t.rel or step.rel, t.rel or step.rel)
    t0 = time.perf_counter()
    res = StepResult(
        step.id, step.owner, step.line, step.rel, step.latex, "FAIL", t.method, _describe(t, rel)
    )
    if t.method == "prose":
        res.status, res.detail = "PROSE", t.note or "no mathematical relation"
        return res
    try:
        v = check(t, rel)
        res.detail = v.detail
        if v.holds is True:
            if t.finding:
                res.status = "FAIL"
                res.detail = (
                    f"the transcription records a finding ({t.finding.get('status')})"
                    f" but the step holds: {v.detail}"
                )
            else:
                res.status = "EVIDENCE" if t.method == "sampled" else "PASS"
        elif v.holds is None:
            res.status, res.detail = "FAIL", f"undecided: {v.detail}"
        else:
            res.counterexample = v.counterexample
            second_name, t2 = _second_method(t)
            try:
                v2 = (
                    check(t2, rel, method=second_name)
                    if (second_name, t2) != (t.method, t)
                    else Verdict(second_name, None, "no second method")
                )
            except Exception as exc:  # noqa: BLE001 - e.g. sampling an undefined function g
                v2 = Verdict(
                    second_name, None, f"cannot evaluate the step ({type(exc).__name__}: {exc})"
                )
            res.second = f"{second_name}: {v2.detail}"
            if v2.holds is False:
                res.counterexample = res.counterexample or v2.counterexample
                res.status = "DISCREPANCY"
                if t.finding.get("status") == "CAVEAT":
                    res.status, res.detail = _caveat(t, rel, v)
            elif v2.holds is True:
                res.status = "FAIL"
                res.detail = (
                    f"the methods disagree ({t.method} refutes, {second_name} confirms): {v.detail}"
                )
            else:
                res.status = "FAIL"
                res.detail = f"{t.method} refutes, {second_name} undecided: {v.detail}"
    except Exception as exc:  # noqa: BLE001 - a broken transcription is a FAIL with its message
        res.status, res.detail = "FAIL", f"check raised {type(exc).__name__}: {exc}"
    res.seconds = time.perf_counter() - t0
    return res


def _caveat(t: Transcription, rel: str, v: Verdict) -> tuple[str, str]:
    cond = t.finding.get("domain")
    if not cond:
        return "DISCREPANCY", v.detail
    v3 = check(t.with_(domain={**t.domain, **cond}), rel)
    if v3.holds is True:
        return "CAVEAT", (
            f"fails without the unstated condition "
            f"({t.finding.get('missing', '')}): {v.detail}; with it: {v3.detail}"
        )
    return "DISCREPANCY", f"{v.detail}; the stated condition does not repair it: {v3.detail}"


def _describe(t: Transcription, rel: str = "") -> str:
    if t.method == "prose":
        return ""
    rel = rel or t.rel or "(the paper's relation)"
    parts = [f"{t.lhs}  {rel}  {t.rhs}"]
    if t.defs:
        parts.append("where " + "; ".join(f"{k} = {v}" for k, v in t.defs.items()))
    return "; ".join(parts)


@dataclass
class LedgerRun:
    """The ledger's results for one paper text."""

    sha256: str
    pinned: bool
    results: list
    orphans: list  # transcription ids that match no step of this text (stale)
    seconds: float = 0.0

    def of(self, owner: str) -> list[StepResult]:
        return [r for r in self.results if r.owner == owner]

    def owners(self) -> list[str]:
        seen: list = []
        for r in self.results:
            if r.owner not in seen:
                seen.append(r.owner)
        return seen

    def counts(self, owner: str | None = None) -> dict:
        """{(method or "-", status): n} over the relation steps and prose entries."""
        c = Counter(
            (r.method or "-", r.status) for r in self.results if owner is None or r.owner == owner
        )
        return dict(c)


#: the methods that prove a step in general (symbolic) or over its whole box (certified)
GENERAL_METHODS = ("symbolic", "certified")


def coverage(results) -> dict:
    """Relation steps, how many are checked by a proof method (:data:`PROOF_METHODS`, not
    stale), how many of those are proved (:data:`GENERAL_METHODS`), and the fraction."""
    rel = [r for r in results if r.rel]
    checked = [
        r for r in rel if r.method in PROOF_METHODS and r.status not in ("STALE", "UNTRANSCRIBED")
    ]
    return {
        "relation_steps": len(rel),
        "checked": len(checked),
        # proved in general (symbolic) or over a box (certified); the other methods check the
        # instances a step states (parameter points, a sequence, a cited instance)
        "proved": sum(r.method in GENERAL_METHODS for r in checked),
        "fraction": len(checked) / len(rel) if rel else None,
    }


_CACHE: dict = {}


def run_ledger(
    text: str,
    pinned: bool,
    owners=None,
    mutate: str | None = None,
    transcriptions: dict | None = None,
) -> LedgerRun:
    """Check every step of ``text`` (only ``owners`` if given). ``mutate``: a step id whose
    relation is replaced by its mutant (:func:`mutant_of`). Unmutated step checks are cached in
    the process by (id, step hash, transcription)."""
    tic = time.perf_counter()
    ledger: Ledger = parse_ledger(text)
    trans = load_transcriptions() if transcriptions is None else transcriptions
    by_hash: dict = {}
    for t in trans.values():
        by_hash.setdefault((t.id.rsplit("/", 2)[0], t.hash), t)
    hash_of = {s.id: s.hash for s in ledger.steps}
    used, results = set(), []
    for step in ledger.steps:
        if owners is not None and step.owner not in owners:
            continue
        t = trans.get(step.id)
        moved = ""
        if t is None or t.hash != step.hash:
            alt = by_hash.get((step.owner, step.hash))
            if alt is not None and hash_of.get(alt.id) != alt.hash:
                t, moved = alt, alt.id  # the same text, now at another index
        if t is None:
            results.append(
                StepResult(
                    step.id,
                    step.owner,
                    step.line,
                    step.rel,
                    step.latex,
                    "UNTRANSCRIBED" if step.rel else "PROSE",
                    detail="" if step.rel else "no relation in this block",
                )
            )
            continue
        used.add(t.id)
        if t.hash != step.hash:
            results.append(
                StepResult(
                    step.id,
                    step.owner,
                    step.line,
                    step.rel,
                    step.latex,
                    "STALE",
                    t.method,
                    _describe(t),
                    f"the paper's text changed since the transcription "
                    f"(hash {t.hash} -> {step.hash}); not checked",
                )
            )
            continue
        if mutate == step.id:
            mt, mrel, what = mutant_of(t, step)
            r = check_step(step, mt, mrel)
            r.detail = f"[mutant: {what}] {r.detail}"
        else:
            key = (step.id, step.hash, repr(t))
            r = _CACHE.get(key)
            if r is None:
                r = check_step(step, t)
                _CACHE[key] = r
            r = StepResult(**r.to_dict())
        r.moved_from = moved
        results.append(r)
    orphans = sorted(
        i
        for i, t in trans.items()
        if i not in used and (owners is None or t.id.rsplit("/", 2)[0] in owners)
    )
    return LedgerRun(ledger.sha256, pinned, results, orphans, time.perf_counter() - tic)
