"""The library mutants: one-line bugs generated from a module's AST.

A mutant is one site of a module's syntax tree changed by one operator (:data:`OPERATORS`):

``const*2``, ``const/2``, ``const+1``, ``const-1``, ``const-neg``
    a numeric constant doubled, halved (floats and even integers), moved by one (an
    off-by-one for integers) or negated;
``binop``
    ``+`` ↔ ``-``, ``*`` ↔ ``/``, ``**`` → ``*``, ``//`` → ``/``;
``drop-term``
    ``a + b`` → ``a`` or ``b``, ``a - b`` → ``a``, ``a * b`` → ``a`` (a dropped factor);
``swap-operands``
    ``a - b`` → ``b - a``, ``a / b`` → ``b / a``;
``unary-sign``
    ``-a`` → ``a``;
``swap-args``
    the first two positional arguments of a call exchanged (not for symmetric functions);
``swap-index``
    ``x[i, j]`` → ``x[j, i]``;
``compare``
    ``<`` ↔ ``<=``, ``>`` ↔ ``>=``, ``<`` ↔ ``>``, ``==`` ↔ ``!=``;
``max-min``
    ``max`` ↔ ``min`` (also ``maximum``/``minimum``, ``fmax``/``fmin``, ``argmax``/``argmin``);
``range-off-by-one``
    ``range(.., b)`` → ``range(.., b ± 1)``, and the start of a two-argument range + 1.

What is never mutated: docstrings and every other string, booleans and ``None``, the arguments
of a ``raise``, ``assert`` and ``warnings.warn`` (messages and input checks), decorators,
annotations, and ``if TYPE_CHECKING:`` blocks.

Trivially equivalent mutants are not generated (their count is kept, with the reason): a
constant 0 doubled, halved or negated, an exchange of two identical arguments or indices, a
mutation whose tree unparses to the original. :func:`equivalent_reason` also compiles the
mutated module and compares its bytecode with the original's (constant folding).

A mutant is identified by ``module:line:col:operator:variant`` (``#k`` appended to the k-th later
mutant of one name: nested expressions starting at one column); the same source gives the same
mutants in the same order, so a seeded sample is reproducible as long as the code is.
"""

from __future__ import annotations

import ast
import copy
import dis
from collections import Counter
from dataclasses import asdict, dataclass, replace

__all__ = [
    "OPERATORS",
    "MutantSpec",
    "generate",
    "mutate_tree",
    "mutated_code",
    "equivalent_reason",
]

OPERATORS = (
    "const*2",
    "const/2",
    "const+1",
    "const-1",
    "const-neg",
    "binop",
    "drop-term",
    "swap-operands",
    "unary-sign",
    "swap-args",
    "swap-index",
    "compare",
    "max-min",
    "range-off-by-one",
)

_BINOP_SWAP = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Div,
    ast.Div: ast.Mult,
    ast.Pow: ast.Mult,
    ast.FloorDiv: ast.Div,
}
_CMP_SWAP = {
    ast.Lt: (ast.LtE, ast.Gt),
    ast.LtE: (ast.Lt, ast.GtE),
    ast.Gt: (ast.GtE, ast.Lt),
    ast.GtE: (ast.Gt, ast.LtE),
    ast.Eq: (ast.NotEq,),
    ast.NotEq: (ast.Eq,),
}
_MAXMIN = {
    "max": "min",
    "min": "max",
    "maximum": "minimum",
    "minimum": "maximum",
    "fmax": "fmin",
    "fmin": "fmax",
    "amax": "amin",
    "amin": "amax",
    "argmax": "argmin",
    "argmin": "argmax",
    "nanmax": "nanmin",
    "nanmin": "nanmax",
}
#: calls whose first two arguments commute (exchanging them is equivalent)
_SYMMETRIC = {
    "max",
    "min",
    "maximum",
    "minimum",
    "fmax",
    "fmin",
    "hypot",
    "add",
    "multiply",
    "isclose",
    "allclose",
    "array_equal",
    "gcd",
    "lcm",
    "fsum",
    "mpf",
    "mpc",
    "zip",
    "dict",
    "set",
    "print",
    "log",
    "sqrt",
    "exp",
}
#: calls never mutated inside (messages, checks)
_SKIP_CALLS = {
    "warn",
    "NBLInputError",
    "ValueError",
    "TypeError",
    "RuntimeError",
    "format",
    "join",
    "startswith",
    "endswith",
    "isinstance",
    "getattr",
    "hasattr",
    "setattr",
    "njit",
    "jit",
    "register",
    "field",
    "dataclass",
}


@dataclass(frozen=True)
class MutantSpec:
    """One mutant: where (``module``, ``path`` relative to the project root, ``line``, ``col``,
    ``end_line``), which ``operator`` and ``variant``, and ``before`` → ``after`` (the mutated
    expression as source)."""

    module: str
    path: str
    line: int
    col: int
    end_line: int
    operator: str
    variant: int
    before: str
    after: str
    #: the position among mutants of one name (nested expressions starting at one column, e.g.
    #: ``a * b * c`` and its ``a * b``): 0 for the first, which keeps the plain name
    dup: int = 0

    @property
    def id(self) -> str:
        base = f"{self.module}:{self.line}:{self.col}:{self.operator}:{self.variant}"
        return f"{base}#{self.dup}" if self.dup else base

    def to_dict(self) -> dict:
        return {"id": self.id, **asdict(self)}

    @classmethod
    def from_dict(cls, d: dict) -> MutantSpec:
        return cls(
            **{
                k: d[k]
                for k in (
                    "module",
                    "path",
                    "line",
                    "col",
                    "end_line",
                    "operator",
                    "variant",
                    "before",
                    "after",
                )
            },
            dup=d.get("dup", 0),
        )


def _callee(node: ast.Call) -> str:
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def _number(node) -> bool:
    return (
        isinstance(node, ast.Constant)
        and type(node.value) in (int, float)
        and not isinstance(node.value, bool)
    )


def _candidates(node: ast.AST):
    """The (operator, variant, replacement builder) triples of one node; each builder takes a
    deep copy of the node and returns the node to put in its place."""
    out = []
    if _number(node):
        v = node.value
        if v != 0:
            out.append(("const*2", 0, lambda n: ast.Constant(n.value * 2)))
            out.append(("const-neg", 0, lambda n: ast.Constant(-n.value)))
            if isinstance(v, float):
                out.append(("const/2", 0, lambda n: ast.Constant(n.value / 2)))
            elif v % 2 == 0:
                out.append(("const/2", 0, lambda n: ast.Constant(n.value // 2)))
        if isinstance(v, int):
            out.append(("const+1", 0, lambda n: ast.Constant(n.value + 1)))
            out.append(("const-1", 0, lambda n: ast.Constant(n.value - 1)))
        elif v != 0:
            out.append(("const+1", 0, lambda n: ast.Constant(n.value + 1.0)))
    elif isinstance(node, ast.BinOp):
        op = type(node.op)
        if op in _BINOP_SWAP:
            new = _BINOP_SWAP[op]
            out.append(("binop", 0, lambda n, new=new: ast.BinOp(n.left, new(), n.right)))
        if op in (ast.Add, ast.Sub):
            out.append(("drop-term", 0, lambda n: n.left))
            if op is ast.Add:
                out.append(("drop-term", 1, lambda n: n.right))
        if op is ast.Mult:
            out.append(("drop-term", 0, lambda n: n.left))
        if op in (ast.Sub, ast.Div) and ast.dump(node.left) != ast.dump(node.right):
            out.append(("swap-operands", 0, lambda n: ast.BinOp(n.right, n.op, n.left)))
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        out.append(("unary-sign", 0, lambda n: n.operand))
    elif isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _CMP_SWAP:
        for k, new in enumerate(_CMP_SWAP[type(node.ops[0])]):
            out.append(
                ("compare", k, lambda n, new=new: ast.Compare(n.left, [new()], n.comparators))
            )
    elif isinstance(node, ast.Call):
        name = _callee(node)
        if name in _MAXMIN:

            def swap_name(n, new=_MAXMIN[name]):
                if isinstance(n.func, ast.Name):
                    n.func = ast.Name(new, ast.Load())
                else:
                    n.func = ast.Attribute(n.func.value, new, ast.Load())
                return n

            out.append(("max-min", 0, swap_name))
        if name == "range" and node.args and not node.keywords:
            stop = len(node.args) - 1 if len(node.args) < 3 else 1
            for k, delta in enumerate((1, -1)):

                def shift(n, i=stop, delta=delta):
                    n.args[i] = ast.BinOp(
                        n.args[i], ast.Add() if delta > 0 else ast.Sub(), ast.Constant(1)
                    )
                    return n

                out.append(("range-off-by-one", k, shift))
            if len(node.args) >= 2:

                def shift_start(n):
                    n.args[0] = ast.BinOp(n.args[0], ast.Add(), ast.Constant(1))
                    return n

                out.append(("range-off-by-one", 2, shift_start))
        plain = [a for a in node.args[:2] if not isinstance(a, ast.Starred)]
        if (
            len(node.args) >= 2
            and len(plain) == 2
            and name not in _SYMMETRIC
            and name not in _MAXMIN
            and name != "range"
            and ast.dump(node.args[0]) != ast.dump(node.args[1])
        ):

            def swap_args(n):
                n.args[0], n.args[1] = n.args[1], n.args[0]
                return n

            out.append(("swap-args", 0, swap_args))
    elif (
        isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.Tuple)
        and len(node.slice.elts) == 2
        and not any(isinstance(e, (ast.Slice, ast.Starred)) for e in node.slice.elts)
        and ast.dump(node.slice.elts[0]) != ast.dump(node.slice.elts[1])
    ):

        def swap_index(n):
            n.slice.elts = [n.slice.elts[1], n.slice.elts[0]]
            return n

        out.append(("swap-index", 0, swap_index))
    return out


def _skipped_children(node: ast.AST) -> set:
    """ids of the subtrees of ``node`` that are never mutated."""
    skip = set()
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        skip.update(id(d) for d in node.decorator_list)
        if not isinstance(node, ast.ClassDef):
            if node.returns is not None:
                skip.add(id(node.returns))
            skip.update(
                id(x.annotation)
                for x in ast.walk(node.args)
                if isinstance(x, ast.arg) and x.annotation is not None
            )
    if isinstance(node, (ast.Raise, ast.Assert)):
        skip.add(id(node))
    if isinstance(node, ast.AnnAssign):
        skip.add(id(node.annotation))
    if isinstance(node, ast.Call) and _callee(node) in _SKIP_CALLS:
        skip.add(id(node))
    if (
        isinstance(node, ast.If)
        and isinstance(node.test, ast.Name)
        and node.test.id == "TYPE_CHECKING"
    ):
        skip.add(id(node))
    if isinstance(node, ast.JoinedStr):
        skip.add(id(node))
    return skip


def _walk(tree: ast.AST):
    """The nodes that may be mutated, in a fixed (depth-first, source) order."""
    skip: set = set()

    def visit(node, parent_fields=None):
        if id(node) in skip:
            return
        skip.update(_skipped_children(node))
        if id(node) in skip:
            return
        yield node
        for child in ast.iter_child_nodes(node):
            yield from visit(child)

    # docstrings: the first Expr(Constant str) of a module, class or function body
    for n in ast.walk(tree):
        if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = n.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                skip.add(id(body[0]))
        if isinstance(n, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in n.targets
        ):
            skip.add(id(n))
    yield from visit(tree)


def _sites(tree: ast.AST):
    """(node, operator, variant, builder) for every mutation of ``tree``, in order."""
    for node in _walk(tree):
        if not hasattr(node, "lineno"):
            continue
        for op, variant, build in _candidates(node):
            yield node, op, variant, build


def _replace(tree: ast.AST, target: ast.AST, new: ast.AST) -> None:
    for parent in ast.walk(tree):
        for name, value in ast.iter_fields(parent):
            if value is target:
                setattr(parent, name, new)
                return
            if isinstance(value, list):
                for i, v in enumerate(value):
                    if v is target:
                        value[i] = new
                        return
    raise LookupError("mutation site not found")


def generate(source: str, module: str, path: str = "") -> tuple[list[MutantSpec], Counter]:
    """Every mutant of ``source`` (the text of ``module``), and the count of trivially
    equivalent mutants not generated, by reason.

    Examples
    --------
    >>> muts, _ = generate("def f(d):\\n    return 1 - d * d / 4\\n", "m")
    >>> [m.after for m in muts if m.operator == "const*2"]   # the mutated constants: 1 -> 2, 4 -> 8
    ['2', '8']
    """
    tree = ast.parse(source)
    out, skipped = [], Counter()
    for node, op, variant, build in _sites(tree):
        before = ast.unparse(node)
        try:
            new = build(copy.deepcopy(node))
        except Exception:  # noqa: BLE001 - an operator that does not apply here
            continue
        after = ast.unparse(new)
        if after == before:
            skipped["unparses to the original"] += 1
            continue
        out.append(
            MutantSpec(
                module,
                path,
                node.lineno,
                node.col_offset,
                getattr(node, "end_lineno", node.lineno) or node.lineno,
                op,
                variant,
                before,
                after,
            )
        )
    # a node and its variant can coincide (two operators giving the same text): keep one
    seen, unique = set(), []
    for m in out:
        key = (m.line, m.col, m.before, m.after)
        if key in seen:
            skipped["the same text as another mutant of the site"] += 1
            continue
        seen.add(key)
        unique.append(m)
    # two mutants of nested expressions at one column would share a name: number the later ones
    names: Counter = Counter()
    for i, m in enumerate(unique):
        name = m.id
        if names[name]:
            unique[i] = replace(m, dup=names[name])
        names[name] += 1
    return unique, skipped


def mutate_tree(source: str, spec: MutantSpec) -> ast.Module:
    """The syntax tree of ``source`` with ``spec`` applied (line numbers kept, so tracebacks
    and coverage point at the original lines)."""
    tree = ast.parse(source)
    for node, op, variant, build in _sites(tree):
        if (node.lineno, node.col_offset, op, variant) == (
            spec.line,
            spec.col,
            spec.operator,
            spec.variant,
        ):
            if ast.unparse(node) != spec.before:
                continue
            new = build(copy.deepcopy(node))
            ast.copy_location(new, node)
            _replace(tree, node, new)
            ast.fix_missing_locations(tree)
            return tree
    raise LookupError(f"mutant {spec.id} does not apply to this source (was it edited?)")


def mutated_code(source: str, spec: MutantSpec, filename: str):
    """The module code object of ``source`` with ``spec`` applied, compiled as ``filename``."""
    return compile(mutate_tree(source, spec), filename, "exec", dont_inherit=True)


def _signature(code) -> tuple:
    """The instructions of ``code`` with their arguments' values (a constant the bytecode
    never loads, e.g. one left in ``co_consts`` by eliminated dead code, does not count)."""
    out = []
    for ins in dis.get_instructions(code):
        v = ins.argval
        out.append(
            (ins.opname, _signature(v) if hasattr(v, "co_code") else (type(v).__name__, repr(v)))
        )
    return tuple(out)


def equivalent_reason(source: str, spec: MutantSpec) -> str | None:
    """Why ``spec`` is trivially equivalent to the original module (None if it is not known to
    be): the same bytecode after compilation (e.g. constant folding), or a site inside
    ``if False:`` / ``if __debug__`` dead code."""
    orig = compile(source, "<orig>", "exec", dont_inherit=True)
    mut = compile(mutate_tree(source, spec), "<orig>", "exec", dont_inherit=True)
    if _signature(orig) == _signature(mut):
        return "the same bytecode as the original"
    return None
