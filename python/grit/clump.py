"""Clumps (docs/clumps.md): rigid bodies made of member spheres. ``scene.add_clump(centers, radii, ...)`` adds one,
``scene.add_clumps(centers, radii, positions, ...)`` places one template many times in random orientations,
``scene.clump_properties(...)`` gives the mass, centre and principal inertia of a template without adding it.

A clump is a body particle (shape "Clump": mass, inertia, motion) followed by its members, spheres whose ids
follow the body's; members touch everything but their own clump, and their forces are summed on the body."""
from __future__ import annotations

import ctypes
from typing import Any, Dict, Optional, Tuple

import numpy as np

from . import _lib
from .errors import ParameterError


def template(centers: Any, radii: Any, what: str) -> Tuple[np.ndarray, np.ndarray]:
    """Member centres (n, 3) and radii (n,) as contiguous arrays."""
    c = np.asarray(centers, dtype=float)
    if c.ndim != 2 or c.shape[1] != 3 or len(c) == 0:
        raise ParameterError(f"{what}: centers must have shape (n, 3) with n >= 1, not {c.shape}")
    n = len(c)
    if np.ndim(radii) == 0:
        r = np.full(n, float(radii))
    else:
        r = np.asarray(radii, dtype=float)
    if r.shape != (n,):
        raise ParameterError(f"{what}: radii must be a number or have shape ({n},), not {r.shape}")
    return np.ascontiguousarray(c), np.ascontiguousarray(r)


def properties(scene: Any, d: Any) -> Dict[str, Any]:
    """Mass properties of the clump `d` would make, as a dict."""
    p = _lib.ClumpProps()
    scene._check(_lib.get().grit_get_clump_properties(scene._p(), ctypes.byref(d), ctypes.byref(p)))
    return {"mass": p.mass, "volume": p.volume, "center": p.center.tuple(), "inertia": p.inertia.tuple(),
            "ori": (p.ori.w, p.ori.x, p.ori.y, p.ori.z), "exact": bool(p.exact)}


def random_quaternions(n: int, seed: int) -> np.ndarray:
    """n rotations uniform over SO(3) (normalised 4-D Gaussians), from a seeded generator."""
    g = np.random.default_rng(seed)
    q = g.normal(size=(n, 4))
    return q / np.linalg.norm(q, axis=1)[:, None]


def add_many(scene: Any, c: np.ndarray, r: np.ndarray, positions: Any, mat_index: int, vel: Any, seed: int,
             random_ori: bool, cells_per_radius: int, mask: Optional[int]) -> np.ndarray:
    """Scene.add_clumps: the template centred at its centre of mass, then placed at each position."""
    x = np.asarray(positions, dtype=float)
    if x.ndim != 2 or x.shape[1] != 3:
        raise ParameterError(f"add_clumps: positions must have shape (N, 3), not {x.shape}")
    if not np.isfinite(x).all():
        raise ParameterError("add_clumps: positions must be finite")
    n = len(x)
    v = np.zeros((n, 3)) if vel is None else np.broadcast_to(np.asarray(vel, dtype=float), (n, 3))
    from .shapes import Clump
    d = Clump(c, r, mask=mask, cells_per_radius=cells_per_radius).cdef(mat_index)
    centre = np.array(properties(scene, d)["center"])
    cc = np.ascontiguousarray(c - centre)  # rotations turn the template about its centre of mass
    d.centers = cc.ctypes.data_as(ctypes.POINTER(_lib.Vec3))
    q = random_quaternions(n, seed) if random_ori else np.tile([1.0, 0.0, 0.0, 0.0], (n, 1))
    lib, ptr = _lib.get(), scene._p()
    ids = np.empty(n, dtype=np.int64)
    for i in range(n):
        d.pos = _lib.Vec3(*x[i])
        d.vel = _lib.Vec3(*v[i])
        d.ori = _lib.Quat(*q[i])
        ids[i] = scene._check(lib.grit_add_clump(ptr, ctypes.byref(d)))
    return ids


def clump_of(scene: Any, pid: int) -> Tuple[int, int]:
    """(body id, member count) of a clump body or member."""
    body, n = ctypes.c_int(), ctypes.c_int()
    scene._check(_lib.get().grit_get_clump(scene._p(), pid, ctypes.byref(body), ctypes.byref(n)))
    return body.value, n.value


def members(scene: Any, body: int) -> Tuple[np.ndarray, np.ndarray]:
    """Member centres in the body's principal frame (n, 3) and radii (n,)."""
    _, n = clump_of(scene, body)
    loc, rad = np.empty((n, 3)), np.empty(n)
    v, rr = _lib.Vec3(), ctypes.c_double()
    for k in range(n):
        scene._check(_lib.get().grit_get_clump_member(scene._p(), body, k, ctypes.byref(v), ctypes.byref(rr)))
        loc[k], rad[k] = v.tuple(), rr.value
    return loc, rad
