"""The two-armed single-index bandit environment (eq:model, app:simulation-setup).

Contexts X_t ~ N(0, I_d) (assum:gaussian_context); arms β_a = θ + a(Δ/2)v* with θ ⊥ v* and
‖θ‖² = 1 − Δ²/4, so ‖β_a‖ = 1 and ‖β_+ − β_−‖ = Δ; mean rewards m_a(x) = g(β_aᵀx).

Rewards (assum:sequential_rewards, assum:bounded_rewards):

* ``"bernoulli"`` — Y_{t,a} ~ Bernoulli(g(β_aᵀX_t)) (app:logistic-comparison). Needs 0 ≤ g ≤ 1:
  checked when the environment is built (g at z = ±50 — g is increasing, so this bounds g on every
  context with ‖x‖ < 50) and again on every realized mean (a mean outside [0, 1] by more than
  1e-12, i.e. beyond rounding, raises; rounding excursions are clipped).
* ``"bounded"`` — Y_{t,a} = g(β_aᵀX_t) + ξ_{t,a}, ξ ~ Uniform[−b, b] independent, symmetric and
  bounded (any link).

Common random numbers
---------------------
Replication r draws everything up front from its own stream ``SeedSequence(seed).spawn`` child r:
the contexts, *both* arms' potential rewards, and the n0 randomized-initialization actions. Every
policy run on that replication faces the same realization (app:logistic-comparison), and
replication r's numbers do not depend on which other replications run with it (chunking, process
count). Inside a replication, contexts, rewards and initialization coins come from three
separate sub-streams, so the first n rounds are the same whatever the horizon.

The streams are numpy's: sub-stream k of replication r is
``Generator(PCG64(SeedSequence(seed, spawn_key=(r, k))))`` (the same as sub-stream k of
``SeedSequence(seed).spawn(R)[r]``); contexts are its ``standard_normal`` values in memory
order, reward uniforms ``random(out=U)``, coins ``random(n0) < 0.5``.

Other context laws and arms (beyond the paper)
-----------------------------------------------
Every context goes through one method, :meth:`Environment._draw_contexts` ``(rng, X)``, which fills
the (n, d) float64 array ``X`` of one replication in place from its context sub-stream (default:
``rng.standard_normal(out=X)``, assum:gaussian_context). ``Environment.build(...,
contexts=LAW)`` plugs a :class:`nbl_sim.beyond.contexts.ContextLaw` (or its spec string) into it:
N(0, Σ) transforms the same normals, every other law fills ``X`` with
:meth:`~nbl_sim.beyond.contexts.ContextLaw.fill` in fixed blocks (so the horizon prefix property
below still holds); an empirical law resamples the rows of its data *with replacement*, holding
the data once. The arm means, rewards, coins, common random numbers and chunking invariance all
follow; ``contexts="gaussian"`` is the default, bit for bit.

``arms=`` an :class:`nbl_sim.beyond.arms.ArmModel` (or its spec string, e.g. ``shift=0.1``,
``intercept=0.25``) replaces the paper's arms: any β_−, β_+ and per-arm links g_−, g_+ (m_a(x) =
g_a(β_aᵀx)). ``v_star`` is then the reference direction (β_+ − β_−)/‖β_+ − β_−‖ (angles and
‖v_t − v*‖² are measured from it) and θ the component of (β_+ + β_−)/2 orthogonal to it. The
optimal action of eq:regret is argmax_a m_a(x): for one shared increasing link it is
sgn(v*ᵀx) exactly (β_+ − β_− ∥ v*), computed as in the paper's model; with different links it
is read off the realized means, a*(x) = +1 iff m_+(x) ≥ m_−(x) (ties to +1, as sgn(0) = +1), and
the regret uses it. ``arms="symmetric"`` is the default, bit for bit.

How a replication is drawn (and why it is fast and exact)
---------------------------------------------------------
The definition is plain numpy: :func:`nbl_sim.engine.reference.draw` (every operation and its
order); what follows is how the compiled draw gives the same bits
(``tests/sim/test_engine_pin.py``).

1. Streams: each replication's sub-streams are numpy's documented
   ``Generator(PCG64(SeedSequence(seed, spawn_key=(r, k))))``; the compiled draw seeds them
   itself (numpy's SeedSequence hash and PCG64 seeding, :func:`nbl_sim.engine.pcg64.seeded_state`)
   and draws the contexts' normals by numpy's PCG64 and ziggurat run inline in compiled code
   (:mod:`nbl_sim.engine.pcg64`, with numpy's tables) — numpy's states and values bit for bit,
   without building numpy's objects (which holds the GIL) or numpy's per-word indirect call:
   ~2.4 ns per normal against ~9 ns for numpy's fill. Checked once per process against numpy
   (falls back to numpy's own generators and fills if they ever differ).
2. Contexts: the N(0, I_d) rows in memory order; then the compiled pass computes the indices
   z_{t,a} = β_aᵀX_t (summed over coordinates k = 0, …, d−1 in that order, as the numpy
   definition ``z += X[..., k] β_{a,k}``) and the optimal actions a*(X_t) = sgn(v*ᵀX_t)
   (v*ᵀX_t summed in numpy's pairwise order, i.e. exactly ``(X * v*).sum(-1)`` of
   :meth:`Environment.optimal_actions`).
3. The means are ``link.g_numpy(z)`` on that replication's (n, 2) index array: g stays the link's
   own float64 evaluation (numpy's vectorized transcendental functions differ in the last bit
   from the scalar libm ones a compiled loop would call — and are faster — and potential links
   invert φ' by bisection over the replication's points), so the means are those of the
   definition.
4. The reward uniforms are numpy's ``random(out=Y)`` and the coins ``random(n0) < 0.5``, drawn
   compiled; the same pass checks and clips the means and turns the uniforms into rewards.

Steps 1–2 and 4 run for a whole block of replications in one compiled call each
(:func:`~nbl_sim.engine.environment_passes.block_contexts_pass`,
:func:`~nbl_sim.engine.environment_passes.block_rewards_pass`), step 3 in Python between them,
so a block holds the GIL only for its link evaluations and blocks on threads run side by side.
Seeding the streams compiled made a one-thread run 1.01–1.27× faster and was cut once; with the
blocks of a run on threads it is what lets them run side by side: ``simulate()`` of 1,000 ×
10⁴ rounds in d = 2 is 1.3–1.7× faster with the block passes than with numpy's generators per
replication (1.2× on one core; ``benchmarks/bench_simulate_loop.py``, rows "generators").
A subclass overriding a step the block passes replace (:data:`_BLOCK_REPLACES`), another
context law, d past the compiled pairwise sum and a replication index of 2⁶⁴ or more take
numpy's generators, one replication at a time.
(Drawing eight replications at a time as the lanes of 8-wide vectors, in LLVM IR, made a run
1.01–1.27× faster end to end, under the 1.5× a piece of compiled machinery must earn (issue
37): it was cut.)

Basic float operations (+, −, ×, ÷, comparisons) are IEEE-exact and done in the same order as in
the numpy definition, so the compiled passes (:mod:`nbl_sim.engine.environment_passes`) give the
same bits (tested against it).

Array convention (all of nbl_sim): arm axis index 0 = arm −1, index 1 = arm +1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cache
from types import SimpleNamespace
from typing import TYPE_CHECKING

import numpy as np

from nbl_theory.errors import NBLInputError
from nbl_theory.validation import check_link, delta_fraction, unit_vector

from ..beyond.contexts import ContextLaw, context_law
from ..beyond.linkeval import link_range
from .metrics import recorded_regret
from .realization import (
    Realization,
    check_seed,
    replication_seeds,
    streams_of,
)

if TYPE_CHECKING:
    from nbl_theory.links import Link

    from ..beyond.arms import ArmModel

__all__ = ["Environment", "Realization", "replication_seeds", "DEFAULT_NOISE"]

REWARDS = ("bernoulli", "bounded")
ROUNDING = 1e-12  # realized Bernoulli means may leave [0, 1] by this much (float rounding)
_RANGE_PROBE = 50  # |z| at which the Bernoulli range is checked up front
#: The largest half-width b of bounded noise (g + Uniform[−b, b]) accepted: the policies'
#: sums of rewards times contexts then stay far inside float64 (b = 1e300 overflowed, and NBL's
#: direction collapsed to 0 while its angle read 0.000).
MAX_NOISE = 1e6
#: The half-width b of bounded noise when none is given (:meth:`Environment.build`, and
#: ``nbl simulate --reward bounded`` without ``--noise``): the one default of the parameter.
DEFAULT_NOISE = 0.5

#: below this many normals numpy's own fill is faster than the compiled loop (reading and
#: writing back the generator's state costs ~6 us; crossover ~1,000 on this machine) — same values
_COMPILED_FILL_MIN = 1024


#: the steps of one replication's draw that the block passes do in compiled code: a subclass
#: overriding any of them is drawn one replication at a time, by its own methods
_BLOCK_REPLACES = ("_fill", "_contexts_and_means", "_draw_contexts", "_indices")


@cache
def _compiled() -> SimpleNamespace:
    """The compiled draw's passes, imported on the first draw (so that building an environment,
    and the reference backend, never load numba): the numba cache switch, numpy's PCG64 stream
    compiled inline (the normals) and the index and reward passes."""
    from . import environment_passes, jit_cache, pcg64

    return SimpleNamespace(
        enable_cache=jit_cache.enable,
        PAIRWISE_MAX=environment_passes.PAIRWISE_MAX,
        index_pass=environment_passes.index_pass,
        reward_pass=environment_passes.reward_pass,
        block_contexts_pass=environment_passes.block_contexts_pass,
        block_rewards_pass=environment_passes.block_rewards_pass,
        seed_words=pcg64.seed_words,
        compiled_pcg_agrees=pcg64.compiled_pcg_agrees,
        fill_normals=pcg64.fill_normals,
        set_state=pcg64.set_state,
        state_of=pcg64.state_of,
    )


@dataclass(frozen=True, eq=False)
class Environment:
    """A fixed bandit instance; build with :meth:`build`.

    The constructor stores its fields unchecked: :meth:`build` validates them and fixes the
    geometry.

    Parameters
    ----------
    link : nbl_theory.links.Link
        The link g (both arms' unless ``arms`` gives per-arm links).
    delta : float
        The arm separation Δ ∈ (0, 2).
    delta_text : str
        Δ as the user wrote it (``str(delta)`` of :meth:`build`), for records.
    d : int
        Context dimension, d ≥ 2.
    v_star : (d,) float64 ndarray
        The boundary direction v* (unit vector).
    theta : (d,) float64 ndarray
        θ ⊥ v*, with ‖θ‖² = 1 − Δ²/4 for the paper's arms.
    beta : (2, d) float64 ndarray
        The arm vectors: row 0 = β_−, row 1 = β_+.
    reward : {"bernoulli", "bounded"}
        The reward law (module docstring).
    noise : float
        Half-width b of the uniform noise of ``"bounded"`` rewards (unused for Bernoulli).
    notes : list, default []
        Free-form notes carried with the environment.
    contexts : nbl_sim.beyond.contexts.ContextLaw or None, default None
        The context law; None is N(0, I_d), the paper's.
    arms : nbl_sim.beyond.arms.ArmModel or None, default None
        The arms; None is the paper's β_a = θ + a(Δ/2)v* with link g.
    """

    link: Link
    delta: float
    delta_text: str
    d: int
    v_star: np.ndarray
    theta: np.ndarray
    beta: np.ndarray  # (2, d): row 0 = β_−, row 1 = β_+
    reward: str
    noise: float
    notes: list = field(default_factory=list)
    contexts: ContextLaw | None = None  # None: N(0, I_d), the paper's
    arms: ArmModel | None = None  # None: the paper's arms β_a = θ + a(Δ/2)v*, link g

    @property
    def links(self) -> tuple:
        """(g_−, g_+): the arm links (both ``link`` for the paper's arms)."""
        return (self.link, self.link) if self.arms is None else self.arms.links

    @property
    def shared_link(self) -> bool:
        """One link for both arms: the optimal action is then sgn(v*ᵀx)."""
        return self.arms is None or self.arms.shared

    @classmethod
    def build(
        cls,
        link: Link,
        delta,
        d: int = 2,
        *,
        v_star=None,
        theta_dir=None,
        geometry_seed: int | None = None,
        reward: str = "bernoulli",
        noise: float = DEFAULT_NOISE,
        contexts: ContextLaw | str | None = None,
        arms: ArmModel | str | None = None,
    ) -> Environment:
        """Validate the inputs and fix the arm geometry.

        Parameters
        ----------
        link : nbl_theory.links.Link
            The link g.
        delta : str or float
            Arm separation Δ ∈ (0, 2).
        d : int
            Context dimension, d ≥ 2.
        v_star, theta_dir : array-like, "random" or None
            The boundary direction and the direction of θ. ``None`` gives the paper's rotation
            v* = e1, θ ∝ e2; ``"random"`` draws them (uniform on the sphere, θ orthogonalized)
            from ``geometry_seed``. A given ``theta_dir`` is orthogonalized against v*.
        geometry_seed : int or None
            Seed (non-negative integer) of the ``"random"`` directions; None draws them from
            fresh OS entropy (not reproducible).
        reward : {"bernoulli", "bounded"}
            The reward law (module docstring); Bernoulli needs 0 ≤ g ≤ 1, checked here.
        noise : float
            Half-width b of the uniform noise for ``reward="bounded"``, in [0, :data:`MAX_NOISE`].
        contexts : ContextLaw, spec string or None
            The context law (:func:`nbl_sim.beyond.contexts.parse_context_spec`, e.g.
            ``"student-t:nu=5"``, ``"gaussian:cond=10,angle=90"``); None is N(0, I_d).
        arms : ArmModel, spec string or None
            The arms (:func:`nbl_sim.beyond.arms.parse_arms_spec` with this ``link``, Δ and d,
            e.g. ``"shift=0.1"``, ``"intercept=0.25"``); None is the paper's arms. Arms fix the
            geometry, so ``v_star`` and ``theta_dir`` must then be None.

        Returns
        -------
        Environment
            The validated instance (v*, θ and β fixed).

        Raises
        ------
        NBLInputError
            If ``link`` is not a Link, Δ is not in (0, 2), d is not an integer ≥ 2, ``reward``
            or ``noise`` is invalid, a direction is invalid or ``theta_dir`` is parallel to v*,
            ``arms`` is invalid or given with ``v_star``/``theta_dir``, the context law is
            invalid, or Bernoulli rewards meet a link outside [0, 1].
        """
        check_link(link)
        q = delta_fraction(delta)
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 2:
            raise NBLInputError(f"dimension d must be an integer >= 2, got {d!r}")
        d = int(d)
        if reward not in REWARDS:
            raise NBLInputError(f"reward must be one of {REWARDS}, got {reward!r}")
        if not (
            isinstance(noise, (int, float)) and math.isfinite(noise) and 0 <= noise <= MAX_NOISE
        ):
            raise NBLInputError(
                f"noise half-width must be a number in [0, {MAX_NOISE:g}], got {noise!r}"
            )
        rng = np.random.default_rng(None if geometry_seed is None else check_seed(geometry_seed))
        if isinstance(v_star, str) and v_star == "random":
            v = rng.standard_normal(d)
            v /= np.linalg.norm(v)
        elif v_star is None:
            v = np.eye(d)[0]
        else:
            v = unit_vector(v_star, "v_star", d)
        if isinstance(theta_dir, str) and theta_dir == "random":
            u = rng.standard_normal(d)
        elif theta_dir is None:
            u = np.eye(d)[1] if v_star is None else _orth_default(v)
        else:
            u = unit_vector(theta_dir, "theta_dir", d)
        u = u - (u @ v) * v
        nu = float(np.linalg.norm(u))
        if nu < 1e-8:
            raise NBLInputError("theta_dir must not be parallel to v_star")
        u /= nu
        dl = float(q)
        law = context_law(contexts, d)
        if arms is None:
            theta = math.sqrt(1 - dl * dl / 4) * u
            beta = np.stack([theta - dl / 2 * v, theta + dl / 2 * v])
            model = None
        else:
            from ..beyond.arms import ArmModel, arm_frame, parse_arms_spec

            if v_star is not None or theta_dir is not None:
                raise NBLInputError(
                    "arms= fixes the geometry: give v_star/theta_dir through "
                    "the arms (e.g. rotate=DEG), not both"
                )
            model = parse_arms_spec(arms, link, delta, d) if isinstance(arms, str) else arms
            if not isinstance(model, ArmModel):
                raise NBLInputError(
                    f"arms must be an ArmModel or a spec string, got {type(arms).__name__}"
                )
            if model.d != d:
                raise NBLInputError(f"the arms have d = {model.d} but d = {d}")
            beta = model.beta
            v, theta = arm_frame(beta)
        env = cls(
            link, dl, str(delta), d, v, theta, beta, reward, float(noise), contexts=law, arms=model
        )
        if reward == "bernoulli":
            env._check_bernoulli_range()
        return env

    # ------------------------------------------------------------------ checks
    def _check_bernoulli_range(self) -> None:
        for g in dict.fromkeys(self.links):
            lo, hi = link_range(g)
            if not (lo >= -ROUNDING and hi <= 1 + ROUNDING):
                raise NBLInputError(
                    f"Bernoulli rewards need 0 <= g <= 1, but link {g.name!r} takes values "
                    f"in about [{lo:.6g}, {hi:.6g}]; use reward='bounded' (--reward bounded) "
                    "for links outside [0, 1]"
                )

    # ------------------------------------------------------------------ draws
    def _draw_contexts(self, rng: np.random.Generator, X: np.ndarray) -> None:
        """Fill one replication's contexts ``X`` ((n, d) float64, C-contiguous) in place from its
        context sub-stream ``rng``: X_t ~ N(0, I_d) (assum:gaussian_context).

        The one place the context law is chosen: ``contexts=`` of :meth:`build`, or override
        it in a subclass (everything downstream — means, rewards, regret, common random
        numbers — follows). N(0, Σ) transforms the normals of the default fill; other laws
        fill ``X`` themselves (:meth:`nbl_sim.beyond.contexts.ContextLaw.fill`)."""
        k = _compiled()
        law = self.contexts
        if law is not None and law.family != "gaussian":
            law.fill(rng, X)
            return
        bg = rng.bit_generator
        if (
            X.size >= _COMPILED_FILL_MIN
            and X.flags.c_contiguous
            and type(bg) is np.random.PCG64
            and k.compiled_pcg_agrees()
            and not bg.state["has_uint32"]
        ):
            words = k.state_of(bg)
            # = rng.standard_normal(out=X), compiled (nbl_sim.engine.pcg64)
            k.fill_normals(words, X)
            k.set_state(bg, words)
        else:
            rng.standard_normal(out=X)
        if law is not None:
            law.apply_transform(X)  # Σ^{1/2} y, row by row in a fixed order (None: nothing)

    def _means(self, z: np.ndarray) -> np.ndarray:
        """g_a(z_a) on one replication's (n, 2) index array, float64 (the link's own
        evaluation: one call on the whole array for a shared link, one per arm otherwise)."""
        if self.shared_link:
            return np.asarray(self.links[1].g_numpy(z), dtype=np.float64)
        g = np.empty_like(z)
        for a in (0, 1):
            g[:, a] = np.asarray(  # a constant link's scalar is broadcast
                self.links[a].g_numpy(np.ascontiguousarray(z[:, a])), dtype=np.float64
            )
        return g

    def _fill(self, streams: tuple, X, means, Y, coins, optimal, z) -> None:
        """Draw one replication into the given (n, ·) arrays from its sub-streams ``streams``
        (:func:`nbl_sim.engine.realization.streams_of`); ``z`` is (n, 2) scratch."""
        k = _compiled()
        g = self._contexts_and_means(streams[0], X, optimal, z)
        streams[1].random(out=Y)  # the reward uniforms
        code, i = k.reward_pass(
            g, means, Y, self.reward == "bernoulli", float(self.noise), ROUNDING
        )
        self._refuse(code, i, g, z)
        self._optimal_of_means(means, optimal)
        if coins.shape[0]:  # the randomized-initialization coins (stream 2)
            coins[...] = np.where(streams[2].random(coins.shape[0]) < 0.5, -1, 1)

    def _contexts_and_means(self, rng: np.random.Generator, X, optimal, z) -> np.ndarray:
        """Steps 1–3 of the module docstring for one replication: its contexts X (from its
        context stream ``rng``), the indices z, the optimal actions of a shared link, and
        g_a(z_a) (returned, C-contiguous)."""
        self._draw_contexts(rng, X)
        self._indices(X, optimal, z)
        return np.ascontiguousarray(self._means(z).reshape(z.shape))  # float64 g_a

    def _indices(self, X, optimal, z) -> None:
        """Step 2 for one replication's drawn contexts X: z = β_aᵀX_t and a*(X_t)."""
        k = _compiled()
        k.index_pass(X, self.beta, self.v_star, z, optimal)
        if self.d > k.PAIRWISE_MAX:  # numpy's pairwise sum splits recursively: let numpy do it
            optimal[...] = self.optimal_actions(X)

    def _refuse(self, code: int, i: int, g: np.ndarray, z: np.ndarray) -> None:
        """The error of a reward pass's check code (0: none)."""
        if code == 1:
            raise NBLInputError(f"link {self.links[i % 2].name!r} gave a non-finite mean reward")
        if code == 2:
            raise NBLInputError(
                f"a Bernoulli mean left [0, 1]: g({z.ravel()[i]:.6g}) = "
                f"{g.ravel()[i]:.17g}; use reward='bounded'"
            )

    def _optimal_of_means(self, means, optimal) -> None:
        """The optimal actions of per-arm links, from one replication's means (a shared
        link's were set with the indices)."""
        if not self.shared_link:  # a*(x) = argmax_a m_a(x), ties to +1
            np.copyto(optimal, np.where(means[:, 1] >= means[:, 0], 1, -1).astype(np.int8))

    def draw(
        self, seed: int, reps, n: int, n0: int, *, out: Realization | None = None
    ) -> Realization:
        """Draw the replications ``reps`` (indices into ``SeedSequence(seed).spawn``).

        Replication r's arrays are identical whichever batch it is drawn in.

        Parameters
        ----------
        seed : int
            The run's seed, a non-negative integer.
        reps : iterable of int
            Replication indices (≥ 0, at least one), in the order of the result's rows.
        n : int
            Rounds.
        n0 : int
            Initialization coins per replication.
        out : Realization, optional
            Buffers (:meth:`Realization.empty` with at least ``len(reps)`` rows, horizon n and
            n0 initialization rounds), filled in place; the returned realization then holds
            views of their first ``len(reps)`` rows. Lets a caller stream blocks of
            replications through fixed memory. None allocates.

        Returns
        -------
        Realization
            The replications' arrays, ``reps`` as a tuple of ints.

        Raises
        ------
        NBLInputError
            If ``reps`` is empty or has a negative index, ``seed`` is invalid, ``out`` does not
            fit, or a realized mean is not finite or (Bernoulli) leaves [0, 1] beyond rounding.
        """
        reps = tuple(int(r) for r in reps)
        if not reps:
            raise NBLInputError("no replications requested")
        if min(reps) < 0:
            raise NBLInputError(f"replication indices must be >= 0, got {min(reps)}")
        seed = check_seed(seed)
        R = len(reps)
        if out is None:
            out = Realization.empty(R, n, n0, self.d)
        elif (
            out.X.shape[0] < R
            or out.X.shape[1:] != (n, self.d)
            or out.coins.shape[1] != n0
            or out.optimal is None
        ):
            raise NBLInputError(
                "draw(out=...) buffers do not fit: use Realization.empty("
                "R, n, n0, d) with R >= len(reps)"
            )
        real = Realization(
            out.X[:R], out.means[:R], out.Y[:R], out.coins[:R], reps, out.optimal[:R]
        )
        k = _compiled()
        k.enable_cache()  # the input is checked: the kernels' cache may be written
        if max(reps) < 2**64 and self._draws_blocks():  # spawn keys the compiled seeding takes
            self._draw_block(k, seed, reps, n0, real)
            return real
        z = np.empty((n, 2))  # scratch for the indices z
        for i, r in enumerate(reps):
            # replication r's sub-streams: SeedSequence(seed, spawn_key=(r, k)) — child r of
            # SeedSequence(seed), without spawning R children
            self._fill(
                streams_of(seed, r, n0 > 0),
                real.X[i],
                real.means[i],
                real.Y[i],
                real.coins[i],
                real.optimal[i],
                z,
            )
        return real

    def _draws_blocks(self) -> bool:
        """Whether :meth:`draw` takes the block passes: the default Gaussian contexts, no step
        of :data:`_BLOCK_REPLACES` overridden by a subclass (its draw is its own), d within the
        compiled pairwise sum, and the compiled stream and seeding agreeing with numpy's."""
        k = _compiled()
        return (
            self.contexts is None
            and all(getattr(type(self), m) is getattr(Environment, m) for m in _BLOCK_REPLACES)
            and self.d <= k.PAIRWISE_MAX
            and k.compiled_pcg_agrees()
        )

    def _draw_block(self, k, seed: int, reps: tuple, n0: int, real: Realization) -> None:
        """Steps 1–4 of the module docstring for the whole block ``real`` (numpy's streams,
        seeded compiled): one compiled pass for the streams, contexts, indices and optimal
        actions, the link's own evaluation per replication, one compiled pass for the checks,
        rewards and coins."""
        R, n = real.optimal.shape
        states = np.empty((R, 3 if n0 > 0 else 2, 4), dtype=np.uint64)
        z = np.empty((R, n, 2))
        k.block_contexts_pass(
            k.seed_words(seed),
            np.array(reps, dtype=np.uint64),
            states,
            real.X,
            self.beta,
            self.v_star,
            z,
            real.optimal,
        )
        for i in range(R):
            real.means[i] = self._means(z[i]).reshape(n, 2)
        code, i, j = k.block_rewards_pass(
            states,
            real.means,
            real.Y,
            real.coins,
            self.reward == "bernoulli",
            float(self.noise),
            ROUNDING,
        )
        if code:
            self._refuse(code, j, real.means[i], z[i])
        for i in range(R):
            self._optimal_of_means(real.means[i], real.optimal[i])

    def recorded_regret(self, real: Realization, actions, record_rounds, out=None) -> np.ndarray:
        """:func:`nbl_sim.engine.metrics.recorded_regret` of ``actions`` on ``real``.

        Parameters
        ----------
        real : Realization
            A realization drawn by this environment's :meth:`draw`.
        actions : (R, n) int8 ndarray
            A policy's actions on it, in {−1, +1}.
        record_rounds : sequence of int
            K strictly increasing rounds in [0, n].
        out : (R, K) float64 ndarray, optional
            Filled in place; None allocates.

        Returns
        -------
        (R, K) float64 ndarray
            R_t (eq:regret, expected means) at each recorded round.

        Raises
        ------
        NBLInputError
            If the shapes disagree or ``record_rounds`` is invalid.
        """
        return recorded_regret(real.means, actions, real.optimal, record_rounds, out=out)

    # ------------------------------------------------------------------ geometry helpers
    def initial_direction(self, angle_deg: float) -> np.ndarray:
        """v0 at signed angle ``angle_deg`` from v*, rotating toward θ (app:stochastic-nbl).

        In d = 2 with the default geometry this is (cos α, sin α); in d > 2 the rotation is in
        the plane spanned by v* and θ.

        Parameters
        ----------
        angle_deg : float
            The signed angle α from v*, in degrees (finite).

        Returns
        -------
        (d,) float64 ndarray
            cos α · v* + sin α · u, u the unit vector of θ (in d = 2, v* rotated by 90°
            counterclockwise): a unit vector.

        Raises
        ------
        NBLInputError
            If ``angle_deg`` is not finite.
        """
        if not math.isfinite(angle_deg):
            raise NBLInputError(f"initial angle must be finite, got {angle_deg!r}")
        a = math.radians(angle_deg)
        u = self.theta / np.linalg.norm(self.theta)
        if self.d == 2:  # signed angle convention of app:stochastic-nbl: counterclockwise
            v1, v2 = self.v_star
            u = np.array([-v2, v1])
        return math.cos(a) * self.v_star + math.sin(a) * u

    def mean_rewards(self, X: np.ndarray) -> np.ndarray:
        """m_a(x) = g_a(β_aᵀx) for contexts X (..., d): (..., 2), column 0 = arm −1 (not
        clipped; the realized means of :meth:`draw` are these, clipped to [0, 1] for Bernoulli
        rewards).

        Parameters
        ----------
        X : array_like, shape (..., d)
            Contexts (converted to float).

        Returns
        -------
        (..., 2) float64 ndarray
            g_−(β_−ᵀx) in column 0, g_+(β_+ᵀx) in column 1.
        """
        X = np.asarray(X, dtype=float)
        z = np.zeros(X.shape[:-1] + (2,))
        for k in range(self.d):
            z += X[..., k, None] * self.beta[:, k]
        return self._means(z.reshape(-1, 2)).reshape(z.shape)

    def optimal_actions(self, X: np.ndarray) -> np.ndarray:
        """a*(x) = argmax_a m_a(x) (eq:regret), ties to +1: sgn(v*ᵀx) with sgn(0) = +1 (the
        convention of alg:nbl) for a shared link; from the means, clipped as the realized
        means are, for per-arm links.

        Parameters
        ----------
        X : ndarray, shape (..., d)
            Contexts.

        Returns
        -------
        (...,) int8 ndarray
            a*(x) in {−1, +1}.
        """
        if not self.shared_link:
            m = self.mean_rewards(X)
            if self.reward == "bernoulli":
                m = np.clip(m, 0.0, 1.0)
            return np.where(m[..., 1] >= m[..., 0], 1, -1).astype(np.int8)
        s = (X * self.v_star).sum(axis=-1)
        return np.where(s >= 0, 1, -1).astype(np.int8)

    def describe(self) -> dict:
        """The environment as plain data (for records and JSON).

        Returns
        -------
        dict
            ``link`` (name), ``delta`` (as written), ``d``, ``v_star`` and ``theta`` (lists),
            ``reward``, ``noise`` (None for Bernoulli rewards), and, beyond the paper only,
            ``contexts`` and ``arms`` (their descriptions).
        """
        out = {
            "link": self.link.name,
            "delta": self.delta_text,
            "d": self.d,
            "v_star": self.v_star.tolist(),
            "theta": self.theta.tolist(),
            "reward": self.reward,
            "noise": self.noise if self.reward == "bounded" else None,
        }
        if self.contexts is not None:  # beyond the paper (keys absent in the paper's model)
            out["contexts"] = self.contexts.describe()
        if self.arms is not None:
            out["arms"] = self.arms.describe()
        return out


def _orth_default(v: np.ndarray) -> np.ndarray:
    """A deterministic direction not parallel to v (the coordinate axis least aligned with v)."""
    return np.eye(v.size)[int(np.argmin(np.abs(v)))]
