"""Particle inlets (docs/inlets.md): ``scene.add_inlet(...)`` inserts spheres into a box or an upright cylinder
at a mass rate, with radii from a size distribution, each where it overlaps nothing; ``scene.inlets`` reads
what they did. The inlets' state, their random streams included, is saved in restart files."""
from __future__ import annotations

import math
import numbers
from typing import TYPE_CHECKING, Optional, Sequence, Tuple, Union

from . import _lib
from .errors import ParameterError
from .params import as_vec3
from .regions import MeshLike, set_region

if TYPE_CHECKING:
    from .scene import Scene

MAX_SIZES = 8


def make_def(region: str, lo: Optional[Sequence[float]], hi: Optional[Sequence[float]],
             center: Optional[Sequence[float]], radius: Optional[float], height: Optional[float], mass_rate: float,
             radii: Union[float, Tuple[float, float], None], sizes: Optional[Sequence[Tuple[float, float]]],
             mat_index: int, vel: Sequence[float], max_mass: Optional[float], t_start: Optional[float], seed: int,
             max_attempts: int, mesh: Optional[MeshLike] = None, mesh_scale: float = 1.0,
             mesh_shift: Sequence[float] = (0.0, 0.0, 0.0)) -> _lib.InletDef:
    """The C definition (grit_inlet_def) from the keyword arguments of Scene.add_inlet."""
    d = _lib.get().grit_default_inlet_def()
    set_region(d, region, lo, hi, center, radius, height, mesh, mesh_scale, mesh_shift, "add_inlet")
    if (radii is None) == (sizes is None):
        raise ParameterError("add_inlet: give either radii=(r_min, r_max) (uniform) or sizes=[(radius, mass "
                             "fraction), ...]")
    if radii is not None:
        if isinstance(radii, numbers.Real):
            radii = (radii, radii)
        d.n_sizes, d.r_min, d.r_max = 0, float(radii[0]), float(radii[1])
    else:
        sizes = list(sizes)
        if not 1 <= len(sizes) <= MAX_SIZES:
            raise ParameterError(f"add_inlet: sizes has {len(sizes)} entries; 1 to {MAX_SIZES} are allowed")
        d.n_sizes = len(sizes)
        for k, (r, f) in enumerate(sizes):
            d.sizes[k], d.mass_frac[k] = float(r), float(f)
    d.mass_rate = float(mass_rate)
    d.material = mat_index
    d.vel = _lib.Vec3(*as_vec3(vel, "add_inlet: vel"))
    d.max_mass = math.inf if max_mass is None else float(max_mass)
    d.t_start = math.nan if t_start is None else float(t_start)
    d.seed = int(seed)
    d.max_attempts = int(max_attempts)
    return d


class Inlet:
    """One inlet of a scene, by index: ``mass`` and ``count`` inserted, ``failed`` places that overlapped,
    ``energy`` the kinetic energy brought in [J], ``waiting`` (the region was too full at the last step),
    ``mass_rate``."""

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
        """Inserted particles."""
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

    def __repr__(self) -> str:
        d, i = self._get()
        return f"Inlet({self.index}: {i.count} particles, {i.mass:.6g} kg at {d.mass_rate:.6g} kg/s)"
