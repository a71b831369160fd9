"""Time series of a run as CSV files, and the energy recorder.

CSV format of grit (written by ``grit run`` and by this module): one header
line of column names separated by commas, then one line per sample, numbers
written with 17 significant digits (``%.17g``: exact round trip), ``nan``
and ``inf`` as C prints them. Lines starting with ``#`` are comments.

The energy CSV has the columns

    step,time,<entry names>,total,rel_error

where the entry names are those of ``grit_energy_name`` in order (today
kinetic, elast, grav, plast, nonviscDamp, viscDamp, broken, gradV, damage, inlet, massDamp, outlet), ``total`` is
their sum and ``rel_error`` the balance error (grit_energy_rel_error).
Units: time in s, energies in J, rel_error dimensionless.
"""
from __future__ import annotations

import math
import os
from typing import TYPE_CHECKING, Dict, Iterable, List, Optional, Sequence, Union

import numpy as np

if TYPE_CHECKING:
    from .scene import Scene

PathLike = Union[str, "os.PathLike[str]"]


def write_csv(path: PathLike, columns: Iterable[str], rows: Iterable[Sequence[float]]) -> None:
    """Write rows (sequences of numbers, one per column) under a header of column names."""
    columns = list(columns)
    if any("," in c for c in columns):
        raise ValueError(f"CSV column names must not contain commas: {columns}")
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    with open(path, "w") as f:
        f.write(",".join(columns) + "\n")
        for r in rows:
            if len(r) != len(columns):
                raise ValueError(f"CSV row of {len(r)} values for {len(columns)} columns")
            f.write(",".join(_fmt(x) for x in r) + "\n")


def _fmt(x: float) -> str:
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return "%.17g" % x


def read_csv(path: PathLike) -> Dict[str, np.ndarray]:
    """{column name: float array} from a grit CSV file; ValueError naming file and line if malformed."""
    with open(path) as f:
        lines = [(i + 1, ln.strip()) for i, ln in enumerate(f)]
    lines = [(i, ln) for i, ln in lines if ln and not ln.startswith("#")]
    if not lines:
        raise ValueError(f"{path}: no header line (an empty file?)")
    header = [c.strip() for c in lines[0][1].split(",")]
    if len(set(header)) != len(header) or any(not c for c in header):
        raise ValueError(f"{path}:{lines[0][0]}: bad header {lines[0][1]!r} (empty or repeated column names)")
    data = np.empty((len(lines) - 1, len(header)))
    for k, (lineno, ln) in enumerate(lines[1:]):
        fields = ln.split(",")
        if len(fields) != len(header):
            raise ValueError(f"{path}:{lineno}: {len(fields)} fields, the header has {len(header)}")
        try:
            data[k] = [float(x) for x in fields]
        except ValueError:
            bad = next(x for x in fields if not _is_float(x))
            col = header[fields.index(bad)]
            raise ValueError(f"{path}:{lineno}: column '{col}': {bad!r} is not a number") from None
    return {c: data[:, j] for j, c in enumerate(header)}


def _is_float(x: str) -> bool:
    try:
        float(x)
        return True
    except ValueError:
        return False


def energy_columns(entry_names: Iterable[str]) -> List[str]:
    """The columns of the energy CSV: step, time, the entries, total, rel_error."""
    return ["step", "time", *entry_names, "total", "rel_error"]


class EnergyRecorder:
    """Samples the energy tracker of a scene every `every` steps (turns track_energy on).

        rec = grit.EnergyRecorder(scene, every=100)
        scene.run(20000)
        rec.save("out/energy.csv")       # the energy CSV (see this module's doc)
        rec.plot("out/energy.png")       # energy components and balance error

    ``rec.data`` gives the samples as {column: array}."""

    def __init__(self, scene: Scene, every: int = 100) -> None:
        scene.track_energy = True
        self.scene = scene
        self.columns = energy_columns(scene.energy.names)
        self.rows: List[List[float]] = []
        self.runner = scene.every(every, self)

    def __call__(self, scene: Scene) -> None:
        """Record a sample (the recorder is the scene's runner)."""
        self.record()

    def record(self) -> None:
        """Append one sample of the current state (also called by the scene's runner)."""
        s, e = self.scene, self.scene.energy
        self.rows.append([s.step, s.time, *(e[k] for k in e.names), e.total, e.rel_error])

    def stop(self) -> None:
        """Stop sampling (the recorded data stay)."""
        if self.runner in self.scene.runners:
            self.scene.remove_runner(self.runner)

    @property
    def data(self) -> Dict[str, np.ndarray]:
        """The samples so far as {column: array} (copies)."""
        a = np.array(self.rows, dtype=float).reshape(-1, len(self.columns))
        return {c: a[:, j] for j, c in enumerate(self.columns)}

    def save(self, path: PathLike) -> PathLike:
        """Write the samples as the energy CSV (folders made as needed); returns path."""
        write_csv(path, self.columns, self.rows)
        return path

    def plot(self, path: PathLike, title: Optional[str] = None) -> str:
        """Plot the energy components and the balance error into an image file (needs matplotlib)."""
        from .plot import plot_energy
        return plot_energy(self.data, path, title=title)
