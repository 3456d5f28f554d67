r"""Notation audit: symbols with two meanings, constants renamed mid-proof, dangling symbols.

Semi-automatic. :data:`WATCH` lists regular expressions for the symbol variants worth watching
(``\kappa^\star``, ``\kappa(``, ``\kappa_\rho``, ``C_0``, ``C_{\rm init}``, ...);
:func:`scan_symbols` records the lines where each occurs, and the packaged scan
(``extracted.SYMBOLS``) backs the hand-curated table :data:`ENTRIES`. Every meaning there
carries a line number and a quote (the exact words on that line); the test checks the quotes
against the paper and the claim checks that each meaning's line is among the scanned
occurrences of its variant.

Kinds: ``collision`` (one symbol, two meanings), ``renamed`` (one constant, a second name or a
second value under the same name inside a proof), ``dangling`` (used, never defined), ``near``
(two visually close symbols). ``same_proof`` names the result whose proof holds both meanings;
``confusable`` is the judgement that a careful reader of that proof could mix them up — the
claim is a DISCREPANCY when some entry is both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["WATCH", "Meaning", "Entry", "ENTRIES", "scan_symbols"]

#: variant name -> regular expression over one line of LaTeX
WATCH = {
    "kappa*": r"\\kappa\^\\star",
    "kappa(a)": r"\\kappa(?:\\left)?\(",
    "kappa_rho": r"\\kappa_\\rho",
    "Phi": r"\\Phi(?![a-zA-Z])",
    "phi_0": r"\\phi_0",
    "varphi": r"\\varphi",
    "Delta_beta": r"\\Delta_\\beta",
    "Delta": r"\\Delta(?![_a-zA-Z])",
    "delta": r"\\delta(?![_a-zA-Z])",
    "delta_jk": r"\\delta_\{jk\}",
    "C": r"(?<![A-Za-z\\_])C(?=B_Y|[^_A-Za-z'])",
    "C_0": r"(?<![A-Za-z\\])C_0",
    "C_2": r"(?<![A-Za-z\\])C_2",
    "C_init": r"C_\{\\(?:mathrm\{init\}|rm init)\}(?!')",
    "C'_init": r"C_\{\\rm init\}'",
    "16B": r"\\frac\{16B_Y\^2d\}",
    "c=": r"(?<![A-Za-z\\_{])c=",
    "m_0": r"(?<![A-Za-z\\])m_0",
    "m_2": r"(?<![A-Za-z\\])m_2",
    "m_a": r"(?<![A-Za-z\\])m_(?:a|\+|-)",
    "mu_2": r"\\mu_2",
    "J": r"\\mathcal J",
    "F": r"(?<![A-Za-z\\])F(?=\(v|\\in)",
    "U": r"(?<![A-Za-z\\])U(?![A-Za-z])",
    "Z": r"(?<![A-Za-z\\])Z(?![A-Za-z])",
    "R": r"(?<![A-Za-z\\])R(?![a-z]{2}|[A-Z_])",
    "r(v)": r"(?<![A-Za-z\\])r\(v\)",
    "r_0": r"(?<![A-Za-z\\])r_0",
    "alpha": r"\\alpha(?![a-zA-Z])",
    "sigma": r"\\sigma(?![a-zA-Z])",
    "theta": r"\\theta(?![a-zA-Z])",
    "vartheta": r"\\vartheta",
    "h": r"(?<![A-Za-z\\])h\((?:v|X)",
    "q": r"(?<![A-Za-z\\])q(?:\(w\)|\\geq0)",
    "w": r"(?<![A-Za-z\\])w(?:\(r\)|\\in)",
    "lambda": r"\\lambda(?![_a-zA-Z])",
    "lambda*": r"\\lambda_\\star",
    "v_eps": r"v_\\epsilon|v_u\(\\epsilon\)",
}


@dataclass(frozen=True)
class Meaning:
    """One meaning of a symbol, where the paper gives it."""

    text: str
    variant: str          # key of WATCH
    line: int
    quote: str            # exact words on that line


@dataclass(frozen=True)
class Entry:
    """A notation finding."""

    symbol: str
    kind: str             # collision / renamed / dangling / near
    meanings: tuple
    same_proof: str = ""  # the result whose proof holds the meanings ("" if none)
    confusable: bool = False
    why: str = ""


_M = Meaning
ENTRIES = (
    Entry("kappa", "collision", (
        _M("kappa* = the radial coefficient, F(v*) = kappa* v*", "kappa*", 461,
           r"F(v^\star)=\kappa^\star v^\star"),
        _M("kappa(a) = e^{a^2/2} Phi(-a)", "kappa(a)", 747, r"\kappa(a)=e^{a^2/2}\Phi(-a),"),
        _M("kappa_rho = 2 rho (1 - log 2), the linear term of phi_rho", "kappa_rho", 6059,
           r"$\kappa_\rho=2\rho(1-\log 2)$")),
        why="three quantities in different sections; decorations tell them apart"),
    Entry("Phi", "collision", (
        _M("the standard normal distribution function", "Phi", 749,
           r"where $\Phi$ denotes the standard normal distribution function"),
        _M("a uniform angle in the proof of lem:gaussian-polynomial-disagreement", "Phi", 5596,
           r"$\Phi\sim\operatorname{Unif}[0,2\pi)$")),
        why="different results; the angle is introduced where it is used"),
    Entry("phi", "near", (
        _M("phi_0, the standard Gaussian density", "phi_0", 537,
           r"Let $\phi_0$ denote the standard Gaussian density."),
        _M("varphi, the convex potential", "varphi", 603, r"$\varphi:\mathcal I\to\R$"),
        _M("both in one display: eq:elicitation-stability-coefficient (varphi'' ...)", "varphi",
           3833, r"{\varphi''\left\{"),
        _M("... and phi_0(0) five lines later in the same display", "phi_0", 3838,
           r"2\phi_0(0)")),
        why="glyph variants (phi vs varphi); the density always carries the subscript 0"),
    Entry("Delta", "collision", (
        _M("Delta_beta = ||beta_+ - beta_-||, the arm separation", "Delta_beta", 149,
           r"\Delta_\beta=\|\beta_+-\beta_-\|_2,"),
        _M("Delta = v - v* in the proof of cor:local_stability", "Delta", 3079,
           r"\Delta=v-v^\star."),
        _M("... which also uses Delta_beta", "Delta_beta", 3046,
           r"$\|\theta\|_2^2=1-\Delta_\beta^2/4$,"),
        _M("Delta M_s = M_s - M_{s-1}, an increment", "Delta", 4670, r"\Delta M_s")),
        same_proof="cor:local_stability",
        why="a vector Delta and the scalar Delta_beta in one proof, told apart by the subscript"),
    Entry("delta", "collision", (
        _M("delta, a probability level", "delta", 317, r"for any $\delta\in(0,1)$"),
        _M("delta_jk, the Kronecker delta (proof of lem:gaussian_stein)", "delta_jk", 1234,
           r"\delta_{jk}")),
        why="different results"),
    Entry("C_0", "collision", (
        _M("C_0, a universal sub-Gaussian constant (proof of prop:randomized_initialization)",
           "C_0", 1435, r"exists a universal constant $C_0>0$ such that"),
        _M("C_0, the initialization-length constant of thm:regret-rate", "C_0", 983,
           r"sufficiently large problem-dependent constant $C_0<\infty$,")),
        why="different results"),
    Entry("C_0 -> C_2", "renamed", (
        _M("the one-step MGF bound exp(C_0 lambda^2 B_Y^2)", "C_0", 1473,
           r"C_0\lambda^2B_Y^2"),
        _M("the same bound, now written with C_2 (never introduced)", "C_2", 1489,
           r"C_2n_0\lambda^2B_Y^2"),
        _M("and again C_2 in the induction step", "C_2", 1512, r"\exp(C_2\lambda^2B_Y^2)"),
        _M("C_2 elsewhere: a moment constant of lem:tail_to_mgf's proof", "C_2", 4434,
           r"C_2\sigma\sqrt{p},")),
        same_proof="prop:randomized_initialization", confusable=True,
        why="C_0 (line 1473) silently becomes C_2 (line 1489) within three lines; C_2 is never "
            "defined in this proof"),
    Entry("C_init", "renamed", (
        _M("C_init, the universal constant of prop:randomized_initialization", "C_init", 1160,
           r"universal constant $C_{\mathrm{init}}>0$ such that"),
        _M("C_init again, applying that proposition, but now absorbing r = r0/2, c = Delta/2 "
           "and log(6/delta) -> log(3/delta): another value under the same name", "C_init",
           5141, r"$C_{\rm init}>0$ such that"),
        _M("... as the proof says", "C_init", 5160,
           r"where $C_{\rm init}$ absorbs the numerical constants arising from")),
        same_proof="lem:finite-horizon-localization", confusable=True,
        why="the proof cites the proposition's C_init and redefines it in the same sentence"),
    Entry("C'_init", "renamed", (
        _M("the explicit factor 16 of eq:initialization-mse", "16B", 1146, r"\frac{16B_Y^2d}"),
        _M("C'_init, 'a universal constant' for the bound that eq:initialization-mse gives "
           "with the explicit factor 16 (line 1146)", "C'_init", 5504,
           r"for a universal constant $C_{\rm init}'>0$. Since")),
        why="a fresh name (primed) for an explicit number; harmless but hides C'_init = 16"),
    Entry("C", "collision", (
        _M("universal constant of eq:initialization-high-probability", "C", 1155,
           r"\frac{CB_Y}{\Delta_\beta\mu_g}"),
        _M("operator-norm bound of Dh(v*) (proof of cor:local_stability)", "C", 3258,
           r"Hence, for some constant $C<\infty$,"),
        _M("Gamma(p/2)^{1/p} <= C sqrt(p) (proof of lem:tail_to_mgf)", "C", 4394,
           r"$\Gamma(p/2)^{1/p}\leq C\sqrt{p}$,"),
        _M("C = max{(n0+t0)a_{n0}, b/(alpha-1)} of lem:sa-recursion", "C", 5325,
           r"\frac{C}{t+t_0},"),
        _M("the polynomial-growth constant of the regret gap", "C", 5724,
           r"C\Delta_\beta |(v^\star)^\top X|")),
        why="each proof introduces its own C; none mixes two"),
    Entry("c", "dangling", (
        _M("'c = Delta_beta/2', referred to as if defined; c appears nowhere else (c_0 at line "
           "1521 is another constant)", "c=", 5162, r"$c=\Delta_\beta/2$"),),
        same_proof="lem:finite-horizon-localization",
        why="a left-over constant: E[W_t | H] = (Delta mu_g/2) v* has no c"),
    Entry("m_0", "collision", (
        _M("m_0 = E[g(theta^T X)] (eq:app-m0)", "m_0", 2767, r"m_0"),
        _M("m_0, an arbitrary reference point of the potential phi_g", "m_0", 3681,
           r"Fix an arbitrary reference point $m_0\in\mathcal M$ and define")),
        why="different appendices"),
    Entry("m", "near", (
        _M("m_a(x) = E[Y_{t,a} | X_t = x], a function per arm", "m_a", 130, r"m_a(x)."),
        _M("m_2 = E g''(U), a constant", "m_2", 521, r"m_2=\E\{g''(U)\}"),
        _M("mu_2, the location of the second transition, in the same subsection as m_2",
           "mu_2", 6206, r"location $\mu_2$ of the second"),
        _M("m_2 in that subsection", "m_2", 6232, r"$m_2=\E\{g''(U)\}$")),
        why="m_0, m_2 read like m_a at a = 0, 2; mu_2 and m_2 share a section"),
    Entry("J", "collision", (
        _M("J(v), the potential whose Riemannian gradient is h", "J", 440, r"\mathcal J(v)"),
        _M("J = varphi'(I), the dual domain", "J", 3511, r"\mathcal J=\varphi'(\mathcal I)")),
        why="different sections"),
    Entry("F", "collision", (
        _M("F(v), the population field (eq:Fdef)", "F", 420, r"F(v)"),
        _M("F, a distribution in lem:bregman_mean", "F", 3394,
           r"Let $F\in\mathcal F$ have finite mean")),
        why="different sections"),
    Entry("U", "collision", (
        _M("U = theta^T X", "U", 511, r"$U=\theta^\top X$"),
        _M("U, a generic random variable (lem:tail_to_mgf)", "U", 4336,
           r"Let $U$ be a real-valued random variable"),
        _M("U_s = <v_{s-1} - v*, G_s> (proof of lem:stopped-stochastic-control)", "U", 4708,
           r"U_s"),
        _M("U = theta_perp^T X (proof of lem:gaussian-polynomial-disagreement), next to "
           "theta^T X", "U", 5620, r"$U=\theta_\perp^\top X$.")),
        why="redefined locally each time; in the last proof theta^T X is written out"),
    Entry("Z", "collision", (
        _M("Z = (v*)^T X (eq:Z-def)", "Z", 1843, r"Z=(v^\star)^\top X."),
        _M("Z = U - E[U | G] (proof of lem:tail_to_mgf)", "Z", 4406, r"Z"),
        _M("Z_1, ..., Z_m, Gaussian vectors (lem:weighted_chisquare)", "Z", 4595,
           r"Let $Z_1,\ldots,Z_m$ be independent $N(0,I_d)$ random vectors,")),
        why="different results"),
    Entry("R", "collision", (
        _M("R, the self-concordance constant", "R", 730, r"|g''(z)|\leq Rg'(z),"),
        _M("R, the radius of (X_1, X_2) (proof of lem:gaussian-polynomial-disagreement)", "R",
           5595, r"$X_1=R\cos\Phi$")),
        why="different results"),
    Entry("r", "collision", (
        _M("r(v), the remainder of the linearization (proof of cor:local_stability)", "r(v)",
           3208, r"Dh(v^\star)[u]+r(v),"),
        _M("r_0, the stability radius, in the same proof", "r_0", 3326,
           r"there exists $r_0>0$ such that whenever")),
        same_proof="cor:local_stability", why="a function r(v) and a constant r_0"),
    Entry("alpha", "collision", (
        _M("alpha, the angle of v(alpha) on the circle", "alpha", 2026,
           r"v(\alpha)=(\cos\alpha,\sin\alpha)^\top."),
        _M("alpha > 1, the rate of lem:sa-recursion (alpha = 2 gamma lambda0)", "alpha", 5309,
           r"Let $\alpha>1$ and $b>0$"),
        _M("alpha, the angle between v and v*", "alpha", 5590,
           r"Let $\alpha\in[0,\pi]$ denote the angle")),
        why="different results"),
    Entry("sigma", "collision", (
        _M("sigma(...), a sigma-field", "sigma", 118, r"\mathcal H_{t-1}=\sigma("),
        _M("sigma, a G-measurable sub-Gaussian scale (lem:tail_to_mgf)", "sigma", 4350,
           r"where $\sigma$ is a nonnegative $\mathcal G$-measurable random"),
        _M("sigma_s^2, the MGF variance proxy with exp(lambda^2 sigma_s^2/2) "
           "(lem:maximal-subgaussian-martingale)", "sigma", 4459,
           r"\exp\left(\frac{\lambda^2\sigma_s^2}{2}\right)")),
        why="the two lemmas normalize sigma differently; the proof that chains them "
            "(lem:stopped-stochastic-control) never writes the second sigma_s"),
    Entry("theta", "near", (
        _M("theta, the common part of beta_a", "theta", 508,
           r"$\beta_a=\theta+a(\Delta_\beta/2)v^\star$"),
        _M("vartheta = varphi'(r), the dual coordinate", "vartheta", 621,
           r"$\vartheta=\varphi'(r)$")),
        why="glyph variants in different sections"),
    Entry("h", "collision", (
        _M("h(v) = P_v^perp F(v), the tangent field", "h", 428, r"Let $h(v)=P_v^\perp F(v)$."),
        _M("h(X) = f(beta^T X) (proof of lem:gaussian_stein)", "h", 1213, r"\E[X_j h(X)]")),
        why="different results"),
    Entry("q", "collision", (
        _M("q >= 0, the polynomial-growth exponent", "q", 234, r"$q\geq0$"),
        _M("q(w), a chart of the sphere (proof of cor:local_stability, which cites "
           "assum:polygrowth_g at line 3182)", "q", 3148, r"q(w)")),
        why="the proof cites the assumption whose exponent is q but never writes q"),
    Entry("w", "collision", (
        _M("w, a tangent vector (proof of cor:local_stability)", "w", 3145,
           r"$w\in T_{v^\star}\mathbb S^{d-1}$"),
        _M("w(r) = varphi''(r), the Bregman weight", "w", 3458, r"w(r)=\varphi''(r).")),
        why="different sections"),
    Entry("lambda", "collision", (
        _M("lambda, an MGF argument (proof of prop:randomized_initialization)", "lambda", 1439,
           r"\lambda"),
        _M("lambda*, the decision stability coefficient", "lambda*", 556, r"\lambda_\star")),
        why="lambda without decoration is always an MGF argument; lambda* and lambda0 never "
            "share a proof with it"),
    Entry("v_eps", "near", (
        _M("v_u(eps) = (v* + eps u)/||v* + eps u||, the path defining Dh(v*)[u]", "v_eps", 2231,
           r"v_u(\epsilon)"),
        _M("v_eps = cos(eps||u||) v* + sin(eps||u||) u/||u||, the path DF is computed on",
           "v_eps", 2420, r"v_\epsilon")),
        same_proof="prop:local_jacobian",
        why="two different curves with the same velocity u at 0; both notations are defined"),
)


def scan_symbols(text: str) -> dict:
    """variant -> sorted list of the (1-based) lines where its pattern occurs."""
    lines = text.split("\n")
    return {name: [i for i, t in enumerate(lines, 1) if re.search(pat, t)]
            for name, pat in WATCH.items()}
