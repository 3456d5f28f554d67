"""The transcribed proofs of the stochastic analysis (app:stochastic_analysis,
app:localized-estimation): every transcribed step passes on the pinned text and every step's
mutant is killed."""

from __future__ import annotations

import pytest

from proofs_check.ledger.runner import run_ledger
from proofs_check.ledger.store import load_transcriptions
from proofs_check.paper_source import shipped_text

OWNERS = (
    "lem:local_one_step",
    "lem:stopped-stochastic-control",
    "lem:maximal-subgaussian-martingale",
    "lem:finite-horizon-localization",
    "lem:sa-recursion",
    "prop:localized-estimation",
)


@pytest.mark.parametrize("owner", OWNERS)
def test_every_transcribed_step_passes(owner):
    res = run_ledger(shipped_text(), True, owners={owner}).results
    bad = [(r.id, r.status, r.detail) for r in res if r.status not in ("PASS", "PROSE")]
    assert not bad
    assert all(r.status != "UNTRANSCRIBED" for r in res)


@pytest.mark.parametrize(
    "sid",
    sorted(
        s
        for s, t in load_transcriptions().items()
        if s.split("/")[0] in OWNERS and t.method != "prose"
    ),
)
def test_each_step_mutant_is_killed(sid):
    owner = sid.split("/")[0]
    res = {r.id: r for r in run_ledger(shipped_text(), True, owners={owner}, mutate=sid).results}
    assert res[sid].status != "PASS", res[sid].detail
