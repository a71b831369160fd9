"""grit: a discrete element method engine in C, scripted from Python.

    import grit
    scene = grit.Scene(gravity=(0, 0, -9.81), track_energy=True)
    mat = grit.FrictMat(density=2600, young=1e7)
    scene.add(grit.Wall(0, axis="z", mat=mat))
    scene.add(grit.Sphere((0, 0, 0.2), 0.05, mat=mat))
    scene.run(10000)
    print(scene.particles.pos)        # NumPy view of the engine's memory

The C library libgrit.so is loaded when the first engine object is used
(see grit._lib for where it is searched); ``grit.plot`` and the CSV tools
work without it. See docs/python.md.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, List

if TYPE_CHECKING:  # what the lazy imports below give, spelled out for type checkers and IDEs
    from ._lib import Lib
    from ._tables import *  # noqa: F401,F403 (the material classes made from the engine's list: FrictMat, ...)
    from .cell import Cell, CellController, CellControllerState
    from .errors import (FormatError, GritError, GritIOError, GritMemoryError, LibraryNotFoundError, NumericError,
                         ParameterError, StaleViewError, StateError)
    from .records import EnergyRecorder, Records, read_csv, write_csv
    from .scene import Contacts, Energy, FrictMat, Material, Particle, Particles, Runner, Scene, StlMesh
    from .shapes import Capsule, Ellipsoid, Facet, InfCylinder, Rod, Shape, Sphere, Wall
    from .tester import LawTester, Stage
    from .vtk import VtkRecorder

__version__ = "0.1.0"

# name -> submodule; imported on first use so that `import grit.plot` needs no libgrit.so
_LAZY = {
    "Scene": "scene", "Material": "scene", "FrictMat": "scene", "Particle": "scene", "Particles": "scene", "Contacts": "scene",
    "Energy": "scene", "Runner": "scene", "Cell": "cell",
    "CellController": "cell", "CellControllerState": "cell",
    "Shape": "shapes", "Sphere": "shapes", "Wall": "shapes", "Facet": "shapes", "Capsule": "shapes",
    "Ellipsoid": "shapes", "InfCylinder": "shapes", "Rod": "shapes", "Clump": "shapes",
    "LawTester": "tester", "Stage": "tester",
    "EnergyRecorder": "records", "Records": "records", "read_csv": "records", "write_csv": "records",
    "GritError": "errors", "LibraryNotFoundError": "errors", "ParameterError": "errors", "StateError": "errors",
    "NumericError": "errors", "GritMemoryError": "errors", "GritIOError": "errors", "FormatError": "errors",
    "StaleViewError": "errors",
}
# STL meshes and VTK output
_LAZY.update({"StlMesh": "scene", "VtkRecorder": "vtk"})

__all__ = sorted(_LAZY)


# submodules reached as attributes: grit.pack.dense(...)
_SUBMODULES = {"pack"}


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:
        import importlib
        return importlib.import_module("grit." + name)
    mod = _LAZY.get(name)
    if mod is None and name[:1].isupper() and not name.startswith("__"):
        # the material classes are made from the engine's list of material types
        import importlib
        classes = importlib.import_module("grit.scene").MATERIAL_CLASSES
        if name in classes:
            globals()[name] = classes[name]
            return classes[name]
    if mod is None:
        raise AttributeError(f"module 'grit' has no attribute '{name}'")
    import importlib
    value = getattr(importlib.import_module("grit." + mod), name)
    globals()[name] = value
    return value


def __dir__() -> List[str]:
    return sorted(list(globals()) + list(_LAZY) + list(_SUBMODULES))


def library() -> Lib:
    """The loaded C library (loads it): its path is library().path."""
    from . import _lib
    return _lib.get()
