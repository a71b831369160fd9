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
import ctypes
import numbers

import numpy as np

from . import _lib
from .errors import ParameterError
from .params import Group

_LIB = _lib.get()
ERRLEN = 2048
STOPS = {0: "not run", 1: "fall", 2: "strain", 3: "steps", 4: "monitor"}


def _error(rc, err):
    return _LIB.error(rc, err.value.decode())


def _curve(c):
    n = c.n
    return {k: np.ctypeslib.as_array(getattr(c, k), (n,)).copy() if n else np.zeros(0)
            for k in ("strain", "stress", "time", "omega", "lateral")}


def _defs(material, params, who):
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


def run(packing, material=None, *, region=None, periodic=False, monitor=None, monitor_every=100, **params):
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
    raised = []

    def on_state(st, data):
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


def _arrays(strain, stress, who):
    e = np.ascontiguousarray(strain, dtype=float).reshape(-1)
    s = np.ascontiguousarray(stress, dtype=float).reshape(-1)
    if len(e) != len(s):
        raise ParameterError(f"{who}: {len(e)} strains but {len(s)} stresses")
    pd = ctypes.POINTER(ctypes.c_double)
    return e, s, e.ctypes.data_as(pd), s.ctypes.data_as(pd)


def fit_young(strain, stress, sense=1, fraction=0.3):
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


def fracture_energy(strain, stress, fraction=0.2):
    """Fracture energy per unit volume [J/m^3] of a tension curve (grit_uniax_fracture_energy): the secant to the
    peak plus the area after it until the stress first falls to ``fraction`` of the peak. StateError if it never
    does."""
    e, s, pe, ps = _arrays(strain, stress, "fracture_energy")
    g, err = ctypes.c_double(), ctypes.create_string_buffer(ERRLEN)
    rc = _LIB.grit_uniax_fracture_energy(pe, ps, len(e), float(fraction), ctypes.byref(g), err, ERRLEN)
    if rc:
        raise _error(rc, err)
    return g.value


def _vec3s(x, who):
    a = np.ascontiguousarray(x, dtype=float).reshape(-1, 3)
    return a, a.ctypes.data_as(ctypes.POINTER(_lib.Vec3))


def poisson(x0, x, axis, lo, hi):
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


def hull_section(centers, radii, axis, lo, hi, planes=8, yade=False):
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
