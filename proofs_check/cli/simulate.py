"""``nbl simulate LINK --delta D [--d 2] [--n N] [--reps R] [--n0 N0 | --init-angle DEG] ...``:
Monte Carlo of NBL, Greedy Logistic and the oracle on common random numbers."""

from __future__ import annotations

import os

from . import beyond
from . import options as opt
from .display import note, progress, show
from .errors import UsageError
from .grammar import GRAMMAR_HELP
from .jsonout import print_json
from .limits import MAX_SIM_BYTES, MAX_SIM_WORK, bound, check_out_dir, simulation_bytes

__all__ = ["NAME", "POLICY_CHOICES", "add_parser", "run"]

NAME = "simulate"

#: ``--policy`` value → the policies run
POLICY_CHOICES = {
    "nbl": ("nbl",),
    "greedy-logistic": ("greedy-logistic",),
    "oracle": ("oracle",),
    "both": ("nbl", "greedy-logistic"),
    "all": ("nbl", "greedy-logistic", "oracle"),
}

HELP = "Monte Carlo of NBL / Greedy Logistic / oracle with 95%% bands"
DESCRIPTION = (
    "Run the policies on common random numbers (app:simulation-setup, "
    "app:logistic-comparison) and report regret R_n (eq:regret), the signed angle "
    "(d = 2) and ‖v_n − v*‖² with mean +- 1.96 SE over replications."
)

EPILOG = f"""{GRAMMAR_HELP}
  simulate takes one value per --param and one --delta.

bounds (--allow-large to go past): replications x rounds x dimension <= {MAX_SIM_WORK:.0e};
  estimated memory <= {MAX_SIM_BYTES / 2**30:.0f} GiB.

greedy-logistic refits its logistic MLE on all its data every round: its cost grows as n^2
  per replication (seconds per replication at n = 2000, minutes at n = 20000), against NBL's n;
  its progress counts replications.

examples:
  nbl simulate --family logistic --delta 1 --n 2000 --reps 50 --policy both
  nbl simulate --family logistic --delta 1 --n 20000 --reps 200
  nbl simulate --link 'sigmoid(a*z)**2' --param a=2 --delta 0.5 --init-angle 30 --out run1
  nbl simulate --potential 'cosh(m)' --domain -inf,inf --reward bounded --delta 0.5
  nbl simulate --family logistic --delta 1 --contexts cube --arms shift=0.1 --n 5000

  --contexts/--arms other than the paper's (gaussian, symmetric) draw the contexts from that
  law and place the arms so (nbl_sim.beyond; not the paper's model); the regret is measured
  against the optimal action argmax_a m_a(x)."""


def add_parser(sub):
    m = opt.command_parser(sub, NAME, HELP, DESCRIPTION, EPILOG, link=True)
    m.add_argument("--delta", required=True, metavar="D", help="arm separation in (0, 2)")
    m.add_argument(
        "--d", type=opt.whole, default=2, metavar="DIM", help="context dimension (default 2)"
    )
    m.add_argument("--n", type=opt.whole, default=10_000, help="horizon (default 10000)")
    m.add_argument("--reps", type=opt.whole, default=100, help="replications (default 100)")
    start = m.add_mutually_exclusive_group()
    start.add_argument(
        "--n0",
        type=opt.whole,
        default=None,
        help="randomized-initialization rounds (default min(200, n // 2))",
    )
    start.add_argument(
        "--init-angle",
        type=opt.real,
        default=None,
        metavar="DEG",
        help="start NBL at this signed angle from v* instead (no Stage I)",
    )
    # the step's defaults are the library's (nbl_sim.engine.contract.GAMMA, T0), read when the
    # run starts: the parser imports no numpy (tests/proofs_check/test_cli.py pins the text)
    m.add_argument("--gamma", type=opt.real, default=None, help="step gamma (default 10)")
    m.add_argument("--t0", type=opt.real, default=None, help="step offset t0 (default 500)")
    m.add_argument(
        "--policy",
        choices=sorted(POLICY_CHOICES),
        default="nbl",
        help="both = nbl + greedy-logistic; all adds the oracle (default nbl); "
        "greedy-logistic's cost grows as n^2 per replication",
    )
    m.add_argument(
        "--seed", type=opt.seed, default=0, help="master seed, 0 to 2**64 - 1 (default 0)"
    )
    m.add_argument(
        "--reward",
        choices=["bernoulli", "bounded"],
        default="bernoulli",
        help="Bernoulli(g) rewards, or g + Uniform[-b, b] noise (default bernoulli)",
    )
    m.add_argument(
        "--noise", type=opt.real, default=None, help="b for --reward bounded (default 0.5)"
    )
    m.add_argument(
        "--random-geometry",
        action="store_true",
        help="draw v* and theta at random from the seed (default v* = e1, theta ~ e2)",
    )
    m.add_argument(
        "--no-intercept",
        action="store_true",
        help="Greedy Logistic without intercept (default: with)",
    )
    m.add_argument(
        "--record-every",
        type=opt.whole,
        default=None,
        metavar="K",
        help="keep trajectories every K rounds (default: ~500 points)",
    )
    beyond.add_beyond_args(m)
    opt.add_exec_args(
        m,
        workers_help="processes (default: in-process, NBL and the oracle on every core by "
        "threads; Greedy Logistic on a local pool for large runs); 1: one core",
    )
    m.add_argument(
        "--out",
        default=None,
        metavar="DIR",
        help="write trajectories (CSV), bands (CSV), manifest.json, simulation.png",
    )
    return opt.finish_parser(m, run)


def _check_sizes(args) -> None:
    """Everything about sizes, before the toolkit is imported."""
    if args.noise is not None and args.reward != "bounded":
        raise UsageError(
            "--noise is the half-width b of --reward bounded; Bernoulli rewards "
            "have no noise to set (add --reward bounded, or drop --noise)"
        )
    for name in ("n", "reps", "d"):
        if getattr(args, name) < 1:
            raise UsageError(f"--{name} must be a positive whole number, got {getattr(args, name)}")
    if args.record_every is not None and args.record_every < 1:
        raise UsageError("--record-every must be >= 1")
    policies = POLICY_CHOICES[args.policy]
    bound(
        float(args.reps) * args.n * args.d,
        MAX_SIM_WORK,
        "replications x rounds x dimension",
        args.allow_large,
    )
    recorded = args.n // args.record_every + 2 if args.record_every else min(args.n, 502) + 2
    workers = min(args.workers or os.cpu_count() or 1, 64)  # more is refused by check_exec
    need = simulation_bytes(
        args.n, args.reps, args.d, args.n0 or 0, recorded, len(policies), workers
    )
    if need > MAX_SIM_BYTES and not args.allow_large:
        raise UsageError(
            f"this simulation needs about {need / 2**30:.3g} GiB of memory "
            f"(n = {args.n}, d = {args.d}, reps = {args.reps}); the bound is "
            f"{MAX_SIM_BYTES / 2**30:.0f} GiB; pass --allow-large to go past it"
        )


def _rewards_for_greedy(link, args) -> None:
    """Greedy Logistic fits a logistic model and needs rewards in [0, 1]: with bounded rewards
    g ± b must stay in [0, 1] on the link's whole range (refused up front)."""
    if "greedy-logistic" not in POLICY_CHOICES[args.policy] or args.reward != "bounded":
        return
    import numpy as np

    if link.kind == "potential":
        lo, hi = (float(x) for x in link.domain)
    else:
        lo, hi = (float(v) for v in link.g_numpy(np.array([-50.0, 50.0])))
    b = args.noise
    if not (lo - b >= 0 and hi + b <= 1):
        raise UsageError(
            f"--policy {args.policy} runs Greedy Logistic, which needs rewards in [0, 1], but "
            f"g + Uniform[-{b:g}, {b:g}] ranges over about [{lo - b:.4g}, {hi + b:.4g}] for "
            f"{link.name}; use --policy nbl, or a link with values in [b, 1 - b] for the "
            "--noise b"
        )


def run(args) -> int:
    specs = opt.param_specs(args)
    dspec = opt.delta_spec(args)
    if dspec.n != 1 or any(s.n != 1 for s in specs.values()):
        raise UsageError(
            "nbl simulate takes a single link and a single --delta (one value per --param)"
        )
    if args.n0 is None and args.init_angle is None:
        from nbl_sim.studies.experiment import default_n0  # the library's one default

        args.n0 = default_n0(args.n)
    if args.init_angle is not None and not abs(args.init_angle) <= 360:
        raise UsageError(
            f"--init-angle must be a number of degrees in [-360, 360], got {args.init_angle:g}"
        )
    _check_sizes(args)
    check_out_dir(
        args.out,
        "--out",
        files=[
            *(
                f"{kind}_{name}.csv"
                for name in POLICY_CHOICES[args.policy]
                for kind in ("trajectories", "bands")
            ),
            "manifest.json",
            "simulation.png",
        ],
    )
    opt.check_exec(args)
    if args.n0 is not None and args.n0 > args.n:
        raise UsageError(f"--n0 {args.n0} exceeds the horizon --n {args.n}")
    if args.init_angle is not None and "greedy-logistic" in POLICY_CHOICES[args.policy]:
        raise UsageError(
            "greedy-logistic needs a randomized initialization: use --n0 instead of --init-angle"
        )
    contexts, arms = beyond.beyond_specs(args)
    if arms is not None and args.random_geometry:
        raise UsageError(
            "--arms places the arms itself: --random-geometry does not apply "
            "(turn the geometry with --arms rotate=DEG)"
        )
    law = beyond.context_law(contexts, args.d)
    link = opt.float_link(args, specs)  # a built-in family: no symbolic work
    if link is None:
        source = opt.link_source(args)
        link = source.link({k: v[0] for k, v in opt.param_values(source, specs).items()})
    if args.noise is None:  # the library's one default
        from nbl_sim.engine.environment import DEFAULT_NOISE

        args.noise = DEFAULT_NOISE
    _rewards_for_greedy(link, args)
    from nbl_sim.engine.contract import GAMMA, T0, validate_step
    from nbl_sim.engine.environment import Environment
    from nbl_sim.studies.experiment import simulate

    args.gamma = GAMMA if args.gamma is None else args.gamma
    args.t0 = T0 if args.t0 is None else args.t0
    validate_step(args.gamma, args.t0)
    geometry = "random" if args.random_geometry else None
    env = Environment.build(
        link,
        dspec.values()[0],
        args.d,
        v_star=geometry,
        theta_dir=geometry,
        geometry_seed=args.seed,
        reward=args.reward,
        noise=args.noise,
        contexts=law,
        arms=arms,
    )
    record = None
    if args.record_every is not None:
        import numpy as np

        first = 0 if args.init_angle is not None else 1
        record = np.unique(
            np.concatenate([np.arange(first, args.n + 1, args.record_every), [args.n]])
        )
    if "greedy-logistic" in POLICY_CHOICES[args.policy]:
        note(
            f"greedy-logistic refits on all its data every round: its cost grows as n^2 "
            f"(n = {args.n}); the progress counts replications"
        )
    with (
        opt.executing(args) as ex,
        progress(f"simulating {opt.count(args.reps, 'replication')}") as bar,
    ):
        res = simulate(
            env,
            n=args.n,
            reps=args.reps,
            n0=args.n0,
            init_angle=args.init_angle,
            gamma=args.gamma,
            t0=args.t0,
            policies=POLICY_CHOICES[args.policy],
            seed=args.seed,
            intercept=not args.no_intercept,
            record_rounds=record,
            executor=ex,
            cache=opt.cache_from_args(args, "simulate"),
            progress=bar,
        )
    files, out_fault = [], None
    if args.out:
        from nbl_sim.presentation.plots import plot_simulation

        def write(o):
            res.write(o.path, run_id=o.run_id)
            plot_simulation(res, o.path / "simulation.png")

        files, out_fault = opt.write_out(args.out, ("manifest.json",), write)
    if args.json:
        print_json(NAME, [res.to_json()], files)
        return opt.report_out_fault(out_fault)
    from nbl_sim.presentation.tables import simulation_report

    report = simulation_report(res, env)
    if contexts is not None or arms is not None:
        report.insert(
            1,
            f"contexts {contexts or 'gaussian'}, arms {arms or 'symmetric'} "
            "(beyond the paper's model: docs/beyond.md)",
        )
    show(report)
    for f in files:
        print(f"wrote {f}")
    return opt.report_out_fault(out_fault)
