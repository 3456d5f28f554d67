"""The claim registry: every checked statement of the paper, registered once.

A *claim* is one statement of the paper (a formula, a printed number, a qualitative statement
about the numerics) together with the function that checks it. Check functions are registered
with :func:`register` and return an :class:`Outcome`; :func:`run_claims` runs them and returns
one :class:`ClaimResult` per claim.

Statuses (docs/architecture.md, "Statuses and the two computations"):

``PASS``
    the computation confirms the statement within the stated tolerance;
``CAVEAT``
    the computation confirms what the paper states or prints, but the statement needs a
    condition the paper does not state, is vacuous for the paper's own examples, or depends on
    a choice the paper leaves open — a *finding*, reported with the discrepancies, never a
    plain PASS;
``DISCREPANCY``
    the computation is sound and disagrees with what the paper prints or states (both shown);
``FAIL``
    the toolkit could not confirm something that should hold — a bug until shown otherwise.
    A check that raises becomes ``FAIL`` with the exception message;
``SKIPPED``
    not run, with the reason (e.g. a slow claim in a ``quick`` run).

A tolerance is never loosened to turn a ``DISCREPANCY`` into a ``PASS``.

Mutants
-------
Every claim that is checked registers :class:`Mutant` s: deliberate corruptions — the paper's
printed value perturbed, a formula's coefficient or sign changed, the link swapped, the
independent witness broken — under which its verdict must change (a PASS must turn
DISCREPANCY or FAIL; a DISCREPANCY must move when the paper's number is replaced by the true
one). :meth:`Registry.run_mutants` runs them; a claim whose mutants all survive cannot fail and
is a defect.

Example
-------
>>> reg = Registry()
>>> @reg.register("one-plus-one", "eq:trivial", "sec:none", "1 + 1 = 2", "symbolic",
...               "exact", "integers", printed="2")
... def _check():
...     return Outcome(PASS if 1 + 1 == 2 else DISCREPANCY, str(1 + 1))
>>> [r.status for r in reg.run_claims()]
['PASS']
"""

from __future__ import annotations

import importlib
import operator
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field

import flint
import mpmath

from nbl_sim.runs.execution import one_blas_thread
from nbl_theory.errors import NBLInputError

__all__ = [
    "PASS",
    "CAVEAT",
    "DISCREPANCY",
    "FAIL",
    "SKIPPED",
    "STATUSES",
    "FINDINGS",
    "METHODS",
    "CONSEQUENCES",
    "Outcome",
    "Mutant",
    "MutantResult",
    "Claim",
    "ClaimResult",
    "Registry",
    "REGISTRY",
    "register",
    "register_not_checked",
    "all_claims",
    "run_claims",
    "apply_mutant",
    "PENDING_DETAIL",
]

#: The detail of a claim that an interrupted (or still running) ``nbl check`` did not finish:
#: it is reported SKIPPED with this reason (proofs_check.runner), and the report says so first.
PENDING_DETAIL = "not run: the check was interrupted before this claim finished"

#: The five statuses of a claim (module docstring): ``PASS``, ``CAVEAT``, ``DISCREPANCY``,
#: ``FAIL``, ``SKIPPED``.
PASS, CAVEAT, DISCREPANCY, FAIL, SKIPPED = "PASS", "CAVEAT", "DISCREPANCY", "FAIL", "SKIPPED"
#: Statuses in report order.
STATUSES = (PASS, CAVEAT, DISCREPANCY, FAIL, SKIPPED)
#: Statuses that are findings about the paper (the report opens with them).
FINDINGS = (DISCREPANCY, CAVEAT)
#: How a claim is checked.
METHODS = (
    "symbolic",
    "high-precision",
    "certified",
    "monte-carlo",
    "property-based",
    "audit",
    "not-checked",
)
#: What a finding affects, most consequential first (the report ranks findings by it):
#: ``statement`` — a theorem, proposition, lemma or corollary as stated; ``number`` — a printed
#: number; ``experiment`` — a statement about the paper's numerical experiments;
#: ``presentation`` — notation, an undefined step, a missing definition.
CONSEQUENCES = ("statement", "number", "experiment", "presentation")


@dataclass
class Outcome:
    """What a check function returns.

    ``computed`` is the toolkit's value as it should appear next to the paper's printed value
    (a string; other objects are converted with ``str``); ``detail`` says how it was obtained and,
    for a ``DISCREPANCY``, why the two disagree.

    Parameters
    ----------
    status : str
        The verdict, one of :data:`STATUSES`.
    computed : str or None, default None
        The toolkit's value.
    detail : str, default ""
        How the value was obtained and, for a finding, why the two disagree.
    consequence : str or None, default None
        For a finding: what it affects, one of :data:`CONSEQUENCES` (default: from the label).
    figure : str or None, default None
        The figure id (``nbl reproduce``) or file that shows the evidence.
    evidence : dict, default {}
        One line per label in the claim's ``covers`` (label -> what was checked).
    """

    status: str
    computed: str | None = None
    detail: str = ""
    #: for a finding: what it affects (one of :data:`CONSEQUENCES`; default from the label)
    consequence: str | None = None
    #: figure id (``nbl reproduce``) or file that shows the evidence, if any
    figure: str | None = None
    #: one evidence line per label in the claim's ``covers`` (label -> what was checked)
    evidence: dict = field(default_factory=dict)


def _of_kind(kind: str, doc: str) -> classmethod:
    """``Mutant.<kind>(name, **kwargs)``: a mutant of ``kind`` whose ``kwargs`` go to the check
    function."""

    def make(cls, name: str, /, **kwargs) -> Mutant:
        return cls(name, kind, kwargs=kwargs)

    make.__doc__ = f"""{doc} ``kwargs`` are passed to the check function.

        Parameters
        ----------
        name : str
            What is corrupted, e.g. ``"printed lambda* +5%"``.
        **kwargs
            Keyword arguments of the check function that make the corruption.

        Returns
        -------
        Mutant
            ``Mutant(name, "{kind}", kwargs=kwargs)``.
        """
    make.__name__ = kind
    return classmethod(make)


def _returning(wrong):
    """The patch of :meth:`Mutant.returning`: ``old`` → a function returning ``wrong`` of its
    value."""

    def patch(old):
        return lambda *args, **kwargs: wrong(old(*args, **kwargs))

    return patch


@dataclass(frozen=True)
class Mutant:
    """A deliberate corruption under which a claim's verdict must change.

    Parameters
    ----------
    name : str
        What is corrupted, e.g. ``"printed lambda* +5%"``.
    kind : str
        ``printed`` (the paper's value perturbed), ``formula`` (a coefficient or sign
        changed), ``link`` (another link), ``witness`` (the independent computation broken) or
        ``data``.
    patches : tuple of (target, value)
        ``target`` is ``"package.module:ATTRIBUTE"``; ``value`` replaces the attribute while the
        check runs, or, if callable and ``call=True``, ``value(old)`` does.
    kwargs : dict, optional
        Keyword arguments passed to the check function (for checks parametrized by their
        inputs).
    call : bool
        Treat callable ``value`` s as ``old -> new`` transformers.
    """

    name: str
    kind: str = "formula"
    patches: tuple = ()
    kwargs: dict | None = field(default=None, hash=False)
    call: bool = False

    # One constructor per kind, for the common case of a check parametrized by its inputs:
    # ``Mutant.formula("factor 2 dropped", alpha_factor=1)`` is
    # ``Mutant("factor 2 dropped", "formula", kwargs={"alpha_factor": 1})``.
    printed = _of_kind("printed", "The paper's printed value perturbed.")
    formula = _of_kind("formula", "A coefficient or sign of the checked formula changed.")
    link = _of_kind("link", "The check run on another link.")
    witness = _of_kind("witness", "The independent computation (the witness) broken.")
    data = _of_kind("data", "The check's data (sample size, grid, inputs) corrupted.")

    @classmethod
    def negated(cls, name: str, target: str) -> Mutant:
        """A witness whose value has the wrong sign: the function ``target``
        (``"package.module:NAME"``) patched to return the negation of its value.

        Parameters
        ----------
        name : str
            What is corrupted, e.g. ``"witness rate with the wrong sign"``.
        target : str
            The witness function, as the claim (or its witness module) looks it up.

        Returns
        -------
        Mutant
            A ``witness`` mutant with ``call=True``.
        """
        return cls.returning(name, "witness", target, operator.neg)

    @classmethod
    def returning(cls, name: str, kind: str, target: str, wrong) -> Mutant:
        """The function ``target`` (``"package.module:NAME"``, as the claim or its witness
        looks it up) patched to return ``wrong(value)`` of what it returns.

        Parameters
        ----------
        name : str
            What is corrupted, e.g. ``"library phi* (+1)"``.
        kind : str
            The mutant's kind (``witness`` for a witness, ``formula`` for the library side).
        target : str
            The function to patch.
        wrong : callable
            ``value -> wrong value``.

        Returns
        -------
        Mutant
            A mutant of ``kind`` with ``call=True``.
        """
        return cls(name, kind, patches=((target, _returning(wrong)),), call=True)


@dataclass
class MutantResult:
    """The verdict of a claim under one mutant; ``killed`` when it differs from the unmutated
    verdict (and the mutant did not merely skip).

    Parameters
    ----------
    claim : str
        The claim's id.
    mutant : str
        The mutant's name.
    kind : str
        The mutant's kind (``printed``, ``formula``, ``link``, ``witness`` or ``data``).
    baseline : str
        The unmutated verdict.
    status : str
        The verdict under the mutant.
    killed : bool
        Whether the verdict changed (a ``SKIPPED`` verdict does not count).
    detail : str, default ""
        The check's detail under the mutant.
    """

    claim: str
    mutant: str
    kind: str
    baseline: str
    status: str
    killed: bool
    detail: str = ""


@contextmanager
def apply_mutant(mutant: Mutant):
    """Install ``mutant.patches`` for the duration of the block (always restored).

    Parameters
    ----------
    mutant : Mutant
        The mutant whose ``patches`` are installed.

    Yields
    ------
    None
        Control, while the patches are in place.

    Raises
    ------
    ValueError
        A patch target that is not ``"module:attribute"``.
    """
    saved = []
    try:
        for target, value in mutant.patches:
            mod_name, _, attr = target.partition(":")
            if not attr:
                raise ValueError(f"mutant target {target!r} must be 'module:attribute'")
            mod = importlib.import_module(mod_name)
            old = getattr(mod, attr)
            saved.append((mod, attr, old))
            setattr(mod, attr, value(old) if (mutant.call and callable(value)) else value)
        yield
    finally:
        for mod, attr, old in reversed(saved):
            setattr(mod, attr, old)


@dataclass(frozen=True)
class Claim:
    """A registered claim: what the paper states and how the toolkit checks it.

    Parameters
    ----------
    id : str
        The claim's id (unique in the registry), e.g. ``"lambda-star-logistic"``.
    label : str
        The paper's ``\\label`` it checks, e.g. ``"prop:local_jacobian"``.
    section : str
        The ``\\label`` of the paper's section or appendix holding it.
    statement : str
        What the paper states, in words.
    method : str
        How it is checked, one of :data:`METHODS`.
    tolerance : str
        The tolerance of the comparison, in words.
    tolerance_why : str
        Why the tolerance sits where it does.
    printed : str or None
        The paper's printed value, if it prints one.
    quick : bool
        Whether the claim runs in ``quick`` mode.
    check : callable
        ``check(**kwargs) -> Outcome``: the computation.
    covers : tuple of str, default ()
        Further labels the same check verifies (e.g. a lemma's equations).
    mutants : tuple of Mutant, default ()
        The corruptions under which the verdict must change.
    witness : str or None, default None
        The independent computation(s) as ``"module:function"`` under
        :mod:`proofs_check.witnesses`, comma separated (None: not declared).
    shares : str or None, default None
        What the witness shares with the library, or ``"nothing"``.
    reduced : callable or None, default None
        For a slow claim: ``reduced(**kwargs) -> Outcome``, what a quick run does instead of
        skipping it — its library-versus-witness gates on a reduced configuration, ``SKIPPED``
        when they agree (the paper is judged by the full run only), the toolkit-defect
        ``FAIL`` when they do not.
    """

    id: str
    label: str  # the paper's \\label (e.g. "prop:local_jacobian")
    section: str  # the paper section (\\label of the section or appendix)
    statement: str
    method: str  # one of METHODS
    tolerance: str
    tolerance_why: str
    printed: str | None  # the paper's printed value, if it prints one
    quick: bool  # run in ``quick`` mode
    check: Callable[[], Outcome] = field(repr=False, compare=False)
    covers: tuple = ()  # further labels this check also verifies (e.g. a lemma's equations)
    mutants: tuple = ()  # Mutant s under which the verdict must change
    #: the independent computation(s) the claim compares the paper and the library with:
    #: witness functions as ``"module:function"`` under :mod:`proofs_check.witnesses`, comma
    #: separated (None: not declared; docs/witnesses.md lists every claim's)
    witness: str | None = None
    #: what the witness shares with the library (e.g. "the link's expression parsed by
    #: nbl_theory.Link"), or "nothing"
    shares: str | None = None
    #: a slow claim's gates on a reduced configuration, run by a quick run instead of skipping
    #: it (None: skipped)
    reduced: Callable[[], Outcome] | None = field(default=None, repr=False, compare=False)


@dataclass
class ClaimResult:
    """The outcome of one claim: the :class:`Claim` fields plus computed, status, detail and
    seconds.

    Parameters
    ----------
    id : str
        The claim's id (unique in the registry), e.g. ``"lambda-star-logistic"``.
    label : str
        The paper's ``\\label`` it checks, e.g. ``"prop:local_jacobian"``.
    section : str
        The ``\\label`` of the paper's section or appendix holding it.
    statement : str
        What the paper states, in words.
    method : str
        How it is checked, one of :data:`METHODS`.
    tolerance : str
        The tolerance of the comparison, in words.
    tolerance_why : str
        Why the tolerance sits where it does.
    printed : str or None
        The paper's printed value, if it prints one.
    computed : str or None
        The toolkit's value, as shown beside ``printed``.
    status : str
        The verdict, one of :data:`STATUSES`.
    detail : str
        How the value was obtained and, for a finding, why it disagrees.
    seconds : float
        Wall time of the check.
    quick : bool, default True
        Whether the claim runs in ``quick`` mode.
    covers : tuple of str, default ()
        Further labels the check verifies.
    consequence : str or None, default None
        For a finding: what it affects, one of :data:`CONSEQUENCES`.
    figure : str or None, default None
        The figure id or file that shows the evidence.
    evidence : dict, default {}
        One line per covered label (label -> what was checked).
    full_run : dict or None, default None
        For a slow claim skipped in a quick run: the record of its full run from the claims
        cache, with the commit it ran at.
    """

    id: str
    label: str
    section: str
    statement: str
    method: str
    tolerance: str
    tolerance_why: str
    printed: str | None
    computed: str | None
    status: str
    detail: str
    seconds: float
    quick: bool = True
    covers: tuple = ()
    consequence: str | None = None
    figure: str | None = None
    evidence: dict = field(default_factory=dict)
    #: a slow claim skipped in a quick run: the record of its full run read from the claims
    #: cache (the same code: :mod:`proofs_check.runner`), with the ``commit`` it ran at — so the
    #: quick report lists a finding it did not compute from a computation, never a literal
    full_run: dict | None = None

    def to_dict(self) -> dict:
        """The result as a plain dict (``dataclasses.asdict``).

        Returns
        -------
        dict
            Field name -> value, nested dataclasses converted too.
        """
        return asdict(self)


def _default_consequence(label: str) -> str:
    kind = label.split(":", 1)[0]
    if kind in ("thm", "prop", "lem", "cor", "assum"):
        return "statement"
    if kind in ("tab", "eq"):
        return "number"
    if kind in ("alg", "def"):
        return "presentation"
    return "experiment"


def _result(
    claim: Claim, status: str, computed, detail: str, seconds: float, out: Outcome | None = None
) -> ClaimResult:
    consequence = figure = None
    evidence: dict = {}
    if out is not None:
        consequence = out.consequence
        figure = out.figure
        evidence = dict(out.evidence or {})
    if status in FINDINGS and consequence not in CONSEQUENCES:
        consequence = _default_consequence(claim.label)
    return ClaimResult(
        claim.id,
        claim.label,
        claim.section,
        claim.statement,
        claim.method,
        claim.tolerance,
        claim.tolerance_why,
        claim.printed,
        None if computed is None else str(computed),
        status,
        detail,
        seconds,
        claim.quick,
        tuple(claim.covers),
        consequence,
        figure,
        evidence,
    )


class Registry:
    """An ordered collection of claims (the module-level :data:`REGISTRY` holds the paper's).

    Parameters
    ----------
    loader : str, optional
        The module whose import registers the claims (imported on first use); None for a
        registry filled by hand.
    preflight : str, optional
        ``"module:function"`` of a check of the inputs every claim shares with its witnesses
        (``() -> str | None``: None, or the defect in a sentence). While it reports a defect,
        every verdict (PASS, CAVEAT, DISCREPANCY) becomes the toolkit-defect ``FAIL``: the
        paper is not judged by a broken toolkit. The paper's registry uses
        :func:`proofs_check.witnesses.shared_inputs.shared_inputs_defect`.
    """

    def __init__(self, loader: str | None = None, preflight: str | None = None):
        self._claims: dict[str, Claim] = {}
        self._loader = loader  # module whose import registers the claims
        self._preflight = preflight

    def register(
        self,
        id: str,
        label: str,
        section: str,
        statement: str,
        method: str,
        tolerance: str,
        why: str,
        printed: str | None = None,
        quick: bool = True,
        covers=(),
        mutants=(),
        witness: str | None = None,
        shares: str | None = None,
        reduced: Callable[[], Outcome] | None = None,
    ):
        """Decorator registering ``check() -> Outcome`` as the claim ``id``.

        ``covers`` lists further paper labels the same check verifies (the equations of a
        lemma, say); the coverage test counts them as checked, and the check's
        ``Outcome.evidence`` gives one line per covered label. ``mutants`` are the
        :class:`Mutant` s under which the verdict must change.
        ``witness`` names the independent computation(s) the check compares the paper and the
        library with (``"module:function"`` under :mod:`proofs_check.witnesses`, comma
        separated) and ``shares`` what they share with the library (docs/architecture.md,
        "Statuses and the two computations"; tests/proofs_check/test_independence.py checks
        both, and docs/witnesses.md is generated from them).

        Parameters
        ----------
        id : str
            The claim's id (unique).
        label : str
            The paper's ``\\label`` it checks.
        section : str
            The ``\\label`` of the paper's section or appendix.
        statement : str
            What the paper states.
        method : str
            One of :data:`METHODS`.
        tolerance : str
            The comparison's tolerance, in words.
        why : str
            Why the tolerance sits there (the claim's ``tolerance_why``).
        printed : str, optional
            The paper's printed value (converted with ``str``).
        quick : bool, default True
            Run in ``quick`` mode.
        covers : iterable of str, default ()
            Further labels the check verifies.
        mutants : iterable of Mutant, default ()
            The corruptions under which the verdict must change.
        witness : str, optional
            The independent computation(s), ``"module:function"`` comma separated.
        shares : str, optional
            What the witness shares with the library.
        reduced : callable, optional
            A slow claim's gates on a reduced configuration, run by a quick run instead of
            skipping it (:attr:`Claim.reduced`).

        Returns
        -------
        callable
            The decorator: it registers the check function and returns it unchanged.

        Raises
        ------
        ValueError
            Duplicate ``id``, unknown ``method``, or an empty id/label/statement.
        """
        if not id or not label or not statement:
            raise ValueError("a claim needs a non-empty id, label and statement")
        if id in self._claims:
            raise ValueError(f"duplicate claim id {id!r}")
        if method not in METHODS:
            raise ValueError(f"claim {id!r}: method must be one of {METHODS}, got {method!r}")

        def deco(fn: Callable[[], Outcome]) -> Callable[[], Outcome]:
            if id in self._claims:  # re-checked: two decorators built before either ran
                raise ValueError(f"duplicate claim id {id!r}")
            for m in mutants:
                if not isinstance(m, Mutant):
                    raise ValueError(f"claim {id!r}: mutants must be Mutant objects")
            self._claims[id] = Claim(
                id,
                label,
                section,
                statement,
                method,
                tolerance,
                why,
                None if printed is None else str(printed),
                quick,
                fn,
                tuple(covers),
                tuple(mutants),
                witness,
                shares,
                reduced,
            )
            return fn

        return deco

    def _load(self) -> None:
        if self._loader:
            importlib.import_module(self._loader)

    def all_claims(self) -> list[Claim]:
        """Every registered claim, in registration order.

        Returns
        -------
        list of Claim
            The claims, loading the registering module first.
        """
        self._load()
        return list(self._claims.values())

    def get(self, claim_id: str) -> Claim:
        """The claim registered as ``claim_id``.

        Parameters
        ----------
        claim_id : str
            The claim's id.

        Returns
        -------
        Claim
            The registered claim.

        Raises
        ------
        NBLInputError
            An unknown id.
        """
        self._load()
        try:
            return self._claims[claim_id]
        except KeyError:
            raise NBLInputError(f"unknown claim id {claim_id!r}") from None

    def run_one(
        self, claim: Claim, mutant: Mutant | None = None, reduced: bool = False
    ) -> ClaimResult:
        """Run one claim's check (under ``mutant`` if given); an exception, a wrong return type
        or a changed global mpmath/flint precision becomes ``FAIL``.

        Parameters
        ----------
        claim : Claim
            The claim to run.
        mutant : Mutant, optional
            A corruption to apply while it runs.
        reduced : bool, default False
            Run its :attr:`Claim.reduced` check instead of the full one.

        Returns
        -------
        ClaimResult
            The result, with the check's wall time.
        """
        defect = self.shared_inputs_defect()  # before any mutant is applied
        dps, prec = mpmath.mp.dps, flint.ctx.prec
        t0 = time.perf_counter()
        try:
            check = claim.reduced if reduced else claim.check
            with one_blas_thread():  # the same bits in any process (nbl_sim.runs.execution)
                if mutant is None:
                    out = check()
                else:
                    with apply_mutant(mutant):
                        out = check(**(mutant.kwargs or {}))
        except Exception as exc:  # noqa: BLE001 - any error in a check is a FAIL, with its message
            out = Outcome(FAIL, None, f"check raised {type(exc).__name__}: {exc}")
        seconds = time.perf_counter() - t0
        if (mpmath.mp.dps, flint.ctx.prec) != (dps, prec):
            mpmath.mp.dps, flint.ctx.prec = dps, prec
            out = Outcome(
                FAIL,
                getattr(out, "computed", None),
                "check changed the global mpmath/flint precision (restored)",
            )
        if not isinstance(out, Outcome):
            out = Outcome(FAIL, None, f"check returned {type(out).__name__}, not an Outcome")
        elif out.status not in STATUSES:
            out = Outcome(
                FAIL, out.computed, f"check returned unknown status {out.status!r}; {out.detail}"
            )
        elif defect is not None and out.status in (PASS, CAVEAT, DISCREPANCY):
            out = Outcome(
                FAIL,
                out.computed,
                f"toolkit defect: {defect}; the paper is not judged (the check read {out.status})",
            )
        return _result(claim, out.status, out.computed, out.detail, seconds, out)

    @property
    def preflight(self) -> str | None:
        """``"module:function"`` of the registry's preflight (None without one)."""
        return self._preflight

    def shared_inputs_defect(self) -> str | None:
        """The defect the registry's ``preflight`` reports (None without one, or when the
        shared inputs are right).

        Returns
        -------
        str or None
            The defect in a sentence, or None.
        """
        if self._preflight is None:
            return None
        module, name = self._preflight.split(":")
        try:
            return getattr(importlib.import_module(module), name)()
        except Exception as exc:  # noqa: BLE001 - a check that cannot run is a defect too
            return f"the check of the shared inputs raised {type(exc).__name__}: {exc}"

    def run_mutants(self, claim: Claim, baseline: ClaimResult | None = None) -> list[MutantResult]:
        """Run every mutant of ``claim``; each is killed when the verdict changes from the
        unmutated one (``baseline``, computed if not given).

        Parameters
        ----------
        claim : Claim
            The claim whose mutants are run.
        baseline : ClaimResult, optional
            Its unmutated result (run here if not given).

        Returns
        -------
        list of MutantResult
            One per mutant, in the claim's order.
        """
        base = baseline or self.run_one(claim)
        out = []
        for m in claim.mutants:
            res = self.run_one(claim, m)
            killed = res.status not in (base.status, SKIPPED)
            out.append(
                MutantResult(claim.id, m.name, m.kind, base.status, res.status, killed, res.detail)
            )
        return out

    def run_quick(self, claim: Claim) -> ClaimResult:
        """A claim as a quick run runs it: a quick claim in full, a slow one through its
        :attr:`Claim.reduced` gates (``SKIPPED`` when they agree, the toolkit-defect ``FAIL``
        when not), or ``SKIPPED`` when it has none.

        Parameters
        ----------
        claim : Claim
            The claim to run.

        Returns
        -------
        ClaimResult
            Its result in a quick run.
        """
        if claim.quick:
            return self.run_one(claim)
        why = "slow claim: not run in quick mode (run without --quick)"
        if claim.reduced is None:
            return _result(claim, SKIPPED, None, why, 0.0)
        res = self.run_one(claim, reduced=True)
        if res.status == SKIPPED:
            res.detail = f"{why}; {res.detail}"
        return res

    def run_claims(self, quick: bool = False, ids=None, progress=None) -> list[ClaimResult]:
        """Run the claims and return their results in registration order.

        Parameters
        ----------
        quick : bool
            Claims registered with ``quick=False`` are reported ``SKIPPED`` (not run; those
            with a :attr:`Claim.reduced` check run it: :meth:`run_quick`).
        ids : iterable of str, optional
            Run only these claims (in registration order); unknown ids raise
            :class:`~nbl_theory.errors.NBLInputError`.
        progress : callable, optional
            ``progress(i, n, result)`` after each claim.

        Returns
        -------
        list of ClaimResult
            One result per claim run (or skipped), in registration order.
        """
        claims = self.all_claims()
        if ids is not None:
            wanted = list(ids)
            known = {c.id for c in claims}
            unknown = [i for i in wanted if i not in known]
            if unknown:
                raise NBLInputError(f"unknown claim id(s): {', '.join(unknown)}")
            claims = [c for c in claims if c.id in set(wanted)]
        results = []
        for i, claim in enumerate(claims):
            res = self.run_quick(claim) if quick else self.run_one(claim)
            results.append(res)
            if progress:
                progress(i + 1, len(claims), res)
        return results


#: The paper's claims; importing :mod:`proofs_check.claims` fills it.
REGISTRY = Registry(
    loader="proofs_check.claims",
    preflight="proofs_check.witnesses.shared_inputs:shared_inputs_defect",
)


def register(
    id: str,
    label: str,
    section: str,
    statement: str,
    method: str,
    tolerance: str,
    why: str,
    printed: str | None = None,
    quick: bool = True,
    covers=(),
    mutants=(),
    witness: str | None = None,
    shares: str | None = None,
    reduced: Callable[[], Outcome] | None = None,
):
    """Register a check of the paper in :data:`REGISTRY` (see :meth:`Registry.register`).

    Parameters
    ----------
    id : str
        The claim's id (unique).
    label : str
        The paper's ``\\label`` it checks.
    section : str
        The ``\\label`` of the paper's section or appendix.
    statement : str
        What the paper states.
    method : str
        One of :data:`METHODS`.
    tolerance : str
        The comparison's tolerance, in words.
    why : str
        Why the tolerance sits there.
    printed : str, optional
        The paper's printed value.
    quick : bool, default True
        Run in ``quick`` mode.
    covers : iterable of str, default ()
        Further labels the check verifies.
    mutants : iterable of Mutant, default ()
        The corruptions under which the verdict must change.
    witness : str, optional
        The independent computation(s), ``"module:function"`` comma separated.
    shares : str, optional
        What the witness shares with the library.
    reduced : callable, optional
        A slow claim's gates on a reduced configuration (:attr:`Claim.reduced`).

    Returns
    -------
    callable
        The decorator of :meth:`Registry.register`.
    """
    return REGISTRY.register(
        id,
        label,
        section,
        statement,
        method,
        tolerance,
        why,
        printed=printed,
        quick=quick,
        covers=covers,
        mutants=mutants,
        witness=witness,
        shares=shares,
        reduced=reduced,
    )


def register_not_checked(
    id: str, label: str, section: str, statement: str, reason: str, covers=()
) -> None:
    """List a label of the paper that is deliberately not checked — a definition, an
    assumption, a pure restatement — with the reason; it is reported as ``SKIPPED``.

    Parameters
    ----------
    id : str
        The entry's id (unique).
    label : str
        The paper's ``\\label``.
    section : str
        The ``\\label`` of its section or appendix.
    statement : str
        What the label states.
    reason : str
        Why it is not checked (required).
    covers : iterable of str, default ()
        Further labels covered by the same reason.

    Raises
    ------
    ValueError
        An empty ``reason``.
    """
    if not reason:
        raise ValueError(f"{id}: a label that is not checked needs a reason")
    REGISTRY.register(id, label, section, statement, "not-checked", "-", reason, covers=covers)(
        lambda: Outcome(SKIPPED, None, reason)
    )


def all_claims() -> list[Claim]:
    """Every claim of the paper, in registration order.

    Returns
    -------
    list of Claim
        The claims of :data:`REGISTRY`.
    """
    return REGISTRY.all_claims()


def run_claims(quick: bool = False, ids=None, progress=None) -> list[ClaimResult]:
    """Run the paper's claims (see :meth:`Registry.run_claims`).

    Parameters
    ----------
    quick : bool, default False
        Report the claims registered with ``quick=False`` as ``SKIPPED``.
    ids : iterable of str, optional
        Run only these claims.
    progress : callable, optional
        ``progress(i, n, result)`` after each claim.

    Returns
    -------
    list of ClaimResult
        One per claim, in registration order.
    """
    return REGISTRY.run_claims(quick=quick, ids=ids, progress=progress)
