"""Python attributes generated from the C parameter tables.

Each parameter of grit is declared once, in an X-macro list of a C header
(include/grit/scene.h, params.h). The library exports those tables
(include/grit/reflect.h); this module turns every entry into a descriptor
whose docstring gives the unit, the valid range and the default, and whose
setter hands the value to the C validation, so the error message of a bad
value is the engine's own, naming the parameter and its range. No parameter
is listed in Python.
"""
from __future__ import annotations

import ctypes
import difflib
import math
import numbers
from typing import TYPE_CHECKING, Any, ClassVar, Dict, Mapping, Optional, Tuple

from . import _lib
from .errors import ParameterError

Value = Any  # a parameter's Python value: float, int, bool, str (choice) or a 3-tuple (vec3)

ERRLEN = 512
TYPES = ("double", "int", "flag", "vec3", "choice")


class Param:
    """One parameter of a group: a descriptor on the classes built from that group."""

    def __init__(self, group: Group, info_ptr: Any) -> None:
        lib = _lib.get()
        info = info_ptr.contents
        self.group = group
        self.info_ptr = info_ptr
        self.name = info.name.decode()
        self.cname = info.name
        self.type = next(t for t in TYPES if lib.const["GRIT_PT_" + t] == info.type)
        self.unit = _lib.text(info.unit)
        self.min, self.max, self.flags = info.min, info.max, info.flags
        self.choices = _lib.text(info.choices).split("|") if info.choices else None
        self.c_default = _lib.text(info.def_text)
        self.description = _lib.text(info.doc)
        buf = ctypes.create_string_buffer(256)
        lib.grit_param_range_text(info_ptr, buf, len(buf))
        self.range = buf.value.decode()
        self.default: Value = None  # filled by the group once its default definition exists
        self.__doc__ = self.description

    def set_doc(self, default: Value) -> None:
        """Record the default and write the docstring (description, unit, type, range, default)."""
        self.default = default
        unit = f" [{self.unit}]" if self.unit and self.unit != "-" else ""
        self.__doc__ = (f"{self.description}{unit}. Type {self.type}; valid: {self.range}; "
                        f"default: {format_value(self, default)}.")

    # descriptor protocol: the owner implements _param_get / _param_set
    def __set_name__(self, owner: type, name: str) -> None:
        pass

    def __get__(self, obj: Any, owner: Optional[type] = None) -> Any:
        if obj is None:
            return self
        return obj._param_get(self)

    def __set__(self, obj: Any, value: Value) -> None:
        obj._param_set(self, value)

    def __repr__(self) -> str:
        return f"<grit parameter {self.group.name}.{self.name}: {self.__doc__}>"


def format_value(p: Param, v: Value) -> str:
    """A parameter value as the docs write it."""
    if p.type == "vec3":
        return "(" + ", ".join(_num(x) for x in v) + ")"
    if p.type == "flag":
        return "true" if v else "false"
    if p.type == "choice":
        return str(v)
    return _num(v)


def _num(x: Any) -> str:
    """Shortest exact text of a number: 0.9, 500, 1e+09, nan."""
    if isinstance(x, float) and math.isnan(x):
        return "nan"
    if isinstance(x, float) and x.is_integer() and abs(x) < 1e15:
        short = "%g" % x
        return short if float(short) == x else repr(int(x))
    return repr(x)


class Group:
    """A parameter group of the C library (a table of params.h): scene, material, pair, ..."""

    _cache: ClassVar[Dict[str, Group]] = {}

    @classmethod
    def get(cls, name: str) -> Group:
        """The group of this name (built once from the library's table)."""
        if name not in cls._cache:
            cls._cache[name] = cls(name)
        return cls._cache[name]

    def __init__(self, name: str) -> None:
        lib = _lib.get()
        self.table = lib.grit_reflect_group_find(name.encode())
        if not self.table:
            raise ParameterError(f"grit: the library has no parameter group '{name}'")
        self.name = name
        self.size = lib.grit_reflect_def_size(self.table)
        n = self.table.contents.count
        self.params: Dict[str, Param] = {}
        for i in range(n):
            p = Param(self, lib.grit_reflect_param(self.table, i))
            self.params[p.name] = p
        defaults = self.new_def()
        for p in self.params.values():
            p.set_doc(self.read(p, defaults))

    def new_def(self) -> ctypes.Array:
        """A definition struct (raw bytes) holding the C defaults."""
        buf = (ctypes.c_char * self.size)()
        if _lib.get().grit_reflect_def_default(self.table, buf, self.size) != 0:
            raise ParameterError(f"grit: cannot fill the defaults of group '{self.name}'")
        return buf

    def copy_def(self, address: int) -> ctypes.Array:
        """A definition struct copied from C memory at `address`."""
        buf = (ctypes.c_char * self.size)()
        ctypes.memmove(buf, address, self.size)
        return buf

    def read(self, p: Param, buf: Any) -> Value:
        """Value of parameter p in definition buf, as a Python value."""
        lib = _lib.get()
        if p.type == "vec3":
            return lib.grit_param_get_vec3(p.info_ptr, buf).tuple()
        v = lib.grit_param_get_double(p.info_ptr, buf)
        if p.type == "int":
            return int(v)
        if p.type == "flag":
            return bool(v)
        if p.type == "choice":
            out = ctypes.create_string_buffer(64)
            return lib.grit_param_choice_name(p.info_ptr, int(v), out, len(out)).decode()
        return v

    def unknown(self, name: str, owner: str) -> ParameterError:
        """The error for an unknown parameter name: suggests the nearest known name and lists them all."""
        near = difflib.get_close_matches(name, self.params, n=1)
        hint = f"; did you mean '{near[0]}'?" if near else ""
        return ParameterError(f"unknown {self.name} parameter '{name}' of {owner}{hint} "
                              f"(known: {', '.join(self.params)})")

    def write(self, p: Param, buf: Any, value: Value) -> None:
        """Store value into definition buf after the C range check; ParameterError with the C message."""
        lib = _lib.get()
        err = ctypes.create_string_buffer(ERRLEN)
        if p.type == "vec3":
            v = as_vec3(value, f"parameter '{p.name}'")
            rc = lib.grit_param_set_vec3(self.table, buf, p.cname, _lib.Vec3(*v), err, ERRLEN)
        elif p.type == "choice" and isinstance(value, str):
            rc = lib.grit_param_set_text(self.table, buf, p.cname, value.encode(), err, ERRLEN)
        else:
            rc = lib.grit_param_set_double(self.table, buf, p.cname, as_number(value, p), err, ERRLEN)
        if rc != 0:
            raise ParameterError(err.value.decode())

    def write_many(self, buf: Any, values: Mapping[str, Value], owner: str) -> None:
        """Write {name: value} into buf, each checked as write() does; unknown names raise ParameterError."""
        for k, v in values.items():
            p = self.params.get(k)
            if p is None:
                raise self.unknown(k, owner)
            self.write(p, buf, v)

    def install(self, cls: type) -> None:
        """Add one descriptor per parameter to cls (which implements _param_get/_param_set)."""
        for name, p in self.params.items():
            if name in cls.__dict__:
                raise TypeError(f"grit: parameter {self.name}.{name} clashes with {cls.__name__}.{name}")
            setattr(cls, name, p)
        cls._params = self


def as_number(value: Any, p: Param) -> float:
    """A scalar parameter value as a float for C (which checks range and integrality)."""
    if isinstance(value, numbers.Real):
        v = float(value)
        if p.type in ("int", "choice", "flag") and math.isfinite(v) and v != math.floor(v):
            raise ParameterError(f"parameter '{p.name}' = {value!r} is not an integer (valid: {p.range})")
        return v
    what = "a boolean" if p.type == "flag" else ("an integer" if p.type == "int" else "a number")
    if p.type == "choice":
        what = "one of " + "|".join(p.choices) + " (or its index)"
    raise ParameterError(f"parameter '{p.name}' = {value!r} is not {what}")


def as_vec3(value: Any, what: str) -> Tuple[float, float, float]:
    """Three real numbers from any sequence (tuple, list, NumPy array)."""
    try:
        items = list(value)
    except TypeError:
        raise ParameterError(f"{what} = {value!r} is not a vector of 3 numbers") from None
    if len(items) != 3 or not all(isinstance(x, numbers.Real) for x in items):
        raise ParameterError(f"{what} = {value!r} is not a vector of 3 numbers")
    return tuple(float(x) for x in items)


class ParamObject:
    """Base of Python objects that own a definition struct of one group (materials, pair overrides)."""

    _group_name: ClassVar[Optional[str]] = None
    _frozen_reason: Optional[str] = None

    def __init__(self, **values: Value) -> None:
        g = Group.get(self._group_name)
        object.__setattr__(self, "_def", g.new_def())
        g.write_many(self._def, values, type(self).__name__)

    def _param_get(self, p: Param) -> Value:
        return self._params.read(p, self._def)

    def _param_set(self, p: Param, value: Value) -> None:
        if self._frozen_reason:
            from .errors import StateError
            raise StateError(f"{type(self).__name__}.{p.name}: {self._frozen_reason}")
        self._params.write(p, self._def, value)

    if not TYPE_CHECKING:  # hidden from type checkers, which then flag an unknown name as this does
        def __setattr__(self, name: str, value: Any) -> None:
            if not name.startswith("_") and not hasattr(type(self), name):
                raise self._params.unknown(name, type(self).__name__)
            object.__setattr__(self, name, value)

    def as_dict(self) -> Dict[str, Value]:
        """Every parameter's current value: {name: value}."""
        return {k: self._params.read(p, self._def) for k, p in self._params.params.items()}

    def __repr__(self) -> str:
        return f"{type(self).__name__}(" + ", ".join(f"{k}={v!r}" for k, v in self.as_dict().items()) + ")"
