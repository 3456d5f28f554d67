r"""Hand-curated facts about the paper's hypotheses that the LaTeX parser cannot see.

Every entry carries the paper's line number and a quote: the exact words, a substring of that
one line of ``nbl-paper.tex`` (``tests/proofs_check/test_audit.py`` checks each quote against the
paper). What the parser does see — the ``\ref{assum:...}`` inside statements and proofs and the
labels a proof cites — lives in :mod:`proofs_check.audit.extracted`.

Hypothesis ids: the paper's assumption labels (``assum:...``), conditions on the step size and
the initialization length (``cond:...``, not labelled in the paper) and the standing
assumptions of sec:setup (``std:...``; in force throughout, so using them is never a finding).

A *use* is ``certain`` when the quoted words invoke the hypothesis (or a result that states it)
and the argument needs it as written; otherwise it is only *plausible* (the argument would need
it, but the paper never points at it) and is listed without making a finding.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Hypothesis", "Use", "Cite", "Note", "HYPOTHESES", "LABEL_CONDITIONS",
           "STATED_CONDITIONS", "STATED_BY_REFERENCE", "DIRECT_USES", "EXTRA_CITATIONS",
           "TEXT_DERIVATIONS", "DEFINITIONS", "DISCHARGES", "NOTES", "MITIGATIONS",
           "NO_PROOF"]


@dataclass(frozen=True)
class Hypothesis:
    """An assumption, a condition or a standing assumption of the paper."""

    id: str
    kind: str              # "assumption" / "condition" / "standing"
    text: str              # what it assumes, in words
    line: int              # where the paper states it (or first uses it, if it never states it)
    quote: str
    implied_by: tuple = ()  # hypotheses that imply it (with the standing n0 >= 1)


@dataclass(frozen=True)
class Use:
    """A result whose proof (or stated hypotheses) relies on ``hyp`` at ``line``."""

    result: str
    hyp: str
    line: int
    quote: str
    why: str
    certain: bool = True


@dataclass(frozen=True)
class Cite:
    """``source`` relies on ``target`` (a label or a hypothesis id) at ``line``."""

    source: str
    target: str
    line: int
    quote: str
    why: str = ""


@dataclass(frozen=True)
class Note:
    """A remark on a result's hypotheses that is *not* a finding (with the reason)."""

    result: str
    line: int
    quote: str
    text: str


HYPOTHESES = {h.id: h for h in (
    Hypothesis("assum:gaussian_context", "assumption",
               "contexts X_t i.i.d. N(0, I_d), independent of the history H_{t-1}", 227,
               r"The contexts satisfy $X_t\overset{\mathrm{iid}}{\sim}N(0,I_d)$ and"),
    Hypothesis("assum:polygrowth_g", "assumption",
               "g is C^2 with |g^(j)(z)| <= C_g(1 + |z|^q), j = 0, 1, 2", 233,
               r"The common link $g:\R\to\R$ is twice continuously differentiable and"),
    Hypothesis("assum:sequential_rewards", "assumption",
               "E[Y_{t,a} | X_t, H_{t-1}] = m_a(X_t) for every t and arm a", 289,
               r"\E[Y_{t,a}\mid X_t,\mathcal H_{t-1}]=m_a(X_t)."),
    Hypothesis("assum:bounded_rewards", "assumption", "|Y_{t,a}| <= B_Y almost surely", 295,
               r"$|Y_{t,a}|\leq B_Y$ almost surely for all"),
    Hypothesis("assum:positive-stability", "assumption",
               "the decision stability coefficient is positive: lambda* > 0", 570,
               r"\lambda_\star>0."),
    Hypothesis("cond:harmonic-step", "condition",
               "harmonic step size eta_t = gamma/(t + t0) (eq:step_size)", 4276,
               r"\eta_t=\frac{\gamma}{t+t_0}."),
    Hypothesis("cond:gamma-lambda", "condition", "2 gamma lambda0 > 1", 929,
               r"$2\gamma\lambda_0>1$"),
    Hypothesis("cond:sa-start", "condition", "n0 + 1 + t0 >= 2 gamma lambda0", 930,
               r"$n_0+1+t_0\geq2\gamma\lambda_0$"),
    Hypothesis("cond:t0-upper", "condition", "t0 <= C_off n0 for a constant C_off", 930,
               r"$t_0\leq C_{\rm off}n_0$"),
    Hypothesis("cond:t0-nonneg", "condition",
               "t0 >= 0 (never stated: eq:step_size and every statement leave t0's sign open)",
               5176, r"Since $t_0\geq0$,"),
    Hypothesis("cond:n0-t0-ge-1", "condition", "n0 + t0 >= 1 (never stated)", 5040,
               r"Since $n_0+t_0\geq1$,", implied_by=("cond:t0-nonneg",)),
    Hypothesis("cond:self-concordance", "condition",
               "generalized self-concordance |g''| <= R g' (eq:self-concordance-link)", 730,
               r"|g''(z)|\leq Rg'(z),"),
    Hypothesis("cond:n0-lt-n", "condition", "n0 < n", 985, r"$n_0<n$"),
    Hypothesis("cond:n0-choice", "condition",
               "n0 = ceil(C0 (d + log n)) with C0 sufficiently large", 985,
               r"$n_0=\lceil C_0(d+\log n)\rceil$"),
    Hypothesis("std:monotone", "standing", "g strictly increasing", 144,
               r"Throughout, the common link $g$ is assumed to be strictly increasing."),
    Hypothesis("std:distinct-arms", "standing", "beta_+ != beta_-", 153,
               r"where we assume $\beta_+\neq\beta_-$."),
    Hypothesis("std:unit-indices", "standing", "||beta_a||_2 = 1", 140,
               r"index direction satisfying $\|\beta_a\|_2=1$"),
)}

#: Paper labels whose citation means a condition (statement refs or proof refs).
LABEL_CONDITIONS = {"eq:self-concordance-link": "cond:self-concordance",
                    "eq:step_size": "cond:harmonic-step"}

#: Conditions a statement imposes in words (assumption refs are found by the parser).
#: ``in_context`` entries are stated in the sentence right before the statement.
STATED_CONDITIONS = (
    Cite("lem:stopped-stochastic-control", "cond:harmonic-step", 4298,
         r"Let $\eta_t=\gamma/(t+t_0)$. There exist universal constants"),
    Cite("lem:finite-horizon-localization", "cond:harmonic-step", 903, r"\eta_t=\gamma/(t+t_0),",
         "in context: 'We use the harmonic step size' (line 901) right before the lemma"),
    Cite("prop:localized-estimation", "cond:harmonic-step", 929, r"$\eta_t=\gamma/(t+t_0)$"),
    Cite("prop:localized-estimation", "cond:gamma-lambda", 929, r"$2\gamma\lambda_0>1$"),
    Cite("prop:localized-estimation", "cond:sa-start", 930, r"$n_0+1+t_0\geq2\gamma\lambda_0$"),
    Cite("prop:localized-estimation", "cond:t0-upper", 930, r"$t_0\leq C_{\rm off}n_0$"),
    Cite("thm:regret-rate", "cond:harmonic-step", 981, r"$\eta_t=\gamma/(t+t_0)$"),
    Cite("thm:regret-rate", "cond:gamma-lambda", 981, r"$2\gamma\lambda_0>1$"),
    Cite("thm:regret-rate", "cond:t0-upper", 982, r"$t_0\leq C_{\rm off}n_0$"),
    Cite("thm:regret-rate", "cond:n0-choice", 985, r"$n_0=\lceil C_0(d+\log n)\rceil$"),
    Cite("thm:regret-rate", "cond:n0-lt-n", 985, r"$n_0<n$"),
    Cite("lem:sa-recursion", "cond:gamma-lambda", 5309, r"Let $\alpha>1$",
         "instantiated with alpha = 2 gamma lambda0 at line 5472"),
    Cite("lem:sa-recursion", "cond:sa-start", 5321, r"If $n_0+1+t_0\geq\alpha$, then",
         "instantiated with alpha = 2 gamma lambda0 at line 5472"),
)

#: "Under the conditions as in Lemma X": the statement takes over X's stated hypotheses.
STATED_BY_REFERENCE = (
    Cite("lem:finite-horizon-localization", "lem:local_one_step", 908,
         r"Under the conditions as in Lemma~\ref{lem:local_one_step} above"),
)

#: Direct uses the parser cannot see (an explicit \ref{assum:...} in a proof is found by the
#: parser and need not be repeated here).
DIRECT_USES = (
    Use("prop:first-order-stein", "assum:gaussian_context", 240,
        r"For Gaussian contexts, $S(X)=X$, and",
        "no proof environment: the text before the statement justifies it (score S(X) = X)"),
    Use("prop:first-order-stein", "assum:polygrowth_g", 241,
        r"Assumption~\ref{assum:polygrowth_g} ensures the integrability and boundary",
        "the text before the statement: Stein's identity needs integrability"),
    Use("prop:population_equilibrium", "assum:gaussian_context", 1853,
        r"Since $X\sim N(0,I_d)$, we have $Z\sim N(0,1)$. Moreover, $Z$ and",
        "the reflection argument needs the isotropic Gaussian law"),
    Use("prop:population_equilibrium", "assum:polygrowth_g", 1992, r"\kappa^\star",
        "kappa* = 2E[Z g(...) 1{Z>0}] is finite only under a growth bound on g; the proof "
        "never says so", certain=False),
    Use("prop:local_jacobian", "assum:gaussian_context", 2452,
        r"Since $X\sim N(0,I_d)$, we have $Z\sim N(0,1)$, and $Z$ is",
        "Z independent of the orthogonal part: differentiating the moving half-space"),
    Use("cor:local_stability", "assum:gaussian_context", 3184,
        r"Since $X$ is Gaussian, dominated convergence permits",
        "polynomial moments of ||X|| are finite, so h o q is C^1 near 0"),
    Use("cor:local_stability", "assum:positive-stability", 3326,
        r"Because $\lambda_\star>0$, there exists $r_0>0$ such that whenever",
        "the radius r0 and lambda0 = lambda*/2 exist because lambda* > 0"),
    Use("lem:conditional_population_field", "assum:sequential_rewards", 1771,
        r"\E[Y_{t,a}\mid X_t,\mathcal H_{t-1}]",
        "the inner conditional expectation is g(beta_a^T X_t): exactly the sequential reward "
        "model (lines 1771-1773)"),
    Use("lem:conditional_population_field", "assum:gaussian_context", 1799,
        r"independent of $\mathcal H_{t-1}$ and has the same distribution as",
        "X_t independent of H_{t-1} (only assum:gaussian_context says so) with the law "
        "N(0, I_d) of the X in eq:Fdef (line 1800: '$X\\sim N(0,I_d)$')"),
    Use("prop:randomized_initialization", "assum:sequential_rewards", 1280,
        r"the tower property and the conditional-mean",
        "E[Y_{t,a} X_t | H] = E[X_t g(beta_a^T X_t) | H] uses E[Y_{t,a} | X_t, H] = m_a(X_t)"),
    Use("prop:randomized_initialization", "assum:gaussian_context", 1300,
        r"$X_t\sim N(0,I_d)$, the last expectation is equal to",
        "X_t independent of H_{t-1} and Gaussian: Stein's identity applies"),
    Use("prop:randomized_initialization", "assum:polygrowth_g", 1306,
        r"where the final equality follows from the first-order Gaussian Stein",
        "Stein's identity, whose integrability the paper attributes to assum:polygrowth_g "
        "(line 241)"),
    Use("prop:randomized_initialization", "assum:bounded_rewards", 1355, r"B_Y^2\E\|X_t\|_2^2",
        "E||W_t||^2 <= B_Y^2 E||X_t||^2 in the mean-square bound"),
    Use("lem:local_one_step", "assum:bounded_rewards", 4169, r"B_Y^2\|X_t\|_2^2.",
        "||G_t||^2 <= Y_t^2 ||X_t||^2 <= B_Y^2 ||X_t||^2"),
    Use("lem:local_one_step", "assum:gaussian_context", 4172, r"$X_t\sim N(0,I_d)$,",
        "E[||X_t||^2 | H] = d needs X_t independent of H and N(0, I_d) (line 4171-4172)"),
    Use("lem:stopped-stochastic-control", "assum:bounded_rewards", 4753, r"$|Y_s|\leq B_Y$,",
        "the pointwise bound eq:Us-pointwise-bound on U_s"),
    Use("lem:stopped-stochastic-control", "assum:gaussian_context", 4770,
        r"is fixed, while $X_s\sim N(0,I_d)$ is independent of",
        "conditional Gaussian tail of <P(v - v*), X_s> given H_{s-1}"),
    Use("lem:stopped-stochastic-control", "assum:gaussian_context", 4981,
        r"the Gaussian covariates. Applying",
        "lem:weighted_chisquare needs X_{n0+1}, ..., X_n independent N(0, I_d)"),
    Use("lem:stopped-stochastic-control", "assum:bounded_rewards", 4966, r"|Y_s|\|X_s\|_2",
        "||G_s|| <= |Y_s| ||X_s|| <= B_Y ||X_s|| (lines 4966-4968)"),
    Use("lem:stopped-stochastic-control", "cond:harmonic-step", 4883,
        r"\eta_s=\gamma/(s+t_0),", "the sums of eta_s^2 and eta_s^4"),
    Use("lem:stopped-stochastic-control", "cond:n0-t0-ge-1", 5040, r"Since $n_0+t_0\geq1$,",
        "bounding (n0+t0)^{-3/2} and (n0+t0)^{-2} by (n0+t0)^{-1}; the lemma only asks "
        "n0 + t0 >= C_Q B_Y^2 gamma^2 r0^-2 {d + log(3/delta)}, which can be < 1"),
    Use("lem:finite-horizon-localization", "cond:t0-nonneg", 5176, r"Since $t_0\geq0$,",
        "n0 + t0 >= n0 turns the lem:stopped-stochastic-control requirement into one on n0"),
    Use("prop:localized-estimation", "cond:t0-upper", 5505, r"$t_0\leq C_{\rm off}n_0$,",
        "(n0 + t0)/n0 <= 1 + C_off in the initial term of C"),
    Use("prop:localized-estimation", "cond:gamma-lambda", 5488, r"{2\gamma\lambda_0-1}",
        "lem:sa-recursion with alpha = 2 gamma lambda0 > 1"),
    Use("prop:self-concordance-stability", "assum:gaussian_context", 3924,
        r"U\sim N(0,1-\Delta_\beta^2/4)",
        "the proof uses the laws U ~ N(0, 1 - Delta^2/4), Z ~ N(0, 1) and U independent of Z "
        "(lines 3922-3926)"),
    Use("prop:self-concordance-stability", "assum:gaussian_context", 3977,
        r"Using the independence of $U$ and $Z$,",
        "mu* >= E[g'(U)] E[exp(-R Delta Z/2) 1{Z>0}] factorizes by independence"),
    Use("prop:self-concordance-stability", "assum:gaussian_context", 4004,
        r"The final equality follows by completing the square in the standard",
        "E[e^{-aZ} 1{Z>0}] = e^{a^2/2} Phi(-a) holds for Z ~ N(0, 1)"),
    Use("prop:self-concordance-stability", "cond:self-concordance", 3936,
        r"By self-concordance,", "(m2)_+ <= R E[g'(U)]"),
    Use("lem:sa-recursion", "cond:sa-start", 5352, r"Since $n_0+1+t_0\geq\alpha$, the coefficient",
        "1 - alpha/(t + t0) >= 0 in the induction step"),
    Use("lem:sa-recursion", "cond:gamma-lambda", 5378, r"$C(\alpha-1)\geq b$, and hence",
        "C (alpha - 1) >= b with C >= b/(alpha - 1) > 0 needs alpha > 1"),
    Use("thm:regret-rate", "assum:bounded_rewards", 5845,
        r"On the complementary event, bounded rewards imply $r_t\leq2B_Y$.",
        "the regret outside the localization event"),
    Use("thm:regret-rate", "cond:n0-choice", 5798, r"Set $\delta=n^{-4}$. We first verify that",
        "n0 = ceil(C0(d + log n)) with C0 >= 4 C_loc (lines 5798-5807)"),
    Use("thm:regret-rate", "cond:n0-lt-n", 5901, r"$n_0<n$,", "t0 <= C_off n0 < C_off n"),
    Use("thm:regret-rate", "cond:t0-nonneg", 5810,
        r"from zero for $d\geq1$ and $n\geq2$, this condition is also satisfied",
        "n0 + 1 + t0 >= 2 gamma lambda0 'by enlarging C0' needs t0 bounded below", False),
    Use("thm:regret-rate", "cond:n0-t0-ge-1", 5869, r"\sum_{t=n_0+1}^n\frac{1}{t-1+t_0}",
        "the harmonic sum <= 1 + log((n+t0)/(n0+t0)) needs n0 + t0 >= 1", False),
)

#: Citations without a \ref (or through a quantity defined by a cited result).
EXTRA_CITATIONS = (
    Cite("lem:stopped-stochastic-control", "lem:conditional_population_field", 4683,
         r"\E[\xi_s\mid\mathcal H_{s-1}]=0",
         "xi_s = G_s - h(v_{s-1}) is centred by lem:conditional_population_field "
         "(lines 836-838, 4128-4130); also E[G_s | H] = h(v_{s-1}) at line 4716"),
    Cite("thm:regret-rate", "eq:error-to-regret", 5824, r"the preceding bound gives",
         "the instantaneous regret bound E[r_t | H] <= C_gap (Delta/2) ||v_{t-1} - v*||^2 "
         "(lines 5738-5742, the appendix form of eq:error-to-regret)"),
)

#: Equations of the running text that proofs cite: what their derivation relies on.
TEXT_DERIVATIONS = {
    "eq:pathwise-error-recursion": (
        Cite("eq:pathwise-error-recursion", "lem:normalization", 4103,
             r"Applying Lemma~\ref{lem:normalization} with"),),
    "eq:stochastic-error-decomposition": (
        Cite("eq:stochastic-error-decomposition", "lem:conditional_population_field", 836,
             r"By Lemma~\ref{lem:conditional_population_field},"),
        Cite("eq:stochastic-error-decomposition", "eq:pathwise-error-recursion", 844,
             r"into \eqref{eq:pathwise-error-recursion} gives")),
    "eq:stopped_one_step_inequality": (
        Cite("eq:stopped_one_step_inequality", "eq:stochastic-error-decomposition", 4217,
             r"For $t>n_0$, \eqref{eq:stochastic-error-decomposition} and"),
        Cite("eq:stopped_one_step_inequality", "cor:local_stability", 4218,
             r"Corollary~\ref{cor:local_stability} imply")),
    "eq:stopped-error-bound": (
        Cite("eq:stopped-error-bound", "eq:stopped_one_step_inequality", 4255,
             r"Summing \eqref{eq:stopped_one_step_inequality} from"),),
    "eq:local-recursion-regret": (
        Cite("eq:local-recursion-regret", "lem:local_one_step", 5389,
             r"contraction in Lemma~\ref{lem:local_one_step} gives"),
        Cite("eq:local-recursion-regret", "cond:harmonic-step", 5397,
             r"For $\eta_t=\gamma/(t+t_0)$, this becomes")),
    "eq:error-to-regret": (
        Cite("eq:error-to-regret", "lem:gaussian-polynomial-disagreement", 5735,
             r"Applying Lemma~\ref{lem:gaussian-polynomial-disagreement} with"),
        Cite("eq:error-to-regret", "assum:polygrowth_g", 5720,
             r"Assumption~\ref{assum:polygrowth_g} therefore implies"),
        Cite("eq:error-to-regret", "assum:gaussian_context", 5734,
             r"$X_t\sim N(0,I_d)$ is independent of $\mathcal H_{t-1}$.")),
}

#: Text equations that only define a quantity (citing them brings in no hypothesis).
DEFINITIONS = {
    "eq:Fdef": (419, "definition of the population field F(v)"),
    "eq:decision_stability": (555, "definition of lambda*"),
    "eq:localization-martingale": (4246, "definition of M_t"),
    "eq:localization-quadratic": (4253, "definition of Q_t"),
    "eq:app_bregman_loss": (3387, "definition of the Bregman loss"),
    "eq:app_potential_from_link": (3688, "definition of the potential phi_g"),
}

#: Conditions a cited result needs that the citing proof establishes itself.
DISCHARGES = (
    Cite("thm:regret-rate", "cond:sa-start", 5808,
         r"Proposition~\ref{prop:localized-estimation} also requires",
         "n0 + 1 + t0 >= 2 gamma lambda0 by enlarging C0 (lines 5808-5811)"),
)

#: Remarks that are not findings (a use that follows from stated or standing hypotheses).
NOTES = (
    Note("prop:self-concordance-stability", 3949, r"Since $g'>0$,",
         "g' > 0 is not stated, but follows: if g'(z0) = 0 then |(g')'| <= R g' forces g' = 0 "
         "everywhere (Gronwall), contradicting std:monotone"),
    Note("prop:self-concordance-stability", 4036, r"Since $\mu^\star>0$,",
         "mu* > 0 follows from g' > 0 (previous note)"),
    Note("lem:stopped-stochastic-control", 4842, r"\leq r_0",
         "r0 enters only as the radius in tau; the bounds hold for any r0 > 0, so "
         "assum:positive-stability is not used"),
    Note("lem:gaussian-polynomial-disagreement", 5593, r"$v=\cos(\alpha)e_1+\sin(\alpha)e_2$.",
         "the proof needs d >= 2 (e_2); for d = 1 the bound holds trivially (v = +-v*)"),
    Note("thm:regret-rate", 5766, r"Fix a horizon $n\geq2$.",
         "the appendix restatement adds n >= 2; it follows from n0 < n and n0 >= 1"),
    Note("prop:randomized_initialization", 1306, r"first-order Gaussian Stein",
         "polygrowth is avoidable here: bounded rewards give |g| <= B_Y, and for increasing "
         "bounded C^1 g, E g'(Z) <= 2 B_Y phi0(0) < infinity suffices for Stein's identity"),
)

#: Context that softens a finding (shown with it; it does not remove it).
MITIGATIONS = {
    "cor:local_stability": "the corollary follows prop:local_jacobian (stated under both "
                           "assumptions) in sec:nbl, so a reader may take them as in force",
    "prop:self-concordance-stability": "mu*, m2 and lambda* are introduced in a paragraph "
                                       "that invokes assum:gaussian_context for the laws of U "
                                       "and Z (lines 511-513)",
    "lem:conditional_population_field": "cited in the main text (line 429) 'under greedy "
                                        "allocation' without assumptions either",
    "lem:stopped-stochastic-control": "an auxiliary lemma of the proof of "
                                      "lem:finite-horizon-localization, which takes over the "
                                      "assumptions of lem:local_one_step; assum:sequential_"
                                      "rewards is avoidable here (M_t stays a martingale with "
                                      "xi_s := G_s - E[G_s | H_{s-1}])",
    "lem:local_one_step": "lambda* in assum:positive-stability is only defined when "
                          "m2 = E g''(U) exists, which the paper secures by assum:polygrowth_g",
    "lem:finite-horizon-localization": "t0 >= 0 holds in every experiment (t0 = 500); "
                                       "polygrowth: as for lem:local_one_step",
    "prop:localized-estimation": "as for lem:local_one_step",
    "thm:regret-rate": "t0 >= 0 holds in every experiment (t0 = 500)",
}

#: Results without a proof environment, and where the paper justifies them instead.
NO_PROOF = {"prop:first-order-stein": (240, r"For Gaussian contexts, $S(X)=X$, and")}
