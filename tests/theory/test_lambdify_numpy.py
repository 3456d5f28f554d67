"""``lambdify_numpy`` makes the function ``sympy.lambdify(..., modules=["numpy"])`` makes:
the same generated source and the same float64 values, bit for bit, on every derivative
(orders 0-3) of the link corpus's expression links and the named families, and of the
potentials' derivatives in m. (It builds numpy's namespace without ``from numpy import *``,
which costs ~0.2 s of start-up: nbl_theory/link_numeric.py.)"""

import inspect

import numpy as np
import pytest
import sympy as sp

from nbl_theory.families import FAMILIES, make_family
from nbl_theory.link_numeric import lambdify_numpy
from nbl_theory.links import Link, M, Z

from .test_link_corpus import VALID

X = np.concatenate([np.linspace(-40, 40, 801), [0.0, -0.0, 1e-300, 700.0, -700.0]])


def _expressions():
    out = []
    for cid, arg, _ in VALID:
        if isinstance(arg, str):
            out.append((cid, Link.from_expression(arg).expr, Z))
    for name in sorted(FAMILIES):
        try:
            link = make_family(name)
        except Exception:  # refused as a whole (burg-entropy)
            continue
        out.append((name, link.expr, Z if link.kind == "expression" else M))
    return [(f"{cid}-d{k}", sp.diff(e, v, k), v) for cid, e, v in out for k in range(4)]


def _sympy_default(expr, var):
    """sympy's own lambdify with modules=["numpy"] (erf/erfc from scipy, as the toolkit)."""
    if expr.has(sp.erf, sp.erfc):
        import scipy.special

        mods = [{"erf": scipy.special.erf, "erfc": scipy.special.erfc}, "numpy"]
    else:
        mods = ["numpy"]
    return sp.lambdify(var, expr, modules=mods)


@pytest.mark.parametrize(
    "cid,expr,var", _expressions(), ids=lambda x: x if isinstance(x, str) else ""
)
def test_same_source_and_bits_as_sympys_numpy_lambdify(cid, expr, var):
    if not expr.has(var):
        return  # constants are broadcast by lambdify_numpy itself
    ours, theirs = lambdify_numpy(expr, var), _sympy_default(expr, var)
    assert inspect.getsource(ours) == inspect.getsource(theirs)
    x = X if var == Z else np.linspace(1e-6, 1 - 1e-6, 501)
    with np.errstate(all="ignore"):
        a, b = np.asarray(ours(x), dtype=float), np.asarray(theirs(x), dtype=float)
    assert np.array_equal(a.view(np.int64), b.view(np.int64))  # the same bits, NaNs included
