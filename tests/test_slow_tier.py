"""The slow tier's list names tests that exist (a renamed test would silently return to the
default tier, or a listed one would move nothing)."""

import re
from pathlib import Path

import pytest

from .slow_tier import LIST, MEASURED, covers, killers, measured_slow, read_list

ROOT = Path(__file__).resolve().parents[1]


def _functions(path: Path) -> set[str]:
    return set(re.findall(r"^def (test_\w+)\(", path.read_text(encoding="utf-8"), re.M))


@pytest.mark.smoke
def test_every_listed_test_exists_and_has_a_reason():
    entries = read_list()
    assert len(entries) > 50
    cache: dict[Path, set] = {}
    for node, reason in entries.items():
        file, _, rest = node.partition("::")
        name = re.match(r"[A-Za-z_0-9]+", rest)[0]
        path = ROOT / file
        assert path.is_file(), node
        assert name in cache.setdefault(path, _functions(path)), node
        assert reason, node


def test_measured_entries_are_read_from_call_times_only():
    log = "\n".join(
        [
            "12.0s setup    tests/a.py::test_x",  # a module fixture's setup: not counted
            "0.5s call     tests/a.py::test_x",
            "2.0s call     tests/a.py::test_y[1]",
            "3.0s call     tests/a.py::test_z",
        ]
    )
    assert measured_slow(log, {"tests/a.py::test_z"}, 1.5) == {"tests/a.py::test_y[1]": 2.0}
    assert LIST.is_file() and MEASURED == "measured"


def test_no_cover_named_by_a_moved_test_is_itself_moved():
    """A hand-moved test names the default-tier test that keeps covering it; that one must not
    have moved too (the measured entries skip them: tests/slow_tier.py)."""
    entries = read_list()
    moved_covers = {
        node: sorted(c for c in covers(reason) if c in entries)
        for node, reason in entries.items()
        if not reason.startswith(MEASURED)
    }
    assert not {k: v for k, v in moved_covers.items() if v}
    assert covers("by the claim kappa-identity and tests/a/test_b.py::test_c[x]") == {
        "tests/proofs_check/test_claims.py::test_claim[kappa-identity]",
        "tests/a/test_b.py::test_c[x]",
    }


def test_no_test_that_alone_killed_a_library_mutant_is_moved():
    """The mutation harness runs the default tier: a test that was the only one to kill a
    library mutant (the newest measurement, tests/slow_tier.py KILLS) stays there, or the
    kill silently turns back into a survivor (as five did on 2026-11-29)."""
    kills = killers()
    assert len(kills) > 20  # the envelope read is the measurement (69 tests-only mutants)
    assert not sorted(kills & set(read_list()))
