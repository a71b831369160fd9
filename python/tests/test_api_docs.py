"""The Python API documents itself: every public module, class, function, method and property of the package
has a docstring, and every function and method (public ones and the special methods) has type annotations on
all its parameters and its return value, which resolve to real types. The package ships the py.typed marker
(PEP 561), so type checkers and IDEs use these annotations.

A name is public unless it starts with an underscore; a class's members are checked where they are defined
(a public class's methods inherited from a private base count). A failure lists every offender."""
import importlib
import inspect
import pathlib
import pkgutil
import sys
import types
import typing

import pytest

import grit

PKG = pathlib.Path(grit.__file__).resolve().parent


def public_modules():
    """grit and its submodules whose names do not start with an underscore."""
    names = ["grit"] + [f"grit.{m.name}" for m in pkgutil.iter_modules([str(PKG)]) if not m.name.startswith("_")]
    if "grit.__main__" not in names:
        names.append("grit.__main__")
    return [importlib.import_module(n) for n in names]


def _is_special(name):
    return name.startswith("__") and name.endswith("__")


def _annotation_problems(qual, fn, namespace):
    """Missing or unresolvable annotations of function fn."""
    fn = inspect.unwrap(fn)
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):  # a builtin: nothing to annotate
        return []
    out = []
    missing = [p.name for i, p in enumerate(sig.parameters.values())
               if p.annotation is inspect.Parameter.empty and not (i == 0 and p.name in ("self", "cls"))]
    if missing:
        out.append(f"{qual}: parameters without a type annotation: {', '.join(missing)}")
    if sig.return_annotation is inspect.Signature.empty:
        out.append(f"{qual}: no return annotation")
    if not missing and sig.return_annotation is not inspect.Signature.empty:
        try:
            typing.get_type_hints(fn, globalns={**namespace, **fn.__globals__})
        except Exception as e:  # noqa: BLE001  (a misspelt or unimported name)
            out.append(f"{qual}: annotations do not resolve: {type(e).__name__}: {e}")
    return out


def _doc_problem(qual, obj):
    return [] if (inspect.getdoc(obj) or "").strip() else [f"{qual}: no docstring"]


def _member_problems(qual, name, attr, owner, namespace):
    """Problems of one class member (attr, as found in owner's __dict__)."""
    out = []
    public = not name.startswith("_")
    if isinstance(attr, property):
        if public and not (attr.__doc__ or "").strip():
            out.append(f"{qual}: property without a docstring")
        for acc in (attr.fget, attr.fset):
            if acc is not None and inspect.isfunction(acc):
                out += _annotation_problems(f"{qual} ({'getter' if acc is attr.fget else 'setter'})", acc, namespace)
        return out
    if isinstance(attr, (classmethod, staticmethod)):
        attr = attr.__func__
    if inspect.isfunction(attr) and (public or _is_special(name)):
        if public:
            out += _doc_problem(qual, getattr(owner, name) if not isinstance(owner.__dict__.get(name), staticmethod)
                                else attr)
        out += _annotation_problems(qual, attr, namespace)
    elif public and isinstance(attr, types.MemberDescriptorType):  # a slot: documented by a __slots__ dict
        slots = vars(owner).get("__slots__")
        if not (isinstance(slots, dict) and (slots.get(name) or "").strip()):
            out.append(f"{qual}: slot without a docstring (make __slots__ a dict of docstrings)")
    elif public and hasattr(type(attr), "__get__") and hasattr(type(attr), "__set__"):  # a data descriptor
        if not (getattr(attr, "__doc__", None) or "").strip() or attr.__doc__ == type(attr).__doc__:
            out.append(f"{qual}: descriptor without its own docstring")
    return out


def _namespace(modules):
    """Every public name of the package, for resolving annotations written under TYPE_CHECKING."""
    ns = {}
    for m in list(modules) + [importlib.import_module("grit._lib")]:
        ns.update({k: v for k, v in vars(m).items() if not k.startswith("__")})
        ns[m.__name__.rsplit(".", 1)[-1]] = m
    return ns


def api_problems(modules):
    """Every missing docstring or annotation in the given modules (a list of messages)."""
    out, seen = [], set()
    namespace = _namespace(modules)
    for m in modules:
        out += _doc_problem(m.__name__, m)
        for name, obj in vars(m).items():
            if getattr(obj, "__module__", None) != m.__name__:
                continue  # imported from elsewhere: checked where it is defined
            qual = f"{m.__name__}.{name}"
            if inspect.isfunction(obj) and (not name.startswith("_") or _is_special(name)):
                if not name.startswith("_"):
                    out += _doc_problem(qual, obj)
                out += _annotation_problems(qual, obj, namespace)
            elif inspect.isclass(obj) and not name.startswith("_"):
                out += _doc_problem(qual, obj)
                for attr_name in sorted(set(dir(obj))):
                    owner = next((k for k in obj.__mro__ if attr_name in vars(k)), None)
                    if owner is None or not owner.__module__.startswith("grit") or (owner, attr_name) in seen:
                        continue
                    seen.add((owner, attr_name))
                    out += _member_problems(f"{owner.__module__}.{owner.__qualname__}.{attr_name}", attr_name,
                                            vars(owner)[attr_name], owner, namespace)
    return out


def test_every_public_name_is_documented_and_annotated(lib):
    modules = public_modules()
    assert len(modules) >= 15, [m.__name__ for m in modules]
    problems = api_problems(modules)
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)


def test_the_lazy_names_of_the_package_are_documented(lib):
    """grit.Scene, grit.FrictMat, ... (loaded on first use) and every material class have docstrings."""
    names = list(grit.__all__) + list(importlib.import_module("grit.scene").MATERIAL_CLASSES)
    missing = [n for n in names if not (inspect.getdoc(getattr(grit, n)) or "").strip()]
    assert not missing
    assert len(names) > 30


def test_parameters_carry_unit_range_and_default(lib):
    """The parameter attributes generated from the C tables document themselves."""
    doc = inspect.getdoc(grit.Scene.__dict__["damping"])
    assert "Type double" in doc and "default: 0" in doc and "valid: [0, 1]" in doc.replace("valid: [0, 1)",
                                                                                          "valid: [0, 1]")
    assert "[kg/m^3]" in grit.FrictMat.__dict__["density"].__doc__


def test_critical_dt_docstring_names_every_estimate(lib):
    """The docstring lists what grit_critical_dt takes the minimum of (it once lacked the Hertz bound)."""
    doc = inspect.getdoc(grit.Scene.critical_dt)
    for term in ("p-wave", "sqrt(3m/(8 kn))", "rayleigh_fraction", "dt_safety", "dyn_dt"):
        assert term in doc, term


def test_the_checker_reports_what_is_missing(lib):
    """The checker itself finds a public function without a docstring or annotations, a class without a
    docstring, an unresolvable annotation and an undocumented property, and passes a clean module."""
    bad = types.ModuleType("grit.fake_bad")
    src = '''
class Thing:
    def method(self, x: int) -> int:
        return x

    @property
    def value(self) -> int:
        return 1


def plain(a, b=2):
    """Documented but not annotated."""
    return a


def silent(a: int) -> int:
    return a


def wrong(a: "NoSuchType") -> int:
    """Annotated with a name that does not exist."""
    return 0
'''
    exec(compile(src, "fake_bad", "exec"), bad.__dict__)
    problems = api_problems([bad])
    expected = ["grit.fake_bad: no docstring", "grit.fake_bad.Thing: no docstring",
                "grit.fake_bad.Thing.method: no docstring", "grit.fake_bad.Thing.value: property without",
                "grit.fake_bad.plain: parameters without a type annotation: a, b",
                "grit.fake_bad.plain: no return annotation", "grit.fake_bad.silent: no docstring",
                "grit.fake_bad.wrong: annotations do not resolve"]
    for e in expected:
        assert any(p.startswith(e) for p in problems), (e, problems)
    assert len(problems) == len(expected), problems

    good = types.ModuleType("grit.fake_good")
    good.__doc__ = "A clean module."
    exec(compile('def f(a: int) -> int:\n    """Twice a."""\n    return 2 * a\n', "fake_good", "exec"), good.__dict__)
    assert api_problems([good]) == []


def test_py_typed_marker_is_shipped():
    """PEP 561: the marker is in the package and in the files pip and cmake --install put in place."""
    assert (PKG / "py.typed").is_file()
    root = PKG.parent.parent
    if (root / "pyproject.toml").is_file():
        assert "py.typed" in (root / "pyproject.toml").read_text()


@pytest.mark.skipif(sys.version_info < (3, 9), reason="the package needs Python 3.9")
def test_annotations_are_postponed():
    """Every module evaluates its annotations lazily (PEP 563), so type-only imports cost nothing at run time
    and Python 3.9 accepts the annotations."""
    for path in sorted(PKG.glob("*.py")):
        text = path.read_text()
        if "def " in text and path.name != "_lib.py":  # _lib: ctypes declarations, private
            assert "from __future__ import annotations" in text, path.name
