"""Mutation testing of the claim registry: can every check fail?

Each checked claim registers :class:`~proofs_check.registry.Mutant` s — the paper's printed value
perturbed, a formula's coefficient changed, another link, the witness broken. Under each the
claim's verdict must change (:meth:`~proofs_check.registry.Registry.run_mutants`: *killed*). A
mutant that survives, or a checked claim without mutants, means the check cannot fail in that
way: a defect of the check, not of the paper.

:func:`run_mutation` runs the mutants of the registered claims and returns a
:class:`MutationReport`: per claim the mutants, which were killed and which survived (by name);
per claims module the kill rate; and the defects — claims without mutants (unless registered
with ``register_not_checked``), survivors, and claims whose unmutated verdict is ``FAIL`` (a
mutant cannot be judged against a broken baseline).

Command line::

    python -m proofs_check.mutation [--quick] [--json] [--claim ID ...] [--module NAME ...]
    python -m proofs_check.mutation --library [--sample N] [--seed S] [--full] ...

``--quick`` runs only the quick claims (slow ones are listed as not run; a slow claim without
mutants is still a defect); exit status 1 when there is a defect.

``--library`` mutates the library instead (:mod:`proofs_check.libmutation.run`: one-line bugs
in nbl_theory and nbl_sim, each judged by the claims and tests executing it); exit status 1
when a mutant is a *blame* (a verdict about the paper moved without a FAIL).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass, field

from nbl_theory.errors import NBLInputError

from .registry import FAIL, REGISTRY, Claim

__all__ = ["ClaimMutation", "MutationReport", "run_mutation", "claim_module", "main"]

_PREFIX = "proofs_check.claims."


@dataclass
class ClaimMutation:
    """The mutants of one claim and their verdicts.

    ``run`` is False when the claim was not run (a slow claim in a quick run); ``baseline`` is
    its unmutated status (None if not run); ``mutants`` the
    :class:`~proofs_check.registry.MutantResult` s.

    Parameters
    ----------
    id : str
        The claim's id.
    module : str
        The claims module that registers it (:func:`claim_module`).
    n_mutants : int
        How many mutants the claim has.
    run : bool
        Whether the claim was run.
    baseline : str or None, default None
        Its unmutated status (None if not run).
    mutants : list of MutantResult, default []
        The verdict under each mutant.
    seconds : float, default 0.0
        The wall time of the claim and its mutants.
    """

    id: str
    module: str
    n_mutants: int
    run: bool
    baseline: str | None = None
    mutants: list = field(default_factory=list)
    seconds: float = 0.0

    @property
    def killed(self) -> list[str]:
        """The names of the mutants that changed the verdict."""
        return [m.mutant for m in self.mutants if m.killed]

    @property
    def survived(self) -> list[str]:
        """The names of the mutants that left the verdict unchanged."""
        return [m.mutant for m in self.mutants if not m.killed]

    @property
    def defect(self) -> str | None:
        """Why this claim is a defect of the registry (None if it is not)."""
        if self.n_mutants == 0:
            return "no mutants"
        if self.run and self.baseline == FAIL:
            return "unmutated verdict is FAIL"
        if self.survived:
            return "survived: " + "; ".join(self.survived)
        return None

    def to_dict(self) -> dict:
        """The claim's mutation record as plain data.

        Returns
        -------
        dict
            The fields, ``killed``, ``survived``, ``defect`` and every mutant's result.
        """
        return {
            "id": self.id,
            "module": self.module,
            "n_mutants": self.n_mutants,
            "run": self.run,
            "baseline": self.baseline,
            "seconds": round(self.seconds, 3),
            "killed": self.killed,
            "survived": self.survived,
            "defect": self.defect,
            "mutants": [asdict(m) for m in self.mutants],
        }


@dataclass
class MutationReport:
    """What :func:`run_mutation` found (see the module docstring).

    Parameters
    ----------
    quick : bool
        Whether only the quick claims were run.
    claims : list of ClaimMutation
        One per checked claim.
    not_checked : list of str
        The ids of the labels registered as not checked.
    seconds : float, default 0.0
        The wall time.
    not_checked_modules : dict, default {}
        Not-checked claim id -> the claims module of its section's checked claims.
    """

    quick: bool
    claims: list
    not_checked: list
    seconds: float = 0.0
    #: {not-checked claim id: claims module} (by the section's checked claims)
    not_checked_modules: dict = field(default_factory=dict)

    @property
    def defects(self) -> list[ClaimMutation]:
        """The claims that are defects of the registry (no mutants, a FAIL baseline, or a
        survivor)."""
        return [c for c in self.claims if c.defect]

    @property
    def ok(self) -> bool:
        """Whether no claim is a defect."""
        return not self.defects

    def modules(self) -> dict:
        """{module: {"claims", "run", "mutants", "killed", "kill_rate", "defects",
        "not_checked"}} in module order; ``kill_rate`` is killed/mutants over the claims run
        (None if none ran); ``not_checked`` counts the module's register_not_checked labels.

        Returns
        -------
        dict of str to dict
            The per-module counts.
        """
        out: dict = {}
        blank = {"claims": 0, "run": 0, "mutants": 0, "killed": 0, "defects": 0, "not_checked": 0}
        for mod in self.not_checked_modules.values():
            out.setdefault(mod, dict(blank))["not_checked"] += 1
        for c in self.claims:
            m = out.setdefault(c.module, dict(blank))
            m["claims"] += 1
            m["defects"] += bool(c.defect)
            if c.run:
                m["run"] += 1
                m["mutants"] += len(c.mutants)
                m["killed"] += len(c.killed)
        for m in out.values():
            m["kill_rate"] = m["killed"] / m["mutants"] if m["mutants"] else None
        return dict(sorted(out.items()))

    def to_json(self) -> dict:
        """A JSON-ready summary: mode, totals, per module, per claim, defects.

        Returns
        -------
        dict
            ``mode``, ``seconds``, the counts and ``kill_rate``, ``not_checked``, ``defects``,
            ``modules`` and ``per_claim``.
        """
        run = [c for c in self.claims if c.run]
        n_mut = sum(len(c.mutants) for c in run)
        n_kill = sum(len(c.killed) for c in run)
        return {
            "mode": "quick" if self.quick else "full",
            "seconds": round(self.seconds, 2),
            "claims": len(self.claims),
            "claims_run": len(run),
            "mutants": n_mut,
            "killed": n_kill,
            "kill_rate": n_kill / n_mut if n_mut else None,
            "not_checked": list(self.not_checked),
            "not_checked_modules": dict(self.not_checked_modules),
            "defects": {c.id: c.defect for c in self.defects},
            "modules": self.modules(),
            "per_claim": [c.to_dict() for c in self.claims],
        }

    def format(self, verbose: bool = False) -> str:
        """Plain-text summary: totals, one line per module, the defects (and with ``verbose``
        one line per claim).

        Parameters
        ----------
        verbose : bool, default False
            Add one line per claim.

        Returns
        -------
        str
            The summary, lines joined with newlines.
        """
        js = self.to_json()
        rate = "n/a" if js["kill_rate"] is None else f"{js['kill_rate']:.1%}"
        lines = [
            f"mutation ({js['mode']}): {js['killed']}/{js['mutants']} mutants killed "
            f"({rate}) over {js['claims_run']} claims run of {js['claims']} checked; "
            f"{len(self.not_checked)} not-checked labels; {js['seconds']:.1f} s",
            "",
            f"{'module':<28} {'claims':>6} {'run':>4} {'mutants':>8} {'killed':>7} "
            f"{'rate':>7} {'defects':>8} {'not-checked':>12}",
        ]
        for name, m in js["modules"].items():
            r = "—" if m["kill_rate"] is None else f"{m['kill_rate']:.0%}"
            lines.append(
                f"{name:<28} {m['claims']:>6} {m['run']:>4} {m['mutants']:>8} "
                f"{m['killed']:>7} {r:>7} {m['defects']:>8} {m['not_checked']:>12}"
            )
        lines += ["", f"defects ({len(self.defects)}):" if self.defects else "defects: none"]
        lines += [f"  {c.id} [{c.module}]: {c.defect}" for c in self.defects]
        if verbose:
            lines += ["", "claims:"]
            for c in self.claims:
                state = (
                    f"{c.baseline}; killed {len(c.killed)}/{len(c.mutants)}"
                    if c.run
                    else f"not run ({c.n_mutants} mutants)"
                )
                lines.append(f"  {c.id}: {state} ({c.seconds:.1f} s)")
                for m in c.mutants:
                    lines.append(
                        f"    {'killed ' if m.killed else 'SURVIVED'} [{m.kind}] "
                        f"{m.mutant}: {m.baseline} -> {m.status}"
                    )
        return "\n".join(lines)


def claim_module(claim: Claim) -> str:
    """The claims module that registers ``claim`` (e.g. ``stein.initialization``).

    Parameters
    ----------
    claim : Claim
        A registered claim.

    Returns
    -------
    str
        The module's name below ``proofs_check.claims.`` (its full name if outside it).
    """
    mod = getattr(claim.check, "__module__", "") or ""
    return mod[len(_PREFIX) :] if mod.startswith(_PREFIX) else mod


def run_mutation(
    ids=None, quick: bool = True, progress=None, modules=None, registry=REGISTRY
) -> MutationReport:
    """Run the mutants of the registered claims.

    Parameters
    ----------
    ids : iterable of str, optional
        Only these claims (unknown ids raise :class:`~nbl_theory.errors.NBLInputError`).
    quick : bool
        Run only the quick claims; slow ones are listed, not run.
    progress : callable, optional
        ``progress(i, n, claim_mutation)`` after each claim.
    modules : iterable of str, optional
        Only the claims of these claims modules (as :func:`claim_module` names them, or a
        prefix such as ``"stein"``).
    registry : Registry
        The registry (default: the paper's).

    Returns
    -------
    MutationReport
        Per claim: its mutants' verdicts (killed or survived) and its defect, if any.
    """
    tic = time.perf_counter()
    everything = registry.all_claims()
    # a not-checked label belongs to the module holding most checked claims of its section
    votes: dict = {}
    for c in everything:
        if c.method != "not-checked":
            votes.setdefault(c.section, Counter())[claim_module(c)] += 1
    module_of = {
        c.id: (
            claim_module(c)
            if c.method != "not-checked"
            else votes[c.section].most_common(1)[0][0]
            if c.section in votes
            else "(unknown)"
        )
        for c in everything
    }
    claims = everything
    if ids is not None:
        wanted = set(ids)
        for i in wanted:
            registry.get(i)  # raises on an unknown id
        claims = [c for c in claims if c.id in wanted]
    if modules is not None:
        mods = tuple(modules)
        claims = [
            c
            for c in claims
            if any(module_of[c.id] == m or module_of[c.id].startswith(m + ".") for m in mods)
        ]
        if not claims:
            raise NBLInputError(
                f"no claim in module {', '.join(mods)}; the claims modules are "
                f"{', '.join(sorted(set(module_of.values())))}"
            )
    not_checked = [c.id for c in claims if c.method == "not-checked"]
    checked = [c for c in claims if c.method != "not-checked"]
    out = []
    for i, c in enumerate(checked):
        cm = ClaimMutation(c.id, claim_module(c), len(c.mutants), run=False)
        if c.mutants and (c.quick or not quick):
            t0 = time.perf_counter()
            base = registry.run_one(c)
            cm.run, cm.baseline = True, base.status
            cm.mutants = registry.run_mutants(c, base)
            cm.seconds = time.perf_counter() - t0
        out.append(cm)
        if progress:
            progress(i + 1, len(checked), cm)
    return MutationReport(
        quick, out, not_checked, time.perf_counter() - tic, {i: module_of[i] for i in not_checked}
    )


def _progress(i, n, cm):
    state = "not run" if not cm.run else f"{cm.baseline}, killed {len(cm.killed)}/{len(cm.mutants)}"
    print(
        f"[{i}/{n}] {cm.id}: {state} ({cm.seconds:.1f} s)"
        + (f"  DEFECT: {cm.defect}" if cm.defect else ""),
        file=sys.stderr,
        flush=True,
    )


def main(argv=None) -> int:
    """``python -m proofs_check.mutation``: run the mutants and print the summary.

    Parameters
    ----------
    argv : list of str, optional
        The arguments (default ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit status: 0 no defect, 1 a mutant survived or a claim has none (or FAILs), 2 bad
        arguments; with ``--library``, the status of the library mutation run.
    """
    p = argparse.ArgumentParser(
        prog="python -m proofs_check.mutation",
        description="Run every registered claim's mutants; exit 1 if "
        "a mutant survives or a checked claim has none.",
    )
    p.add_argument("--quick", action="store_true", help="quick claims only")
    p.add_argument("--json", action="store_true", help="print the JSON summary")
    p.add_argument("--claim", action="append", default=None, metavar="ID")
    p.add_argument(
        "--module",
        action="append",
        default=None,
        metavar="NAME",
        help="claims module (e.g. stein, decision_stability)",
    )
    p.add_argument("-v", "--verbose", action="store_true", help="one line per mutant")
    p.add_argument(
        "--library",
        action="store_true",
        help="mutate the library (nbl_theory, nbl_sim) instead of the claims' comparison side",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help="--library: local worker processes (default: every core)",
    )
    p.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDR",
        help="--library: a Dask scheduler (tcp://HOST:PORT or local:N)",
    )
    from .libmutation import run as libmut

    libmut.add_arguments(p)
    a = p.parse_args(argv)
    if a.library:
        why = libmut.check_arguments(a)
        if why is None and a.workers is not None and a.scheduler:
            why = "give either --scheduler or --workers, not both"
        if why is None and a.workers is not None and a.workers < 1:
            why = f"--workers must be a positive integer, got {a.workers}"
        if why:
            print(f"python -m proofs_check.mutation: error: {why}", file=sys.stderr)
            return 2
        cmd = "python -m proofs_check.mutation " + " ".join(sys.argv[1:] if argv is None else argv)
        try:
            return libmut.run_from_args(a, cmd.strip(), workers=a.workers, scheduler=a.scheduler)
        except KeyboardInterrupt:
            # a Ctrl-C while the coverage map is collected (the mutants' phase reports what
            # ran itself): its finished chunks are kept, and the next run resumes from them
            print(
                "python -m proofs_check.mutation: interrupted (the coverage map's finished "
                "chunks are kept: a new run takes them up)",
                file=sys.stderr,
            )
            return 130
    try:
        rep = run_mutation(ids=a.claim, quick=a.quick, progress=_progress, modules=a.module)
    except NBLInputError as exc:  # an unknown claim id or module: one line, exit 2
        print(f"python -m proofs_check.mutation: error: {exc}", file=sys.stderr)
        return 2
    if a.json:
        from nbl_theory.records import envelope

        # the toolkit's one JSON envelope, as `nbl check --mutate --json` (schema check.json)
        print(
            json.dumps(
                envelope("check", [rep.to_json()], mode="quick" if a.quick else "full"),
                indent=2,
                ensure_ascii=False,
                allow_nan=False,
            )
        )
    else:
        print(rep.format(verbose=a.verbose))
    return 0 if rep.ok else 1


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
