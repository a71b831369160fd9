"""VTK output for ParaView: the engine's time series of particles, contacts and shapes.

    rec = grit.VtkRecorder(scene, "out/vtk", every=500)   # a frame now and every 500 steps
    scene.run(20000)
    rec.write()                                           # one more frame (the final state)
    # ParaView: open out/vtk/particles.pvd, contacts.pvd, shapes.pvd

The files are those of ``grit run`` (docs/output.md), written by the C library
(``grit_vtk_series_*``): per frame ``particles_<step>.vtp`` (spheres as points
with radius, velocity, ...), ``contacts_<step>.vtp`` (one line per contact with
its forces) and ``shapes_<step>.vtp`` (every particle that is not a sphere as a
surface: capsules and ellipsoids as closed triangle meshes, facets, walls), and
the indexes ``particles.pvd``, ``contacts.pvd``, ``shapes.pvd`` rewritten after
each frame. Every file is written under a temporary name and renamed.
"""
from __future__ import annotations

import numbers
import os
from typing import TYPE_CHECKING, List, Optional, Union

from . import _lib
from .errors import GritMemoryError, ParameterError

if TYPE_CHECKING:
    from .scene import Runner, Scene


class VtkRecorder:
    """Writes VTK frames of a scene into a folder: now (unless ``first=False``), every `every` steps while the
    scene runs (``every=None``: only when :meth:`write` is called). ``format`` and ``precision`` are those of
    ``grit run``'s ``vtk_format`` and ``vtk_precision``: ``"binary"`` (base64, the default here), ``"zlib"``
    (base64 of zlib-compressed blocks, vtkZLibDataCompressor: the smallest) or ``"ascii"`` (readable text;
    ``ascii=True`` says the same); ``"float64"`` or ``"float32"`` (7 significant digits, half the bytes). The
    folder is created if needed. Frames at the same step replace each other."""

    FORMATS = ("zlib", "binary", "ascii")
    PRECISIONS = ("float64", "float32")

    def __init__(self, scene: Scene, out_dir: Union[str, bytes, os.PathLike], every: Optional[int] = None,
                 ascii: bool = False, first: bool = True, format: Optional[str] = None,
                 precision: str = "float64") -> None:
        if every is not None and (isinstance(every, bool) or not isinstance(every, numbers.Integral) or every < 1):
            raise ParameterError(f"VtkRecorder: every = {every!r} must be an integer >= 1 (steps) or None")
        if not isinstance(out_dir, (str, bytes, os.PathLike)):
            raise ParameterError(f"VtkRecorder: out_dir = {out_dir!r} is not a folder name")
        if format is not None and format not in self.FORMATS:
            raise ParameterError(f"VtkRecorder: format = {format!r} must be one of {'|'.join(self.FORMATS)}")
        if ascii and format not in (None, "ascii"):
            raise ParameterError(f"VtkRecorder: ascii=True and format = {format!r} contradict each other")
        if precision not in self.PRECISIONS:
            raise ParameterError(f"VtkRecorder: precision = {precision!r} must be one of {'|'.join(self.PRECISIONS)}")
        self.format = "ascii" if ascii else (format or "binary")
        self.precision = precision
        self._lib = _lib.get()
        self.scene = scene
        self.dir = os.fsdecode(out_dir)
        scene._p()  # a closed scene raises here, before anything is created
        os.makedirs(self.dir, exist_ok=True)
        fmt = self._lib.const["GRIT_VTK_" + self.format.upper()]
        if precision == "float32":
            fmt |= self._lib.const["GRIT_VTK_FLOAT32"]
        self._series = self._lib.grit_vtk_series_create(os.fsencode(self.dir), fmt)
        if not self._series:
            raise GritMemoryError("VtkRecorder: out of memory")
        self.runner: Optional[Runner] = scene.every(every, self) if every is not None else None
        if first:
            self.write()

    def __call__(self, scene: Scene) -> None:
        """Write a frame (the recorder is the scene's runner)."""
        self.write()

    def write(self) -> None:
        """Write one frame of the current state (GritIOError naming the file if it cannot be written)."""
        if self._series is None:
            raise ParameterError("VtkRecorder: closed")
        self.scene._check(self._lib.grit_vtk_series_write(self._series, self.scene._p()))

    @property
    def frames(self) -> int:
        """Number of frames written."""
        return self._lib.grit_vtk_series_frames(self._series) if self._series is not None else 0

    def paths(self) -> List[str]:
        """The three .pvd index files (particles, contacts, shapes)."""
        return [os.path.join(self.dir, k + ".pvd") for k in ("particles", "contacts", "shapes")]

    def stop(self) -> None:
        """Stop writing frames while the scene runs (write() still works)."""
        if self.runner is not None and self.runner in self.scene.runners:
            self.scene.remove_runner(self.runner)

    def close(self) -> None:
        """Stop and free the series (the files stay)."""
        self.stop()
        if self._series is not None:
            self._lib.grit_vtk_series_destroy(self._series)
            self._series = None

    def __del__(self) -> None:
        try:
            if self.__dict__.get("_series") is not None:
                self._lib.grit_vtk_series_destroy(self._series)
                self._series = None
        except Exception:  # interpreter shutdown
            pass

    def __repr__(self) -> str:
        return f"<grit.VtkRecorder '{self.dir}': {self.frames} frames>"
