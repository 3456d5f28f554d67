"""Every name in the API reference has its numpydoc sections, checked by numpydoc's validator.

The names: every function and class in the ``__all__`` of a public module
(``docs/_ext/nbl_public.py``, followed to the module that defines it), and the public methods
and properties of those classes (names without a leading underscore, defined in the class or in
one of its bases from the three packages). Each is passed to ``numpydoc.validate.validate``; a
classmethod is validated through its function (numpydoc's validator does not check the Returns
of a bound method, so a classmethod would otherwise never need one).

The error codes that fail the test, and why these:

- ``GL08`` no docstring: nothing to render.
- ``PR01`` a parameter of the signature is not documented; ``PR02`` a documented parameter is
  not in the signature (renamed or removed); ``PR03`` the documented order is not the
  signature's. Keyword-only parameters are parameters like any other; ``*args`` and
  ``**kwargs`` are documented as ``*args`` and ``**kwargs`` (numpydoc's convention). A class
  documents its constructor's parameters in its own docstring (a dataclass: its fields).
- ``PR04`` a parameter without a type, ``PR07`` without a description, ``PR10`` a parameter
  line numpydoc cannot split (no space before the colon): the section exists but does not say
  what the parameter is.
- ``RT01`` no Returns section in a function that returns a value (numpydoc's reading of the
  source: some ``return`` with a value other than ``None``; a function returning None needs
  none); ``RT03`` a returned value without a description. ``YD01``: the same for a generator
  (Yields).
- ``GL06`` a section numpydoc does not know (a misspelt ``Return`` is not a Returns section)
  and ``GL07`` sections out of numpydoc's order.

Not checked, because they are typography or optional sections rather than a missing
description of the interface: the summary's form (``SS0*``: capital, period, one line,
infinitive verb), blank lines and quotes (``GL01``–``GL03``), capitals and periods in
descriptions (``PR08``, ``PR09``, ``RT04``, ``RT05``), the spelling of types (``PR05``,
``PR06``), a named single return (``RT02``, which numpydoc's format allows), and the optional
Extended Summary, See Also and Examples sections (``ES01``, ``SA01``, ``EX01``). Properties are
checked for a docstring only (they are documented as attributes: no Parameters, no Returns).

There is no allow-list: every public name passes, the engine seam (:mod:`nbl_sim.engine`) and
the modules it fronts included.
"""

from __future__ import annotations

import functools
import importlib
import inspect

import pytest

from tests.docs.test_docs_build import _module_all, nbl_public

numpydoc_validate = pytest.importorskip("numpydoc.validate")

#: The error codes that fail (see the module docstring for why each).
CODES = frozenset(
    {"GL06", "GL07", "GL08", "PR01", "PR02", "PR03", "PR04", "PR07", "PR10", "RT01", "RT03", "YD01"}
)
#: The codes that apply to a property (an attribute: it has no parameters and no Returns).
PROPERTY_CODES = frozenset({"GL08"})
PACKAGES = ("nbl_theory", "nbl_sim", "proofs_check")


def _public_items() -> list[tuple[str, str]]:
    """``(import path, kind)`` of every checked name: kind is ``function``, ``class``,
    ``method``, ``classmethod`` or ``property``; paths use the defining module."""
    items = {}
    for module in nbl_public.public_modules():
        for name in _module_all(module):
            home, kind = nbl_public.home(module, name)
            if kind == "data":
                continue
            path = f"{home}.{name}"
            items.setdefault(path, kind)
            if kind == "class":
                for member, member_kind in _class_members(path):
                    items.setdefault(member, member_kind)
    return sorted(items.items())


def _class_members(path: str) -> list[tuple[str, str]]:
    cls = _load(path)
    out, seen = [], set()
    for klass in cls.__mro__:
        if klass.__module__.split(".")[0] not in PACKAGES:
            continue
        for attr, value in vars(klass).items():
            if attr.startswith("_") or attr in seen:
                continue
            seen.add(attr)
            if isinstance(value, (property, functools.cached_property)):
                out.append((f"{path}.{attr}", "property"))
            elif isinstance(value, classmethod):
                out.append((f"{path}.{attr}", "classmethod"))
            elif isinstance(value, staticmethod) or inspect.isfunction(value):
                out.append((f"{path}.{attr}", "method"))
    return out


def _load(path: str):
    parts = path.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for part in parts[i:]:
            obj = getattr(obj, part)
        return obj
    raise ImportError(path)


def section_errors(path: str, kind: str) -> list[tuple[str, str]]:
    """The errors of the failing codes that numpydoc's validator reports for ``path``."""
    if kind == "classmethod":
        function = inspect.getattr_static(
            _load(path.rsplit(".", 1)[0]), path.rsplit(".", 1)[1]
        ).__func__
        target = numpydoc_validate.get_doc_object(function)
    else:
        target = path
    codes = PROPERTY_CODES if kind == "property" else CODES
    return [
        (code, message)
        for code, message in numpydoc_validate.validate(target)["errors"]
        if code in codes
    ]


@functools.cache
def _report() -> dict[str, list[tuple[str, str]]]:
    return {path: section_errors(path, kind) for path, kind in _public_items()}


def test_every_public_name_has_its_sections():
    """No public name has an error of :data:`CODES`."""
    failing = {path: errors for path, errors in _report().items() if errors}
    assert not failing, f"{len(failing)} public names lack numpydoc sections:\n" + "\n".join(
        f"  {path}: {errors}" for path, errors in sorted(failing.items())
    )


def test_engine_names_are_checked():
    """The engine seam, its reference backend, the types they return and the policy objects
    are among the checked names (a module dropped from the API reference would silently leave
    the check). Paths are read off the objects, so they follow a module that moves."""
    engine = importlib.import_module("nbl_sim.engine")
    reference = importlib.import_module("nbl_sim.engine.reference")
    objects = importlib.import_module("nbl_sim.policies.objects")
    functions = [
        getattr(module, name)
        for module in (engine, reference)
        for name in module.__all__
        if callable(getattr(module, name))
    ]
    assert len(functions) >= 12, functions
    checked = set(_report())
    for obj in functions + [
        reference.Realization,
        reference.Realization.empty,
        reference.NBLTrace,
        objects.NBL,
        objects.NBL.update,
        objects.GreedyLogistic.choose,
    ]:
        path = f"{obj.__module__}.{obj.__qualname__}"
        assert path in checked, path


def _without_section(doc: str, section: str) -> str:
    """``doc`` (a raw docstring) with its numpydoc ``section`` (heading, underline, body) cut."""
    lines = doc.splitlines()
    start = next(
        i
        for i, line in enumerate(lines[:-1])
        if line.strip() == section and set(lines[i + 1].strip()) == {"-"}
    )
    end = next(
        (
            j
            for j in range(start + 2, len(lines) - 1)
            if lines[j].strip() and set(lines[j + 1].strip()) == {"-"}
        ),
        len(lines),
    )
    return "\n".join(lines[:start] + lines[end:])


#: Documented names of the library (a function, a class, a method, a classmethod), and what
#: each edit must make the validator report (the edit is made on the live object's ``__doc__``
#: — a classmethod's function's — and undone after).
_REMOVALS = [
    ("nbl_theory.stability.stability", "function", "Parameters", "PR01"),
    ("nbl_theory.stability.stability", "function", "Returns", "RT01"),
    ("nbl_sim.engine.geometry.signed_angle", "function", "Parameters", "PR01"),
    ("nbl_sim.engine.geometry.signed_angle", "function", "Returns", "RT01"),
    ("nbl_theory.gaussian.Moment", "class", "Parameters", "PR01"),
    ("nbl_sim.runs.cache.ChunkCache.put", "method", "Returns", "RT01"),
    ("nbl_theory.links.Link.from_expression", "classmethod", "Returns", "RT01"),
    ("nbl_sim.runs.execution.executor_for", "function", "Yields", "YD01"),
    ("nbl_sim.engine.contract.NBLOptions", "class", "Parameters", "PR01"),
    ("nbl_sim.engine.nbl", "function", "Parameters", "PR01"),
    ("nbl_sim.engine.nbl", "function", "Returns", "RT01"),
]


@pytest.mark.parametrize("path, kind, section, code", _REMOVALS)
def test_a_removed_section_fails(path, kind, section, code, monkeypatch):
    """The check fails when a section is removed from a docstring that passes it."""
    assert dict(_public_items())[path] == kind
    obj = _load(path)
    target = obj.__func__ if kind == "classmethod" else obj
    assert section_errors(path, kind) == [], f"{path} must pass before the edit"
    monkeypatch.setattr(target, "__doc__", _without_section(target.__doc__, section))
    assert code in {c for c, _ in section_errors(path, kind)}


def test_a_removed_docstring_or_parameter_fails(monkeypatch):
    """No docstring is GL08; one parameter's entry dropped is PR01, and renamed is PR02."""
    path = "nbl_theory.gaussian.moments_float"
    obj = _load(path)
    doc = obj.__doc__
    lines = doc.splitlines()
    first = next(i for i, line in enumerate(lines) if line.strip() == "Parameters") + 2
    name = lines[first].split(":")[0].strip()
    assert name in inspect.signature(obj).parameters
    body_end = next(
        j
        for j in range(first + 1, len(lines))
        if len(lines[j]) - len(lines[j].lstrip()) <= len(lines[first]) - len(lines[first].lstrip())
    )
    for edited, code in (
        ("", "GL08"),
        ("\n".join(lines[:first] + lines[body_end:]), "PR01"),
        (doc.replace(f"{name} :", f"{name}_renamed :", 1), "PR02"),
    ):
        monkeypatch.setattr(obj, "__doc__", edited)
        assert code in {c for c, _ in section_errors(path, "function")}, code
