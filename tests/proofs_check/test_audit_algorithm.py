"""alg:nbl as printed (proofs_check.audit.algorithm) and the notation audit
(proofs_check.audit.notation): real outcomes, the toolkit probes, and a mutant for every claim."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest

from proofs_check.audit import algorithm as alg
from proofs_check.audit import checks, extracted
from proofs_check.audit import mutants as mut
from proofs_check.audit.graph import default_data
from proofs_check.audit.notation import ENTRIES, Meaning
from proofs_check.claims import assumptions  # noqa: F401  (registers the audit claims)
from proofs_check.registry import CAVEAT, DISCREPANCY, FAIL, PASS, REGISTRY

ALGORITHM = extracted.ALGORITHM


# ------------------------------------------------------------------ the steps
def test_steps_agree_with_the_equations():
    rows = alg.compare_steps(ALGORITHM)
    assert [r[0] for r in rows] == [s.id for s in alg.STEPS] and all(r[3] for r in rows)
    assert checks.steps_outcome(ALGORITHM).status == PASS


@pytest.mark.parametrize(
    "line, old, new",
    [
        (498, r"v_{t-1}+\eta_tG_t", r"v_{t-1}-\eta_tG_t"),  # wrong sign in the update
        (495, r"(I_d-v_{t-1}v_{t-1}^\top)W_t", r"W_t"),  # no tangent projection
        (493, r"\operatorname{sgn}(v_{t-1}^\top X_t)", r"\operatorname{sgn}(X_t)"),
        (489, r"\sum_{t=1}^{n_0}W_t", r"\sum_{t=1}^{n_0}A_tW_t"),  # normalizes another vector
        (491, r"t=n_0+1", r"t=n_0+2"),  # skips a round
        (485, r"W_t=A_tY_tX_t", r"W_t=Y_tX_t"),
    ],
)
def test_a_changed_algorithm_line_is_a_discrepancy(line, old, new):
    out = checks.steps_outcome(mut.edit_algorithm(ALGORITHM, line, old, new))
    assert out.status == DISCREPANCY


def test_a_changed_text_counterpart_is_a_discrepancy():
    steps = tuple(
        replace(
            s,
            paper=(
                (313, r"$v_{n_0}=\overline W_{n_0}/\|\overline W_{n_0}\|_2$"),
                (314, r"$\overline W_{n_0}=n_0\sum_{t=1}^{n_0}W_t$"),
            ),
        )
        if s.id == "initialization"
        else s
        for s in alg.STEPS
    )
    assert checks.steps_outcome(ALGORITHM, steps).status == DISCREPANCY


# ------------------------------------------------------------------ the gaps and the toolkit
def test_toolkit_probes():
    assert alg.probe_sgn_zero() == 1
    p = alg.probe_degenerate_init()
    assert p["unit"] and p["degenerate_init"] == p["replications"]
    acc = alg.probe_step_sizes()
    assert acc[(10.0, 500.0)] and acc[(10.0, -0.5)] and not acc[(0.0, 500.0)]
    assert alg.probe_retraction() <= checks.RETRACTION_RTOL
    h = alg.probe_horizon()
    assert (
        h[0].startswith("rejected") and h[3].startswith("accepted") and h[4].startswith("rejected")
    )
    assert alg.probe_given_start()["n0"] == 0


def test_probes_read_what_the_runner_does():
    """The sgn probe reports the runner's action, not a constant."""

    def minus(X, Y, coins, v_star, v0=None):
        return SimpleNamespace(actions=-np.ones(X.shape[:2], dtype=np.int8))

    assert alg.probe_sgn_zero(run=minus) == -1

    def nan_start(X, Y, coins, v_star, v0=None):
        return SimpleNamespace(
            v_final=np.full((X.shape[0], 2), np.nan), info={"degenerate_init": X.shape[0]}
        )

    assert not alg.probe_degenerate_init(run=nan_start)["unit"]
    assert alg.probe_retraction(project=lambda v, w: w) > 1e-3


@pytest.mark.parametrize("gap", [g.id for g in alg.GAPS])
def test_every_gap_passes_and_states_its_finding(gap):
    out = checks.gap_outcome(gap)
    assert out.status == PASS
    assert "undefined in the paper" in out.computed and "toolkit:" in out.computed
    assert "changes a result: no" in out.detail


@pytest.mark.parametrize("gap", [g.id for g in alg.GAPS])
def test_a_toolkit_that_chooses_otherwise_fails(gap):
    assert checks.gap_outcome(gap, probe=mut.BAD_PROBES[gap]).status == FAIL


@pytest.mark.parametrize("gap", [g.id for g in alg.GAPS])
def test_a_gap_that_changes_a_result_is_a_discrepancy(gap):
    assert checks.gap_outcome(gap, gaps=mut.gap_changes_result(alg.GAPS, gap)).status == DISCREPANCY


def test_registered_algorithm_claims():
    ids = [c.id for c in REGISTRY.all_claims() if c.id.startswith("alg-nbl-")]
    assert sorted(ids) == sorted(["alg-nbl-steps"] + [f"alg-nbl-{g.id}" for g in alg.GAPS])
    # registered, a gap is a presentation CAVEAT only when the paper states no choice for it
    # anywhere (v_{n0} on sum W_t = 0); the others it settles elsewhere (ties at +1, each
    # result's step size, n0 < n, the experiments' 10-degree start), and retraction-norm is no
    # gap at all
    res = {r.id: r for r in REGISTRY.run_claims(ids=ids)}
    assert {i: r.status for i, r in res.items()} == {
        i: CAVEAT if i == "alg-nbl-degenerate-init" else PASS for i in ids
    }
    for i in ("sgn-zero", "step-sizes", "horizon", "given-start"):
        assert "but the paper settles it" in res[f"alg-nbl-{i}"].detail
    assert "states no choice for it anywhere" in res["alg-nbl-degenerate-init"].detail


# ------------------------------------------------------------------ notation
def test_notation_audit_on_the_packaged_data():
    out = checks.notation_outcome()
    assert out.status == DISCREPANCY
    assert "C_0 -> C_2" in out.computed and "C_init" in out.computed
    assert f"{len(ENTRIES)} notation findings" in out.computed
    (res,) = REGISTRY.run_claims(ids=["notation-audit"])
    assert res.status == DISCREPANCY and res.printed


def test_notation_without_confusable_entries_passes():
    assert checks.notation_outcome(mut.calm_entries(ENTRIES)).status == PASS


def test_a_confusable_same_proof_entry_flips_notation():
    calm = tuple(replace(e, confusable=e.symbol == "Delta") for e in ENTRIES)
    out = checks.notation_outcome(calm)
    assert out.status == DISCREPANCY and "Delta in the proof of cor:local_stability" in out.computed


def test_a_meaning_on_a_line_without_its_symbol_fails():
    moved = mut.meaning_moved(ENTRIES)
    assert moved[0].meanings[0].line == ENTRIES[0].meanings[0].line + 1
    assert checks.notation_outcome(moved).status == FAIL


def test_a_same_proof_claim_the_index_contradicts_fails():
    index = default_data().index
    wrong = tuple(
        replace(e, same_proof="lem:normalization") if e.symbol == "C_init" else e for e in ENTRIES
    )
    assert checks.notation_outcome(wrong, index=index).status == FAIL
    lonely = tuple(
        replace(e, meanings=(Meaning("x", "C_init", 1160, "y"),)) if e.symbol == "C_init" else e
        for e in ENTRIES
    )
    assert checks.notation_outcome(lonely, index=index).status == FAIL
