"""The proof-step ledger: every relation step of the paper's proofs and appendix derivations,
transcribed and checked one by one.

Pieces
------
:mod:`.parse`
    the paper's LaTeX -> display blocks -> relation steps (``OWNER/bNN/sNN`` ids, line, relation,
    left and right side as LaTeX, a 12-hex hash of that LaTeX); reuses
    :func:`proofs_check.audit.latex.parse_paper` to know which proof proves which result;
:mod:`.store`
    the transcriptions (Python data modules in :mod:`.transcriptions`, one per proof);
:mod:`.methods`
    the methods (symbolic, certified, expectation, sampled, cited, asymptotic, prose);
:mod:`.runner`
    matching steps to transcriptions (stale when the hash differs), the checks, the mutants;
:mod:`.report`
    per-proof counts, the "Proofs, step by step" report section and ``nbl proof LABEL``.

Where the paper's text comes from: :func:`proofs_check.paper_source.paper_source` (the pinned
copy shipped with the package, ``--paper PATH`` or ``NBL_PAPER``). A step whose LaTeX differs
from the text its transcription was made from is *stale*: listed, never checked.

How to add a step's transcription
---------------------------------
1. Find the step: ``nbl proof LABEL`` (or ``--json``) lists every step of the proof of
   ``LABEL`` with its id (``prop:local_jacobian/b14/s02``: block 14 of that proof, its 2nd
   relation), line, LaTeX and hash. Appendix text outside proofs has owners
   ``text:<section label>``.
2. Add an entry to ``STEPS`` of the proof's module in ``proofs_check/ledger/transcriptions/``
   (module name: the label with ``:`` and ``-`` replaced by ``_``; create it if needed)::

       "prop:local_jacobian/b14/s02": dict(
           hash="3f0c...",                       # the step's hash, as ``nbl proof`` prints it
           method="symbolic",
           symbols={"k": "positive", "a": "real"},   # name -> real / positive / nonnegative /
                                                     #   negative / integer / nonzero
           defs={"vs": "Matrix([c, s, 0])"},     # macros (sympy text), in order
           lhs="...", rhs="...",                 # sympy text of the two sides
           rel=None,                             # default: the paper's relation
           hypotheses="what is in force at this step (the proof's assumptions, domains)",
           note="how the LaTeX was read (e.g. 'vectors in d = 3 with v* = e1')",
       ),

   Keys: ``hash``, ``method``, ``lhs``, ``rhs``, ``rel`` (``=``, ``<=``, ``>=``, ``<``, ``>``,
   ``!=``, ``lesssim``, ``asymp``), ``symbols``, ``defs``, ``domain`` ({name: [lo, hi]}, decimal
   strings or numbers, for *certified* and *sampled*), ``gaussian`` (the standard normal
   variables of *expectation*, at most two), ``breaks`` (where the integrand jumps, default
   ``[0]``), ``at`` (parameter points of *expectation*, a list of {name: value}),
   ``sequence`` ({var: [values]} for *asymptotic*), ``modulo`` (``["eps", 1]``: an equality up to
   o(eps^1) as eps -> 0+), ``cite`` and ``via`` (*cited*: the label applied and the method that
   checks the instance), ``second`` (the second method a refutation must agree with; default
   *sampled* where there is a domain), ``mutant`` ({"lhs"/"rhs"/"rel": ...} replacing the
   default mutant), ``finding`` ({"status": "CAVEAT", "missing": "the condition", "domain":
   {...}} for a known finding), ``hypotheses``, ``note``.
   Text is parsed by sympy in a closed namespace: the symbols, the ``defs``, and
   :data:`proofs_check.ledger.expr.NAMESPACE` (``exp``, ``log``, ``sqrt``, ``Phi`` (normal CDF),
   ``phi`` (density), ``E`` (a Gaussian expectation), ``Matrix``, ``diff``, ``Integral`` ...).
   sympy's LaTeX parser is not used (it needs ANTLR at a pinned version and reads little of this
   paper's notation): every transcription is by hand, stored next to the step's hash.
3. Run ``nbl proof LABEL``: the step must be PASS (or a finding, which needs its second method),
   and its mutant must be killed (``python -m proofs_check.mutation --module ledger``).

How to choose a method
----------------------
* *symbolic* — an identity or inequality that sympy can prove for all values allowed by the
  symbols' assumptions, helped by a few sound rules in :mod:`.methods` (a product of
  nonnegative factors, exp(a) - exp(b) with a >= b, a Max or Min equals one of its arguments).
  Finite-dimensional vectors are written in coordinates with free symbols; a statement for
  every d is transcribed for a generic vector in a small d only when the proof's algebra does
  not depend on d — say so in ``note``.
* *certified* — an inequality in a few real variables over a bounded box (``domain``), proved
  by Arb interval arithmetic with bisection; an unbounded domain is cut at a stated bound
  (``hypotheses``) with the tail argued in ``note``.
* *expectation* — an identity between Gaussian expectations, by mpmath quadrature at 30 digits
  with its error estimate, at the parameter points ``at`` (e.g. the paper's Δ and links).
* *cited* — the step applies a named lemma/equation (``cite``): the instance is transcribed as
  ``lhs``/``rhs`` and checked ``via`` another method; the cited label must exist in the paper.
  A display that restates a formula defined elsewhere (``Recall that W_t = ...``, the
  simulation setup's mu*) is cited to that definition: ``lhs`` the formula as printed there,
  ``rhs`` as printed here, so a restatement that drifts fails; so is a condition that restates
  the statement's hypothesis. A definition of a name the paper has already given a meaning is
  cited to that meaning and checked (the proof's ``Dh(v*)[u] := d/deps h(v_u(eps))`` against
  the main text's "directional derivative along u"; kappa* against the statement's
  F(v*) = kappa* v*), and a choice (``where we may take C_e = ...``) is checked against what it
  must satisfy (C <= C_e d). A symbol or event introduced where it is printed with nothing
  before it (``Let``, ``define``, ``:=``) is a definition: *prose*.
* *asymptotic* — an order statement (``lesssim``, ``O(.)``): the ratio |lhs|/|rhs| is computed
  along ``sequence`` and must stay bounded.
* *sampled* — 50-digit evaluation at 48 seeded points and the box's corners: evidence, not
  proof; it does not count towards coverage.
* *prose* — no relation (a definition ``:=``, a condition such as ``\\epsilon\\ge0``, a set
  written with ``=``): ``note`` says which.

Mutants: every checked step has one (:func:`proofs_check.ledger.runner.mutant_of`; a vector or
matrix equality gets one entry shifted, so no custom mutant is needed for it) and the registry
claim ``ledger-OWNER`` lists them, so ``nbl check --mutate`` counts them.
"""

__all__ = ["parse", "store", "methods", "runner", "METHODS", "PROOF_METHODS"]

# The vocabulary lives here, not in .methods (which re-exports it), so that reading the
# transcriptions (.store, ``nbl proof --list``) does not import sympy, mpmath and python-flint.
#: every method a step may be checked by (see above)
METHODS = ("symbolic", "certified", "expectation", "sampled", "cited", "asymptotic", "prose")
#: the methods that count towards coverage (not prose, not sampled: evidence, not proof)
PROOF_METHODS = ("symbolic", "certified", "expectation", "cited", "asymptotic")
