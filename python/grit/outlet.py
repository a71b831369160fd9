"""Particle outlets (docs/outlets.md): ``scene.add_outlet(...)`` deletes the particles whose node enters a box or
an upright cylinder; ``scene.outlets`` reads what they deleted (mass, count, energy). Outlets are saved in restart
files."""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Sequence

from . import _lib
from .regions import MeshLike, set_region

if TYPE_CHECKING:
    from .scene import Scene


def make_def(region: str, lo: Optional[Sequence[float]], hi: Optional[Sequence[float]],
             center: Optional[Sequence[float]], radius: Optional[float], height: Optional[float],
             mesh: Optional[MeshLike] = None, mesh_scale: float = 1.0,
             mesh_shift: Sequence[float] = (0.0, 0.0, 0.0)) -> _lib.OutletDef:
    """The C definition (grit_outlet_def) from the keyword arguments of Scene.add_outlet."""
    d = _lib.get().grit_default_outlet_def()
    set_region(d, region, lo, hi, center, radius, height, mesh, mesh_scale, mesh_shift, "add_outlet")
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
