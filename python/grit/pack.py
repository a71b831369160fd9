"""Dense random sphere packings (the engine's grit/pack.h; docs/packing.md).

    import grit.pack
    cell = grit.pack.dense(n=2000, radius=0.0025)              # a periodic cell compacted to 1e5 Pa
    cell.centers, cell.radii, cell.cell, cell.solid_fraction     # NumPy arrays and figures
    bone = cell.clip(shape="hyperboloid", length=0.15, outer_radius=0.0375, waist_radius=0.0255)
    bone.save("bone.csv")                                        # the spheres CSV every scene loads
    scene.add_spheres(bone.centers, bone.radii, mat=concrete)

The keyword arguments of :func:`dense` are the parameters of the C group ``pack`` and those of
:meth:`Packing.clip` and :class:`Region` the group ``clip`` (docs/parameters.md): their ranges are the
engine's, and a bad value raises ParameterError with its message. Nothing is listed here.
"""
from __future__ import annotations

import ctypes
import math
import numbers
import os
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _lib
from .errors import ParameterError, StateError
from .params import Group, as_vec3

if TYPE_CHECKING:
    from .errors import GritError
    from .scene import Scene

_LIB = _lib.get()
ERRLEN = 2048
PathLike = Union[str, bytes, "os.PathLike[str]"]
Vec = Sequence[float]


def _error(rc: int, err: ctypes.Array) -> GritError:
    return _LIB.error(rc, err.value.decode())


class Packing:
    """A list of spheres: ``centers`` (N, 3) and ``radii`` (N,) [m], NumPy arrays (copies).

    A periodic packing (from :func:`dense`) has its ``cell`` (3x3, columns the base vectors) and every centre
    inside it; a clipped one has ``cell`` None. ``volume`` is the cell's or the region's [m^3] (NaN if
    unknown), ``solid_fraction`` the spheres' volume over it; ``pressure`` [Pa], ``unbalanced`` and ``steps``
    describe the compaction it came from (NaN / 0 if unknown); ``info`` lists how it was made, one line per
    operation (``"pack n=2000 radius=..."``, ``"clip shape=..."``)."""

    def __init__(self, centers: Any, radii: Any, cell: Any = None, volume: float = math.nan,
                 solid_fraction: float = math.nan, pressure: float = math.nan, unbalanced: float = math.nan,
                 steps: int = 0, info: Iterable[str] = ()) -> None:
        self.centers = np.array(centers, dtype=float).reshape(-1, 3)
        self.radii = np.array(radii, dtype=float).reshape(-1)
        if len(self.radii) != len(self.centers):
            raise ParameterError(f"Packing: {len(self.centers)} centres but {len(self.radii)} radii")
        if not (np.all(np.isfinite(self.centers)) and np.all(np.isfinite(self.radii)) and np.all(self.radii > 0)):
            raise ParameterError("Packing: centres must be finite and radii positive and finite (m)")
        self.cell: Optional[np.ndarray] = None if cell is None else np.array(cell, dtype=float).reshape(3, 3)
        self.volume, self.solid_fraction = float(volume), float(solid_fraction)
        self.pressure, self.unbalanced, self.steps = float(pressure), float(unbalanced), int(steps)
        self.info = list(info)

    @property
    def periodic(self) -> bool:
        """Is it a periodic cell (it has a cell) rather than a clipped region?"""
        return self.cell is not None

    def __len__(self) -> int:
        return len(self.radii)

    def __repr__(self) -> str:
        where = "a periodic cell" if self.periodic else "a region"
        return (f"<grit.pack.Packing: {len(self)} spheres in {where}, solid fraction {self.solid_fraction:.4f}, "
                f"pressure {self.pressure:.4g} Pa>")

    def sphere_volume(self) -> float:
        """The spheres' volume [m^3] (overlaps counted twice)."""
        return float(np.sum(4.0 / 3.0 * np.pi * self.radii ** 3))

    # -- to and from the C struct
    def _c(self) -> Tuple[_lib.Packing, Any]:
        """A grit_packing over this object's memory (valid while the returned keep-alive lives)."""
        c = np.ascontiguousarray(self.centers, dtype=float)
        r = np.ascontiguousarray(self.radii, dtype=float)
        info = "\n".join(self.info).encode() if self.info else None
        p = _lib.Packing()
        p.n = len(r)
        p.center = c.ctypes.data_as(ctypes.POINTER(_lib.Vec3))
        p.radius = r.ctypes.data_as(ctypes.POINTER(ctypes.c_double))
        p.periodic = self.periodic
        p.cell[:] = list(self.cell.ravel()) if self.periodic else [0.0] * 9
        p.volume, p.solid_fraction, p.pressure = self.volume, self.solid_fraction, self.pressure
        p.unbalanced, p.steps, p.info = self.unbalanced, self.steps, info
        return p, (c, r, info)

    @classmethod
    def _from_c(cls, p: _lib.Packing) -> Packing:
        """A Packing copied from a grit_packing filled by the library (which is then freed)."""
        try:
            n = p.n
            centers = np.ctypeslib.as_array(ctypes.cast(p.center, ctypes.POINTER(ctypes.c_double)), (n, 3)).copy()
            radii = np.ctypeslib.as_array(p.radius, (n,)).copy()
            cell = np.array(p.cell[:], dtype=float).reshape(3, 3) if p.periodic else None
            info = p.info.decode().split("\n") if p.info else []
            return cls(centers, radii, cell, p.volume, p.solid_fraction, p.pressure, p.unbalanced, p.steps, info)
        finally:
            _LIB.grit_packing_free(ctypes.byref(p))

    # -- operations
    def max_overlap(self) -> float:
        """The largest overlap of two spheres over the smaller radius (periodic images included), 0 if none."""
        if len(self) == 0:
            return 0.0
        p, keep = self._c()
        return _LIB.grit_packing_max_overlap(ctypes.byref(p), None, None)

    def save(self, path: PathLike) -> PathLike:
        """Write the spheres CSV (x,y,z,r) that grit_io_load_spheres_csv and ``grit run box csv=`` read, with
        comment lines recording the cell, the figures and ``info``; :func:`load` reads it back exactly."""
        p, keep = self._c()
        err = ctypes.create_string_buffer(ERRLEN)
        rc = _LIB.grit_packing_save(ctypes.byref(p), os.fsencode(path), err, ERRLEN)
        if rc:
            raise _error(rc, err)
        return path

    def clip(self, region: Union[Region, Callable[[np.ndarray, float], bool], None] = None, *,
             recentre: Optional[bool] = None, tile_shift: Optional[Vec] = None, **shape: Any) -> Packing:
        """The spheres of this periodic packing, tiled over a region, that lie entirely inside it.

        The region is a :class:`Region`, a function ``inside(center, radius) -> bool`` (then ``lo=``, ``hi=``
        bound it and ``volume=`` may give its volume), or made here from the ``clip`` parameters:
        ``clip(shape="cylinder", center=..., axis=..., length=..., outer_radius=...)``,
        ``shape="hyperboloid"`` (also ``waist_radius``), ``shape="cuboid"`` (``lo``, ``hi``) or
        ``shape="stl", stl="solid.stl"`` (``stl_scale``, ``stl_shift``). With ``recentre`` (default True) a
        cell's centre goes to the centre of the region's bounding box; ``tile_shift`` [m] moves the tiling.
        StateError if no sphere fits inside."""
        if not self.periodic:
            raise ParameterError("clip: the packing must be periodic (from grit.pack.dense or its saved file)")
        d = Group.get("clip").new_def()
        g = Group.get("clip")
        if recentre is not None:
            g.write(g.params["recentre"], d, recentre)
        if tile_shift is not None:
            g.write(g.params["tile_shift"], d, tile_shift)
        own = None
        if region is None:
            own = region = Region(**shape)
        elif callable(region) and not isinstance(region, Region):
            lo, hi, volume = shape.pop("lo", None), shape.pop("hi", None), shape.pop("volume", math.nan)
            if shape:
                raise ParameterError(f"clip: with a predicate, only lo, hi, volume, recentre and tile_shift are "
                                     f"accepted, not {', '.join(shape)}")
            if lo is None or hi is None:
                raise ParameterError("clip: a predicate needs the bounds of its region, lo=(x, y, z) and hi=(x, y, z)")
            own = region = Region.predicate(region, lo, hi, volume)
        elif shape:
            raise ParameterError(f"clip: a Region is given; {', '.join(shape)} would be ignored")
        if not isinstance(region, Region):
            raise ParameterError(f"clip: region = {region!r} is neither a Region nor a function")
        try:
            p, keep = self._c()
            out = _lib.Packing()
            err = ctypes.create_string_buffer(ERRLEN)
            rc = _LIB.grit_packing_clip(ctypes.byref(p), region._p(), g.read(g.params["recentre"], d),
                                     _lib.Vec3(*g.read(g.params["tile_shift"], d)), ctypes.byref(out), err, ERRLEN)
            region._raise_pending()
            if rc:
                raise _error(rc, err)
            return Packing._from_c(out)
        finally:
            if own is not None:
                own.close()


def dense(psd: Optional[Sequence[Tuple[float, float]]] = None,
          monitor: Optional[Callable[[Dict[str, Any]], Any]] = None, monitor_every: int = 1000,
          keep_scene: bool = False, **params: Any) -> Union[Packing, Tuple[Packing, Scene]]:
    """A dense random packing in a cubic periodic cell (grit_pack_dense).

    ``params`` are the parameters of the group ``pack`` (n, radius, spread, target, pressure, solid_fraction,
    relax_pressure, young, tan_phi, damping, seed, tolerance, unbalanced, max_steps, ...; docs/packing.md).
    ``psd``: a discrete size distribution, pairs ``(radius, mass_fraction)`` replacing radius and spread.
    ``monitor(state)`` is called every ``monitor_every`` steps with a dict (phase, step, pressure,
    solid_fraction, unbalanced, strain_rate, contacts); a true return value stops the compaction (StateError).
    With ``keep_scene=True`` the result is ``(packing, scene)``: the compacted periodic :class:`grit.Scene`.

    StateError when ``max_steps`` is reached before the target holds (the message says where it stopped),
    ParameterError for a bad parameter; Ctrl-C stops it between two steps (KeyboardInterrupt)."""
    g = Group.get("pack")
    d = g.new_def()
    g.write_many(d, params, "grit.pack.dense")
    if isinstance(monitor_every, bool) or not isinstance(monitor_every, numbers.Integral) or monitor_every < 1:
        raise ParameterError(f"dense: monitor_every = {monitor_every!r} must be an integer >= 1 (steps)")
    if monitor is not None and not callable(monitor):
        raise ParameterError(f"dense: monitor = {monitor!r} is not callable")
    c_psd, keep = _psd(psd)
    opts = _LIB.grit_default_pack_opts()
    opts.psd = ctypes.pointer(c_psd) if c_psd is not None else None
    raised: List[BaseException] = []
    names = ("compress", "relax", "done")
    every = int(monitor_every)
    next_call = [0]

    def on_state(st: Any, data: Any) -> int:
        try:
            s = st.contents
            if monitor is None or (s.step < next_call[0] and s.phase != 2):
                return 0
            next_call[0] = s.step + every
            return 1 if monitor({"phase": names[s.phase], "step": s.step, "pressure": s.pressure,
                                 "solid_fraction": s.solid_fraction, "unbalanced": s.unbalanced,
                                 "strain_rate": s.strain_rate, "contacts": s.contacts}) else 0
        except BaseException as e:  # KeyboardInterrupt too: stop the engine, raise it after
            raised.append(e)
            return 1

    fn = _lib.PACK_MONITOR_FN(on_state)
    opts.monitor = fn
    # Python sees Ctrl-C only while it runs, i.e. in this callback: call it often
    opts.monitor_every = min(every, 200)
    scene_ptr = ctypes.c_void_p()
    if keep_scene:
        opts.keep_scene = ctypes.pointer(scene_ptr)
    out = _lib.Packing()
    err = ctypes.create_string_buffer(ERRLEN)
    rc = _LIB.grit_pack_dense(d, ctypes.byref(opts), ctypes.byref(out), err, ERRLEN)
    scene = None
    if scene_ptr.value:
        from .scene import Scene
        scene = Scene.__new__(Scene)
        scene._adopt(scene_ptr.value)
    if raised:
        raise raised[0]
    if rc:
        raise _error(rc, err)
    packing = Packing._from_c(out)
    return (packing, scene) if keep_scene else packing


def _psd(psd: Optional[Sequence[Tuple[float, float]]]) -> Tuple[Optional[_lib.Psd], Any]:
    """A grit_psd over arrays of (radius, mass_fraction) pairs; (None, None) for None."""
    if psd is None:
        return None, None
    try:
        a = np.array(psd, dtype=float)
    except (TypeError, ValueError):
        raise ParameterError(f"psd = {psd!r} is not a list of (radius, mass_fraction) pairs") from None
    if a.ndim != 2 or a.shape[1] != 2 or len(a) == 0:
        raise ParameterError(f"psd = {psd!r} is not a list of (radius, mass_fraction) pairs")
    r, w = np.ascontiguousarray(a[:, 0]), np.ascontiguousarray(a[:, 1])
    c = _lib.Psd(len(a), r.ctypes.data_as(ctypes.POINTER(ctypes.c_double)),
                 w.ctypes.data_as(ctypes.POINTER(ctypes.c_double)))
    return c, (r, w)


def check(psd: Optional[Sequence[Tuple[float, float]]] = None, **params: Any) -> None:
    """Validate the parameters of :func:`dense` without compacting (grit_pack_check): ParameterError if bad."""
    g = Group.get("pack")
    d = g.new_def()
    g.write_many(d, params, "grit.pack.check")
    c_psd, keep = _psd(psd)
    err = ctypes.create_string_buffer(ERRLEN)
    rc = _LIB.grit_pack_check(d, ctypes.byref(c_psd) if c_psd is not None else None, err, ERRLEN)
    if rc:
        raise _error(rc, err)


def load(path: PathLike) -> Packing:
    """A packing from a file of :meth:`Packing.save` (or any spheres CSV x,y,z,r: then not periodic, figures
    NaN). GritIOError / FormatError with the reader's message."""
    out = _lib.Packing()
    err = ctypes.create_string_buffer(ERRLEN)
    rc = _LIB.grit_packing_load(os.fsencode(path), ctypes.byref(out), err, ERRLEN)
    if rc:
        raise _error(rc, err)
    return Packing._from_c(out)


class Region:
    """A region a packing is cut to: ``Region(shape="cylinder", length=0.1, outer_radius=0.05, ...)`` from the
    ``clip`` parameters (``stl="file.stl"`` for ``shape="stl"``), or ``Region.predicate(fn, lo, hi, volume)``.

    ``contains(center, radius)``: whether the sphere lies entirely inside; ``volume`` [m^3] (NaN if
    unknown), ``bounds`` (lo, hi), ``description``. ParameterError for bad parameters, FormatError for an
    STL file that is not a closed solid, GritIOError if it cannot be read."""

    def __init__(self, stl: Optional[PathLike] = None, **params: Any) -> None:
        g = Group.get("clip")
        d = g.new_def()
        g.write_many(d, params, "grit.pack.Region")
        self._fn: Any = None
        self._pending: List[BaseException] = []
        self._ptr = None
        err = ctypes.create_string_buffer(ERRLEN)
        ptr = ctypes.c_void_p()
        rc = _LIB.grit_region_create(d, os.fsencode(stl) if stl is not None else None, ctypes.byref(ptr), err,
                                     ERRLEN)
        if rc:
            raise _error(rc, err)
        self._ptr = ptr.value

    @classmethod
    def predicate(cls, fn: Callable[[np.ndarray, float], Any], lo: Vec, hi: Vec, volume: float = math.nan) -> Region:
        """A region given by ``fn(center, radius) -> bool`` (True: the sphere lies entirely inside; center is
        a NumPy array of 3); ``lo``, ``hi`` bound it (the tiling covers that box), ``volume`` [m^3] or NaN."""
        if not callable(fn):
            raise ParameterError(f"Region.predicate: fn = {fn!r} is not callable")
        lo, hi = as_vec3(lo, "Region.predicate: lo"), as_vec3(hi, "Region.predicate: hi")
        self = cls.__new__(cls)
        self._pending = []

        def inside(c: Any, r: float, data: Any) -> int:
            try:
                return 1 if fn(np.array((c.x, c.y, c.z)), r) else 0
            except BaseException as e:  # reported after the C call returns
                self._pending.append(e)
                return 0

        self._fn = _lib.REGION_FN(inside)
        self._ptr = None
        err = ctypes.create_string_buffer(ERRLEN)
        ptr = ctypes.c_void_p()
        rc = _LIB.grit_region_predicate(self._fn, None, _lib.Vec3(*lo), _lib.Vec3(*hi), float(volume),
                                        ctypes.byref(ptr), err, ERRLEN)
        if rc:
            raise _error(rc, err)
        self._ptr = ptr.value
        return self

    def _p(self) -> int:
        if self.__dict__.get("_ptr") is None:
            raise StateError("the region was closed")
        return self._ptr

    def _raise_pending(self) -> None:
        if self._pending:
            e = self._pending[0]
            self._pending.clear()
            raise e

    def contains(self, center: Vec, radius: float) -> bool:
        """True if the sphere (center, radius) lies entirely inside the region."""
        c = as_vec3(center, "contains: center")
        r = _LIB.grit_region_contains(self._p(), _lib.Vec3(*c), float(radius))
        self._raise_pending()
        return bool(r)

    @property
    def volume(self) -> float:
        """The region's volume [m^3] (NaN if unknown)."""
        return _LIB.grit_region_volume(self._p())

    @property
    def bounds(self) -> Tuple[np.ndarray, np.ndarray]:
        """The bounding box (lo, hi) [m], two NumPy arrays of 3."""
        lo, hi = _lib.Vec3(), _lib.Vec3()
        _LIB.grit_region_bounds(self._p(), ctypes.byref(lo), ctypes.byref(hi))
        return np.array(lo.tuple()), np.array(hi.tuple())

    @property
    def description(self) -> str:
        """The region in words (its shape and sizes), as the packing's info records it."""
        return _LIB.grit_region_describe(self._p()).decode()

    def __repr__(self) -> str:
        return f"<grit.pack.Region {self.description}>" if self.__dict__.get("_ptr") else "<grit.pack.Region closed>"

    def close(self) -> None:
        """Free the engine's region now (also done when the object goes away)."""
        ptr = self.__dict__.get("_ptr")
        if ptr is not None:
            self._ptr = None
            _LIB.grit_region_destroy(ptr)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass

    def __enter__(self) -> Region:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


__all__ = ["Packing", "Region", "dense", "check", "load"]
