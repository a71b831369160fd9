"""Scenes, materials, particles, contacts and energy: the engine as Python objects.

All parameter attributes (``Scene.damping``, ``FrictMat.young``, ...) are
generated from the C parameter tables; see :mod:`grit.params`.
"""
from __future__ import annotations

import ctypes
import numbers
import os
import time
from typing import (TYPE_CHECKING, Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union,
                    overload)

import numpy as np

from . import _lib
from . import cell as _cell
from . import clump as _clump
from . import inlet as _inlet
from . import outlet as _outlet
from . import regions as _regions
from .errors import FormatError, GritIOError, ParameterError, StateError
from .params import Group, ParamObject, as_vec3
from .shapes import Clump, Shape, Sphere, as_quat, bits_to_dofs, dofs_to_bits, shape_names
from .views import make_view

if TYPE_CHECKING:  # what is made below from the C tables, declared for type checkers (python -m grit.stubgen)
    from ._tables import *  # noqa: F401,F403 (the material classes: FrictMat, ...)
    from ._tables import ContactArrays as _ContactArrays
    from ._tables import ParticleArrays as _ParticleArrays
    from ._tables import SceneParameters as _SceneParameters
else:
    _ContactArrays = _ParticleArrays = _SceneParameters = object

Vec = Sequence[float]  # three numbers: a tuple, a list or a NumPy array
MaterialRef = Union["Material", int]  # a material object or the index of one in the scene
PathLike = Union[str, bytes, "os.PathLike[str]"]

_LIB = _lib.get()
_G_PARTICLES = _LIB.const["GRIT_ARRAYS_PARTICLES"]
_G_CONTACTS = _LIB.const["GRIT_ARRAYS_CONTACTS"]
_CONTACT_REAL = _LIB.const["GRIT_CONTACT_REAL"]


def _check_id(value: Any, what: str = "particle id") -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ParameterError(f"{what} {value!r} is not an integer")
    if not -2**31 <= int(value) < 2**31:
        raise ParameterError(f"{what} {value} does not exist")
    return int(value)


# ---------------------------------------------------------------- materials
class Material(ParamObject):
    """Base of the material classes, one per material type of the engine (FrictMat, ConcreteMat, ...),
    generated from its registration list and parameter tables.

    ``FrictMat(density=2600, young=1e7, tan_phi=0.5, law="kuhn")``; parameters not given keep their
    defaults. A scene copies the material when the first particle using it (or ``scene.add_material``)
    adds it; from then on the object is frozen, since changing it would no longer change the scene.
    The pair of material types decides the contacts' physics and law (docs/architecture.md)."""

    _type = None


def _material_classes() -> Dict[str, type]:
    out = {}
    for t in range(_LIB.const["GRIT_MAT_COUNT"]):
        cname = _LIB.grit_material_class_name(t).decode()
        gname = _LIB.grit_material_type_name(t).decode()
        doc = (f"A {cname} material: one of the engine's material types. " + Material.__doc__.split("\n\n", 1)[1]
               + f"\n\n    Parameters: {', '.join(Group.get(gname).params)} (docs/parameters.md, group {gname}).")
        cls = type(cname, (Material,), {"_group_name": gname, "_type": t, "__doc__": doc, "__module__": __name__})
        Group.get(gname).install(cls)
        out[cname] = cls
    return out


MATERIAL_CLASSES: Dict[str, type] = _material_classes()
globals().update(MATERIAL_CLASSES)


# ---------------------------------------------------------------- runners
class Runner:
    """A Python function called every `every` steps while the scene runs (Woo's PyRunner)."""

    def __init__(self, every: int, fn: Callable[[Scene], Any]) -> None:
        if isinstance(every, bool) or not isinstance(every, numbers.Integral) or every < 1:
            raise ParameterError(f"runner: every = {every!r} must be an integer >= 1 (steps)")
        if not callable(fn):
            raise ParameterError(f"runner: {fn!r} is not callable")
        self.every, self.fn = int(every), fn

    def __repr__(self) -> str:
        return f"Runner(every={self.every}, fn={self.fn!r})"


# ---------------------------------------------------------------- the scene
class Scene(_SceneParameters):
    """A DEM scene: parameters, materials, particles, contacts, energy.

    ``Scene(dt=1e-5, gravity=(0, 0, -9.81), track_energy=True)``; every
    keyword is a scene parameter (see the attributes, or docs/parameters.md).
    A bad value raises ParameterError with the engine's message naming the
    parameter and its valid range. Parameters may be changed between runs.
    """

    particles: Particles  # set by _adopt (through object.__setattr__), declared for type checkers
    contacts: Contacts
    energy: Energy

    if not TYPE_CHECKING:  # type checkers see SceneParameters.__init__: every parameter a typed keyword
        def __init__(self, **params: Any) -> None:
            g = Group.get("scene")
            buf = g.new_def()
            own = {k: v for k, v in params.items() if k in g.params or k not in _LAW_PARAMS}
            g.write_many(buf, own, "Scene")
            laws = {}  # law group -> its definition, with the values given
            for k, v in params.items():
                if k in own:
                    continue
                lg = _LAW_PARAMS[k].group
                lbuf = laws.setdefault(lg, lg.new_def())
                lg.write(_LAW_PARAMS[k], lbuf, v)
            ptr = _LIB.grit_scene_create(buf)
            if not ptr:
                raise ParameterError(_LIB.grit_create_error().decode())
            self._adopt(ptr)
            for lg, lbuf in laws.items():
                self._check(_LIB.grit_set_law_def(self._ptr, _LIB.grit_law_find(lg.name.encode()), lbuf, lg.size))

    def _adopt(self, ptr: int) -> None:
        object.__setattr__(self, "_ptr", ptr)
        object.__setattr__(self, "_materials", [])
        object.__setattr__(self, "_mat_index", {})
        object.__setattr__(self, "_runners", [])
        object.__setattr__(self, "_testers", [])  # C testers must be freed before the scene
        object.__setattr__(self, "_chunk", 64)
        object.__setattr__(self, "particles", Particles(self))
        object.__setattr__(self, "contacts", Contacts(self))
        object.__setattr__(self, "energy", Energy(self))

    # -- save and restart
    def save(self, path: PathLike) -> PathLike:
        """Save the whole scene (parameters, materials, particles, contacts with their history and law state,
        energy, step) to one file; a run continued from it with Scene.load is bitwise identical to one that
        never stopped. Runners and law testers are Python objects and are not saved. Returns path."""
        self._check(_LIB.grit_save(self._p(), os.fsencode(path)))
        return path

    @classmethod
    def load(cls, path: PathLike) -> Scene:
        """A scene from a file written by save (or `grit run ... save=FILE`). GritIOError if it cannot be
        read, FormatError (with the engine's message: file, section, problem) if it is not a valid restart
        file. Materials come back as indices (scene.materials lists only the material objects added in Python)."""
        if not os.path.isfile(path) or not os.access(path, os.R_OK):
            raise GritIOError(f"load: cannot read '{path}': " + ("not readable" if os.path.exists(path)
                                                                  else "no such file"))
        ptr = _LIB.grit_scene_load(os.fsencode(path))
        if not ptr:
            raise FormatError(_LIB.grit_create_error().decode())
        s = cls.__new__(cls)
        s._adopt(ptr)
        return s

    # -- lifecycle
    def close(self) -> None:
        """Free the engine's memory now; the scene (and its views) can no longer be used."""
        ptr = self.__dict__.get("_ptr")
        if ptr is not None and self.__dict__.get("_busy", 0):
            # the engine is in the middle of run() or a law tester's call: freeing it
            # now would leave the C stepper working on freed memory
            raise StateError("close: the scene is running (close called from a runner, an until= condition or "
                             "a law-tester callback); close it after run returns")
        if ptr is not None:
            for t in list(self.__dict__.get("_testers", ())):
                t.close()
            object.__setattr__(self, "_ptr", None)
            _LIB.grit_scene_destroy(ptr)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass

    def __enter__(self) -> Scene:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _p(self) -> int:
        ptr = self._ptr
        if ptr is None:
            raise StateError("the scene was closed")
        return ptr

    def _check(self, rc: int) -> int:
        """rc if >= 0; else the exception of the C status with grit_last_error."""
        if rc < 0:
            raise _LIB.error(rc, _LIB.grit_last_error(self._ptr).decode())
        return rc

    # -- parameters (descriptors installed from the C tables below: the scene's and every law's)
    def _param_get(self, p: Any) -> Any:
        if p.group is self._params:
            return self._params.read(p, _LIB.grit_scene_get_def(self._p()))
        return p.group.read(p, self._law_def(p.group))

    def _law_def(self, g: Group) -> ctypes.Array:
        buf = g.new_def()
        self._check(_LIB.grit_get_law_def(self._p(), _LIB.grit_law_find(g.name.encode()), buf, g.size))
        return buf

    def _param_set(self, p: Any, value: Any) -> None:
        g = p.group
        if g is self._params:
            buf = g.copy_def(_LIB.grit_scene_get_def(self._p()))
            g.write(p, buf, value)
            self._check(_LIB.grit_scene_set_def(self._ptr, buf))
            return
        buf = self._law_def(g)
        g.write(p, buf, value)
        self._check(_LIB.grit_set_law_def(self._ptr, _LIB.grit_law_find(g.name.encode()), buf, g.size))

    if not TYPE_CHECKING:  # hidden from type checkers, which then flag an unknown name as this does
        def __setattr__(self, name: str, value: Any) -> None:
            if not name.startswith("_") and not hasattr(type(self), name):
                raise self._params.unknown(name, "Scene")
            object.__setattr__(self, name, value)

    def params(self) -> Dict[str, Any]:
        """All scene parameters and the laws' parameters as a dict."""
        return {k: getattr(self, k) for k in list(self._params.params) + list(_LAW_PARAMS)}

    def pair_law(self, mat_a: MaterialRef, mat_b: MaterialRef) -> str:
        """The name of the law of contacts between two materials (objects or indices)."""
        law = self._check(_LIB.grit_pair_law(self._p(), self.add_material(mat_a), self.add_material(mat_b)))
        return _LIB.grit_law_name(law).decode()

    # -- materials
    def add_material(self, mat: MaterialRef) -> int:
        """Register a material (FrictMat, ConcreteMat, ...; copied into the engine); returns its index.
        Adding it again returns the same."""
        if isinstance(mat, numbers.Integral) and not isinstance(mat, bool):
            n = _LIB.grit_material_count(self._p())
            if not 0 <= mat < n:
                raise ParameterError(f"material {mat} does not exist ({n} material{'s' if n != 1 else ''} defined)")
            return int(mat)
        if not isinstance(mat, Material):
            raise ParameterError(f"material {mat!r} is neither a material ({', '.join(MATERIAL_CLASSES)}) "
                                 "nor a material index")
        idx = self._mat_index.get(id(mat))
        if idx is None:
            idx = self._check(_LIB.grit_add_material(self._p(), mat._type, mat._def))
            self._materials.append(mat)
            self._mat_index[id(mat)] = idx
            object.__setattr__(mat, "_frozen_reason", "the material is in a scene, which holds a copy; "
                                                      f"create a new {type(mat).__name__} to change it")
        return idx

    @property
    def materials(self) -> List[Material]:
        """The materials of the scene, by index (a copy of the list)."""
        return list(self._materials)

    def _material_for(self, mat: Optional[MaterialRef]) -> int:
        if mat is None:
            if _LIB.grit_material_count(self._p()) == 0:
                self.add_material(FrictMat())
            return 0
        return self.add_material(mat)

    def set_pair(self, mat_a: MaterialRef, mat_b: MaterialRef, **params: Any) -> None:
        """Override the parameters of the FrictPhys contacts between two materials (kn, kt, tan_phi, cn, and
        the law: see docs/parameters.md)."""
        a, b = self.add_material(mat_a), self.add_material(mat_b)
        g = Group.get("pair")
        buf = g.new_def()
        g.write_many(buf, params, "set_pair")
        self._check(_LIB.grit_set_pair(self._p(), a, b, buf))

    def update_physics(self) -> int:
        """Give the contacts that exist the stiffnesses, friction and damping the materials and pair overrides give
        now (``set_pair`` alone reaches only contacts made afterwards): the FrictPhys contacts (linear, IdealElPl,
        LinEl6 and Kuhn laws) keep their force and state; concrete and Hertz contacts keep their physics. Returns
        the number of contacts updated."""
        return int(_LIB.grit_contacts_update_physics(self._p()))

    # -- particles
    @overload
    def add(self, shape: Shape) -> int: ...

    @overload
    def add(self, shape: Iterable[Shape]) -> List[int]: ...

    def add(self, shape: Union[Shape, Iterable[Shape]]) -> Union[int, List[int]]:
        """Add a particle (a Sphere, Wall, Facet, ...) or an iterable of them; returns the id(s)."""
        if isinstance(shape, Shape):
            mat = self._material_for(shape.mat)
            return self._check(shape.add_to(self._p(), mat))
        try:
            items = list(shape)
        except TypeError:
            raise ParameterError(f"add: {shape!r} is not a shape (Sphere, Wall, Facet) nor a list of them") from None
        return [self.add(s) for s in items]

    def add_spheres(self, centers: Any, radii: Any, mat: Optional[MaterialRef] = None,
                    vel: Any = None) -> np.ndarray:
        """Add N spheres from arrays: centers (N, 3), radii (N,) or a scalar, vel (N, 3) or None.

        Returns the ids as an int array. All are checked before any is added."""
        c = np.asarray(centers, dtype=float)
        if c.ndim != 2 or c.shape[1] != 3:
            raise ParameterError(f"add_spheres: centers must have shape (N, 3), not {c.shape}")
        n = len(c)
        r = np.broadcast_to(np.asarray(radii, dtype=float), (n,)) if np.ndim(radii) == 0 else np.asarray(radii, float)
        if r.shape != (n,):
            raise ParameterError(f"add_spheres: radii must be a number or have shape ({n},), not {r.shape}")
        v = np.zeros((n, 3)) if vel is None else np.asarray(vel, dtype=float)
        if v.shape != (n, 3):
            raise ParameterError(f"add_spheres: vel must have shape ({n}, 3), not {v.shape}")
        bad = ~(np.isfinite(c).all(axis=1) & np.isfinite(r) & (r > 0) & np.isfinite(v).all(axis=1))
        if bad.any():
            i = int(np.argmax(bad))
            raise ParameterError(f"add_spheres: sphere {i}: center {tuple(c[i])}, radius {r[i]} and velocity must "
                                 "be finite, the radius positive (m)")
        m = self._material_for(mat)
        d = Sphere._c()[0]()
        d.material = m
        add = Sphere._c()[1]
        ptr = self._p()
        ids = np.empty(n, dtype=np.int64)
        for i in range(n):
            d.pos.x, d.pos.y, d.pos.z = c[i]
            d.vel.x, d.vel.y, d.vel.z = v[i]
            d.radius = r[i]
            ids[i] = self._check(add(ptr, ctypes.byref(d)))
        return ids

    def load_stl(self, path: PathLike, mat: Optional[MaterialRef] = None, half_thick: float = 0.0, scale: float = 1.0,
                 ori: Sequence[float] = (1.0, 0.0, 0.0, 0.0), shift: Vec = (0.0, 0.0, 0.0), vel: Vec = (0.0, 0.0, 0.0),
                 mask: Optional[int] = None) -> StlMesh:
        """Add every triangle of an STL file (ASCII or binary, detected from the content) as a facet.

        Each vertex p of the file becomes ``shift + R(ori) (scale p)``: `scale` converts file units to m
        (1e-3 for a file in mm), `ori` a rotation quaternion (w, x, y, z), `shift` a translation [m].
        `half_thick` [m] is the facets' half-thickness, `vel` an imposed velocity [m/s], `mask` the
        collision mask (default: a boundary's). Zero-area triangles are skipped and counted. Returns an
        :class:`StlMesh` (``ids``, ``name``, ``binary``, ``n_degenerate``).

        Errors change nothing: GritIOError if the file cannot be read (the message names it),
        FormatError for a malformed file (naming the file and the line, or the facet of a binary file,
        and the offending text), ParameterError for a bad argument."""
        if not isinstance(path, (str, bytes, os.PathLike)):
            raise ParameterError(f"load_stl: path = {path!r} is not a file name")
        d = _LIB.grit_default_stl_def()
        d.material = self._material_for(mat)
        d.half_thick = _real_arg(half_thick, "load_stl: half_thick")
        d.scale = _real_arg(scale, "load_stl: scale")
        d.ori = _lib.Quat(*as_quat(ori, "load_stl: ori"))
        d.shift = _lib.Vec3(*as_vec3(shift, "load_stl: shift"))
        d.vel = _lib.Vec3(*as_vec3(vel, "load_stl: vel"))
        if mask is not None:
            if isinstance(mask, bool) or not isinstance(mask, numbers.Integral) or not 0 <= mask < 2**32:
                raise ParameterError(f"load_stl: mask = {mask!r} must be an integer in [0, 2^32)")
            d.mask = mask
        info = _lib.StlInfo()
        n = self._check(_LIB.grit_load_stl(self._p(), os.fsencode(path), ctypes.byref(d), ctypes.byref(info)))
        return StlMesh(np.arange(info.first_id, info.first_id + n, dtype=np.int64) if n else np.zeros(0, np.int64),
                       info.name.decode(errors="replace"), bool(info.binary), info.n_degenerate)

    # -- running
    @property
    def step(self) -> int:
        """Number of steps run."""
        return _LIB.grit_step_count(self._p())

    @property
    def time(self) -> float:
        """Simulation time [s]."""
        return _LIB.grit_time(self._p())

    @property
    def threads(self) -> int:
        """Worker threads of the steps (OpenMP): the count the next step uses. Set 0 for automatic
        (OMP_NUM_THREADS if set, else up to the cores the process may use, fewer while fewer are measured
        faster). Results are the same to the bit with any count; not saved with the scene."""
        return _LIB.grit_threads(self._p())

    @threads.setter
    def threads(self, n: int) -> None:
        self._check(_LIB.grit_set_threads(self._p(), int(n)))

    @property
    def current_dt(self) -> float:
        """The time step in use [s] (the parameter dt resolved; NaN before the first step if dt is automatic)."""
        return _LIB.grit_dt(self._p())

    @property
    def critical_dt(self) -> float:
        """Critical time step estimate [s], the smallest over the particles (inf without any) of: the p-wave
        estimate r sqrt(rho/E) for pairs of materials without overrides; sqrt(3m/(8 kn)) for pairs with a
        stiffness override (the same margin as the p-wave estimate); rayleigh_fraction times the Rayleigh time
        for Hertz contacts (two HertzMats). With dt = nan (the default) the scene steps at dt_safety times this
        (fixed at the first step); with dyn_dt the step follows the current contacts instead
        (docs/linear-model.md)."""
        return _LIB.grit_critical_dt(self._p())

    def every(self, steps: int, fn: Callable[[Scene], Any]) -> Runner:
        """Call fn(scene) whenever the step count is a multiple of `steps` during run(); returns the Runner."""
        r = Runner(steps, fn)
        self._runners.append(r)
        return r

    def remove_runner(self, runner: Runner) -> None:
        """Stop calling a runner (returned by every); ValueError if it is not one of the scene's."""
        self._runners.remove(runner)

    @property
    def runners(self) -> List[Runner]:
        """The runners called during run(), in the order they were added (a copy of the list)."""
        return list(self._runners)

    def run(self, steps: Optional[int] = None, *, until: Optional[Callable[[Scene], Any]] = None,
            check_every: int = 1) -> int:
        """Run `steps` steps, or until ``until(scene)`` is true, tested every `check_every` steps; with both,
        whichever comes first. Returns the number of steps run.

        Runners (``every``) are called at their steps. An engine error
        (NumericError, ParameterError for a time step above the critical
        one) leaves the scene at the last good step. Ctrl-C interrupts
        between chunks of steps, also leaving a consistent scene."""
        if steps is None and until is None:
            raise ParameterError("run: give the number of steps, an until= condition, or both")
        if steps is not None and (isinstance(steps, bool) or not isinstance(steps, numbers.Integral) or steps < 0):
            raise ParameterError(f"run: steps = {steps!r} must be an integer >= 0")
        if isinstance(check_every, bool) or not isinstance(check_every, numbers.Integral) or check_every < 1:
            raise ParameterError(f"run: check_every = {check_every!r} must be an integer >= 1")
        if until is not None and not callable(until):
            raise ParameterError(f"run: until = {until!r} is not callable")
        ptr = self._p()
        if self.__dict__.get("_in_c", 0):
            raise StateError("run: the scene is inside a law tester's step (run called from its callback)")
        object.__setattr__(self, "_busy", self.__dict__.get("_busy", 0) + 1)
        try:
            return self._run(ptr, steps, until, check_every)
        finally:
            object.__setattr__(self, "_busy", self.__dict__["_busy"] - 1)

    def _run(self, ptr: int, steps: Optional[int], until: Optional[Callable[[Scene], Any]], check_every: int) -> int:
        done = 0
        while steps is None or done < steps:
            n = steps - done if steps is not None else 1 << 62
            if until is not None:
                n = min(n, check_every - done % check_every)
            now = _LIB.grit_step_count(ptr)
            for r in self._runners:
                n = min(n, r.every - now % r.every)
            n = min(n, self._chunk)
            t0 = time.perf_counter()
            self._check(_LIB.grit_step(ptr, n))
            self._adapt_chunk(n, time.perf_counter() - t0)
            done += n
            now += n
            for r in list(self._runners):
                if now % r.every == 0:
                    r.fn(self)
            if until is not None and done % check_every == 0 and until(self):
                break
        return done

    def _adapt_chunk(self, n: int, seconds: float) -> None:
        # chunks of about 0.1 s keep Ctrl-C responsive at a negligible cost per call
        if n == self._chunk and seconds < 0.05:
            object.__setattr__(self, "_chunk", min(self._chunk * 2, 1 << 30))
        elif seconds > 0.2 and self._chunk > 1:
            object.__setattr__(self, "_chunk", max(self._chunk // 2, 1))

    # -- clumps (grit/clump.py)
    def add_clump(self, centers: Any, radii: Any, mat: Optional[MaterialRef] = None, pos: Vec = (0.0, 0.0, 0.0),
                  ori: Sequence[float] = (1.0, 0.0, 0.0, 0.0), vel: Vec = (0.0, 0.0, 0.0),
                  angvel: Vec = (0.0, 0.0, 0.0), blocked: str = "", mask: Optional[int] = None,
                  cells_per_radius: int = 48) -> int:
        """Add a clump, a rigid body of member spheres (docs/clumps.md): member k is the sphere of radius
        ``radii[k]`` at ``pos + R(ori) centers[k]``. The body sits at the centre of mass of the union (overlaps
        counted once) with velocity `vel` and angular velocity `angvel`; `blocked` names blocked DoFs of the body
        ("xyzXYZ" letters). Returns the body's id; the members are the ids that follow it."""
        return self.add(Clump(centers, radii, pos, ori, mat, vel, angvel, blocked=blocked, mask=mask,
                              cells_per_radius=cells_per_radius))

    def add_clumps(self, centers: Any, radii: Any, positions: Any, mat: Optional[MaterialRef] = None,
                   vel: Any = None, seed: int = 1, random_ori: bool = True, mask: Optional[int] = None,
                   cells_per_radius: int = 48) -> np.ndarray:
        """Place the clump template (member `centers`, `radii`) at each of `positions` (N, 3): its centre of mass
        goes there, turned by a rotation drawn uniformly (seeded by `seed`; ``random_ori=False``: as given).
        `vel` (3,) or (N, 3). Returns the body ids as an int array."""
        c, r = _clump.template(centers, radii, "add_clumps")
        return _clump.add_many(self, c, r, positions, self._material_for(mat), vel, seed, random_ori,
                               cells_per_radius, mask)

    def clump_properties(self, centers: Any, radii: Any, mat: Optional[MaterialRef] = None,
                         cells_per_radius: int = 48) -> Dict[str, Any]:
        """Mass properties of a clump template without adding it: a dict with mass, volume, center (of mass,
        template frame), inertia (principal moments, ascending), ori (principal axes) and exact (members
        disjoint: closed form; else the grid integration of docs/clumps.md)."""
        d = Clump(centers, radii, cells_per_radius=cells_per_radius).cdef(self._material_for(mat))
        return _clump.properties(self, d)

    def clump_of(self, pid: int) -> Tuple[int, int]:
        """(body id, member count) of a clump body or member id; ParameterError for any other particle."""
        return _clump.clump_of(self, _check_id(pid))

    def clump_members(self, body: int) -> Tuple[np.ndarray, np.ndarray]:
        """The members of clump `body`: centres in the body's principal frame (n, 3) and radii (n,)."""
        return _clump.members(self, _check_id(body))

    # -- inlets (grit/inlet.py)
    def add_inlet(self, region: str = "box", *, mass_rate: float,
                  radii: Union[float, Tuple[float, float], None] = None,
                  sizes: Optional[Sequence[Tuple[float, float]]] = None, mat: Optional[MaterialRef] = None,
                  lo: Optional[Vec] = None, hi: Optional[Vec] = None, center: Optional[Vec] = None,
                  radius: Optional[float] = None, height: Optional[float] = None, vel: Vec = (0.0, 0.0, 0.0),
                  max_mass: Optional[float] = None, t_start: Optional[float] = None, seed: int = 1,
                  max_attempts: int = 50, mesh: Optional[_regions.MeshLike] = None, mesh_scale: float = 1.0,
                  mesh_shift: Vec = (0.0, 0.0, 0.0), clumps: Optional[Sequence[Any]] = None,
                  shapes: Optional[Sequence[Any]] = None, scales: Any = None,
                  angvel: Vec = (0.0, 0.0, 0.0)) -> _inlet.Inlet:
        """Insert spheres at `mass_rate` [kg/s] into a region: ``region="box"`` with corners `lo`, `hi`,
        ``"cylinder"`` (axis z) with the `center` of its bottom face, `radius` and `height`, or ``"mesh"``, the
        solid inside the closed surface `mesh` (an STL file, its vertices placed at mesh_shift + mesh_scale p, or
        an array of triangles (n, 3, 3)); whole spheres stay inside. Radii uniform in ``radii=(r_min, r_max)`` or from ``sizes=[(radius, mass fraction), ...]``
        (up to 8). Each sphere goes where it overlaps nothing, with velocity `vel` and angular velocity `angvel`
        [rad/s]; the inlet stops after
        `max_mass` [kg], starts at `t_start` [s] (default: now). With ``clumps=[(centers, radii, mass
        fraction), ...]`` (up to 8 templates; the fraction may be left out: 1) it inserts clumps instead, each a
        template drawn by its mass fraction, scaled by a factor from `scales` if given (as for shapes), turned at
        random, every member inside the region and clear of everything; then give neither radii nor sizes. With ``shapes=[("capsule", radius, shaft, mass fraction),
        ("ellipsoid", (a, b, c), mass fraction), ...]`` (up to 8; the fraction may be left out: 1) it inserts single
        capsules and ellipsoids, each a template drawn by its mass fraction, scaled by a factor from `scales` (one
        number, ``(s_min, s_max)`` uniform by number, or ``[(scale, mass fraction), ...]``; default 1), turned at
        random, its bounding sphere inside the region and clear of everything. Returns a grit.inlet.Inlet
        (docs/inlets.md)."""
        d = _inlet.make_def(region, lo, hi, center, radius, height, mass_rate, radii, sizes, self._material_for(mat),
                            vel, max_mass, t_start, seed, max_attempts, mesh, mesh_scale, mesh_shift, clumps, shapes,
                            scales, angvel)
        return _inlet.Inlet(self, self._check(_LIB.grit_add_inlet(self._p(), d)))

    @property
    def inlets(self) -> List[_inlet.Inlet]:
        """The scene's inlets (a list of grit.inlet.Inlet)."""
        return [_inlet.Inlet(self, k) for k in range(_LIB.grit_inlet_count(self._p()))]

    # -- outlets (grit/outlet.py)
    def add_outlet(self, region: str = "box", *, lo: Optional[Vec] = None, hi: Optional[Vec] = None,
                   center: Optional[Vec] = None, radius: Optional[float] = None,
                   height: Optional[float] = None, mesh: Optional[_regions.MeshLike] = None, mesh_scale: float = 1.0,
                   mesh_shift: Vec = (0.0, 0.0, 0.0)) -> _outlet.Outlet:
        """Delete the particles whose node enters a region: ``region="box"`` with corners `lo`, `hi`,
        ``"cylinder"`` (axis z) with the `center` of its bottom face, `radius` and `height`, or ``"mesh"``, the
        solid inside the closed surface `mesh` (an STL file or triangles, as for add_inlet). It looks once per
        broad-phase rebuild; the deleted mass, count and energy are recorded. Returns a grit.outlet.Outlet
        (docs/outlets.md)."""
        d = _outlet.make_def(region, lo, hi, center, radius, height, mesh, mesh_scale, mesh_shift)
        return _outlet.Outlet(self, self._check(_LIB.grit_add_outlet(self._p(), d)))

    @property
    def outlets(self) -> List[_outlet.Outlet]:
        """The scene's outlets (a list of grit.outlet.Outlet)."""
        return [_outlet.Outlet(self, k) for k in range(_LIB.grit_outlet_count(self._p()))]

    # -- periodic cell and stress (grit/cell.py)
    @property
    def cell(self) -> Optional[_cell.Cell]:
        """The periodic cell (a grit.Cell: hsize, next_grad_v, grad_v, trsf, hencky_strain, volume), or None
        while the scene is not periodic. Assign 3 box sizes [m] or a 3x3 matrix (columns: base vectors) to
        make the scene periodic or to replace its cell."""
        return _cell.Cell(self) if _LIB.grit_is_periodic(self._p()) else None

    @cell.setter
    def cell(self, hsize: Any) -> None:
        if hsize is None:
            raise StateError("cell: a periodic cell cannot be removed from a scene")
        _cell.Cell(self).hsize = hsize

    def stress(self, lo: Optional[Vec] = None, hi: Optional[Vec] = None) -> np.ndarray:
        """Love-Weber stress tensor [Pa], a 3x3 array, tension positive: of the whole periodic cell, or of the
        contacts whose contact point lies in the box [lo, hi] (any scene)."""
        return _cell.stress(self, lo, hi)

    def stats(self) -> Dict[str, Union[int, float]]:
        """Broad-phase and timing counters (rebuilds, sorts, potential_pairs, real_contacts, ...)."""
        st = _lib.Stats()
        _LIB.grit_get_stats(self._p(), ctypes.byref(st))
        return {name: getattr(st, name) for name, _ in st._fields_}

    def __repr__(self) -> str:
        if self._ptr is None:
            return "<grit.Scene (closed)>"
        return (f"<grit.Scene: {len(self.particles)} particles, {len(self.contacts)} contacts, step {self.step}, "
                f"time {self.time:g} s>")


Group.get("scene").install(Scene)
# every law's parameters are attributes of the scene too (their names are unique)
_LAW_PARAMS: Dict[str, Any] = {}
for _law in range(_LIB.const["GRIT_LAW_COUNT"]):
    _g = Group.get(_LIB.grit_law_name(_law).decode())
    _g.install(Scene)
    _LAW_PARAMS.update(_g.params)
Scene._params = Group.get("scene")


def _real_arg(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ParameterError(f"{what} = {value!r} is not a number")
    return float(value)


class StlMesh:
    """The facets added by :meth:`Scene.load_stl`: ``ids`` (int array, consecutive), the file's ``name``
    (ASCII solid name or binary header text), ``binary`` (bool) and ``n_degenerate`` (zero-area triangles
    skipped). ``len(mesh)`` is the number of facets; iterating gives the ids."""

    def __init__(self, ids: np.ndarray, name: str, binary: bool, n_degenerate: int) -> None:
        self.ids, self.name, self.binary, self.n_degenerate = ids, name, binary, n_degenerate

    def __len__(self) -> int:
        return len(self.ids)

    def __iter__(self) -> Iterator[int]:
        return iter(self.ids.tolist())

    def __repr__(self) -> str:
        return (f"<grit.StlMesh '{self.name}': {len(self.ids)} facets (ids {self.ids[0] if len(self.ids) else '-'}"
                f"..{self.ids[-1] if len(self.ids) else '-'}), {'binary' if self.binary else 'ASCII'}, "
                f"{self.n_degenerate} degenerate skipped>")


# ---------------------------------------------------------------- array views
def _array_table(group: int) -> Dict[str, Tuple[int, Any]]:
    out = {}
    for i in range(_LIB.grit_array_count()):
        info = _LIB.grit_array_info_at(i).contents
        if info.group == group:
            out[info.name.decode()] = (i, info)
    return out


def _view_property(index: int, info: Any) -> property:
    unit = _lib.text(info.unit)
    ncomp = "rows of %d" % info.ncomp if info.ncomp > 1 else ("rows of a variable width" if info.ncomp == 0 else "")
    doc = (f"{_lib.text(info.doc)} [{unit}]. NumPy view of engine memory ({'writable' if info.writable else 'read-only'}"
           f"{', ' + ncomp if ncomp else ''}), in the engine's row order; stale after the arrays move.")

    def get(self: _Views) -> np.ndarray:
        return make_view(self._scene, index, info)

    return property(get, doc=doc)


class _Views:
    """Base of the particle and contact containers: one view property per array of the C table."""
    _group: Optional[int] = None

    def __init__(self, scene: Scene) -> None:
        self._scene = scene

    @classmethod
    def _install(cls) -> None:
        cls._arrays = _array_table(cls._group)
        for name, (i, info) in cls._arrays.items():
            if name in cls.__dict__:
                raise TypeError(f"grit: array {name} clashes with {cls.__name__}.{name}")
            setattr(cls, name, _view_property(i, info))

    def view_names(self) -> List[str]:
        """The names of the array views (the attributes generated from the engine's array table)."""
        return list(self._arrays)


class Particles(_Views, _ParticleArrays):
    """The particles of a scene.

    ``scene.particles[id]`` is one particle (a :class:`Particle`, Woo's
    ``S.dem.par[id]``). The array attributes (``pos``, ``vel``, ``radius``,
    ``id``, ...) are NumPy views of all particles in the engine's internal
    row order: ``id`` gives the particle id of each row, ``rows(ids)`` the
    rows of some ids, ``get(name, ids)`` a copy in id order. Ids are stable
    and never reused: with particles deleted by outlets, ``ids()`` lists the
    live ones."""
    _group = _G_PARTICLES

    def __len__(self) -> int:
        return _LIB.grit_particle_count(self._scene._p())

    def _id_end(self) -> int:
        return _LIB.grit_particle_id_end(self._scene._p())

    def ids(self) -> np.ndarray:
        """The ids of the particles, in increasing order (a NumPy int array): 0 .. len-1 unless outlets
        deleted some."""
        n = self._id_end()
        if n == len(self):
            return np.arange(n)
        return np.flatnonzero(self.index_of_id[:n] >= 0)

    def __getitem__(self, pid: int) -> Particle:
        pid = _check_id(pid)
        n = self._id_end()
        if not 0 <= pid < n or (n != len(self) and self.index_of_id[pid] < 0):
            raise ParameterError(f"particle id {pid} does not exist ({len(self)} particles"
                                 + (f", ids below {n}; deleted ones are not reused)" if n != len(self) else ")"))
        return Particle(self._scene, pid)

    def __iter__(self) -> Iterator[Particle]:
        for pid in self.ids():
            yield Particle(self._scene, int(pid))

    def rows(self, ids: Any) -> np.ndarray:
        """Rows (indices into the views) of particle ids (an int or an array of ints)."""
        a = np.asarray(ids)
        if a.dtype.kind not in "iu":
            raise ParameterError(f"particle ids must be integers, not {a.dtype}")
        n = self._id_end()
        if a.size and (a.min() < 0 or a.max() >= n):
            bad = a[(a < 0) | (a >= n)].flat[0]
            raise ParameterError(f"particle id {bad} does not exist ({len(self)} particles)")
        rows = self.index_of_id[a]
        if a.size and rows.min() < 0:
            raise ParameterError(f"particle id {a[rows < 0].flat[0]} was deleted (by an outlet)")
        return rows

    def get(self, name: str, ids: Any = None) -> np.ndarray:
        """A copy of array `name` in id order (all particles, or the given ids)."""
        if name not in self._arrays or name == "index_of_id":
            raise ParameterError(f"no particle array '{name}' (known: {', '.join(self._arrays)})")
        rows = self.rows(self.ids() if ids is None else ids)
        return getattr(self, name)[rows].copy()

    def of_shape(self, kind: str) -> np.ndarray:
        """Boolean mask over rows: the particles of one shape ('sphere', 'wall', 'facet', ...)."""
        names = shape_names()
        code = next((k for k, v in names.items() if v == kind), None)
        if code is None:
            raise ParameterError(f"unknown shape '{kind}' (known: {', '.join(names.values())})")
        return self.shape.copy() == code

    def block(self, ids: Any, dofs: str) -> None:
        """Block DoFs ('xyzXYZ' letters; '' frees all) of particles: they keep their velocities."""
        bits = dofs_to_bits(dofs)
        for pid in np.atleast_1d(ids):
            self[int(pid)].blocked = bits_to_dofs(bits)

    def impose_vel(self, ids: Any, vel: Any, dofs: str = "xyz") -> None:
        """Impose velocity components (blocks those DoFs and sets them); vel (3,) or (len(ids), 3)."""
        ids = np.atleast_1d(ids)
        v = np.broadcast_to(np.asarray(vel, dtype=float), (len(ids), 3))
        for pid, vi in zip(ids, v):
            self[int(pid)].impose_vel(vi, dofs)


class Contacts(_Views, _ContactArrays):
    """The contacts of a scene.

    ``len(contacts)`` counts real contacts. The array attributes view all
    candidate pairs of the broad phase (potential and real, in the engine's
    order; ``flags & 1`` marks real ones, ``real`` gives the mask); their
    values are valid for real contacts only. ``arrays()`` gives copies of the
    real contacts with particle ids and global forces; ``contacts[i]`` the
    i-th real contact as a dict (the C accessor grit_contact_get)."""
    _group = _G_CONTACTS

    def __len__(self) -> int:
        return _LIB.grit_contact_count(self._scene._p())

    @property
    def real(self) -> np.ndarray:
        """Boolean mask over rows: real contacts (a copy)."""
        return (self.flags.copy() & _CONTACT_REAL) != 0

    def arrays(self) -> Dict[str, np.ndarray]:
        """Copies of the real contacts: id_a, id_b, normal, ey, ez, point, uN, vel, angvel, force (local),
        torque (local), force_global, kn, kt, tan_phi, cn, lens, area, ext."""
        real = self.real
        out = {name: getattr(self, name)[real] for name in
               ("normal", "ey", "point", "uN", "vel", "angvel", "force", "torque", "kn", "kt", "tan_phi", "cn",
                "lens", "area", "ext")}
        ids = self._scene.particles.id.copy()
        out["id_a"] = ids[self.row_a[real]]
        out["id_b"] = ids[self.row_b[real]]
        out["ez"] = np.cross(out["normal"], out["ey"])
        f = out["force"]
        out["force_global"] = (out["normal"] * f[:, :1] + out["ey"] * f[:, 1:2] + out["ez"] * f[:, 2:3])
        return out

    def __getitem__(self, i: int) -> Dict[str, Any]:
        i = _check_id(i, "contact index")
        info = _lib.ContactInfo()
        self._scene._check(_LIB.grit_contact_get(self._scene._p(), i, ctypes.byref(info)))
        out = {}
        for name, _ in info._fields_:
            v = getattr(info, name)
            out[name] = v.tuple() if isinstance(v, _lib.Vec3) else (tuple(v) if name == "lens" else v)
        return out

    def concrete(self) -> Dict[str, np.ndarray]:
        """The state of the concrete law's contacts as NumPy views of the engine's memory (columns of
        ``ext``), one row per candidate pair like the other views; valid where ``real`` and ``law == cpm``
        (``mask``): omega (damage), kappa, eps_n, eps_n_pl, eps_t (n, 2), sigma_n, sigma_t (n, 2) [Pa],
        cohesive (1.0/0.0), ref_length [m], rel_residual_strength, stored energy density u [J/m^3].
        docs/concrete.md explains each."""
        c = _LIB.const
        ext = self.ext
        if ext.ndim != 2 or ext.shape[1] < c["GRIT_LAW_CPM_EXT_N"]:
            raise StateError("no contact of this scene can use the concrete law (no pair of ConcreteMats)")
        col = {"omega": "OMEGA", "kappa": "KAPPA", "eps_n": "EPS_N", "eps_n_pl": "EPS_N_PL", "sigma_n": "SIGMA_N",
               "cohesive": "COHESIVE", "ref_length": "L", "rel_residual_strength": "RRES", "u": "U"}
        out = {k: ext[:, c["GRIT_CPM_X_" + v]] for k, v in col.items()}
        for k, v in (("eps_t", "EPS_T"), ("sigma_t", "SIGMA_T")):
            out[k] = ext[:, c["GRIT_CPM_X_" + v]:c["GRIT_CPM_X_" + v] + 2]
        out["mask"] = self.real & (self.law.copy() == c["GRIT_LAW_CPM"])
        return out

    def find(self, id_a: int, id_b: int) -> Optional[int]:
        """Index (for contacts[i]) of the real contact between two particles, or None."""
        k = _LIB.grit_contact_find(self._scene._p(), _check_id(id_a), _check_id(id_b))
        return None if k < 0 else k


Particles._install()
Contacts._install()


# ---------------------------------------------------------------- one particle
def _vec3_getter(cname: str, doc: str) -> Callable[[Particle], Tuple[float, float, float]]:
    fn = getattr(_LIB, cname)

    def get(self: Particle) -> Tuple[float, float, float]:
        v = _lib.Vec3()
        self._scene._check(fn(self._scene._p(), self.id, ctypes.byref(v)))
        return v.tuple()
    get.__doc__ = doc
    return get


def _vec3_setter(cname: str, what: str) -> Callable[[Particle, Vec], None]:
    fn = getattr(_LIB, cname)

    def set_(self: Particle, value: Vec) -> None:
        self._scene._check(fn(self._scene._p(), self.id, _lib.Vec3(*as_vec3(value, what))))
    return set_


class Particle:
    """One particle of a scene, by id (stable over the particle's life): ``scene.particles[id]``."""
    __slots__ = {"_scene": None, "id": "the particle's id"}

    def __init__(self, scene: Scene, pid: int) -> None:
        self._scene, self.id = scene, pid

    pos = property(_vec3_getter("grit_get_pos", "position [m]"), _vec3_setter("grit_set_pos", "pos"))
    vel = property(_vec3_getter("grit_get_vel", "velocity [m/s]"), _vec3_setter("grit_set_vel", "vel"))
    angvel = property(_vec3_getter("grit_get_angvel", "angular velocity [rad/s]"),
                      _vec3_setter("grit_set_angvel", "angvel"))
    force = property(_vec3_getter("grit_get_force", "force of the last step [N]"))
    torque = property(_vec3_getter("grit_get_torque", "torque of the last step [N m]"))

    @property
    def ori(self) -> Tuple[float, float, float, float]:
        """Orientation quaternion (w, x, y, z)."""
        q = _lib.Quat()
        self._scene._check(_LIB.grit_get_ori(self._scene._p(), self.id, ctypes.byref(q)))
        return (q.w, q.x, q.y, q.z)

    @property
    def mass(self) -> float:
        """Mass [kg] (inf for boundaries)."""
        m = ctypes.c_double()
        self._scene._check(_LIB.grit_get_mass(self._scene._p(), self.id, ctypes.byref(m), None))
        return m.value

    @property
    def inertia(self) -> Tuple[float, float, float]:
        """Principal moments of inertia [kg m^2]."""
        i = _lib.Vec3()
        self._scene._check(_LIB.grit_get_mass(self._scene._p(), self.id, None, ctypes.byref(i)))
        return i.tuple()

    @property
    def radius(self) -> float:
        """Radius [m] (0 for shapes without one)."""
        r = ctypes.c_double()
        self._scene._check(_LIB.grit_get_radius(self._scene._p(), self.id, ctypes.byref(r)))
        return r.value

    @property
    def shape(self) -> str:
        """Shape name: 'sphere', 'wall', 'facet', ..."""
        return shape_names()[self._scene._check(_LIB.grit_get_shape(self._scene._p(), self.id))]

    @property
    def blocked(self) -> str:
        """Blocked DoFs as Woo's letters 'xyzXYZ'; assign a string to change them."""
        ps = self._scene.particles
        row = int(ps.index_of_id[self.id])
        return bits_to_dofs(int(ps.flags[row]) & _LIB.const["GRIT_BLOCK_ALL"])

    @blocked.setter
    def blocked(self, dofs: str) -> None:
        self._scene._check(_LIB.grit_set_blocked(self._scene._p(), self.id, dofs_to_bits(dofs)))

    def impose_vel(self, vel: Vec, dofs: str = "xyz") -> None:
        """Impose velocity components (letters of 'xyz'): they are blocked and keep the given values."""
        if not isinstance(dofs, str) or set(dofs) - set("xyz"):
            raise ParameterError(f"impose_vel: dofs = {dofs!r} must be letters of 'xyz'")
        bits = dofs_to_bits(dofs)
        self._scene._check(_LIB.grit_impose_vel(self._scene._p(), self.id, _lib.Vec3(*as_vec3(vel, "vel")), bits))

    def __repr__(self) -> str:
        return f"<grit particle {self.id}: {self.shape} at {self.pos}>"


# ---------------------------------------------------------------- energy
class Energy:
    """The energy tracker: ``scene.energy['kinetic']``, ``.total``, ``.rel_error``, ``dict(scene.energy)``.

    Entries are booked while the scene parameter track_energy is on; their
    sum stays constant (up to rel_error) in a correct simulation."""

    def __init__(self, scene: Scene) -> None:
        self._scene = scene
        self.names = [_LIB.grit_energy_name(k).decode() for k in range(_LIB.const["GRIT_E_COUNT"])]

    def __getitem__(self, name: str) -> float:
        try:
            k = self.names.index(name)
        except ValueError:
            raise KeyError(f"no energy entry '{name}' (entries: {', '.join(self.names)})") from None
        return _LIB.grit_energy(self._scene._p(), k)

    def keys(self) -> List[str]:
        """The entry names, in the engine's order (the columns of the energy CSV)."""
        return list(self.names)

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)

    def items(self) -> List[Tuple[str, float]]:
        """(name, value [J]) of every entry, in the engine's order."""
        return [(k, self[k]) for k in self.names]

    def as_dict(self) -> Dict[str, float]:
        """{name: value [J]} of every entry."""
        return dict(self.items())

    @property
    def total(self) -> float:
        """Sum of all entries [J]."""
        return _LIB.grit_energy_total(self._scene._p())

    @property
    def initial(self) -> float:
        """The total when tracking started [J] (NaN before)."""
        return _LIB.grit_energy_initial(self._scene._p())

    @property
    def rel_error(self) -> float:
        """Balance error: (total - initial) / sum of |entries|."""
        return _LIB.grit_energy_rel_error(self._scene._p())

    def reset(self) -> None:
        """Zero all entries and restart the balance."""
        _LIB.grit_energy_reset(self._scene._p())

    def __repr__(self) -> str:
        return "Energy(" + ", ".join(f"{k}={v:g}" for k, v in self.items()) + f", total={self.total:g})"
