"""Particle inlets (docs/inlets.md): ``scene.add_inlet(...)`` inserts spheres into a box, an upright cylinder or
a mesh at a mass rate, with radii from a size distribution, clumps from templates (``clumps=``), or capsules and
ellipsoids from templates scaled by a distribution (``shapes=``, ``scales=``), each where it overlaps nothing;
``scene.inlets`` reads what they did. The inlets' state, their random streams included, is saved in restart
files."""
from __future__ import annotations

import ctypes
import math
import numbers
from typing import TYPE_CHECKING, Any, Optional, Sequence, Tuple, Union

import numpy as np

from . import _lib
from .errors import ParameterError
from .params import as_vec3
from .regions import MeshLike, set_region

if TYPE_CHECKING:
    from .scene import Scene

MAX_SIZES = 8
MAX_CLUMPS = 8
MAX_SHAPES = 8


def set_clumps(d: _lib.InletDef, clumps: Sequence[Any]) -> list:
    """The clump templates into d; returns the arrays d points to (the caller keeps them alive until the inlet is
    added, which copies them)."""
    clumps = list(clumps)
    if not 1 <= len(clumps) <= MAX_CLUMPS:
        raise ParameterError(f"add_inlet: clumps has {len(clumps)} templates; 1 to {MAX_CLUMPS} are allowed")
    keep = []
    for k, t in enumerate(clumps):
        if not isinstance(t, (tuple, list)) or len(t) not in (2, 3):
            raise ParameterError(f"add_inlet: clumps[{k}] must be (centers, radii) or (centers, radii, mass "
                                 "fraction)")
        c = np.asarray(t[0], dtype=float)
        if c.ndim != 2 or c.shape[1] != 3:
            raise ParameterError(f"add_inlet: clumps[{k}]: centers must have shape (n, 3), not {c.shape}")
        n = len(c)
        r = np.full(n, float(t[1])) if np.ndim(t[1]) == 0 else np.asarray(t[1], dtype=float)
        if r.shape != (n,):
            raise ParameterError(f"add_inlet: clumps[{k}]: radii must be a number or have shape ({n},), not "
                                 f"{r.shape}")
        c, r = np.ascontiguousarray(c), np.ascontiguousarray(r)
        keep += [c, r]
        e = d.clumps[k]
        e.n = n
        e.centers = c.ctypes.data_as(ctypes.c_void_p) if n else None
        e.radii = r.ctypes.data_as(ctypes.c_void_p) if n else None
        e.mass_frac = float(t[2]) if len(t) == 3 else 1.0
    d.n_clumps = len(clumps)
    return keep


def set_shapes(d: _lib.InletDef, shapes: Sequence[Any]) -> None:
    """The shape templates into d: ``("capsule", radius, shaft[, mass fraction])`` or ``("ellipsoid", (a, b,
    c)[, mass fraction])``."""
    shapes = list(shapes)
    if not 1 <= len(shapes) <= MAX_SHAPES:
        raise ParameterError(f"add_inlet: shapes has {len(shapes)} templates; 1 to {MAX_SHAPES} are allowed")
    const = _lib.get().const
    for k, t in enumerate(shapes):
        kind = t[0] if isinstance(t, (tuple, list)) and t else None
        n = {"capsule": 3, "ellipsoid": 2}.get(kind) if isinstance(kind, str) else None
        if n is None or len(t) not in (n, n + 1):
            raise ParameterError(f"add_inlet: shapes[{k}] must be ('capsule', radius, shaft[, mass fraction]) or "
                                 "('ellipsoid', (a, b, c)[, mass fraction])")
        e = d.shapes[k]
        e.shape = const["GRIT_SHAPE_" + kind.upper()]
        if kind == "capsule":
            e.radius, e.shaft = float(t[1]), float(t[2])
        else:
            e.semi_axes = _lib.Vec3(*as_vec3(t[1], f"add_inlet: shapes[{k}]: semi-axes"))
        e.mass_frac = float(t[n]) if len(t) == n + 1 else 1.0
    d.n_shapes = len(shapes)


def set_sizes(d: _lib.InletDef, radii: Any, sizes: Any, what: str) -> None:
    """A size distribution into d: a uniform range (a pair, or one number) or a list of (size, mass fraction)."""
    if radii is not None:
        if isinstance(radii, numbers.Real):
            radii = (radii, radii)
        d.n_sizes, d.r_min, d.r_max = 0, float(radii[0]), float(radii[1])
    elif sizes is not None:
        sizes = list(sizes)
        if not 1 <= len(sizes) <= MAX_SIZES:
            raise ParameterError(f"add_inlet: {what} has {len(sizes)} entries; 1 to {MAX_SIZES} are allowed")
        d.n_sizes = len(sizes)
        for k, (r, f) in enumerate(sizes):
            d.sizes[k], d.mass_frac[k] = float(r), float(f)


def set_scales(d: _lib.InletDef, scales: Any) -> None:
    """The templates' scale distribution: None (scale 1), a number, a pair (uniform by number) or
    [(scale, mass fraction), ...]."""
    if scales is None:
        return
    ranged = isinstance(scales, numbers.Real) or (len(scales) == 2 and all(isinstance(x, numbers.Real)
                                                                           for x in scales))
    set_sizes(d, scales if ranged else None, None if ranged else scales, "scales")


def make_def(region: str, lo: Optional[Sequence[float]], hi: Optional[Sequence[float]],
             center: Optional[Sequence[float]], radius: Optional[float], height: Optional[float], mass_rate: float,
             radii: Union[float, Tuple[float, float], None], sizes: Optional[Sequence[Tuple[float, float]]],
             mat_index: int, vel: Sequence[float], max_mass: Optional[float], t_start: Optional[float], seed: int,
             max_attempts: int, mesh: Optional[MeshLike] = None, mesh_scale: float = 1.0,
             mesh_shift: Sequence[float] = (0.0, 0.0, 0.0), clumps: Optional[Sequence[Any]] = None,
             shapes: Optional[Sequence[Any]] = None, scales: Any = None,
             angvel: Sequence[float] = (0.0, 0.0, 0.0)) -> _lib.InletDef:
    """The C definition (grit_inlet_def) from the keyword arguments of Scene.add_inlet (with clump templates, it
    holds the arrays its pointers name in an attribute, so that they live as long as it)."""
    d = _lib.get().grit_default_inlet_def()
    set_region(d, region, lo, hi, center, radius, height, mesh, mesh_scale, mesh_shift, "add_inlet")
    if scales is not None and shapes is None and clumps is None:
        raise ParameterError("add_inlet: scales= goes with shapes=[...] or clumps=[...]")
    if shapes is not None:
        if clumps is not None or radii is not None or sizes is not None:
            raise ParameterError("add_inlet: with shapes=[...] give scales= for their sizes, and neither clumps=, "
                                 "radii= nor sizes=")
        set_shapes(d, shapes)
        set_scales(d, scales)
    elif clumps is not None:
        if radii is not None or sizes is not None:
            raise ParameterError("add_inlet: give clumps=[...] or a size distribution (radii= or sizes=), not both; "
                                 "scales= scales the templates")
        d._clump_arrays = set_clumps(d, clumps)
        set_scales(d, scales)
    elif (radii is None) == (sizes is None):
        raise ParameterError("add_inlet: give either radii=(r_min, r_max) (uniform) or sizes=[(radius, mass "
                             "fraction), ...]")
    set_sizes(d, radii, sizes, "sizes")
    d.mass_rate = float(mass_rate)
    d.material = mat_index
    d.vel = _lib.Vec3(*as_vec3(vel, "add_inlet: vel"))
    d.angvel = _lib.Vec3(*as_vec3(angvel, "add_inlet: angvel"))
    d.max_mass = math.inf if max_mass is None else float(max_mass)
    d.t_start = math.nan if t_start is None else float(t_start)
    d.seed = int(seed)
    d.max_attempts = int(max_attempts)
    return d


class Inlet:
    """One inlet of a scene, by index: ``mass`` and ``count`` inserted (a clump counts once), ``failed`` places
    that overlapped, ``energy`` the kinetic energy brought in [J], ``waiting`` (the region was too full at the last
    step), ``mass_rate``, ``clump_templates``, ``shape_templates``."""

    def __init__(self, scene: Scene, k: int) -> None:
        self._scene, self.index = scene, k

    def _get(self) -> Tuple[_lib.InletDef, _lib.InletInfo]:
        d, info = _lib.InletDef(), _lib.InletInfo()
        self._scene._check(_lib.get().grit_inlet_get(self._scene._p(), self.index, d, info))
        return d, info

    @property
    def mass(self) -> float:
        """Inserted mass [kg]."""
        return self._get()[1].mass

    @property
    def count(self) -> int:
        """Inserted particles (a clump counts once)."""
        return self._get()[1].count

    @property
    def failed(self) -> int:
        """Places tried that overlapped something."""
        return self._get()[1].failed

    @property
    def energy(self) -> float:
        """Kinetic energy brought in [J]."""
        return self._get()[1].energy

    @property
    def waiting(self) -> bool:
        """The region was too full at the last step."""
        return bool(self._get()[1].waiting)

    @property
    def mass_rate(self) -> float:
        """Mass rate [kg/s]."""
        return self._get()[0].mass_rate

    @property
    def clump_templates(self) -> int:
        """The number of clump templates it inserts from (0: it inserts spheres)."""
        return self._get()[0].n_clumps

    @property
    def shape_templates(self) -> int:
        """The number of capsule and ellipsoid templates it inserts from (0: none)."""
        return self._get()[0].n_shapes

    def __repr__(self) -> str:
        d, i = self._get()
        return f"Inlet({self.index}: {i.count} particles, {i.mass:.6g} kg at {d.mass_rate:.6g} kg/s)"
