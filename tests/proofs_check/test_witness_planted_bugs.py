"""A planted library bug turns the claims witnessed in issue 34 into a toolkit FAIL, never a
DISCREPANCY: each test monkeypatches the library function a witness replaces (its output
scaled, a step size off by 10%, a ridge 1e6 times too large) and runs the claim, or for the
study claims (whose full study takes hours) the library-versus-witness gate of the study's
quick configuration. Unpatched, the same gates pass (test_claims pins the verdicts)."""

from __future__ import annotations

import pytest

import nbl_sim.engine.compiled as engine_compiled
import nbl_sim.engine.greedy_kernel as gl
import nbl_sim.studies.rate_study as rs
from nbl_sim.population import fields as pop
from nbl_sim.runs.execution import SerialExecutor
from nbl_theory.paper import paper_link
from proofs_check.claims.numerics import experiments as cx
from proofs_check.claims.regret import study as cs
from proofs_check.registry import DISCREPANCY, FAIL, PASS, all_claims
from proofs_check.witnesses import experiments as wx
from proofs_check.witnesses import paths as wp

CLAIMS = {c.id: c for c in all_claims()}


def _run(cid: str):
    out = CLAIMS[cid].check()
    assert out.status == FAIL and out.status != DISCREPANCY, (out.status, out.detail[:300])
    assert out.detail.startswith("toolkit defect"), out.detail[:300]
    return out


def _slow_step(fn):
    """``fn`` (an NBL run taking ``gamma=``) with gamma 10% too large: a wrong step size."""

    def wrong(*a, **k):
        k["gamma"] = 1.1 * k.get("gamma", 10.0)  # 10: nbl_run's default
        return fn(*a, **k)

    return wrong


@pytest.fixture
def fresh_caches():
    """The runs the claims memoize are recomputed under the patch, and forgotten after it."""

    def clear():
        wp.localized_error_run.cache_clear()
        wp.regret_by_horizon.cache_clear()
        wx._RUNS.clear()
        wx._COMPARISONS.clear()

    clear()
    yield
    clear()


def test_scaled_library_field_fails_the_local_stability_radius(monkeypatch):
    orig = pop.H_alpha
    monkeypatch.setattr(pop, "H_alpha", lambda *a: 1.01 * orig(*a))
    out = _run("local-stability-radius")
    assert "r0 angle" in out.detail


@pytest.mark.parametrize("cid", ["ce-explicit", "localized-estimation-rate"])
def test_scaled_library_field_fails_the_lambda0_claims(monkeypatch, cid):
    orig = pop.H_alpha
    monkeypatch.setattr(pop, "H_alpha", lambda *a: 1.01 * orig(*a))
    assert "lambda0" in _run(cid).detail


@pytest.mark.parametrize("cid", ["ce-explicit", "localized-estimation-rate", "regret-rate"])
def test_wrong_kernel_step_fails_the_path_claims(monkeypatch, fresh_caches, cid):
    monkeypatch.setattr(wp, "nbl_run", _slow_step(wp.nbl_run))
    assert "paths" in _run(cid).detail


def test_wrong_library_mu_g_fails_ce_explicit(monkeypatch):
    from proofs_check.claims.regret import estimation

    class Wrong:
        def __init__(self, res):
            self.values = dict(res.values, mu_g=res.values["mu_g"] * 1.001)

    orig = estimation.stability
    monkeypatch.setattr(estimation, "stability", lambda *a, **k: Wrong(orig(*a, **k)))
    assert "mu_g" in _run("ce-explicit").detail


@pytest.mark.parametrize(
    "cid",
    ["stochastic-angle-regimes", "stochastic-separation-recovery", "stochastic-regret-panel-d"],
)
def test_wrong_simulator_step_fails_the_stochastic_claims(monkeypatch, fresh_caches, cid):
    # simulate runs NBL through the engine's seam (nbl_sim.engine): its compiled backend
    monkeypatch.setattr(engine_compiled, "nbl", _slow_step(engine_compiled.nbl))
    _run(cid)


def test_wrong_greedy_logistic_fails_the_comparison_gate(monkeypatch, fresh_caches):
    """The comparison claims are slow (16 runs of 100 replications); their gate
    (_comparison_checks, the same one the claims pass to ``gate``) on one link, 3 replications."""
    links = [("tt-stable", paper_link("tt-stable"))]
    assert {j.status for j in cx._comparison_checks(links, 3)} == {PASS}
    wx._COMPARISONS.clear()
    orig = gl.greedy_logistic_actions
    monkeypatch.setattr(
        gl, "greedy_logistic_actions", lambda *a, **k: orig(*a, **{**k, "ridge": 1.0})
    )
    js = cx._comparison_checks(links, 3)
    bad = [j for j in js if j.status == FAIL]
    assert bad and all("Greedy Logistic" in j.quantity for j in bad)


def test_wrong_reference_greedy_logistic_fails_the_comparison_gate(monkeypatch, fresh_caches):
    """The comparison gate also judges the library's reference backend (the definition of the
    numbers of record, which simulate does not run) against the witness: a ridge 1e6 times
    too large in the reference's Greedy Logistic is a toolkit defect of the reference rows."""
    import nbl_sim.engine.reference as reference

    links = [("tt-stable", paper_link("tt-stable"))]
    orig = reference.greedy_logistic
    monkeypatch.setattr(
        reference, "greedy_logistic", lambda *a, **k: orig(*a, **{**k, "ridge": 1.0})
    )
    js = cx._comparison_checks(links, 3)
    bad = [j for j in js if j.status == FAIL]
    assert bad and all("Greedy Logistic" in j.quantity and "reference" in j.quantity for j in bad)


def test_a_wrong_greedy_logistic_fails_a_quick_run(monkeypatch, fresh_caches):
    """The slow comparison claim's reduced gate (what ``nbl check --quick`` runs): SKIPPED on
    the library as it is, the toolkit-defect FAIL with a wrong ridge in the compiled fit."""
    from proofs_check.registry import REGISTRY, SKIPPED

    claim = REGISTRY.get("logistic-comparison-rho")
    assert REGISTRY.run_quick(claim).status == SKIPPED
    wx._COMPARISONS.clear()
    orig = gl.greedy_logistic_actions
    monkeypatch.setattr(
        gl, "greedy_logistic_actions", lambda *a, **k: orig(*a, **{**k, "ridge": 1.0})
    )
    res = REGISTRY.run_quick(claim)
    assert res.status == FAIL and res.detail.startswith("toolkit defect"), res.detail[:300]


def test_a_continuation_that_stops_early_fails_the_phase_gate(monkeypatch):
    """The tanh-phase boundary traced by a continuation that gives up after 5 points (a bug
    that stops the tracing): it never reaches the fold or the upper root, and the gate of
    tt-unstable-region-contracts (full and quick) reads the toolkit-defect FAIL."""
    from nbl_sim.presentation.figures import tanh_phase
    from proofs_check.claims.numerics import link_geometry as lg
    from proofs_check.witnesses import toolkit_values as tv

    orig = tanh_phase.trace_zero_curve
    monkeypatch.setattr(
        tanh_phase, "trace_zero_curve", lambda *a, **k: orig(*a, **{**k, "max_points": 5})
    )
    tv.phase_boundary.cache_clear()
    try:
        js = lg._phase_checks()
    finally:
        tv.phase_boundary.cache_clear()
    bad = {j.quantity for j in js if j.status == FAIL}
    assert bad == {
        "the top of the unstable region (the curve's fold)",
        "the curve's crossings of Delta = 0.2",
    }, [j.detail for j in js]


def test_a_wrong_numeric_rho0_link_fails_we_rho0_logistic(monkeypatch):
    """The library's numeric link of the rho = 0 potential off by 1e-9 relative (a bisection
    stopped early): the claim reads the toolkit-defect FAIL, not a verdict on the paper."""
    from proofs_check.witnesses import toolkit_values as tv

    good = tv.rho0_links_at
    monkeypatch.setattr(
        tv, "rho0_links_at", lambda zs: {k: v * (1 + 1e-9) for k, v in good(zs).items()}
    )
    _run("we-rho0-logistic")


@pytest.fixture(scope="module")
def quick_study():
    return rs.run_study(rs.QUICK, executor=SerialExecutor())


@pytest.mark.parametrize("part", ["regret", "gamma", "localization", "contrast"])
def test_study_reruns_agree_with_the_library_cells(quick_study, part):
    js = cs._reruns(quick_study, part)
    assert js and {j.status for j in js} == {PASS}


def test_wrong_study_kernel_step_fails_every_study_gate(monkeypatch):
    monkeypatch.setattr(engine_compiled, "nbl", _slow_step(engine_compiled.nbl))  # the seam
    res = rs.run_study(rs.QUICK, executor=SerialExecutor())
    for part in ("regret", "gamma", "localization", "contrast"):
        js = cs._reruns(res, part)
        assert any(j.status == FAIL and j.detail.startswith("toolkit defect") for j in js), part


_STUDY_PARTS = {
    "regret-rate-d-log-n": ("regret", "regret_long"),
    "localized-estimation-rate-study": ("estimation", "estimation_long"),
    "step-size-exponent": ("gamma",),
    "localization-vs-n0": ("localization",),
    "regret-rate-unstable-contrast": ("contrast",),
}


def test_the_study_statistics_agree_with_the_witness(quick_study):
    js = cs._statistics(quick_study, quick_study.analysis(), list(ra_parts()))
    assert len(js) == 7 and {j.status for j in js} == {PASS}, [j.detail for j in js]


def ra_parts():
    return [p for parts in _STUDY_PARTS.values() for p in parts]


def _gamma_off(fn):
    def wrong(modes, gamma, *a, **k):
        return fn(modes, 1.05 * gamma, *a, **k)

    return wrong


def _resample_off(fn):
    def wrong(x, samples, lo, hi=None, B=400, seed=0):
        return fn(x, samples, lo, hi, B, seed + 1)

    return wrong


def _b_se_from_a(fn):
    def wrong(ns, samples):
        out = fn(ns, samples)
        for m in ("log", "sqrt", "linear"):
            out[m]["b_se"] = out[m]["a_se"]  # the mutant rate_analysis:55 (P[1, 1] -> P[0, 1])
        return out

    return wrong


def _perp_rate_divided(fn):
    def wrong(self, link):
        out = fn(self, link)
        # the mutant rate_analysis:232 (2 gamma kappa_perp -> 2 gamma / kappa_perp), printed by
        # the localized-estimation claim next to its fit over d
        out["two_gamma_kappa_perp"] = 2 * out["gamma"] / out["kappa_perp"]
        return out

    return wrong


# (the library function, its planted bug, the study claims whose statistics read it)
_ANALYSIS_BUGS = {
    "_direction_rates": (_perp_rate_divided, ["localized-estimation-rate-study"]),
    "fit_growth": (_b_se_from_a, ["regret-rate-d-log-n", "regret-rate-unstable-contrast"]),
    "bootstrap_slope": (
        _resample_off,
        ["localized-estimation-rate-study", "step-size-exponent", "regret-rate-unstable-contrast"],
    ),
}


@pytest.mark.parametrize("name", sorted(_ANALYSIS_BUGS))
def test_a_wrong_study_statistic_fails_the_quick_gates(monkeypatch, quick_study, name):
    """A bug in the library's analysis of the study (nbl_sim.studies.rate_analysis) is a
    toolkit FAIL of a quick run: the slow claims' reduced gates recompute the statistics
    (witnesses.study_analysis); unpatched they read SKIPPED."""
    import nbl_sim.studies.rate_analysis as ra
    from proofs_check.registry import REGISTRY, SKIPPED

    wrap, hit = _ANALYSIS_BUGS[name]
    monkeypatch.setattr(cs, "quick_study", lambda: (quick_study, quick_study.analysis()))
    for cid in _STUDY_PARTS:
        assert REGISTRY.run_quick(REGISTRY.get(cid)).status == SKIPPED, cid
    monkeypatch.setattr(ra, name, wrap(getattr(ra, name)))
    for cid in _STUDY_PARTS:
        r = REGISTRY.run_quick(REGISTRY.get(cid))
        if cid in hit:
            assert r.status == FAIL and r.detail.startswith("toolkit defect"), (cid, r.detail)
        else:
            assert r.status == SKIPPED, (cid, r.detail[:300])


def test_the_study_radii_agree_with_the_witness(quick_study):
    js = cs._radius_checks(quick_study)
    assert len(js) == 12 and {j.status for j in js} == {PASS}, [j.detail for j in js]


def test_a_wrong_study_radius_fails_the_radius_gate(monkeypatch):
    """r0 chosen for lambda0 >= 0.7 kappa instead of 0.75 kappa, its lambda0 consistent with
    it: only the level (the witness's own kappa) can tell, and does."""
    from types import SimpleNamespace

    from nbl_sim.studies import regret_geometry as rg

    def wrong(link, delta, d):
        L = paper_link(link)
        r = rg.stability_radius(L, delta, 0.7) if d == 2 else rg.stability_radius_cap(L, delta, 0.7)
        return {"r0": float(r["r0"]), "lambda0": float(r["lambda0"])}

    monkeypatch.setattr(rs, "_radius", wrong)
    _, const = rs.plan(rs.QUICK)
    js = cs._radius_checks(SimpleNamespace(constants=const, config=rs.QUICK))
    bad = [j for j in js if j.status == FAIL]
    assert len(bad) == 4 and all(j.quantity.startswith("R0_FRAC kappa") for j in bad), bad


def test_the_study_constants_agree_with_the_witness(quick_study):
    from proofs_check.witnesses.study_constants import stage_one_design

    js = cs._constant_checks(quick_study)
    grids = stage_one_design(quick_study.config)
    # 4 constants (kappa of two links in d = 3, kappa_theta, sigma2_theta) and one design
    # check per regret grid (two links x d in {2, 4, 8}, one long grid)
    assert len(grids) == 7
    assert len(js) == 4 + len(grids) and {j.status for j in js} == {PASS}, [j.detail for j in js]


@pytest.mark.parametrize("where", ["n0", "n_max"])
def test_a_regret_grid_off_the_theorems_design_fails_the_gate(quick_study, where):
    """A time grid that starts one round after n0 = ceil(C0 (d + log n_max)), or stops short of
    n_max (the bug `max(ns)` -> `min(ns)` in the study's plan makes both): the design gate
    names the grid, and only that one fails."""
    from types import SimpleNamespace

    key = ("tt-stable", 4)
    grid = list(quick_study.constants["t_grid"][key])
    grid = [grid[0] + 1, *grid[1:]] if where == "n0" else grid[:-1]
    bad = SimpleNamespace(
        config=quick_study.config,
        constants={
            **quick_study.constants,
            "t_grid": {**quick_study.constants["t_grid"], key: grid},
        },
    )
    failed = [j for j in cs._constant_checks(bad) if j.status != PASS]
    assert len(failed) == 1 and "(t_grid, tt-stable, d = 4)" in failed[0].detail


@pytest.mark.parametrize("what", ["sigma2", "kappa_theta", "kappa_perp"])
def test_a_wrong_study_constant_fails_the_constant_gate(monkeypatch, what):
    """The step-size part's tangent noise or a tangent rate off by 1e-6 relative (plan()
    recomputes the constants): the gate names the constant, and no other agrees falsely."""
    from types import SimpleNamespace

    import nbl_sim.studies.rate_theory as rt

    if what == "sigma2":
        good = rt.tangent_noise
        monkeypatch.setattr(
            rt,
            "tangent_noise",
            lambda *a, **k: {
                **good(*a, **k),
                "sigma2_theta": good(*a, **k)["sigma2_theta"] * 1.000001,
            },
        )
        expect = {"sigma2_theta"}
    else:
        good = rt.local_rates
        key = "kappa_theta" if what == "kappa_theta" else "kappa_perp"

        def wrong(*a, **k):
            r = dict(good(*a, **k))
            if r.get(key) is not None:
                r[key] *= 1.01
                r["kappa"] = (
                    r[key] if r["kappa_perp"] is None else min(r["kappa_theta"], r["kappa_perp"])
                )
            return r

        monkeypatch.setattr(rt, "local_rates", wrong)
        rs._radius.cache_clear()
        expect = {"kappa"}
    try:
        _, const = rs.plan(rs.QUICK)
    finally:
        rs._radius.cache_clear()
    js = cs._constant_checks(SimpleNamespace(constants=const, config=rs.QUICK))
    bad = [j for j in js if j.status == FAIL]
    assert bad and {j.quantity.split()[2] for j in bad} == expect, [j.detail for j in js]
    assert all(j.detail.startswith("toolkit defect") for j in bad)


def test_a_wrong_linearized_recursion_fails_the_step_size_gate(monkeypatch, quick_study):
    import nbl_sim.studies.rate_theory as rt

    monkeypatch.setattr(rt, "linear_recursion_mse", _gamma_off(rt.linear_recursion_mse))
    js = cs._statistics(quick_study, quick_study.analysis(), ["gamma"])
    assert js[0].status == FAIL and "window_prediction" in js[0].detail, js[0].detail


@pytest.mark.parametrize(
    "cid", ["restoring-condition-2d", "h-alpha-identity", "z-reflection-identities"]
)
def test_wrong_arm_geometry_is_a_toolkit_defect(cid, monkeypatch):
    """The blame of the library-mutation run (nbl_sim/population/fields.py: θ built as the scalar
    √(1 − Δ²/4) instead of that times the unit direction, so the arms point the wrong way):
    the claims that take the arms from the library judge them against the paper's geometry
    first (witnesses.geometry.arms_error). Here the separation is doubled (β_± = θ ± Δv*,
    renormalized): FAIL "toolkit defect", never DISCREPANCY."""
    import numpy as np

    arm_vectors = pop.arm_vectors

    def wrong(delta, d, **kw):
        beta, vs, theta = arm_vectors(delta, d, **kw)
        dl = float(delta)
        bad = np.stack([theta - dl * vs, theta + dl * vs])
        return bad / np.linalg.norm(bad, axis=1)[:, None], vs, theta

    monkeypatch.setattr(pop, "arm_vectors", wrong)
    _run(cid)


def test_wrong_arms_never_move_a_witness_field(monkeypatch):
    """The second blame of the full library-mutation sample (nbl_sim/population/fields.py:319,
    β_∓ = θ ∓ 1.5Δv*: nine field claims read DISCREPANCY, because the witnesses' case geometry
    took the library's arms). The witnesses now build the arms of app:simulation-setup
    themselves (witnesses.geometry.paper_arms, the same bits when the library is right): under
    the planted bug a field claim still judges the paper on correct arms, and the claim that
    judges the library's arms reads FAIL "toolkit defect"."""
    import numpy as np

    arm_vectors = pop.arm_vectors

    def wrong(delta, d, **kw):
        beta, vs, theta = arm_vectors(delta, d, **kw)
        dl = float(delta)
        bad = np.stack([theta - 1.5 * dl * vs, theta + 1.5 * dl * vs])
        return bad / np.linalg.norm(bad, axis=1)[:, None], vs, theta

    monkeypatch.setattr(pop, "arm_vectors", wrong)
    assert CLAIMS["population-equilibrium"].check().status == PASS
    _run("z-reflection-identities")


def test_wrong_reference_backend_fails_the_pathwise_recursion(monkeypatch):
    """The path witness re-runs alg:nbl and compares both backends of the library with it: a
    step size 10% off in the numpy reference (the definition of the numbers of record, which
    the compiled kernel is pinned to by tests) is a toolkit defect of the claim, not a finding
    about eq:pathwise-error-recursion."""
    from proofs_check.claims.regret import recursion

    monkeypatch.setattr(wp, "nbl_reference", _slow_step(wp.nbl_reference))
    recursion._pathwise_data.cache_clear()
    recursion._xi_data.cache_clear()
    try:
        assert "both backends" in _run("pathwise-error-recursion").detail
    finally:
        recursion._pathwise_data.cache_clear()
        recursion._xi_data.cache_clear()


def test_a_misstated_error_bar_fails_the_elicitation_coefficient(monkeypatch):
    import nbl_theory.stability as stab
    from proofs_check.witnesses import toolkit_values as tv

    # stability.py's rounding allowance 8·2^52 instead of 8·2^-52 (a library mutant that left
    # every value right: the undecided float64 sign was raised to mpmath)
    monkeypatch.setattr(stab, "_float_rounding", lambda scale: 8 * 2.0**52 * abs(scale))
    tv.float_at.cache_clear()
    try:
        out = _run("elicitation-stability-coefficient")
    finally:
        tv.float_at.cache_clear()
    assert "float64 tier" in out.detail and "resolution" in out.detail


class _Reads(dict):
    """A dict of the library's study analysis that records the path of every leaf read."""

    def __init__(self, d, path, log):
        super().__init__(d)
        self._path, self._log = path, log

    def _leaf(self, key, value):
        return _wrap_read(value, self._path + (key,), self._log)

    def __getitem__(self, key):
        return self._leaf(key, dict.__getitem__(self, key))

    def get(self, key, default=None):
        return self[key] if key in self else default

    def items(self):
        return [(k, self._leaf(k, v)) for k, v in dict.items(self)]

    def values(self):
        return [self._leaf(k, v) for k, v in dict.items(self)]


class _ReadList(list):
    def __init__(self, items, path, log):
        super().__init__(items)
        self._path, self._log = path, log

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        return _wrap_read(list.__getitem__(self, i), self._path + (i % len(self),), self._log)

    def __iter__(self):
        return (self[i] for i in range(len(self)))


def _wrap_read(value, path, log):
    if isinstance(value, dict):
        return _Reads(value, path, log)
    if isinstance(value, list):
        return _ReadList(value, path, log)
    log.add(path)
    return value


def _paths(tree, path, out):
    """Every leaf path of a witness's values (None leaves included)."""
    if isinstance(tree, dict):
        for k, v in tree.items():
            _paths(v, path + (k,), out)
    elif isinstance(tree, (list, tuple)):
        for i, v in enumerate(tree):
            _paths(v, path + (i,), out)
    else:
        out.add(path)
    return out


def test_every_value_a_study_claim_reads_is_compared_with_a_witness(monkeypatch, quick_study):
    """What the five study claims read from the library's analysis to write their verdicts
    (recorded leaf by leaf on the quick study) is all compared with a witness: the statistics
    (witnesses.study_analysis) or the tangent rates (study_constants.direction_rates). A value
    read and compared with nothing is a number a library bug could change in the report with
    no FAIL (the full re-run's survivor rate_analysis:232 was one)."""
    from proofs_check.registry import REGISTRY
    from proofs_check.witnesses.study_analysis import study_statistics
    from proofs_check.witnesses.study_constants import direction_rates

    an = quick_study.analysis()
    reads: set = set()
    monkeypatch.setattr(
        cs, "study_from_cells", lambda results: (quick_study, _Reads(an, (), reads))
    )
    for gates in ("_reruns", "_statistics", "_radius_checks", "_constant_checks"):
        monkeypatch.setattr(cs, gates, lambda *a, **k: [])
    monkeypatch.setattr(cs, "_rate_checks", lambda *a, **k: [])
    monkeypatch.setattr(cs, "_mu_g_checks", lambda *a, **k: [])
    for cid in _STUDY_PARTS:
        REGISTRY.get(cid).check.combine(None)
    compared: set = set()
    for part in ra_parts():
        _paths(study_statistics(quick_study, part), (part,), compared)
    for part in ("estimation", "estimation_long"):
        for link in an[part]:
            gamma = quick_study.constants["gamma"][link]
            rates = direction_rates(paper_link(link), quick_study.config.delta, gamma)
            for where in ((part, link, "rates"), (part, link, "d_model", "rates")):
                _paths(rates, where, compared)
    assert len(reads) > 300  # the recorder saw the claims read
    assert sorted(reads - compared, key=str) == []
