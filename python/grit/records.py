"""Time series of a run as CSV files, and the energy recorder.

CSV format of grit (written by ``grit run`` and by this module): one header
line of column names separated by commas, each followed by its unit in
brackets unless it is dimensionless (``time[s]``, ``kinetic[J]``, ``step``),
then one line per sample, numbers written with 17 significant digits
(``%.17g``: exact round trip), ``nan`` and ``inf`` as C prints them. Lines
starting with ``#`` are comments.

:func:`read_csv` returns the columns under their plain names (``data["time"]``)
and the units beside them (``data.units["time"] == "s"``, ``""`` for a
dimensionless column); a file without units reads the same way.

The energy CSV has the columns

    step,time[s],<entry names>[J],total[J],rel_error

where the entry names are those of ``grit_energy_name`` in order (today
kinetic, elast, grav, plast, nonviscDamp, viscDamp, broken, gradV, damage, inlet, massDamp, outlet), ``total`` is
their sum and ``rel_error`` the balance error (grit_energy_rel_error).
Units: time in s, energies in J, rel_error dimensionless.
"""
from __future__ import annotations

import math
import os
from typing import TYPE_CHECKING, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

if TYPE_CHECKING:
    from .scene import Scene

PathLike = Union[str, "os.PathLike[str]"]


def write_csv(path: PathLike, columns: Iterable[str], rows: Iterable[Sequence[float]],
              units: Optional[Mapping[str, str]] = None) -> None:
    """Write rows (sequences of numbers, one per column) under a header of column names.

    units: {column: unit} written into the header as ``name[unit]`` (a column not in it, or with the unit
    ``""``, is written bare: dimensionless); a name may also carry its unit itself (``"time[s]"``)."""
    columns = list(columns)
    if any("," in c for c in columns):
        raise ValueError(f"CSV column names must not contain commas: {columns}")
    head = [_with_unit(c, (units or {}).get(c, "")) for c in columns]
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    with open(path, "w") as f:
        f.write(",".join(head) + "\n")
        for r in rows:
            if len(r) != len(columns):
                raise ValueError(f"CSV row of {len(r)} values for {len(columns)} columns")
            f.write(",".join(_fmt(x) for x in r) + "\n")


def _with_unit(column: str, unit: str) -> str:
    if any(ch in unit for ch in ",[]"):
        raise ValueError(f"CSV unit {unit!r} of column {column!r} must not contain commas or brackets")
    return f"{column}[{unit}]" if unit and "[" not in column else column


def split_unit(column: str) -> Tuple[str, str]:
    """('time', 's') from the header field 'time[s]'; (name, '') for a field without a unit."""
    c = column.strip()
    if c.endswith("]") and "[" in c:
        k = c.index("[")
        return c[:k].strip(), c[k + 1:-1].strip()
    return c, ""


class Records(Dict[str, np.ndarray]):
    """The columns of a CSV file as {plain name: float array}, with ``units`` {plain name: unit} ("" for a
    dimensionless column). A key given with its unit, ``data["time[s]"]``, finds the column too."""

    def __init__(self, columns: Mapping[str, np.ndarray] = (), units: Optional[Mapping[str, str]] = None) -> None:
        super().__init__(columns)
        self.units: Dict[str, str] = {c: (units or {}).get(c, "") for c in self}

    def __missing__(self, key: str) -> np.ndarray:
        name, unit = split_unit(key)
        if name != key and name in self and unit == self.units.get(name):
            return self[name]
        raise KeyError(key)

    def label(self, column: str) -> str:
        """An axis label for the column: 'time [s]', or the bare name when it is dimensionless."""
        u = self.units.get(column, "")
        return f"{column} [{u}]" if u else column


def _fmt(x: float) -> str:
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return "%.17g" % x


def read_csv(path: PathLike) -> Records:
    """The columns of a grit CSV file as :class:`Records` ({plain column name: float array}, units in
    ``.units``); ValueError naming file and line if malformed."""
    with open(path) as f:
        lines = [(i + 1, ln.strip()) for i, ln in enumerate(f)]
    lines = [(i, ln) for i, ln in lines if ln and not ln.startswith("#")]
    if not lines:
        raise ValueError(f"{path}: no header line (an empty file?)")
    fields = [split_unit(c) for c in lines[0][1].split(",")]
    header = [name for name, _ in fields]
    if len(set(header)) != len(header) or any(not c for c in header):
        raise ValueError(f"{path}:{lines[0][0]}: bad header {lines[0][1]!r} (empty or repeated column names)")
    data = np.empty((len(lines) - 1, len(header)))
    for k, (lineno, ln) in enumerate(lines[1:]):
        row = ln.split(",")
        if len(row) != len(header):
            raise ValueError(f"{path}:{lineno}: {len(row)} fields, the header has {len(header)}")
        try:
            data[k] = [float(x) for x in row]
        except ValueError:
            bad = next(x for x in row if not _is_float(x))
            col = header[row.index(bad)]
            raise ValueError(f"{path}:{lineno}: column '{col}': {bad!r} is not a number") from None
    return Records({c: data[:, j] for j, c in enumerate(header)}, dict(fields))


def _is_float(x: str) -> bool:
    try:
        float(x)
        return True
    except ValueError:
        return False


def energy_columns(entry_names: Iterable[str]) -> List[str]:
    """The columns of the energy CSV: step, time, the entries, total, rel_error."""
    return ["step", "time", *entry_names, "total", "rel_error"]


def energy_units(entry_names: Iterable[str]) -> Dict[str, str]:
    """The units of the energy CSV's columns (time in s, every energy in J; step and rel_error none)."""
    return {"time": "s", **{e: "J" for e in entry_names}, "total": "J"}


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
        self.units = energy_units(scene.energy.names)
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
    def data(self) -> Records:
        """The samples so far as {column: array} (copies), units in ``.units``."""
        a = np.array(self.rows, dtype=float).reshape(-1, len(self.columns))
        return Records({c: a[:, j] for j, c in enumerate(self.columns)}, self.units)

    def save(self, path: PathLike) -> PathLike:
        """Write the samples as the energy CSV (folders made as needed); returns path."""
        write_csv(path, self.columns, self.rows, units=self.units)
        return path

    def plot(self, path: PathLike, title: Optional[str] = None) -> str:
        """Plot the energy components and the balance error into an image file (needs matplotlib)."""
        from .plot import plot_energy
        return plot_energy(self.data, path, title=title)
