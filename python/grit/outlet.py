"""Particle outlets (docs/outlets.md): ``scene.add_outlet(...)`` deletes the particles whose node enters a box or
an upright cylinder; ``scene.outlets`` reads what they deleted (mass, count, energy). Outlets are saved in restart
files."""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Sequence

from . import _lib
from .errors import ParameterError
from .params import as_vec3
from .regions import MeshLike, set_mesh

if TYPE_CHECKING:
    from .scene import Scene


def make_def(region: str, lo: Optional[Sequence[float]], hi: Optional[Sequence[float]],
             center: Optional[Sequence[float]], radius: Optional[float], height: Optional[float],
             mesh: Optional[MeshLike] = None, mesh_scale: float = 1.0,
             mesh_shift: Sequence[float] = (0.0, 0.0, 0.0)) -> _lib.OutletDef:
    """The C definition (grit_outlet_def) from the keyword arguments of Scene.add_outlet."""
    d = _lib.get().grit_default_outlet_def()
    if region == "box":
        if lo is None or hi is None:
            raise ParameterError("add_outlet: a box needs lo= and hi= (its corners, m)")
        d.region = 0
        d.lo, d.hi = _lib.Vec3(*as_vec3(lo, "add_outlet: lo")), _lib.Vec3(*as_vec3(hi, "add_outlet: hi"))
    elif region == "cylinder":
        if center is None or radius is None or height is None:
            raise ParameterError("add_outlet: a cylinder needs center= (of its bottom face), radius= and height= (m)")
        d.region = 1
        d.center = _lib.Vec3(*as_vec3(center, "add_outlet: center"))
        d.radius, d.height = float(radius), float(height)
    elif region == "mesh":
        if mesh is None:
            raise ParameterError("add_outlet: a mesh region needs mesh= (an STL file of a closed solid, or an "
                                 "array of triangles (n, 3, 3))")
        set_mesh(d, mesh, mesh_scale, mesh_shift, "add_outlet")
    else:
        raise ParameterError(f"add_outlet: region = {region!r} is neither 'box', 'cylinder' nor 'mesh'")
    return d


class Outlet:
    """One outlet of a scene, by index: ``mass`` and ``count`` deleted, ``energy`` that left with them [J]."""

    def __init__(self, scene: Scene, k: int) -> None:
        self._scene, self.index = scene, k

    def _info(self) -> _lib.OutletInfo:
        info = _lib.OutletInfo()
        self._scene._check(_lib.get().grit_outlet_get(self._scene._p(), self.index, None, info))
        return info

    @property
    def mass(self) -> float:
        """Deleted mass [kg]."""
        return float(self._info().mass)

    @property
    def count(self) -> int:
        """Deleted particles."""
        return int(self._info().count)

    @property
    def energy(self) -> float:
        """Energy that left with them (kinetic, and the elastic energy of their contacts) [J]."""
        return float(self._info().energy)

    def __repr__(self) -> str:
        i = self._info()
        return f"Outlet({self.index}: {i.count} particles, {i.mass:.6g} kg deleted)"
