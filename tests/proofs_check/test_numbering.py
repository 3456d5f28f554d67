"""The PDF's numbers from the LaTeX (issue 35 item 7): LaTeX's counter rules on small documents
whose numbering is worked out by hand from the rules of article.cls and amsmath, then the
paper's own labels."""

from proofs_check.audit.numbering import latex_numbers, paper_numbers, printed

DOC = r"""
\newtheorem{theorem}{Theorem}
\newtheorem{lemma}[theorem]{Lemma}
\newtheorem{assumption}{Assumption}
\begin{document}
\section{One}\label{sec:one}
\begin{equation}\label{eq:a} x \end{equation}           % (1)
\begin{equation*} y \end{equation*}                       % no number
\begin{align}
a &= b \label{eq:b} \\                                    % (2)
c &= d \nonumber \\                                       % none
e &= \begin{cases} 1 \\ 2 \end{cases} \label{eq:c}        % (3): the cases' \\ is not a row
\end{align}
\begin{lemma}\label{lem:x} text \begin{equation}\label{eq:d} z \end{equation} \end{lemma}
\begin{assumption}\label{as:y} \end{assumption}
\subsection{Sub}\label{sec:sub}
\begin{theorem}[Named]\label{thm:z}\end{theorem}
\begin{equation}\label{eq:t} w \tag{$\star$} \end{equation}
\begin{align}\label{eq:nolabelrow} p \nonumber \\ q \end{align}
\begin{figure}\caption{F}\label{fig:f}\end{figure}
\appendix
\section{Proofs}\label{app:p}
\subsection{More}\label{app:more}
\begin{equation}\label{eq:e}\end{equation}
\end{document}
"""


def test_counters_as_latex_would():
    n = latex_numbers(DOC)
    got = {k: str(v) for k, v in n.items()}
    assert got["sec:one"] == "Section 1" and got["sec:sub"] == "Section 1.1"
    assert got["eq:a"] == "Equation (1)" and got["eq:b"] == "Equation (2)"
    assert got["eq:c"] == "Equation (3)" and got["eq:d"] == "Equation (4)"
    assert got["lem:x"] == "Lemma 1" and got["as:y"] == "Assumption 1"  # its own counter
    assert got["thm:z"] == "Theorem 2"  # shared with lemma
    assert got["eq:t"] == "Equation ($\\star$)"
    assert n["eq:nolabelrow"].number == "(1.1)" and n["eq:nolabelrow"].note  # \nonumber row
    assert got["fig:f"] == "Figure 1"
    assert got["app:p"] == "Appendix A" and got["app:more"] == "Appendix A.1"
    assert got["eq:e"] == "Equation (6)"  # equations run on through the appendix


def test_numberwithin_resets_per_section():
    doc = (
        r"\numberwithin{equation}{section}\section{A}\begin{equation}\label{e1}\end{equation}"
        r"\section{B}\begin{equation}\label{e2}\end{equation}"
        r"\begin{equation}\label{e3}\end{equation}"
    )
    n = latex_numbers(doc)
    assert [n[k].number for k in ("e1", "e2", "e3")] == ["(1.1)", "(2.1)", "(2.2)"]


def test_the_papers_numbers():
    n = paper_numbers()
    # counted by hand in the paper's LaTeX: eq:model, eq:separation_direction, eq:regret,
    # eq:Stein_for_vstar, eq:tangent_update, eq:nbl_update are the first six numbered
    # displays; eq:Fdef's label sits on a \nonumber row; then eq:mu_star_m2_def (8),
    # eq:Jacobian (9), eq:decision_stability (10)
    assert printed("eq:regret", n) == "Equation (3)"
    assert printed("eq:decision_stability", n) == "Equation (10)"
    assert printed("prop:local_jacobian", n) == "Proposition 7"
    assert printed("cor:local_stability", n) == "Corollary 9"
    assert printed("alg:nbl", n) == "Algorithm 1"
    assert n["eq:Fdef"].note  # \eqref{eq:Fdef} prints a section's number
    assert printed("app:simulation-setup", n) == "Appendix D.1"
