"""Exact derivatives of a link with bounded size, in a float-stable form.

Two concerns, both before sympy does the work:

* **size** — the second derivative of a product of n factors has about n² terms, each as large
  as the product, and sympy prints the whole tree when it compiles it (lambdify). The size of
  d/dz of an expression tree is estimated from the tree alone (:func:`derivative_size`, a
  generous estimate of what ``sp.diff`` builds) and a derivative whose estimate exceeds
  :data:`MAX_DERIVATIVE_NODES` is refused before it is built.
* **stability** — sympy differentiates tanh(a) to 1 − tanh(a)², which cancels catastrophically in
  the tails (tanh(a) → ±1) in float64. :func:`stable_derivatives` differentiates tanh as a
  function whose derivative *is* sech²(a) = 1/cosh(a)², written so: no global rewriting or
  expansion of the expression is ever done (``tanh(z)**21`` has g' = 21 tanh(z)²⁰/cosh(z)², exact
  in every digit; a product of ten factors 3 + tanh(z/k) stays a product).
"""

from __future__ import annotations

import sympy as sp

from .errors import NBLInputError

__all__ = [
    "MAX_DERIVATIVE_NODES",
    "derivative_size",
    "tree_size",
    "bounded_diff",
    "stable_derivatives",
]

#: Bound on the (estimated) number of nodes of a derivative's expression tree. The estimate is
#: generous (about twice the size sympy builds for products): a product of 15 factors
#: 3 + tanh(z/k) has a second derivative of about 11000 nodes (estimate 23000), which sympy
#: builds and compiles in under a second; the 10-factor product has about 3300.
MAX_DERIVATIVE_NODES = 30_000


def _size_pair(e, var, memo):
    """(tree size of e, estimated tree size of de/dvar); 0 for the latter when e does not
    depend on var."""
    hit = memo.get(e)
    if hit is not None:
        return hit
    if not e.args:
        out = (1, 1 if e == var else 0)
    else:
        ch = [_size_pair(a, var, memo) for a in e.args]
        s = 1 + sum(c[0] for c in ch)
        if not any(c[1] for c in ch):
            d = 0
        elif isinstance(e, sp.Add):
            d = 1 + sum(c[1] for c in ch)
        elif isinstance(e, sp.Mul):  # Σ_i a_i' Π_{j≠i} a_j
            d = 1 + sum(c[1] + s - c[0] for c in ch if c[1])
        elif isinstance(e, sp.Pow):
            (sb, db), (sx, dx) = ch
            d = 3 + s + db if not dx else 5 + s + 2 * sb + db + sx + dx
        else:  # f(a)' = f'(a) a': f' repeats its argument a few times (1 − tanh(a)², e^{−a²})
            d = 3 + 3 * s + sum(c[1] for c in ch)
        out = (s, d)
    memo[e] = out
    return out


def derivative_size(expr, var) -> int:
    """Estimated number of nodes of the expression tree of d expr / d var."""
    return _size_pair(expr, var, {})[1]


def tree_size(expr) -> int:
    """Number of nodes of the expression tree (shared subtrees counted each time)."""
    return _size_pair(expr, None, {})[0]


def bounded_diff(expr, var, what: str = "the derivative"):
    """``sp.diff(expr, var)``, refused before it is built when its estimated size exceeds
    :data:`MAX_DERIVATIVE_NODES`."""
    n = derivative_size(expr, var)
    if n > MAX_DERIVATIVE_NODES:
        raise NBLInputError(
            f"{what} would have about {n} expression nodes; the bound is "
            f"{MAX_DERIVATIVE_NODES} (write the expression more compactly)"
        )
    return sp.diff(expr, var)


class _Tanh(sp.Function):
    """tanh whose derivative is written sech² (see the module docstring)."""

    nargs = 1

    def fdiff(self, argindex=1):
        return _Sech2(self.args[0])


class _Sech2(sp.Function):
    """sech² = 1/cosh², derivative −2 tanh sech²."""

    nargs = 1

    def fdiff(self, argindex=1):
        a = self.args[0]
        return -2 * _Tanh(a) * _Sech2(a)


def _back(e):
    return e.replace(_Tanh, sp.tanh).replace(_Sech2, lambda a: 1 / sp.cosh(a) ** 2)


def stable_derivatives(expr, var, names=("g'", "g''")) -> tuple:
    """(g', g'') of ``expr`` in ``var``, with d tanh(a) = a'/cosh(a)² (no cancellation), each
    bounded in size by :data:`MAX_DERIVATIVE_NODES` before it is built.

    For expressions whose derivatives contain no 1 − tanh² this equals ``sp.diff``; for the
    paper's two-transition links it is the same expression the former global rewriting
    (tanh² → 1 − sech², then expand) produced, node for node.
    """
    if not expr.has(sp.tanh):
        g1 = bounded_diff(expr, var, names[0])
        return g1, bounded_diff(g1, var, names[1])
    e = expr.replace(sp.tanh, _Tanh)
    g1 = bounded_diff(e, var, names[0])
    g2 = bounded_diff(g1, var, names[1])
    return _back(g1), _back(g2)
