"""``nbl proof LABEL [--paper PATH] [--json]`` and ``nbl proof --list``: one proof's ledger.

Prints every step of the proof of LABEL (or the appendix derivations of a section,
``text:app:...``) — its id, line, LaTeX, transcription, method and result — failing steps
first (:mod:`proofs_check.ledger`). ``--paper PATH`` (or ``NBL_PAPER``) checks another version
of the paper text: a step whose LaTeX changed since its transcription is reported STALE and
not checked. ``--list`` prints every proof and section with its counts (no checks run).
Exit status 1 when a step FAILs or is STALE, 0 otherwise (findings included).
"""

from __future__ import annotations

from . import options as opt
from .errors import UsageError, did_you_mean
from .jsonout import print_json

__all__ = ["NAME", "add_parser", "run"]

NAME = "proof"

EPILOG = """examples:
  nbl proof thm:regret-rate
  nbl proof prop:local_jacobian --json
  nbl proof thm:regret-rate --paper my-revision.tex
  nbl proof --list"""


def add_parser(sub):
    p = opt.command_parser(
        sub,
        NAME,
        "one proof's steps, transcribed and checked (the proof-step ledger)",
        "Print the proof-step ledger of the proof of LABEL: every relation step with its "
        "LaTeX, transcription, method and result, failing steps first. With --paper PATH, "
        "check that version of the paper: changed steps are reported STALE.",
        EPILOG,
    )
    p.add_argument(
        "label",
        nargs="?",
        default=None,
        metavar="LABEL",
        help="the proved result's label (e.g. prop:local_jacobian) or "
        "text:SECTION for the appendix derivations outside proofs",
    )
    p.add_argument(
        "--paper",
        default=None,
        metavar="PATH",
        help="the paper's LaTeX (default: $NBL_PAPER, else the pinned copy shipped with nbl)",
    )
    p.add_argument(
        "--list",
        action="store_true",
        help="list the proofs and sections with their step counts (no checks)",
    )
    return opt.finish_parser(p, run)


def _owner(label: str, ledger) -> str:
    owners = list(ledger.proofs) + list(ledger.sections)
    if label in owners:
        return label
    if "text:" + label in owners:
        return "text:" + label
    raise UsageError(
        f"proof: no proof of {label!r} in the paper"
        f"{did_you_mean(label, owners)}; see nbl proof --list"
    )


def run(args) -> int:
    from proofs_check.ledger.parse import parse_ledger
    from proofs_check.paper_source import paper_source

    src = paper_source(args.paper)
    ledger = parse_ledger(src.text)
    if args.list:
        return _list(args, src, ledger)
    if not args.label:
        raise UsageError("proof: give a LABEL (e.g. prop:local_jacobian) or --list")
    owner = _owner(args.label, ledger)
    from proofs_check.ledger.report import proof_json, proof_text
    from proofs_check.ledger.runner import run_ledger

    led = run_ledger(src.text, src.pinned, owners={owner})
    res = led.of(owner)
    if args.json:
        print_json(NAME, [proof_json(led, owner, ledger.by_id())])
    else:
        where = (
            "pinned copy shipped with nbl"
            if src.pinned
            else f"{src.path or src.origin}, NOT the pinned version (sha256 {src.sha256[:12]})"
        )
        print(proof_text(led, owner, where))
    return (
        1
        if any(r.status in ("FAIL", "STALE") for r in res)
        or [i for i in led.orphans if i.rsplit("/", 2)[0] == owner]
        else 0
    )


def _list(args, src, ledger) -> int:
    from proofs_check.ledger.store import load_transcriptions

    trans = load_transcriptions()
    rows = []
    for owner in list(ledger.proofs) + list(ledger.sections):
        steps = ledger.relation_steps(owner)
        have = [s for s in steps if s.id in trans and trans[s.id].hash == s.hash]
        stale = [s for s in steps if s.id in trans and trans[s.id].hash != s.hash]
        rows.append(
            {
                "owner": owner,
                "relation_steps": len(steps),
                "transcribed": len(have),
                "stale": len(stale),
                "blocks": sum(1 for b in ledger.blocks if b.owner == owner),
            }
        )
    if args.json:
        print_json(NAME, rows)
        return 0
    lines = [f"{'proof / section':<44} {'blocks':>6} {'steps':>6} {'transcribed':>11} {'stale':>5}"]
    for r in rows:
        lines.append(
            f"{r['owner']:<44} {r['blocks']:>6} {r['relation_steps']:>6} "
            f"{r['transcribed']:>11} {r['stale']:>5}"
        )
    print("\n".join(lines))
    return 0
