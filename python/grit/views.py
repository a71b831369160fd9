"""NumPy arrays that view the engine's memory, guarded against staleness.

``scene.particles.pos`` is an (N, 3) array whose rows are the position
fields of the engine's packed particle records (stride 32 bytes): no copy
is made, so taking the view costs the same for ten particles or a million,
and a writable view (``vel``) writes straight into the engine.

The engine may move, reorder or resize its arrays (adding particles,
re-sorting at a broad-phase rebuild, rebuilding the contact list); the C
side then bumps a generation counter (include/grit/arrays.h). A view
remembers the generation it was taken at, and every use of it through
NumPy (indexing, arithmetic, NumPy functions, methods, printing) first
compares it with the current one and raises StaleViewError instead of
reading freed memory. Views derived from a view (slices, transposes) carry
the same guard; copies do not need it and are plain arrays.

Raw access is not checked: np.asarray(view), np.array(view), memoryview(view),
out[:] = view and view.base reach the memory at the C level without asking.
It is safe all the same: every view holds a reference to the engine's memory
block (grit_array_retain), released when the last array or memoryview
derived from it is gone, and the engine never frees a referenced block (it
moves to a copy and leaves the old block as it was). Raw access to a stale
view therefore reads the values of when the engine moved away, never freed
memory.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, Optional, Tuple

import numpy as np

from . import _lib
from .errors import StaleViewError

if TYPE_CHECKING:
    from .scene import Scene

# attributes that only describe the array (no memory read): never checked
_META = frozenset({"shape", "dtype", "ndim", "size", "itemsize", "nbytes", "strides", "flags", "base"})


class _Holder:
    """The owner of the engine memory in NumPy's eyes: the root of every view's base chain.

    It holds the engine's reference to the memory block (token) and drops it when
    NumPy drops the last array or memoryview over the block's memory."""
    __slots__ = ("__array_interface__", "guard", "token", "release")

    def __init__(self, iface: Dict[str, Any], guard: Guard, token: Optional[int],
                 release: Callable[[int], None]) -> None:
        self.__array_interface__ = iface
        self.guard = guard
        self.token = token
        self.release = release

    def __del__(self) -> None:
        token, self.token = self.token, None
        if token:
            self.release(token)


class Guard:
    """Knows whether the memory behind a view is still where it was."""
    __slots__ = {"scene": "the scene whose memory is viewed", "group": "the group of arrays (particles 0, contacts 1)",
                 "generation": "the group's generation when the view was taken", "name": "the array's name"}

    def __init__(self, scene: Scene, group: int, generation: int, name: str) -> None:
        self.scene, self.group, self.generation, self.name = scene, group, generation, name

    def check(self) -> None:
        """Raise StaleViewError if the scene was closed or the arrays moved since the view was taken."""
        ptr = self.scene._ptr
        if ptr is None:
            raise StaleViewError(f"view of '{self.name}' used after its scene was closed")
        now = _lib.get().grit_array_generation(ptr, self.group)
        if now != self.generation:
            what = "particle" if self.group == 0 else "contact"
            raise StaleViewError(
                f"view of {what} array '{self.name}' is stale: the engine moved, reordered or resized its "
                f"{what} arrays since it was taken (generation {self.generation}, now {now}; particles "
                f"are re-sorted at broad-phase rebuilds and when added, contacts at every rebuild); take a "
                f"new view after each run or add")


def _guard_of(a: np.ndarray) -> Optional[Guard]:
    """The guard of the engine memory behind ndarray a, or None if a owns or borrows other memory."""
    base = np.ndarray.base.__get__(a)
    while isinstance(base, np.ndarray):
        base = np.ndarray.base.__get__(base)
    return base.guard if isinstance(base, _Holder) else None


def _check(x: Any) -> None:
    if isinstance(x, np.ndarray):
        g = _guard_of(x)
        if g is not None:
            g.check()


def _plain(x: Any) -> Any:
    """x itself, or a plain-ndarray view of it (after checking it) if it is an EngineArray."""
    if isinstance(x, EngineArray):
        _check(x)
        return np.ndarray.view(x, np.ndarray)
    if isinstance(x, (list, tuple)):
        return type(x)(_plain(y) for y in x)
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    return x


def _wrap(result: Any) -> Any:
    """Results that still view engine memory become guarded EngineArrays; the rest stays as is."""
    if isinstance(result, np.ndarray) and not isinstance(result, EngineArray) and _guard_of(result) is not None:
        return np.ndarray.view(result, EngineArray)
    if isinstance(result, tuple):
        return tuple(_wrap(r) for r in result)
    if isinstance(result, list):
        return [_wrap(r) for r in result]
    return result


class EngineArray(np.ndarray):
    """An ndarray viewing engine memory; every use checks that the memory has not moved."""

    def __getattribute__(self, name: str) -> Any:
        if name[0] != "_" and name not in _META:
            _check(self)
        return super().__getattribute__(name)

    def __getitem__(self, key: Any) -> Any:
        _check(self)
        return _wrap(np.ndarray.__getitem__(np.ndarray.view(self, np.ndarray), _plain(key)))

    def __setitem__(self, key: Any, value: Any) -> None:
        _check(self)
        np.ndarray.__setitem__(np.ndarray.view(self, np.ndarray), _plain(key), _plain(value))

    def __array_ufunc__(self, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
        out = kwargs.get("out")
        result = getattr(ufunc, method)(*_plain(inputs), **_plain(kwargs))
        if out is not None and method != "at":  # in place: hand back the arrays the caller gave
            return out[0] if len(out) == 1 else out
        return _wrap(result)

    def __array_function__(self, func: Callable[..., Any], types: Tuple[type, ...], args: Tuple[Any, ...],
                           kwargs: Dict[str, Any]) -> Any:
        return _wrap(func(*_plain(args), **_plain(kwargs)))

    def __repr__(self) -> str:
        return repr(_plain(self))

    def __str__(self) -> str:
        return str(_plain(self))

    def __format__(self, spec: str) -> str:
        return format(_plain(self), spec)

    def __iter__(self) -> Iterator[Any]:
        _check(self)
        for i in range(len(self)):
            yield self[i]

    def __contains__(self, x: Any) -> bool:
        return x in _plain(self)

    def __bool__(self) -> bool:
        return bool(_plain(self))

    def __float__(self) -> float:
        return float(_plain(self))

    def __int__(self) -> int:
        return int(_plain(self))

    def __index__(self) -> int:
        return _plain(self).__index__()

    def __len__(self) -> int:
        return np.ndarray.__len__(self)

    def __copy__(self) -> np.ndarray:
        return self.copy()

    def __deepcopy__(self, memo: Dict[int, Any]) -> np.ndarray:
        return self.copy()

    def __reduce__(self) -> Any:
        return _plain(self).copy().__reduce__()

    def copy(self, order: str = "C") -> np.ndarray:
        """A plain ndarray copy (independent of the engine)."""
        return np.ndarray.copy(_plain(self), order)

    def astype(self, dtype: Any, *args: Any, **kwargs: Any) -> np.ndarray:
        """A plain ndarray converted to dtype (independent of the engine)."""
        return np.ndarray.astype(_plain(self), dtype, *args, **kwargs)

    def tolist(self) -> Any:
        """The values as nested Python lists."""
        return _plain(self).tolist()

    def tobytes(self, order: str = "C") -> bytes:
        """The raw bytes of the values (a copy)."""
        return _plain(self).tobytes(order)


def make_view(scene: Scene, index: int, info: _lib.ArrayInfo) -> np.ndarray:
    """A guarded NumPy view of array `index` of the scene (info: its ArrayInfo)."""
    lib = _lib.get()
    v = _lib.ArrayView()
    token = _lib.ctypes.c_void_p()
    rc = lib.grit_array_retain(scene._p(), index, _lib.byref(v), _lib.byref(token))
    if rc < 0:
        raise lib.error(rc, lib.grit_last_error(scene._ptr).decode())
    name = info.name.decode()
    typestr = ("<" if _lib.little_endian else ">") + info.typestr.decode()
    if info.elem_size == 1:
        typestr = "|" + info.typestr.decode()
    shape = (v.count,) if info.ncomp == 1 else (v.count, v.ncomp)
    guard = Guard(scene, info.group, v.generation, name)
    if not v.data:  # nothing to view (and nothing retained) (no rows, or zero-width rows): a read-only empty array
        arr = np.zeros(shape, dtype=np.dtype(typestr))
        arr.flags.writeable = False
        return arr
    strides = (v.stride,) if info.ncomp == 1 else (v.stride, info.elem_size)
    iface = {"version": 3, "shape": shape, "typestr": typestr, "data": (v.data, not v.writable),
             "strides": strides}
    arr = np.asarray(_Holder(iface, guard, token.value, lib.grit_array_release))
    return np.ndarray.view(arr, EngineArray)
