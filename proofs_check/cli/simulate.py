"""``nbl simulate LINK --delta D [--d 2] [--n N] [--reps R] [--n0 N0 | --init-angle DEG] ...``:
Monte Carlo of NBL, Greedy Logistic and the oracle on common random numbers."""

from __future__ import annotations

from nbl_sim.presentation.tables import simulation_report
from nbl_theory.errors import NBLInputError

from .display import progress, show
from .options import (
    add_exec_args,
    add_link_args,
    cache_from_args,
    deltas,
    links_from_args,
    print_json,
)

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


def add_parser(sub):
    m = sub.add_parser(
        NAME,
        help="Monte Carlo of NBL / Greedy Logistic / oracle with 95%% bands",
        description="Run the policies on common random numbers (app:simulation-setup, "
        "app:logistic-comparison) and report regret R_n (eq:regret), the signed angle (d = 2) "
        "and |v_n - v*|^2 with mean +- 1.96 SE over replications.",
    )
    add_link_args(m)
    m.add_argument("--delta", required=True, metavar="D", help="arm separation in (0, 2)")
    m.add_argument("--d", type=int, default=2, help="context dimension (default 2)")
    m.add_argument("--n", type=int, default=10_000, help="horizon (default 10000)")
    m.add_argument("--reps", type=int, default=100, help="replications (default 100)")
    start = m.add_mutually_exclusive_group()
    start.add_argument("--n0", type=int, default=None,
                       help="randomized-initialization rounds (default 200)")
    start.add_argument("--init-angle", type=float, default=None, metavar="DEG",
                       help="start NBL at this signed angle from v* instead (no Stage I)")
    m.add_argument("--gamma", type=float, default=10.0, help="step gamma (default 10)")
    m.add_argument("--t0", type=float, default=500.0, help="step offset t0 (default 500)")
    m.add_argument("--policy", choices=sorted(POLICY_CHOICES), default="nbl",
                   help="both = nbl + greedy-logistic; all adds the oracle (default nbl)")
    m.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    m.add_argument("--reward", choices=["bernoulli", "bounded"], default="bernoulli",
                   help="Bernoulli(g) rewards, or g + Uniform[-b, b] noise (default bernoulli)")
    m.add_argument("--noise", type=float, default=0.5, help="b for --reward bounded (0.5)")
    m.add_argument("--random-geometry", action="store_true",
                   help="draw v* and theta at random from the seed (default v* = e1, theta ~ e2)")
    m.add_argument("--no-intercept", action="store_true",
                   help="Greedy Logistic without intercept (default: with)")
    m.add_argument("--record-every", type=int, default=None, metavar="K",
                   help="keep trajectories every K rounds (default: ~500 points)")
    add_exec_args(m, ".nbl_cache/sweeps", workers=False)
    m.add_argument("--workers", type=int, default=None,
                   help="processes (default: a local pool for large runs, else in-process)")
    m.add_argument("--out", default=None, metavar="DIR",
                   help="write trajectories (CSV), bands (CSV), manifest.json, simulation.png")
    m.add_argument("--json", action="store_true")
    m.set_defaults(func=run)
    return m


def _record_rounds(args):
    if args.record_every is None:
        return None
    if args.record_every < 1:
        raise NBLInputError("--record-every must be >= 1")
    import numpy as np

    start = 0 if args.init_angle is not None else 1
    return np.unique(np.concatenate([np.arange(start, args.n + 1, args.record_every), [args.n]]))


def run(args) -> int:
    from nbl_sim.environment import Environment
    from nbl_sim.experiment import simulate

    links = links_from_args(args)
    ds = deltas(args.delta)
    if len(links) != 1 or len(ds) != 1:
        raise NBLInputError("nbl simulate takes a single link and a single --delta")
    geometry = "random" if args.random_geometry else None
    env = Environment.build(links[0], ds[0], args.d, v_star=geometry, theta_dir=geometry,
                            geometry_seed=args.seed, reward=args.reward, noise=args.noise)
    record = _record_rounds(args)
    with progress(f"simulating {args.reps} replications") as bar:
        res = simulate(env, n=args.n, reps=args.reps, n0=args.n0, init_angle=args.init_angle,
                       gamma=args.gamma, t0=args.t0, policies=POLICY_CHOICES[args.policy],
                       seed=args.seed, intercept=not args.no_intercept, record_rounds=record,
                       workers=args.workers, scheduler=args.scheduler,
                       cache=cache_from_args(args, "simulate"), progress=bar)
    files = []
    if args.out:
        from nbl_sim.presentation.plots import plot_simulation

        files = res.write(args.out)
        files.append(plot_simulation(res, f"{args.out}/simulation.png"))
    if args.json:
        payload = res.to_json()
        if files:
            payload["files"] = [str(f) for f in files]
        print_json(payload)
        return 0
    show(simulation_report(res, env))
    for f in files:
        print(f"wrote {f}")
    return 0
