"""The uniaxial tension/compression test of concrete specimens (the engine's grit/uniax.h; docs/concrete.md,
"Uniaxial test and calibration").

    import grit, grit.pack, grit.uniax
    cell = grit.pack.dense(n=2000, radius=0.0035, tan_phi=0.5463, pressure=3.33e5)
    bone = cell.clip(shape="hyperboloid")                     # the example's dog bone
    res = grit.uniax.run(bone, young=24e9, sigma_t=3.5e6)     # tension, then compression
    res["young"], res["poisson"], res["ft"], res["fc"], res["gf"]
    res["tension"]["strain"], res["tension"]["stress"]       # the curves, NumPy arrays

The keyword arguments are the parameters of the groups ``uniax`` (the test), ``concretemat`` (the material,
unless a :class:`grit.ConcreteMat` is given) and ``cpm`` (the law's switches), all listed in
docs/parameters.md; their ranges are the engine's, and a bad value raises ParameterError with its message.
The analysis functions (:func:`fit_young`, :func:`fracture_energy`, :func:`poisson`, :func:`hull_section`)
work on any curve, a Yade run's too.
"""
from __future__ import annotations

import ctypes
import numbers
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple, Type, Union

import numpy as np

from . import _lib
from .errors import ParameterError
from .params import Group

if TYPE_CHECKING:
    from .errors import GritError
    from .pack import Packing, Region
    from .scene import Material

_LIB = _lib.get()
ERRLEN = 2048
STOPS = {0: "not run", 1: "fall", 2: "strain", 3: "steps", 4: "monitor"}


def _error(rc: int, err: ctypes.Array) -> GritError:
    return _LIB.error(rc, err.value.decode())


def _curve(c: Any) -> Dict[str, np.ndarray]:
    n = c.n
    return {k: np.ctypeslib.as_array(getattr(c, k), (n,)).copy() if n else np.zeros(0)
            for k in ("strain", "stress", "time", "omega", "lateral")}


def _defs(material: Optional[Material], params: Dict[str, Any], who: str) -> Dict[str, ctypes.Array]:
    """The definitions of the groups uniax, cpm and concretemat from keyword arguments."""
    groups = {name: Group.get(name) for name in ("uniax", "cpm", "concretemat")}
    defs = {name: g.new_def() for name, g in groups.items()}
    rest = dict(params)
    for name, g in groups.items():
        mine = {k: rest.pop(k) for k in list(rest) if k in g.params}
        if name == "concretemat" and mine and material is not None:
            raise ParameterError(f"{who}: {', '.join(mine)} belong to the material: set them on the "
                                 f"{type(material).__name__} given, or give no material")
        g.write_many(defs[name], mine, who)
    if rest:
        import difflib
        k = next(iter(rest))
        known = [n for g in groups.values() for n in g.params]
        near = difflib.get_close_matches(k, known, n=1)
        raise ParameterError(f"unknown parameter '{k}' of {who}" + (f"; did you mean '{near[0]}'?" if near else "") +
                             " (the groups uniax, cpm and concretemat, docs/parameters.md)")
    return defs


def run(packing: Packing, material: Optional[Material] = None, *, region: Optional[Region] = None,
        periodic: bool = False, monitor: Optional[Callable[[Dict[str, Any]], Any]] = None, monitor_every: int = 100,
        **params: Any) -> Dict[str, Any]:
    """Run the uniaxial test (grit_uniax_run, or grit_uniax_periodic_run with ``periodic=True``).

    ``packing``: a :class:`grit.pack.Packing`, cut to the specimen's shape (or a periodic cell with
    ``periodic=True``); ``material``: a :class:`grit.ConcreteMat` (default: its defaults, changed by the
    ``concretemat`` keywords); ``region``: the :class:`grit.pack.Region` it was cut to (counts the interior
    spheres); ``monitor(state)`` is called every ``monitor_every`` samples with a dict (run, step, strain,
    stress, peak, mean_omega, cracked, contacts, stop); a true return value stops the test (StateError).

    Returns a dict: the figures (young, poisson, ft, fc, gf, ... as in results.json of ``grit run uniax``),
    ``stop_tension`` / ``stop_compression`` ("fall", "strain", "steps", "not run") and the curves
    ``tension`` and ``compression``, each a dict of NumPy arrays (strain, stress [Pa], time [s], omega (NaN
    where not sampled), lateral (periodic: the mean lateral strain))."""
    from .pack import Packing, Region
    from .scene import Material
    who = "grit.uniax.run"
    if not isinstance(packing, Packing):
        raise ParameterError(f"{who}: packing = {packing!r} is not a grit.pack.Packing")
    if material is not None and not isinstance(material, Material):
        raise ParameterError(f"{who}: material = {material!r} is not a material (grit.ConcreteMat)")
    if region is not None and not isinstance(region, Region):
        raise ParameterError(f"{who}: region = {region!r} is not a grit.pack.Region")
    if isinstance(monitor_every, bool) or not isinstance(monitor_every, numbers.Integral) or monitor_every < 1:
        raise ParameterError(f"{who}: monitor_every = {monitor_every!r} must be an integer >= 1 (samples)")
    if monitor is not None and not callable(monitor):
        raise ParameterError(f"{who}: monitor = {monitor!r} is not callable")
    defs = _defs(material, params, who)
    mat_type = material._type if material is not None else _LIB.const["GRIT_MAT_CONCRETEMAT"]
    mat_def = material._def if material is not None else defs["concretemat"]
    p, keep = packing._c()
    spec = _lib.UniaxSpecimen(ctypes.pointer(p), mat_type, ctypes.cast(mat_def, ctypes.c_void_p),
                              ctypes.cast(defs["cpm"], ctypes.c_void_p),
                              region._ptr if region is not None else None)
    raised: List[BaseException] = []

    def on_state(st: Any, data: Any) -> int:
        try:
            if monitor is None:
                return 0
            s = st.contents
            return 1 if monitor({"run": "tension" if s.run == 1 else "compression", "step": s.step,
                                 "strain": s.strain, "stress": s.stress, "peak": s.peak,
                                 "mean_omega": s.mean_omega, "cracked": s.cracked, "contacts": s.contacts,
                                 "stop": STOPS.get(s.stop, "?")}) else 0
        except BaseException as e:  # KeyboardInterrupt too: stop the engine, raise it after
            raised.append(e)
            return 1

    opts = _LIB.grit_default_uniax_opts()
    fn = _lib.UNIAX_MONITOR_FN(on_state)
    opts.monitor = fn
    opts.monitor_every = int(monitor_every)
    out = _lib.UniaxResult()
    err = ctypes.create_string_buffer(ERRLEN)
    call = _LIB.grit_uniax_periodic_run if periodic else _LIB.grit_uniax_run
    rc = call(ctypes.byref(spec), defs["uniax"], ctypes.byref(opts), ctypes.byref(out), err, ERRLEN)
    del keep
    if raised:
        raise raised[0]
    if rc:
        raise _error(rc, err)
    try:
        res = {k: getattr(out, k) for k in ("spheres", "support_neg", "support_pos", "bonds", "bonds_per_sphere",
                                            "bonds_per_sphere_interior", "interior", "steps_tension",
                                            "steps_compression", "cpu_tension", "cpu_compression")}
        res.update({k: getattr(out, k) for k in _lib.UNIAX_RESULT_FIGURES})
        res["axis"] = "xyz"[out.axis]
        res["stop_tension"], res["stop_compression"] = STOPS[out.stop_tension], STOPS[out.stop_compression]
        res["tension"], res["compression"] = _curve(out.tension), _curve(out.compression)
        return res
    finally:
        _LIB.grit_uniax_result_free(ctypes.byref(out))


def _arrays(strain: Any, stress: Any, who: str) -> Tuple[np.ndarray, np.ndarray, Any, Any]:
    e = np.ascontiguousarray(strain, dtype=float).reshape(-1)
    s = np.ascontiguousarray(stress, dtype=float).reshape(-1)
    if len(e) != len(s):
        raise ParameterError(f"{who}: {len(e)} strains but {len(s)} stresses")
    pd = ctypes.POINTER(ctypes.c_double)
    return e, s, e.ctypes.data_as(pd), s.ctypes.data_as(pd)


def fit_young(strain: Any, stress: Any, sense: int = 1, fraction: float = 0.3) -> float:
    """Young's modulus [Pa] of a curve (grit_uniax_fit_young): the least-squares slope through the points before
    the peak (sense +1: maximum, -1: minimum) whose stress differs from the first point's by less than
    ``fraction`` of the peak's difference. StateError with fewer than 2 such points."""
    e, s, pe, ps = _arrays(strain, stress, "fit_young")
    E, err = ctypes.c_double(), ctypes.create_string_buffer(ERRLEN)
    rc = _LIB.grit_uniax_fit_young(pe, ps, len(e), 1 if sense > 0 else -1, float(fraction), ctypes.byref(E), err,
                                   ERRLEN)
    if rc:
        raise _error(rc, err)
    return E.value


def fracture_energy(strain: Any, stress: Any, fraction: float = 0.2) -> float:
    """Fracture energy per unit volume [J/m^3] of a tension curve (grit_uniax_fracture_energy): the secant to the
    peak plus the area after it until the stress first falls to ``fraction`` of the peak. StateError if it never
    does."""
    e, s, pe, ps = _arrays(strain, stress, "fracture_energy")
    g, err = ctypes.c_double(), ctypes.create_string_buffer(ERRLEN)
    rc = _LIB.grit_uniax_fracture_energy(pe, ps, len(e), float(fraction), ctypes.byref(g), err, ERRLEN)
    if rc:
        raise _error(rc, err)
    return g.value


def _vec3s(x: Any, who: str) -> Tuple[np.ndarray, Any]:
    a = np.ascontiguousarray(x, dtype=float).reshape(-1, 3)
    return a, a.ctypes.data_as(ctypes.POINTER(_lib.Vec3))


def poisson(x0: Any, x: Any, axis: int, lo: Sequence[float],
            hi: Sequence[float]) -> Tuple[float, Tuple[float, float, float]]:
    """Poisson's ratio by displacement regression (grit_uniax_poisson) over the points whose current position
    ``x`` lies in the box [lo, hi]: returns (nu, (eps_x, eps_y, eps_z))."""
    a0, p0 = _vec3s(x0, "poisson")
    a1, p1 = _vec3s(x, "poisson")
    if len(a0) != len(a1):
        raise ParameterError(f"poisson: {len(a0)} initial but {len(a1)} current positions")
    nu, eps = ctypes.c_double(), (ctypes.c_double * 3)()
    err = ctypes.create_string_buffer(ERRLEN)
    rc = _LIB.grit_uniax_poisson(p0, p1, len(a0), int(axis), _lib.Vec3(*lo), _lib.Vec3(*hi), ctypes.byref(nu), eps,
                                 err, ERRLEN)
    if rc:
        raise _error(rc, err)
    return nu.value, tuple(eps)


def hull_section(centers: Any, radii: Any, axis: int, lo: float, hi: float, planes: int = 8,
                 yade: bool = False) -> Tuple[float, float]:
    """The smallest convex-hull section of spheres over ``planes`` planes across ``axis`` between lo and hi
    (grit_uniax_hull_section; ``yade=True``: Yade's figure): returns (area [m^2], plane coordinate [m])."""
    c, pc = _vec3s(centers, "hull_section")
    r = np.ascontiguousarray(radii, dtype=float).reshape(-1)
    if len(r) != len(c):
        raise ParameterError(f"hull_section: {len(c)} centres but {len(r)} radii")
    area, at, err = ctypes.c_double(), ctypes.c_double(), ctypes.create_string_buffer(ERRLEN)
    rc = _LIB.grit_uniax_hull_section(pc, r.ctypes.data_as(ctypes.POINTER(ctypes.c_double)), len(r), int(axis),
                                      float(lo), float(hi), int(planes), bool(yade), ctypes.byref(area),
                                      ctypes.byref(at), err, ERRLEN)
    if rc:
        raise _error(rc, err)
    return area.value, at.value


# ---------------------------------------------------------------- calibration (grit/calibrate.h)
FIGURES = ("young", "poisson", "ft", "fc", "gf")
PARAMS = ("young", "kt_div_kn", "eps_crack_onset", "sigma_t", "rel_ductility", "tan_phi")
STAGES = {1: "elastic", 2: "full", 3: "fresh"}
_MAX_RUNS = 80


class _CalibrateRun(ctypes.Structure):
    _fields_ = [("stage", ctypes.c_int), ("index", ctypes.c_int), ("param", ctypes.c_double * len(PARAMS)),
                ("figure", ctypes.c_double * len(FIGURES)), ("error", ctypes.c_double * len(FIGURES)),
                ("worst", ctypes.c_double), ("cpu", ctypes.c_double)]


_CALIBRATE_MONITOR_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(_CalibrateRun), ctypes.c_void_p)


class _CalibrateOpts(ctypes.Structure):
    _fields_ = [("periodic", ctypes.c_bool), ("monitor", _CALIBRATE_MONITOR_FN), ("monitor_data", ctypes.c_void_p),
                ("uniax", ctypes.POINTER(_lib.UniaxOpts))]


_calibrate_result: Optional[Type[ctypes.Structure]] = None


def _result_type() -> Type[ctypes.Structure]:
    """The mirror of grit_calibrate_result; its material is a ConcreteMat definition of the library's size."""
    global _calibrate_result
    if _calibrate_result is None:
        size = Group.get("concretemat").size

        class CalibrateResult(ctypes.Structure):
            _fields_ = [("material", ctypes.c_double * (size // 8)), ("target", ctypes.c_double * len(FIGURES)),
                        ("converged", ctypes.c_bool), ("best", ctypes.c_int), ("have_fresh", ctypes.c_bool),
                        ("fresh_passed", ctypes.c_bool), ("fresh", _CalibrateRun), ("n_runs", ctypes.c_int),
                        ("runs", _CalibrateRun * _MAX_RUNS), ("cpu", ctypes.c_double)]
        for cname, mirror in (("grit_calibrate_run", _CalibrateRun), ("grit_calibrate_opts", _CalibrateOpts),
                              ("grit_calibrate_result", CalibrateResult)):
            if _LIB.grit_reflect_sizeof(cname.encode()) != ctypes.sizeof(mirror):
                raise _lib.LibraryNotFoundError(f"grit: sizeof({cname}) differs between the library and grit/uniax.py: "
                                                "rebuild the library")
        _LIB.cdll.grit_calibrate.restype = ctypes.c_int
        _LIB.cdll.grit_calibrate.argtypes = [ctypes.POINTER(_lib.UniaxSpecimen), ctypes.c_int,
                                             ctypes.POINTER(_lib.UniaxSpecimen), ctypes.c_void_p, ctypes.c_void_p,
                                             ctypes.POINTER(_CalibrateOpts), ctypes.POINTER(CalibrateResult),
                                             ctypes.c_char_p, ctypes.c_size_t]
        _calibrate_result = CalibrateResult
    return _calibrate_result


def _run_dict(r: Any) -> Dict[str, Any]:
    return {"stage": STAGES.get(r.stage, "?"), "index": r.index,
            "params": dict(zip(PARAMS, r.param)), "figures": dict(zip(FIGURES, r.figure)),
            "errors": dict(zip(FIGURES, r.error)), "worst": r.worst, "cpu": r.cpu}


def calibrate(packings: Union[Packing, Sequence[Packing]], material: Optional[Material] = None, *,
              fresh: Optional[Packing] = None, periodic: bool = False,
              monitor: Optional[Callable[[Dict[str, Any]], Any]] = None, **params: Any) -> Dict[str, Any]:
    """Calibrate a ConcreteMat to target E, nu, f_t, f_c and G_f (grit_calibrate; ``grit calibrate`` on the command
    line; docs/concrete.md, "Calibration").

    ``packings``: a :class:`grit.pack.Packing` or a list of them (the same size, other seeds: every run's figures
    are their mean); periodic cells with ``periodic=True`` (the default of ``grit calibrate``), else specimens cut
    to their shape. ``material``: the starting :class:`grit.ConcreteMat` (default: its defaults, changed by the
    ``concretemat`` keywords); ``fresh``: another packing of the same size on which the result is tried.
    ``monitor(run)`` is called after every run with the dict described below; a true return value stops the
    calibration (StateError). The keywords are the parameters of the groups ``calibrate`` (the targets:
    target_young, target_poisson, target_ft, target_fc or target_fc_ft, target_gf; tolerance, max_runs,
    fresh_tolerance), ``uniax``, ``cpm`` and ``concretemat``.

    Returns a dict: ``material`` (the calibrated grit.ConcreteMat), ``converged``, ``targets``, ``runs`` (a list of
    dicts: stage "elastic"/"full", index, params, figures, errors (figure / target - 1), worst, cpu), ``best`` (the
    run the material comes from), ``fresh`` (the fresh specimen's run, or None), ``fresh_passed`` and ``cpu``.
    A target out of the model's reach raises ParameterError naming the limit."""
    from .pack import Packing
    from .scene import Material, ConcreteMat
    who = "grit.uniax.calibrate"
    plist = [packings] if isinstance(packings, Packing) else list(packings) if isinstance(packings, (list, tuple)) \
        else None
    if not plist or not all(isinstance(p, Packing) for p in plist):
        raise ParameterError(f"{who}: packings = {packings!r} is not a grit.pack.Packing or a list of them")
    if fresh is not None and not isinstance(fresh, Packing):
        raise ParameterError(f"{who}: fresh = {fresh!r} is not a grit.pack.Packing")
    if material is not None and not isinstance(material, ConcreteMat):
        raise ParameterError(f"{who}: material = {material!r} is not a grit.ConcreteMat")
    if monitor is not None and not callable(monitor):
        raise ParameterError(f"{who}: monitor = {monitor!r} is not callable")
    cal = Group.get("calibrate")
    cdef = cal.new_def()
    cal.write_many(cdef, {k: params.pop(k) for k in list(params) if k in cal.params}, who)
    defs = _defs(material, params, who)
    mat_type = material._type if material is not None else _LIB.const["GRIT_MAT_CONCRETEMAT"]
    mat_def = material._def if material is not None else defs["concretemat"]
    keep: List[Any] = []

    def specimen(p: Packing) -> _lib.UniaxSpecimen:
        c, k = p._c()
        keep.append((c, k))
        return _lib.UniaxSpecimen(ctypes.pointer(c), mat_type, ctypes.cast(mat_def, ctypes.c_void_p),
                                  ctypes.cast(defs["cpm"], ctypes.c_void_p), None)
    specs = (_lib.UniaxSpecimen * len(plist))(*[specimen(p) for p in plist])
    fresh_spec = specimen(fresh) if fresh is not None else None
    raised: List[BaseException] = []

    def on_run(r: Any, data: Any) -> int:
        try:
            return 1 if monitor is not None and monitor(_run_dict(r.contents)) else 0
        except BaseException as e:  # KeyboardInterrupt too: stop the engine, raise it after
            raised.append(e)
            return 1

    Result = _result_type()
    opts = _CalibrateOpts()
    opts.periodic = bool(periodic)
    fn = _CALIBRATE_MONITOR_FN(on_run)
    opts.monitor = fn
    out = Result()
    err = ctypes.create_string_buffer(ERRLEN)
    rc = _LIB.cdll.grit_calibrate(specs, len(plist), ctypes.byref(fresh_spec) if fresh_spec is not None else None,
                                  defs["uniax"], cdef, ctypes.byref(opts), ctypes.byref(out), err, ERRLEN)
    del keep
    if raised:
        raise raised[0]
    if rc:
        raise _error(rc, err)
    g = Group.get("concretemat")
    buf = g.copy_def(ctypes.addressof(out.material))
    mat = ConcreteMat(**{name: g.read(p, buf) for name, p in g.params.items()})
    assert isinstance(mat, Material)
    return {"material": mat, "converged": bool(out.converged), "targets": dict(zip(FIGURES, out.target)),
            "runs": [_run_dict(out.runs[i]) for i in range(out.n_runs)], "best": out.best,
            "fresh": _run_dict(out.fresh) if out.have_fresh else None, "fresh_passed": bool(out.fresh_passed),
            "cpu": out.cpu}
