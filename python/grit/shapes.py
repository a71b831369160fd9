"""Particle shapes: one small class per shape of the engine.

``scene.add(grit.Sphere((0, 0, 1), 0.1, mat=m))`` returns the new particle's
id. A shape object only describes a particle to be added; it is copied into
the engine by ``add`` and may be added again (a second particle).

Adding a shape that the C library gained (say a capsule, with
``grit_capsule_def``, ``grit_default_capsule_def`` and ``grit_add_capsule``):
  1. mirror ``grit_capsule_def`` as a ctypes Structure in ``_lib.py`` and list
     it in ``MIRRORS`` (and ``grit_capsule_def`` in the size table of
     ``src/core/reflect.c``, so a layout change is caught at load time);
  2. write a subclass of :class:`Shape` below: ``kind = "capsule"`` (the
     lower-case suffix of ``GRIT_SHAPE_CAPSULE``), ``struct`` the mirror,
     an ``__init__`` taking the shape's arguments and a ``fill`` copying them
     into the struct. The C functions are found by name.
"""
from __future__ import annotations

import ctypes
import numbers
from typing import TYPE_CHECKING, Any, ClassVar, Dict, Optional, Sequence, Tuple, Type, Union

from . import _lib
from .errors import ParameterError
from .params import as_vec3

if TYPE_CHECKING:
    from .scene import Material

Vec = Sequence[float]  # three numbers: a tuple, a list or a NumPy array
Axis = Union[int, str]  # 0, 1, 2 or 'x', 'y', 'z'

DOF_LETTERS = "xyzXYZ"  # Woo's notation: x y z translations, X Y Z rotations


def dofs_to_bits(dofs: str, what: str = "blocked") -> int:
    """'xyzXYZ' letters -> GRIT_BLOCK_* bits."""
    if not isinstance(dofs, str):
        raise ParameterError(f"{what} = {dofs!r} must be a string of DoF letters from '{DOF_LETTERS}'")
    const = _lib.get().const
    names = ["X", "Y", "Z", "RX", "RY", "RZ"]
    bits = 0
    for ch in dofs:
        k = DOF_LETTERS.find(ch)
        if k < 0:
            raise ParameterError(f"{what} = '{dofs}': unknown DoF '{ch}' (letters of '{DOF_LETTERS}': x y z "
                                 f"translations, X Y Z rotations)")
        bits |= const["GRIT_BLOCK_" + names[k]]
    return bits


def bits_to_dofs(bits: int) -> str:
    """GRIT_BLOCK_* bits -> 'xyzXYZ' letters (the inverse of dofs_to_bits)."""
    return "".join(ch for k, ch in enumerate(DOF_LETTERS) if bits & (1 << k))


def shape_names() -> Dict[int, str]:
    """{grit_shape_type value: lower-case name} from the library (grit_shape_name)."""
    lib = _lib.get()
    return {k: lib.grit_shape_name(k).decode().lower() for k in range(lib.const["GRIT_SHAPE_COUNT"])}


def as_quat(value: Any, what: str) -> Tuple[float, float, float, float]:
    """Four real numbers (w, x, y, z); the engine normalises a finite nonzero quaternion."""
    try:
        items = list(value)
    except TypeError:
        items = []
    if len(items) != 4 or not all(isinstance(x, numbers.Real) for x in items):
        raise ParameterError(f"{what} = {value!r} is not a quaternion (w, x, y, z)")
    return tuple(float(x) for x in items)


def _real(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ParameterError(f"{what} = {value!r} is not a number")
    return float(value)


class Shape:
    """A particle to be added to a scene. Subclasses: one per shape type of the engine."""

    kind: ClassVar[Optional[str]] = None    # lower-case name, GRIT_SHAPE_<KIND>
    struct: ClassVar[Optional[Type[ctypes.Structure]]] = None  # ctypes mirror of grit_<kind>_def
    registry: ClassVar[Dict[str, Type[Shape]]] = {}  # kind -> class

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if cls.__dict__.get("kind"):  # not the intermediate bases
            Shape.registry[cls.kind] = cls

    def __init__(self, mat: Optional[Material] = None, vel: Vec = (0.0, 0.0, 0.0), mask: Optional[int] = None) -> None:
        self.mat = mat
        self.vel = as_vec3(vel, f"{self.kind}: vel")
        if mask is not None and (not isinstance(mask, numbers.Integral) or not 0 <= mask < 2**32):
            raise ParameterError(f"{self.kind}: mask = {mask!r} must be an integer in [0, 2^32)")
        self.mask = mask

    @classmethod
    def _c(cls) -> Tuple[Any, Any]:
        """(default_fn, add_fn) of the C library for this shape, prototyped."""
        lib = _lib.get()
        fns = cls.__dict__.get("_cfns")
        if fns is None:
            default = getattr(lib.cdll, f"grit_default_{cls.kind}_def")
            default.restype, default.argtypes = cls.struct, []
            add = getattr(lib.cdll, f"grit_add_{cls.kind}")
            add.restype, add.argtypes = ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(cls.struct)]
            fns = cls._cfns = (default, add)
        return fns

    def cdef(self, material_index: int) -> ctypes.Structure:
        """The C definition struct: the C defaults, then this shape's values."""
        d = self._c()[0]()
        d.material = material_index
        if self.mask is not None:
            d.mask = self.mask
        d.vel = _lib.Vec3(*self.vel)
        self.fill(d)
        return d

    def fill(self, d: Any) -> None:
        """Copy this shape's values into its C definition struct d (each subclass does its own)."""
        raise NotImplementedError

    def add_to(self, scene_ptr: int, material_index: int) -> int:
        """Add to the C scene; returns the id or a negative status."""
        d = self.cdef(material_index)
        return self._c()[1](scene_ptr, ctypes.byref(d))

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if v is not None)
        return f"{type(self).__name__}({args})"


class Sphere(Shape):
    """A sphere: ``Sphere(center, radius, mat=None, vel=(0,0,0), angvel=(0,0,0), fixed=False, blocked='')``.

    fixed=True blocks all six DoFs (the sphere keeps its velocities);
    blocked names DoFs to block, Woo's letters 'xyzXYZ'. Mass and inertia
    follow from the material's density."""

    kind = "sphere"
    struct = _lib.SphereDef

    def __init__(self, center: Vec, radius: float, mat: Optional[Material] = None, vel: Vec = (0.0, 0.0, 0.0),
                 angvel: Vec = (0.0, 0.0, 0.0), fixed: bool = False, blocked: str = "",
                 mask: Optional[int] = None) -> None:
        super().__init__(mat, vel, mask)
        self.center = as_vec3(center, "sphere: center")
        if not isinstance(radius, numbers.Real):
            raise ParameterError(f"sphere: radius = {radius!r} is not a number")
        self.radius = float(radius)
        self.angvel = as_vec3(angvel, "sphere: angvel")
        self.blocked = DOF_LETTERS if fixed else blocked
        self._bits = dofs_to_bits(self.blocked, "sphere: blocked")

    def fill(self, d: Any) -> None:
        d.pos = _lib.Vec3(*self.center)
        d.radius = self.radius
        d.angvel = _lib.Vec3(*self.angvel)
        d.blocked = self._bits


class _Body(Shape):
    """Shapes with mass that move freely: center, vel, angvel, ori, fixed/blocked."""

    def __init__(self, center: Vec, mat: Optional[Material], vel: Vec, angvel: Vec, ori: Sequence[float], fixed: bool,
                 blocked: str, mask: Optional[int]) -> None:
        super().__init__(mat, vel, mask)
        self.center = as_vec3(center, f"{self.kind}: center")
        self.angvel = as_vec3(angvel, f"{self.kind}: angvel")
        self.ori = as_quat(ori, f"{self.kind}: ori")
        self.blocked = DOF_LETTERS if fixed else blocked
        self._bits = dofs_to_bits(self.blocked, f"{self.kind}: blocked")

    def fill(self, d: Any) -> None:
        d.pos = _lib.Vec3(*self.center)
        d.angvel = _lib.Vec3(*self.angvel)
        d.ori = _lib.Quat(*self.ori)
        d.blocked = self._bits


class Capsule(_Body):
    """A capsule ``Capsule(center, radius, shaft, ori=(1,0,0,0), mat=None, vel, angvel, fixed, blocked)``: a
    cylinder of length `shaft` along the local x axis, capped by hemispheres of `radius`."""

    kind = "capsule"
    struct = _lib.CapsuleDef

    def __init__(self, center: Vec, radius: float, shaft: float, ori: Sequence[float] = (1.0, 0.0, 0.0, 0.0),
                 mat: Optional[Material] = None, vel: Vec = (0.0, 0.0, 0.0), angvel: Vec = (0.0, 0.0, 0.0),
                 fixed: bool = False, blocked: str = "", mask: Optional[int] = None) -> None:
        super().__init__(center, mat, vel, angvel, ori, fixed, blocked, mask)
        self.radius, self.shaft = _real(radius, "capsule: radius"), _real(shaft, "capsule: shaft")

    def fill(self, d: Any) -> None:
        super().fill(d)
        d.radius, d.shaft = self.radius, self.shaft


class Ellipsoid(_Body):
    """An ellipsoid ``Ellipsoid(center, semi_axes, ori=(1,0,0,0), mat=None, vel, angvel, fixed, blocked)``."""

    kind = "ellipsoid"
    struct = _lib.EllipsoidDef

    def __init__(self, center: Vec, semi_axes: Vec, ori: Sequence[float] = (1.0, 0.0, 0.0, 0.0),
                 mat: Optional[Material] = None, vel: Vec = (0.0, 0.0, 0.0), angvel: Vec = (0.0, 0.0, 0.0),
                 fixed: bool = False, blocked: str = "", mask: Optional[int] = None) -> None:
        super().__init__(center, mat, vel, angvel, ori, fixed, blocked, mask)
        self.semi_axes = as_vec3(semi_axes, "ellipsoid: semi_axes")

    def fill(self, d: Any) -> None:
        super().fill(d)
        d.semi_axes = _lib.Vec3(*self.semi_axes)


class Clump(_Body):
    """A clump, a rigid body of member spheres (docs/clumps.md): ``Clump(centers, radii, pos=(0,0,0),
    ori=(1,0,0,0), mat=None, vel, angvel, fixed, blocked, cells_per_radius=48)``; member k is the sphere of
    radius ``radii[k]`` (or one radius for all) at ``pos + R(ori) centers[k]``. Adding it returns the body's id;
    the members are the ids that follow."""

    kind = "clump"
    struct = _lib.ClumpDef

    def __init__(self, centers: Any, radii: Any, pos: Vec = (0.0, 0.0, 0.0),
                 ori: Sequence[float] = (1.0, 0.0, 0.0, 0.0), mat: Optional[Material] = None,
                 vel: Vec = (0.0, 0.0, 0.0), angvel: Vec = (0.0, 0.0, 0.0), fixed: bool = False, blocked: str = "",
                 mask: Optional[int] = None, cells_per_radius: int = 48) -> None:
        from .clump import template
        super().__init__(pos, mat, vel, angvel, ori, fixed, blocked, mask)
        self.centers, self.radii = template(centers, radii, "clump")
        if isinstance(cells_per_radius, bool) or not isinstance(cells_per_radius, numbers.Integral):
            raise ParameterError(f"clump: cells_per_radius = {cells_per_radius!r} is not an integer")
        self.cells_per_radius = int(cells_per_radius)

    def fill(self, d: Any) -> None:
        super().fill(d)
        d.n = len(self.radii)
        d.centers = self.centers.ctypes.data_as(ctypes.POINTER(_lib.Vec3))  # alive with self
        d.radii = self.radii.ctypes.data_as(ctypes.POINTER(ctypes.c_double))
        d.cells_per_radius = self.cells_per_radius


class InfCylinder(Shape):
    """An infinite cylinder ``InfCylinder(pos, axis, radius, mat=None, vel=(0,0,0), angvel=0)``: the line
    through pos along the global axis (0, 1, 2 or 'x', 'y', 'z'). Fixed; vel translates it, angvel [rad/s]
    turns it about its axis."""

    kind = "infcylinder"
    struct = _lib.InfCylinderDef

    def __init__(self, pos: Vec, axis: Axis, radius: float, mat: Optional[Material] = None, vel: Vec = (0.0, 0.0, 0.0),
                 angvel: float = 0.0, mask: Optional[int] = None) -> None:
        super().__init__(mat, vel, mask)
        self.pos = as_vec3(pos, "infcylinder: pos")
        self.axis = _axis(axis, "infcylinder")
        self.radius, self.angvel = _real(radius, "infcylinder: radius"), _real(angvel, "infcylinder: angvel")

    def fill(self, d: Any) -> None:
        d.pos = _lib.Vec3(*self.pos)
        d.axis, d.radius, d.angvel = self.axis, self.radius, self.angvel


class Rod(Shape):
    """A rod ``Rod(p0, p1, radius, mat=None, vel=(0,0,0))``: the capped cylinder around the segment p0-p1; a
    fixed (or moving with vel) boundary that meets spheres."""

    kind = "rod"
    struct = _lib.RodDef

    def __init__(self, p0: Vec, p1: Vec, radius: float, mat: Optional[Material] = None, vel: Vec = (0.0, 0.0, 0.0),
                 mask: Optional[int] = None) -> None:
        super().__init__(mat, vel, mask)
        self.p0, self.p1 = as_vec3(p0, "rod: p0"), as_vec3(p1, "rod: p1")
        self.radius = _real(radius, "rod: radius")

    def fill(self, d: Any) -> None:
        d.p[0], d.p[1] = _lib.Vec3(*self.p0), _lib.Vec3(*self.p1)
        d.radius = self.radius


def _axis(axis: Axis, kind: str) -> int:
    if isinstance(axis, str) and axis in ("x", "y", "z"):
        return "xyz".index(axis)
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
        raise ParameterError(f"{kind}: axis = {axis!r} must be 0, 1, 2 or 'x', 'y', 'z'")
    return int(axis)


class Wall(Shape):
    """An infinite plane ``Wall(coord, axis=2, sense=0, mat=None, vel=(0,0,0))``: the plane x[axis] = coord.

    axis is 0, 1, 2 or 'x', 'y', 'z'; sense +1 (-1) makes only the positive
    (negative) side interact, 0 both. Walls are fixed; vel moves them."""

    kind = "wall"
    struct = _lib.WallDef

    def __init__(self, coord: float, axis: Axis = 2, sense: int = 0, mat: Optional[Material] = None,
                 vel: Vec = (0.0, 0.0, 0.0), mask: Optional[int] = None) -> None:
        super().__init__(mat, vel, mask)
        if isinstance(axis, str) and axis in ("x", "y", "z"):
            axis = "xyz".index(axis)
        if not isinstance(axis, numbers.Integral) or not isinstance(sense, numbers.Integral):
            raise ParameterError(f"wall: axis = {axis!r} and sense = {sense!r} must be integers "
                                 "(axis 0, 1, 2 or 'x', 'y', 'z'; sense -1, 0, +1)")
        if not isinstance(coord, numbers.Real):
            raise ParameterError(f"wall: coord = {coord!r} is not a number")
        self.coord, self.axis, self.sense = float(coord), int(axis), int(sense)

    def fill(self, d: Any) -> None:
        d.coord, d.axis, d.sense = self.coord, self.axis, self.sense


class Facet(Shape):
    """A triangle ``Facet(vertices, half_thick=0, mat=None, vel=(0,0,0))``: three vertices, optionally thick."""

    kind = "facet"
    struct = _lib.FacetDef

    def __init__(self, vertices: Sequence[Vec], half_thick: float = 0.0, mat: Optional[Material] = None,
                 vel: Vec = (0.0, 0.0, 0.0), mask: Optional[int] = None) -> None:
        super().__init__(mat, vel, mask)
        try:
            vs = [as_vec3(v, "facet: vertex") for v in vertices]
        except TypeError:
            vs = []
        if len(vs) != 3:
            raise ParameterError(f"facet: vertices = {vertices!r} must be three points")
        if not isinstance(half_thick, numbers.Real):
            raise ParameterError(f"facet: half_thick = {half_thick!r} is not a number")
        self.vertices, self.half_thick = tuple(vs), float(half_thick)

    def fill(self, d: Any) -> None:
        for k in range(3):
            d.v[k] = _lib.Vec3(*self.vertices[k])
        d.half_thick = self.half_thick
