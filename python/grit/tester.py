"""The law tester: two particles driven along prescribed paths in contact-local coordinates (Woo's LawTester).

    t = grit.LawTester(scene, ids=(0, 1), ab_weight=0.5, record_every=10, stages=[
        grit.Stage(values=(-0.01, 0, 0, 0, 0, 0), whats="vvvvvv", until="uN < -0.005"),   # compress
        grit.Stage(values=(0, 0.01, 0, 0, 0, 0), whats="vvvvvv", until="u[1] >= 0.02"),   # shear
        grit.Stage(values=(1e-4, 0, 0, 0, 0, 0), whats="v.....", until="not C"),          # unload
    ])
    t.run(100000)
    t.save("out/law.csv"); t.plot("out/law.png", tan_phi=0.5)

Each stage gives six values in the tester's local frame (x normal from A to
B, then y, z; rotations about x, y, z) and what each is: ``v`` a velocity
for the whole stage, ``i`` a velocity in its first step only, ``f`` a force,
``.`` nothing. It ends when its condition holds: a text condition evaluated
in C (``"C"``, ``"not C"``, ``"broken"``, ``"uN < -0.01"``, ``"u[1] >= 0.02"``,
``"fErrRel[0] < 0.1"``, ``"E[plast] > 0"``, ``"step > 5000"``; see
include/grit/tester.h), a Python callable ``until(tester) -> bool``, or
both (either ends it). The algorithm is the engine's (src/tester/); this
module only describes stages and reads the state and the record.
"""
from __future__ import annotations

import ctypes
import numbers
import os
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _lib
from .errors import ParameterError, StateError
from .params import Group
from .scene import Scene, _check_id

_LIB = _lib.get()
ERRLEN = 512
Until = Union[str, Callable[["LawTester"], Any], Tuple[Any, ...], None]  # text, callable, or both in a tuple
PathLike = Union[str, "os.PathLike[str]"]
VECTORS = ("f", "v", "u", "k", "smoo_f", "smoo_u", "smoo_v", "f_err_rel", "f_err_abs", "u_err_rel", "u_err_abs",
           "v_err_rel", "v_err_abs")


DOF_NAMES = ("normal", "shear y", "shear z", "twist", "bending y", "bending z")


class Stage:
    """One loading stage: ``Stage(values=(0,)*6, whats="......", until=None, until_every=1, reset_energy=(),
    done=None)``.

    until: a text condition (parsed by the engine), a callable ``until(tester)``, or a tuple of both;
    until_every: test it every that many stage steps; reset_energy: energy entry names set to 0 when the
    stage ends; done: a callable ``done(tester)`` run when the stage ends."""

    def __init__(self, values: Sequence[float] = (0.0,) * 6, whats: str = "......", until: Until = None,
                 until_every: int = 1, reset_energy: Union[str, Sequence[str]] = (),
                 done: Optional[Callable[[LawTester], Any]] = None) -> None:
        try:
            vals = [float(v) for v in values]
        except (TypeError, ValueError):
            vals = []
        if len(vals) != 6:
            raise ParameterError(f"stage: values = {values!r} must be 6 numbers")
        if not isinstance(whats, str):
            raise ParameterError(f"stage: whats = {whats!r} must be a string of 6 letters of 'vif.'")
        text, fn = None, None
        for u in (until if isinstance(until, tuple) else (until,)):
            if isinstance(u, str):
                text = u
            elif callable(u):
                fn = u
            elif u is not None:
                raise ParameterError(f"stage: until = {u!r} is neither a condition text nor a callable")
        if isinstance(until_every, bool) or not isinstance(until_every, numbers.Integral):
            raise ParameterError(f"stage: until_every = {until_every!r} must be an integer >= 1")
        if done is not None and not callable(done):
            raise ParameterError(f"stage: done = {done!r} is not callable")
        if isinstance(reset_energy, str):
            reset_energy = (reset_energy,)
        self.values, self.whats, self.until, self.until_fn = tuple(vals), whats, text, fn
        self.until_every, self.reset_energy, self.done = int(until_every), tuple(reset_energy), done
        self.cond = None
        if text is not None:  # parse now: a bad condition is reported where the stage is written
            self.cond = _lib.TesterCond()
            err = ctypes.create_string_buffer(ERRLEN)
            if _LIB.grit_tester_cond_parse(text.encode(), ctypes.byref(self.cond), err, ERRLEN) != 0:
                raise ParameterError(err.value.decode())

    def __repr__(self) -> str:
        return f"Stage(values={self.values}, whats={self.whats!r}, until={self.until or self.until_fn!r})"

    def describe(self) -> str:
        """The stage in words, for legends: what drives each DoF and when it ends, e.g.
        'normal velocity -0.01 m/s (the rest held) until uN < -0.005'."""
        driven, held, free = [], [], []
        for j, (w, v) in enumerate(zip(self.whats, self.values)):
            rot = j >= 3
            if w == ".":
                free.append(j)
            elif w in "vi" and v == 0:
                held.append(j)
            elif w in "vi":
                first = " (first step)" if w == "i" else ""
                driven.append(f"{DOF_NAMES[j]} velocity {v:g} {'rad/s' if rot else 'm/s'}{first}")
            else:
                driven.append(f"{DOF_NAMES[j]} {'torque' if rot else 'force'} {v:g} {'N m' if rot else 'N'}")
        rest = [f"{name}: " + ", ".join(DOF_NAMES[j] for j in dofs) for name, dofs in (("held", held), ("free", free))
                if dofs]
        if len(rest) == 1 and driven:  # every other DoF alike
            rest = [f"the rest {'held' if held else 'free'}"]
        text = ", ".join(driven) or "nothing driven"
        if rest:
            text += " (" + "; ".join(rest) + ")"
        until = self.until or (getattr(self.until_fn, "__name__", "a callback") if self.until_fn else None)
        return text + (f" until {until}" if until else "")


class State:
    """The tester's state, read live from the engine: stage, stage_step, stage_time, has_contact,
    had_contact, bounces, dist, work, flipped, and 6-vectors f, v, u, k, smoo_f, ... (tuples, local DoF
    order x y z rx ry rz; NaN without contact); axes: the tester frame (rows: x = normal A -> B, y, z)."""

    def __init__(self, ptr: Any) -> None:
        self._p = ptr

    def __getattr__(self, name: str) -> Any:
        st = self._p.contents
        if name in VECTORS:
            return tuple(getattr(st, name))
        if name == "axes":
            return tuple(v.tuple() for v in st.axes)
        if name in ("stage", "stage_step", "stage_time", "has_contact", "had_contact", "time_c0", "bounces",
                    "dist", "work", "flipped"):
            return getattr(st, name)
        raise AttributeError(f"tester state has no '{name}'")

    def as_dict(self) -> Dict[str, Any]:
        """Every field of the state: {name: value}."""
        names = ["stage", "stage_step", "stage_time", "has_contact", "had_contact", "time_c0", "bounces", "dist",
                 "work", "flipped", *VECTORS, "axes"]
        return {n: getattr(self, n) for n in names}


class LawTester:
    """A law tester on particles ``ids = (A, B)`` of a scene; keyword parameters from the C table
    (ab_weight, smooth, smooth_err, record_every: see docs/parameters.md)."""

    def __init__(self, scene: Scene, ids: Sequence[int] = (0, 1), stages: Sequence[Stage] = (), **params: Any) -> None:
        if not isinstance(scene, Scene):
            raise ParameterError(f"LawTester: {scene!r} is not a grit.Scene")
        try:
            a, b = ids
        except (TypeError, ValueError):
            raise ParameterError(f"LawTester: ids = {ids!r} must be two particle ids") from None
        a, b = _check_id(a), _check_id(b)
        g = Group.get("tester")
        buf = g.new_def()
        g.write_many(buf, params, "LawTester")
        self.scene, self.ids = scene, (a, b)
        self._callbacks: List[Any] = []  # ctypes callback objects: must live as long as the C tester
        self._error: Optional[BaseException] = None
        self._stages: List[Stage] = []
        self._ptr = _LIB.grit_tester_create(scene._p(), a, b, buf)
        if not self._ptr:
            scene._check(_LIB.const["GRIT_EINVAL"])  # the engine's message: bad ids or parameters
        scene._testers.append(self)
        self._params = {k: g.read(p, buf) for k, p in g.params.items()}
        for st in stages:
            self.add_stage(st)

    # -- lifecycle
    def close(self) -> None:
        """Free the C tester (done automatically when the scene closes)."""
        ptr = self.__dict__.get("_ptr")
        if ptr and self.scene.__dict__.get("_in_c", 0):
            raise StateError("close: the law tester is running (close called from its callback)")
        if ptr:
            self._ptr = None
            _LIB.grit_tester_destroy(ptr)
            if self in self.scene._testers:
                self.scene._testers.remove(self)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass

    def _p(self) -> Any:
        if not self._ptr:
            raise StateError("the law tester was closed (or its scene was)")
        return self._ptr

    def _call(self, rc: int) -> int:
        """Raise the Python error of a callback, or the engine's, if rc < 0."""
        if self._error is not None:
            err, self._error = self._error, None
            raise err
        return self.scene._check(rc)

    @property
    def params(self) -> Dict[str, Any]:
        """The tester parameters it was created with."""
        return dict(self._params)

    # -- stages
    def add_stage(self, stage: Stage) -> None:
        """Append a Stage (checked by the engine)."""
        if not isinstance(stage, Stage):
            raise ParameterError(f"add_stage: {stage!r} is not a grit.Stage")
        d = _LIB.grit_default_tester_stage()
        for j, v in enumerate(stage.values):
            d.values[j] = v
        w = stage.whats.encode()
        if len(w) != 6:
            raise ParameterError(f"tester stage {self.stage_count}: whats '{stage.whats}' must be 6 letters of v "
                                 "(velocity), i (initial velocity), f (force), . (free)")
        d.whats = w
        if stage.cond is not None:
            d.until = stage.cond
        d.until_every = stage.until_every
        names = self.scene.energy.names
        for e in stage.reset_energy:
            if e not in names:
                raise ParameterError(f"stage: reset_energy names '{e}', not an energy entry ({', '.join(names)})")
            d.reset_energy |= 1 << names.index(e)
        if stage.until_fn is not None:
            d.until_fn = self._keep(_lib.UNTIL_FN(self._until_wrapper(stage.until_fn)))
        if stage.done is not None:
            d.done_fn = self._keep(_lib.DONE_FN(self._done_wrapper(stage.done)))
        self.scene._check(_LIB.grit_tester_add_stage(self._p(), ctypes.byref(d)))
        self._stages.append(stage)

    def _keep(self, cb: Any) -> Any:
        self._callbacks.append(cb)
        return cb

    def _until_wrapper(self, fn: Callable[[LawTester], Any]) -> Callable[..., int]:
        def until(s: Any, t: Any, st: Any, user: Any) -> int:
            try:
                return 1 if fn(self) else 0
            except BaseException as e:  # noqa: BLE001  (re-raised in Python by _call)
                self._error = e
                return -1
        return until

    def _done_wrapper(self, fn: Callable[[LawTester], Any]) -> Callable[..., int]:
        def done(s: Any, t: Any, stage: int, user: Any) -> int:
            try:
                fn(self)
                return 0
            except BaseException as e:  # noqa: BLE001
                self._error = e
                return -1
        return done

    @property
    def stage_count(self) -> int:
        """Number of stages added."""
        return _LIB.grit_tester_stage_count(self._p())

    # -- running
    def step(self, n: int = 1) -> None:
        """Run n scene steps with the tester acting after each."""
        if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 0:
            raise ParameterError(f"step: n = {n!r} must be an integer >= 0")
        self._call(self._in_engine(_LIB.grit_tester_step, int(n)))

    def run(self, max_steps: int = 10**6) -> int:
        """Step until the last stage ends (StateError if max_steps pass first); returns the steps run."""
        if isinstance(max_steps, bool) or not isinstance(max_steps, numbers.Integral) or max_steps < 0:
            raise ParameterError(f"run: max_steps = {max_steps!r} must be an integer >= 0")
        return self._call(self._in_engine(_LIB.grit_tester_run, int(max_steps)))

    def _in_engine(self, fn: Callable[[Any, int], int], n: int) -> int:
        """Call the C tester; while it runs (and calls back into Python) the scene may be neither closed nor
        stepped by other means."""
        p, sc = self._p(), self.scene
        d = sc.__dict__
        object.__setattr__(sc, "_busy", d.get("_busy", 0) + 1)
        object.__setattr__(sc, "_in_c", d.get("_in_c", 0) + 1)
        try:
            return fn(p, n)
        finally:
            object.__setattr__(sc, "_busy", d["_busy"] - 1)
            object.__setattr__(sc, "_in_c", d["_in_c"] - 1)

    @property
    def done(self) -> bool:
        """Has the last stage ended?"""
        return bool(_LIB.grit_tester_done(self._p()))

    @property
    def state(self) -> State:
        """The current state (a State reading the engine live)."""
        return State(_LIB.grit_tester_get_state(self._p()))

    # -- the record
    @property
    def columns(self) -> List[str]:
        """The names of the record's columns, in order."""
        p = self._p()
        return [_LIB.grit_tester_record_column_name(p, k).decode() for k in range(_LIB.grit_tester_record_columns(p))]

    @property
    def record(self) -> Dict[str, np.ndarray]:
        """The record as {column: array} (a copy): step, time, stage, stage_step, contact, dist, u0..u5,
        f0..f5, v0..v5, k0..k5, work, bounces and the energy entries; a row every record_every steps."""
        p = self._p()
        cols = self.columns
        rows = _LIB.grit_tester_record_rows(p)
        if rows == 0:
            return {c: np.empty(0) for c in cols}
        data = np.ctypeslib.as_array(_LIB.grit_tester_record_data(p), shape=(rows, len(cols))).copy()
        return {c: data[:, j] for j, c in enumerate(cols)}

    def save(self, path: PathLike) -> PathLike:
        """Write the record as CSV (the engine's writer); returns path."""
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        self.scene._check(_LIB.grit_tester_write_csv(self._p(), str(path).encode()))
        return path

    def plot(self, path: PathLike, title: Optional[str] = None, tan_phi: Optional[float] = None) -> List[str]:
        """Force-displacement per DoF and friction-cone figures (see grit.plot.plot_lawtest); the legends
        name each stage by its whats and end condition."""
        from .plot import plot_lawtest
        labels = [s.describe() for s in self._stages]
        return plot_lawtest(self.record, path, title=title, tan_phi=tan_phi, stage_labels=labels)

    def __repr__(self) -> str:
        if not self._ptr:
            return "<grit.LawTester (closed)>"
        st = self.state
        return f"<grit.LawTester ids={self.ids}: stage {st.stage} of {self.stage_count}, contact {st.has_contact}>"
