"""Periodic cells and the stress tensor (the engine's grit/cell.h and grit/stress.h; docs/periodic.md).

    scene.cell = (0.01, 0.01, 0.01)          # a periodic box of 1 cm (or a 3x3 matrix: columns = base vectors)
    scene.cell.next_grad_v = [[0, 0.1, 0], [0, 0, 0], [0, 0, 0]]   # simple shear from the next step on
    scene.run(1000)
    scene.cell.hsize, scene.cell.trsf, scene.cell.hencky_strain    # 3x3 NumPy arrays
    scene.stress()                           # Love-Weber stress, 3x3, tension positive [Pa]

Matrices are 3x3 NumPy arrays in the API's convention: ``M[i][j]`` is row i,
column j; the base vectors of the cell are the columns of ``hsize``; the
velocity gradient is ``L[i][j] = d v_i / d x_j``.
"""
from __future__ import annotations

import ctypes
import numbers
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence

import numpy as np

from . import _lib
from .errors import ParameterError, StateError
from .params import as_vec3

if TYPE_CHECKING:
    from .scene import Scene

_LIB = _lib.get()
_MAT = ctypes.c_double * 9


def as_mat3(value: Any, name: str, who: str) -> np.ndarray:
    """A 3x3 matrix of finite floats from anything array-like; ParameterError naming `name` otherwise."""
    try:
        a = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ParameterError(f"{who}: {name} = {value!r} is not a 3x3 matrix of numbers") from None
    if a.shape != (3, 3):
        raise ParameterError(f"{who}: {name} must be a 3x3 matrix, not an array of shape {a.shape}")
    bad = np.argwhere(~np.isfinite(a))
    if len(bad):
        i, j = bad[0]
        raise ParameterError(f"{who}: {name}[{i}][{j}] = {a[i, j]} must be finite")
    return a


def cell_matrix(value: Any, who: str = "cell") -> np.ndarray:
    """The cell H from box sizes (3 numbers: an orthogonal box) or a 3x3 matrix (columns: base vectors)."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        raise ParameterError(f"{who}: hsize = {value!r}: give 3 box sizes (m) or a 3x3 matrix, not one number")
    try:
        a = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ParameterError(f"{who}: hsize = {value!r} is neither 3 box sizes nor a 3x3 matrix") from None
    if a.shape == (3,):
        for k, x in enumerate(a):
            if not (np.isfinite(x) and x > 0):
                raise ParameterError(f"{who}: hsize: size[{k}] = {x} must be positive and finite (m)")
        return np.diag(a)
    if a.shape != (3, 3):
        raise ParameterError(f"{who}: hsize must be 3 box sizes or a 3x3 matrix, not an array of shape {a.shape}")
    return as_mat3(a, "hsize", who)


def _to_c(a: np.ndarray) -> ctypes.Array:
    return _MAT(*np.ascontiguousarray(a, dtype=float).ravel())


def _from_c(buf: ctypes.Array) -> np.ndarray:
    return np.array(buf[:], dtype=float).reshape(3, 3)


class Cell:
    """The periodic cell of a scene: ``scene.cell`` (None while the scene is not periodic).

    Attributes are 3x3 NumPy arrays (copies; assign to change):

    * ``hsize``: the current cell, its columns the base vectors [m]; assigning replaces the cell (every
      periodic image jumps at once, ``trsf`` restarts from the identity);
    * ``next_grad_v``: the velocity gradient of the following steps [1/s] (Woo's nextGradV), applied from
      the next step on; ``grad_v``: the gradient of the last step (read-only);
    * ``trsf``: the deformation gradient F accumulated since the cell was set, ``hsize = trsf @ hsize0``;
    * ``hencky_strain``: the logarithmic strain ln V = 1/2 ln(F F^T) (tension positive); its trace is the
      volumetric strain ln(V/V0);

    and ``volume`` [m^3] and ``size`` (the lengths of the three base vectors [m])."""

    __slots__ = ("_scene",)

    def __init__(self, scene: Scene) -> None:
        self._scene = scene

    def _get(self, fn: Callable[..., int]) -> np.ndarray:
        buf = _MAT()
        self._scene._check(fn(self._scene._p(), buf))
        return _from_c(buf)

    @property
    def hsize(self) -> np.ndarray:
        """The current cell: columns are the base vectors [m]."""
        return self._get(_LIB.grit_cell_get)

    @hsize.setter
    def hsize(self, value: Any) -> None:
        H = cell_matrix(value, "cell")
        self._scene._check(_LIB.grit_cell_set(self._scene._p(), _to_c(H)))

    @property
    def size(self) -> np.ndarray:
        """Lengths of the three base vectors [m]."""
        return np.linalg.norm(self.hsize, axis=0)

    @property
    def volume(self) -> float:
        """det hsize [m^3]."""
        return _LIB.grit_cell_volume(self._scene._p())

    @property
    def grad_v(self) -> np.ndarray:
        """Velocity gradient of the last step, L[i][j] = d v_i / d x_j [1/s] (zero before the first step)."""
        return self._get(_LIB.grit_cell_get_grad_v)

    @grad_v.setter
    def grad_v(self, value: Any) -> None:
        raise StateError("cell.grad_v is the gradient of the last step; assign cell.next_grad_v to set the "
                         "gradient of the following steps")

    @property
    def next_grad_v(self) -> np.ndarray:
        """Velocity gradient of the following steps [1/s] (Woo's nextGradV): what was assigned last."""
        return self._get(_LIB.grit_cell_get_next_grad_v)

    @next_grad_v.setter
    def next_grad_v(self, value: Any) -> None:
        L = as_mat3(value, "next_grad_v", "cell")
        self._scene._check(_LIB.grit_cell_set_grad_v(self._scene._p(), _to_c(L)))

    @property
    def trsf(self) -> np.ndarray:
        """Deformation gradient F since the cell was set: hsize = F @ hsize0."""
        return self._get(_LIB.grit_cell_get_trsf)

    @property
    def hencky_strain(self) -> np.ndarray:
        """Logarithmic (Hencky) strain 1/2 ln(F F^T), symmetric, tension positive."""
        F = self.trsf
        w, v = np.linalg.eigh(F @ F.T)
        return (v * (0.5 * np.log(w))) @ v.T

    def __repr__(self) -> str:
        if self._scene._ptr is None:
            return "<grit.Cell of a closed scene>"
        return f"<grit.Cell: size {tuple(np.round(self.size, 12))} m, volume {self.volume:g} m^3>"


def stress(scene: Scene, lo: Optional[Sequence[float]] = None, hi: Optional[Sequence[float]] = None) -> np.ndarray:
    """Love-Weber stress [Pa] as a 3x3 array, tension positive. Periodic scene: every contact, V = det hsize.
    With lo and hi (any scene): the contacts whose contact point lies in the box [lo, hi], V = its volume."""
    ptr = scene._p()
    buf = _MAT()
    if lo is None and hi is None:
        if not _LIB.grit_is_periodic(ptr):
            raise StateError("stress: the scene has no periodic cell (set scene.cell), so the volume is not "
                             "defined; give a region: scene.stress(lo=(x, y, z), hi=(x, y, z))")
        scene._check(_LIB.grit_stress(ptr, buf))
    else:
        if lo is None or hi is None:
            raise ParameterError("stress: give both lo and hi (the corners of the region), or neither")
        lo, hi = as_vec3(lo, "lo"), as_vec3(hi, "hi")
        scene._check(_LIB.grit_stress_box(ptr, _lib.Vec3(*lo), _lib.Vec3(*hi), buf))
    return _from_c(buf)
