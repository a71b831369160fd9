"""Mesh regions of inlets and outlets (docs/inlets.md, docs/outlets.md): the triangles of a closed surface, from an
STL file (read by grit's own reader, as ``Scene.load_stl`` reads it) or from an array of shape (n, 3, 3)."""
from __future__ import annotations

import ctypes
import os
from typing import Any, Optional, Sequence, Union

import numpy as np

from . import _lib
from .errors import ParameterError
from .params import as_vec3

MeshLike = Union[str, "os.PathLike[str]", np.ndarray, Sequence[Any]]


def triangles(mesh: MeshLike, scale: float, shift: Sequence[float], who: str) -> np.ndarray:
    """The triangles (n, 3, 3) [m] of `mesh`: an STL file's, each vertex p placed at shift + scale p, or the
    given array's (scale and shift applied the same way)."""
    if isinstance(mesh, (str, os.PathLike)):
        lib = _lib.get()
        m = _lib.StlMesh()
        err = ctypes.create_string_buffer(512)
        sh = as_vec3(shift, f"{who}: shift")
        rc = lib.grit_stl_read(os.fsencode(mesh), float(scale), _lib.Quat(1, 0, 0, 0), _lib.Vec3(*sh),
                               ctypes.byref(m), err, len(err))
        if rc != 0:
            raise ParameterError(f"{who}: {err.value.decode(errors='replace')}")
        try:
            tri = np.ctypeslib.as_array(m.tri, shape=(m.n * 9,)).reshape(m.n, 3, 3).copy() if m.n else \
                np.empty((0, 3, 3))
        finally:
            lib.grit_stl_mesh_free(ctypes.byref(m))
        return tri
    tri = np.asarray(mesh, dtype=float)
    if tri.ndim != 3 or tri.shape[1:] != (3, 3):
        raise ParameterError(f"{who}: mesh= must be an STL file or an array of triangles of shape (n, 3, 3), "
                             f"not shape {tri.shape}")
    return np.ascontiguousarray(tri * float(scale) + np.asarray(as_vec3(shift, f"{who}: shift")))


def set_mesh(d: Any, mesh: MeshLike, scale: float, shift: Sequence[float], who: str) -> None:
    """Make the definition `d` (an InletDef or OutletDef) a mesh region; the array stays alive with `d` until
    the C side has copied it (grit_add_inlet / grit_add_outlet)."""
    tri = triangles(mesh, scale, shift, who)
    d.region = 2
    d.n_tri = len(tri)
    d.tri = tri.ctypes.data
    d._keep = tri


def set_region(d: Any, region: str, lo: Optional[Sequence[float]], hi: Optional[Sequence[float]],
               center: Optional[Sequence[float]], radius: Optional[float], height: Optional[float],
               mesh: Optional[MeshLike], mesh_scale: float, mesh_shift: Sequence[float], who: str) -> None:
    """The region of an inlet's or an outlet's definition `d` (their region fields have the same names) from the
    keyword arguments of Scene.add_inlet / Scene.add_outlet; `who` names the call in errors."""
    if region == "box":
        if lo is None or hi is None:
            raise ParameterError(f"{who}: a box needs lo= and hi= (its corners, m)")
        d.region = 0
        d.lo, d.hi = _lib.Vec3(*as_vec3(lo, f"{who}: lo")), _lib.Vec3(*as_vec3(hi, f"{who}: hi"))
    elif region == "cylinder":
        if center is None or radius is None or height is None:
            raise ParameterError(f"{who}: a cylinder needs center= (of its bottom face), radius= and height= (m)")
        d.region = 1
        d.center = _lib.Vec3(*as_vec3(center, f"{who}: center"))
        d.radius, d.height = float(radius), float(height)
    elif region == "mesh":
        if mesh is None:
            raise ParameterError(f"{who}: a mesh region needs mesh= (an STL file of a closed solid, or an "
                                 "array of triangles (n, 3, 3))")
        set_mesh(d, mesh, mesh_scale, mesh_shift, who)
    else:
        raise ParameterError(f"{who}: region = {region!r} is neither 'box', 'cylinder' nor 'mesh'")
