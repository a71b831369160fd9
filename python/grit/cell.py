"""Periodic cells and the stress tensor (the engine's grit/cell.h and grit/stress.h; docs/periodic.md).

    scene.cell = (0.01, 0.01, 0.01)          # a periodic box of 1 cm (or a 3x3 matrix: columns = base vectors)
    scene.cell.next_grad_v = [[0, 0.1, 0], [0, 0, 0], [0, 0, 0]]   # simple shear from the next step on
    scene.run(1000)
    scene.cell.hsize, scene.cell.trsf, scene.cell.hencky_strain    # 3x3 NumPy arrays
    scene.stress()                           # Love-Weber stress, 3x3, tension positive [Pa]
    scene.cell.controller = grit.CellController(mode=("stress", "rate", "stress"), goal=(-1e4, -0.05, -2e4))
    scene.cell.controller_state()            # stress, errors, integral terms, convergence, now
    scene.cell.control_run(100000)           # step until the servo has converged

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


_MODES = ("rate", "stress")  # GRIT_CTRL_RATE = 0, GRIT_CTRL_STRESS = 1


class CellController:
    """The stress/strain controller of a periodic cell (grit_cell_ctrl_def; docs/periodic.md "Stress control").

    Per axis, ``mode[a]`` is ``"rate"`` (``L_aa = goal[a]`` [1/s]) or ``"stress"`` (a servo steers ``L_aa`` so
    that ``sigma_aa`` reaches ``goal[a]`` [Pa], tension positive). ``grad_v``: the prescribed off-diagonal
    gradient [1/s] (its diagonal is not read). ``gain`` in (0, 1): the fraction of the error removed per update if
    the assembly were affine; ``integral`` in [0, 1): integral action while prescribed components strain the cell
    (0: proportional only); ``max_rate``: cap on the servo's ``|L_aa|`` [1/s]; ``every``: steps between updates;
    converged: ``settle`` updates in a row with every stress error below ``stress_tol`` times the stress scale."""

    def __init__(self, mode: Sequence[str] = ("rate", "rate", "rate"), goal: Sequence[float] = (0.0, 0.0, 0.0),
                 grad_v: Any = None, gain: float = 0.5, integral: float = 0.5, max_rate: float = 1.0,
                 stress_tol: float = 1e-3, every: int = 1, settle: int = 1) -> None:
        self.mode, self.goal, self.grad_v = mode, goal, grad_v
        self.gain, self.integral, self.max_rate, self.stress_tol = gain, integral, max_rate, stress_tol
        self.every, self.settle = every, settle

    def __repr__(self) -> str:
        return (f"CellController(mode={tuple(self.mode)!r}, goal={tuple(self.goal)!r}, "
                f"grad_v={None if self.grad_v is None else np.asarray(self.grad_v).tolist()!r}, gain={self.gain!r}, "
                f"integral={self.integral!r}, max_rate={self.max_rate!r}, stress_tol={self.stress_tol!r}, "
                f"every={self.every!r}, settle={self.settle!r})")

    def _to_c(self) -> _lib.CellCtrlDef:
        who = "CellController"
        d = _LIB.grit_default_cell_ctrl_def()
        if isinstance(self.mode, str) or len(self.mode) != 3:
            raise ParameterError(f"{who}: mode = {self.mode!r} must be 3 modes, one per axis ('rate' or 'stress')")
        for a, m in enumerate(self.mode):
            if m not in _MODES:
                raise ParameterError(f"{who}: mode[{a}] = {m!r} (axis {'xyz'[a]}) is neither 'rate' nor 'stress'")
            d.mode[a] = _MODES.index(m)
        goal = as_vec3(self.goal, "goal")
        for a in range(3):
            d.goal[a] = goal[a]
        L = np.zeros((3, 3)) if self.grad_v is None else as_mat3(self.grad_v, "grad_v", who)
        for k, x in enumerate(L.ravel()):
            d.grad_v[k] = x
        for name in ("gain", "integral", "max_rate", "stress_tol"):
            v = getattr(self, name)
            if not isinstance(v, numbers.Real) or isinstance(v, bool):
                raise ParameterError(f"{who}: {name} = {v!r} is not a number")
            setattr(d, name, float(v))
        for name in ("every", "settle"):
            v = getattr(self, name)
            if not isinstance(v, numbers.Integral) or isinstance(v, bool):
                raise ParameterError(f"{who}: {name} = {v!r} is not an integer")
            if not -2**31 <= v < 2**31:
                raise ParameterError(f"{who}: {name} = {v} is out of range: must be >= 1")
            setattr(d, name, int(v))
        return d

    def __eq__(self, other: object) -> bool:
        """Equal definitions: the same modes, goals, gradient (None is zero) and settings."""
        if not isinstance(other, CellController):
            return NotImplemented
        a, b = self._to_c(), other._to_c()
        return ctypes.string_at(ctypes.byref(a), ctypes.sizeof(a)) == ctypes.string_at(ctypes.byref(b),
                                                                                      ctypes.sizeof(b))

    @classmethod
    def _from_c(cls, d: _lib.CellCtrlDef) -> "CellController":
        return cls(mode=tuple(_MODES[m] for m in d.mode), goal=tuple(d.goal), grad_v=_from_c(d.grad_v),
                   gain=d.gain, integral=d.integral, max_rate=d.max_rate, stress_tol=d.stress_tol, every=d.every,
                   settle=d.settle)


class CellControllerState:
    """The controller's state now (grit_cell_ctrl_state): ``stress`` 3x3 [Pa]; per axis ``error`` (goal -
    sigma_aa on stress axes) [Pa], ``stiffness`` (the servo's affine stiffness) [Pa], ``integral`` (the integral
    term) [Pa]; ``scale`` [Pa] and ``rel_error`` (max |error| / scale); ``held`` (updates in a row within
    tolerance), ``converged``, ``updates``; ``active``: a controller is installed."""

    def __init__(self, st: _lib.CellCtrlState) -> None:
        self.active: bool = bool(st.active)
        self.stress: np.ndarray = _from_c(st.stress)
        self.error: np.ndarray = np.array(st.error[:])
        self.stiffness: np.ndarray = np.array(st.stiffness[:])
        self.integral: np.ndarray = np.array(st.integral[:])
        self.scale: float = st.scale
        self.rel_error: float = st.rel_error
        self.held: int = st.held
        self.converged: bool = bool(st.converged)
        self.updates: int = st.updates

    def __repr__(self) -> str:
        return (f"<grit.CellControllerState: active {self.active}, rel_error {self.rel_error:.3g}, held {self.held}, "
                f"converged {self.converged}, updates {self.updates}>")


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

    @property
    def controller(self) -> Optional[CellController]:
        """The installed stress/strain controller (a CellController; grit_cell_ctrl_get), or None. Assign a
        CellController to install one (its integral terms start at zero, its first update is at the next
        step), None (or del) to remove it (the last gradient stays)."""
        ptr = self._scene._p()
        st = _lib.CellCtrlState()
        self._scene._check(_LIB.grit_cell_ctrl_get_state(ptr, ctypes.byref(st)))
        if not st.active:
            return None
        d = _lib.CellCtrlDef()
        self._scene._check(_LIB.grit_cell_ctrl_get(ptr, ctypes.byref(d)))
        return CellController._from_c(d)

    @controller.setter
    def controller(self, value: Optional[CellController]) -> None:
        if value is None:
            self._scene._check(_LIB.grit_cell_ctrl_clear(self._scene._p()))
            return
        if not isinstance(value, CellController):
            raise ParameterError(f"cell.controller = {value!r}: give a grit.CellController or None")
        d = value._to_c()
        self._scene._check(_LIB.grit_cell_ctrl_set(self._scene._p(), ctypes.byref(d)))

    @controller.deleter
    def controller(self) -> None:
        self._scene._check(_LIB.grit_cell_ctrl_clear(self._scene._p()))

    def controller_state(self) -> CellControllerState:
        """The controller's state, measured now (grit_cell_ctrl_get_state; active is False without one)."""
        st = _lib.CellCtrlState()
        self._scene._check(_LIB.grit_cell_ctrl_get_state(self._scene._p(), ctypes.byref(st)))
        return CellControllerState(st)

    def control_run(self, max_steps: int) -> int:
        """Step until the controller has converged (grit_cell_ctrl_run); the number of steps run. StateError
        with the remaining error if max_steps ran out first, or without a controller."""
        if not isinstance(max_steps, numbers.Integral) or isinstance(max_steps, bool):
            raise ParameterError(f"control_run: max_steps = {max_steps!r} is not an integer")
        steps = ctypes.c_long(0)
        self._scene._check(_LIB.grit_cell_ctrl_run(self._scene._p(), int(max_steps), ctypes.byref(steps)))
        return steps.value

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
