"""Figures (PNG) from the CSV files of a run.

From the shell (``grit plot ARGS`` runs exactly this)::

    python3 -m grit.plot energy.csv                 # -> energy.png
    python3 -m grit.plot run.csv -o fig.png --kind energy
    python3 -m grit.plot a.csv b.csv --outdir figs/

From Python::

    import grit.plot
    grit.plot.plot_file("energy.csv")               # returns the PNG paths
    grit.plot.plot_energy(data, "energy.png")       # data: {column: array}

The kind of a CSV is recognised from its columns (``--kind`` forces one):

* ``energy``: step,time,<energy entries>,total,rel_error (see grit.records):
  one figure, every non-zero energy entry and the total over time, and the
  balance error below.
* ``stress``: stress.csv of a periodic run (step,time,volume,p,s_xx..s_xy,
  F_xx..F_zz, L_xx..L_zz): the stress components and the pressure over
  time, and the cell's logarithmic strain below.
* ``uniax``: curves.csv of ``grit run uniax`` (columns confinement, run,
  strain, stress, ...; run 1 tension, 2 compression): the stress-strain
  curves of both runs, and the tension curve alone beside them (its
  stresses are ten times smaller); one line per confinement.
* ``lawtest``: the law tester's record (columns u0..u5, f0..f5, stage, ...):
  force against displacement for each of the six DoFs, and the friction
  cone (tangential against normal force; ``--tan-phi`` draws the Coulomb
  limit). Writes NAME-dofs.png and NAME-cone.png.

* ``stats``: stats.csv of ``grit run`` (step,time,dt,contacts,
  potential_pairs,rebuilds,sorts): contacts and candidate pairs, the time
  step, and the broad phase's rebuilds and sorts over time.
* ``shear``: a periodic simple-shear record with the columns gamma and
  ratio (examples/periodic_shear.py's periodic-shear.csv): the stress ratio
  against the shear strain, the stresses beside it when there, and the
  volumetric strain eps_v below.

A new kind is a function ``plot_x(data, out, title=None, run=None, **options)``
returning the written paths, registered with ``@kind("x", detect)``.
Every figure has labelled axes with units and a legend; its title names the
quantity and the run (``run``: :func:`plot_file` takes it from the
``grit-run.txt`` beside the CSV, else the file's name), unless ``title``
replaces it.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Set, Tuple, Union

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from .records import read_csv  # noqa: E402

Data = Mapping[str, np.ndarray]  # {column name: values}, as read_csv returns
PathLike = Union[str, "os.PathLike[str]"]
Detect = Callable[[Set[str]], bool]
PlotFunction = Callable[..., List[str]]

KINDS: Dict[str, Tuple[Detect, PlotFunction]] = {}  # name -> (detect(set of columns), plot function)

ENERGY_LABELS = {
    "kinetic": "kinetic",
    "elast": "elastic (stored in contacts)",
    "grav": "gravity (potential energy gained)",
    "plast": "plastic (frictional dissipation)",
    "nonviscDamp": "non-viscous damping",
    "viscDamp": "viscous damping (dashpot)",
    "broken": "lost in broken contacts",
    "gradV": "work of the cell's velocity gradient",
    "damage": "damage (concrete model)",
    "inlet": "inlets (minus the kinetic energy brought in)",
    "massDamp": "viscous mass damping",
    "outlet": "energy that left through outlets",
}

DOF_NAMES = ["normal (x)", "shear (y)", "shear (z)", "twist (rot x)", "bending (rot y)", "bending (rot z)"]


def kind(name: str, detect: Detect) -> Callable[[PlotFunction], PlotFunction]:
    """Register a plot function for CSVs whose column set satisfies detect(columns)."""
    def deco(fn: PlotFunction) -> PlotFunction:
        KINDS[name] = (detect, fn)
        return fn
    return deco


def _finish(fig: plt.Figure, out: PathLike) -> str:
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return os.fspath(out)


def _title(quantity: str, run: Optional[str]) -> str:
    return f"{quantity} — {run}" if run else quantity


def run_name(csv: PathLike) -> str:
    """What made a CSV, for figure titles: 'grit run deposit (bed/)' from the grit-run.txt of the CSV's folder,
    else the file's name."""
    folder = os.path.dirname(os.path.abspath(csv))
    try:
        with open(os.path.join(folder, "grit-run.txt")) as f:
            f.readline()
            cmd = f.readline()
    except OSError:
        cmd = ""
    words = cmd[1:].split() if cmd.startswith("# grit ") else []
    name = os.path.basename(folder)
    if name.endswith(".partial"):  # a run plotting its own output before the folder gets its name
        name = name[: -len(".partial")]
    if len(words) >= 3 and words[1] == "run":
        return f"grit run {words[2]} ({name}/)"
    if len(words) >= 2:
        return f"grit {words[1]} ({name}/)"
    return os.path.basename(os.fspath(csv))


def _need(data: Data, cols: Sequence[str], what: str) -> None:
    missing = [c for c in cols if c not in data]
    if missing:
        raise ValueError(f"{what} needs the columns {', '.join(missing)}")


# ------------------------------------------------------------------ energy
def _is_energy(cols: Set[str]) -> bool:
    return {"step", "time", "total", "rel_error"} <= cols


@kind("energy", _is_energy)
def plot_energy(data: Data, out: PathLike, title: Optional[str] = None, run: Optional[str] = None) -> List[str]:
    """Energy entries and their total over time, the balance error below. Returns [out]."""
    _need(data, ["time", "total", "rel_error"], "an energy plot")
    t = data["time"]
    entries = [c for c in data if c not in ("step", "time", "total", "rel_error")]
    fig, (ax, axe) = plt.subplots(2, 1, figsize=(10.5, 6.5), sharex=True, gridspec_kw={"height_ratios": [3, 1]})
    zero = []
    for c in entries:
        if np.all(data[c] == 0):
            zero.append(c)
            continue
        ax.plot(t, data[c], label=ENERGY_LABELS.get(c, c))
    ax.plot(t, data["total"], "k--", lw=1.5, label="total (sum of all entries)")
    ax.set_ylabel("energy [J]")
    ax.axhline(0, color="0.7", lw=0.5)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small",
              title=("zero throughout: " + ", ".join(zero)) if zero else None, title_fontsize="x-small")
    ax.grid(alpha=0.3)
    ax.set_title(title or _title("energy balance", run))
    axe.plot(t, data["rel_error"], color="tab:red", label="(total - initial) / sum |entries|")
    axe.set_xlabel("time [s]")
    axe.set_ylabel("balance error [-]")
    axe.ticklabel_format(axis="y", style="sci", scilimits=(-3, 3))
    axe.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
    axe.grid(alpha=0.3)
    fig.tight_layout()
    return [_finish(fig, out)]


# ------------------------------------------------------------------ law tester
def _is_lawtest(cols: Set[str]) -> bool:
    return all(f"u{j}" in cols and f"f{j}" in cols for j in range(6))


def _stage_segments(data: Data) -> List[Tuple[int, np.ndarray]]:
    """(stage number, boolean row mask) per stage present, rows with a contact only."""
    n = len(next(iter(data.values())))
    stage = data.get("stage", np.zeros(n))
    valid = np.isfinite(data["u0"]) & np.isfinite(data["f0"])
    return [(int(s), (stage == s) & valid) for s in np.unique(stage[np.isfinite(stage)])]


def _varies(part: np.ndarray, whole: np.ndarray) -> bool:
    """Does `part` change by more than 1e-6 of the largest magnitude of `whole`?"""
    scale = np.nanmax(np.abs(whole)) if np.isfinite(whole).any() else 0.0
    return scale > 0 and np.ptp(part) > 1e-6 * scale


@kind("lawtest", _is_lawtest)
def plot_lawtest(data: Data, out: PathLike, title: Optional[str] = None, tan_phi: Optional[float] = None,
                 stage_labels: Optional[Sequence[str]] = None, run: Optional[str] = None) -> List[str]:
    """Force against displacement per DoF (NAME-dofs.png) and the friction cone (NAME-cone.png).

    Rows without a contact (NaN) are skipped; colours distinguish stages, named by stage_labels (a list,
    one per stage) or by number. A DoF with no force and no motion says so instead of plotting."""
    _need(data, [f"u{j}" for j in range(6)] + [f"f{j}" for j in range(6)], "a law-test plot")
    stem = os.path.splitext(out)[0]
    segs = _stage_segments(data)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    if len(segs) > len(colors):
        colors = [plt.get_cmap("tab20")(k % 20) for k in range(len(segs))]

    def label(s: int) -> str:
        return f"stage {s}: {stage_labels[s]}" if stage_labels and 0 <= s < len(stage_labels) else f"stage {s}"
    fig, axes = plt.subplots(2, 3, figsize=(13, 7.5))
    for j, ax in enumerate(axes.flat):
        u, f = data[f"u{j}"], data[f"f{j}"]
        if not np.any(np.nan_to_num(f)) and not np.any(np.abs(np.nan_to_num(u)) > 1e-9):
            ax.text(0.5, 0.5, "no force, no motion\n(|u| < 1e-9 throughout)", ha="center", va="center",
                    transform=ax.transAxes, color="0.4")
            ax.set_xticks([])
            ax.set_yticks([])
        else:
            for k, (s, m) in enumerate(segs):
                # a stage that hardly moves or loads this DoF is one point on the path: no legend entry
                if m.any() and (_varies(u[m], u) or _varies(f[m], f)):
                    ax.plot(u[m], f[m], ".-", ms=2, lw=0.8, color=colors[k % len(colors)], label=label(s))
        rot = j >= 3
        ax.set_xlabel(f"{'rotation' if rot else 'displacement'} u{j} [{'rad' if rot else 'm'}]")
        ax.set_ylabel(f"{'torque' if rot else 'force'} f{j} [{'N m' if rot else 'N'}]")
        ax.set_title(DOF_NAMES[j], fontsize="medium")
        ax.grid(alpha=0.3)
        ax.ticklabel_format(style="sci", scilimits=(-3, 4))
        if ax.lines:
            ax.legend(fontsize="x-small", loc="best")
    fig.suptitle(title or _title("law test: force against displacement per DoF (on A, tester frame)", run))
    fig.tight_layout()
    paths = [_finish(fig, stem + "-dofs.png")]

    fig, ax = plt.subplots(figsize=(7, 5.5))
    fn = -data["f0"]
    ft = np.hypot(data["f1"], data["f2"])
    for k, (s, m) in enumerate(segs):
        if m.any() and (_varies(fn[m], fn) or _varies(ft[m], ft)):
            ax.plot(fn[m], ft[m], ".-", ms=2, lw=0.8, color=colors[k % len(colors)], label=label(s))
    if tan_phi is not None:
        fmax = np.nanmax(np.abs(fn)) if np.isfinite(fn).any() else 1.0
        x = np.linspace(0, fmax, 2)
        ax.plot(x, tan_phi * x, "k--", lw=1, label=f"Coulomb limit |f_t| = {tan_phi:g} f_n")
    ax.set_xlabel("compressive normal force f_n = -f0 [N]")
    ax.set_ylabel("tangential force |f_t| = hypot(f1, f2) [N]")
    ax.set_title(title or _title("law test: friction cone", run))
    ax.grid(alpha=0.3)
    ax.ticklabel_format(style="sci", scilimits=(-3, 4))
    if ax.lines:
        ax.legend(fontsize="small", loc="best")
    fig.tight_layout()
    paths.append(_finish(fig, stem + "-cone.png"))
    return paths


# ------------------------------------------------------------------ periodic cell: stress
STRESS_COMPONENTS = ["xx", "yy", "zz", "yz", "xz", "xy"]


def _is_stress(cols: Set[str]) -> bool:
    return {"step", "time", "p"} <= cols and all(f"s_{c}" in cols for c in STRESS_COMPONENTS)


def hencky_from_columns(data: Data) -> np.ndarray:
    """Logarithmic strain 1/2 ln(F F^T) per row, from the columns F_xx .. F_zz: an (N, 3, 3) array."""
    F = np.stack([np.stack([data[f"F_{a}{b}"] for b in "xyz"], axis=-1) for a in "xyz"], axis=-2)
    w, v = np.linalg.eigh(F @ np.swapaxes(F, -1, -2))
    return np.einsum("nij,nj,nkj->nik", v, 0.5 * np.log(w), v)


@kind("stress", _is_stress)
def plot_stress(data: Data, out: PathLike, title: Optional[str] = None, run: Optional[str] = None) -> List[str]:
    """The stress tensor of a periodic cell over time (stress.csv of `grit run periodic`), and below the
    cell's logarithmic strain when the deformation gradient is in the file. Returns [out]."""
    _need(data, ["time", "p"] + [f"s_{c}" for c in STRESS_COMPONENTS], "a stress plot")
    t = data["time"]
    has_f = all(f"F_{a}{b}" in data for a in "xyz" for b in "xyz")
    fig, axes = plt.subplots(2 if has_f else 1, 1, figsize=(10.5, 7 if has_f else 4.5), sharex=True,
                             squeeze=False)
    ax = axes[0, 0]
    for c in STRESS_COMPONENTS:
        ax.plot(t, data[f"s_{c}"], lw=1.2, ls="-" if c[0] == c[1] else "-.", label=f"σ_{c}")
    ax.plot(t, data["p"], "k--", lw=1.5, label="p = -tr σ / 3")
    ax.axhline(0, color="0.7", lw=0.5)
    ax.set_ylabel("stress [Pa] (tension positive)")
    ax.ticklabel_format(axis="y", style="sci", scilimits=(-3, 4))
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
    ax.grid(alpha=0.3)
    ax.set_title(title or _title("periodic cell: Love-Weber stress", run))
    if has_f:
        e = hencky_from_columns(data)
        axe = axes[1, 0]
        for c in STRESS_COMPONENTS:
            i, j = "xyz".index(c[0]), "xyz".index(c[1])
            axe.plot(t, e[:, i, j], lw=1.2, ls="-" if i == j else "-.", label=f"ε_{c}")
        axe.plot(t, np.trace(e, axis1=1, axis2=2), "k--", lw=1.5, label="ε_v = ln(V/V0)")
        axe.axhline(0, color="0.7", lw=0.5)
        axe.set_ylabel("log strain ½ ln(F Fᵀ) [-]")
        axe.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
        axe.grid(alpha=0.3)
    axes[-1, 0].set_xlabel("time [s]")
    fig.tight_layout()
    return [_finish(fig, out)]


# ------------------------------------------------------------------ uniaxial test
def _is_uniax(cols: Set[str]) -> bool:
    return {"run", "strain", "stress"} <= cols


@kind("uniax", _is_uniax)
def plot_uniax(data: Data, out: PathLike, title: Optional[str] = None,
               labels: Optional[Mapping[Tuple[float, int], str]] = None, run: Optional[str] = None) -> List[str]:
    """Stress against strain of the uniaxial test (curves.csv of `grit run uniax`): both runs on the left, the
    tension run on the right. `labels` may name extra curves: {(confinement, run): label}. Returns [out]."""
    _need(data, ["run", "strain", "stress"], "a uniaxial-test plot")
    conf = data.get("confinement", np.zeros(len(data["run"])))
    fig, (ax, axt) = plt.subplots(1, 2, figsize=(12, 4.8))
    confs = sorted(set(conf.tolist()), reverse=True)
    for c in confs:
        for test, name, style in ((1, "tension", "-"), (2, "compression", "-")):
            m = (conf == c) & (data["run"] == test)
            if not m.any():
                continue
            lab = (labels or {}).get((c, test)) or (f"{name}" + (f", confinement {c / 1e6:g} MPa" if len(confs) > 1 or c else ""))
            line, = ax.plot(data["strain"][m] * 1e3, data["stress"][m] / 1e6, style, lw=1.3, label=lab)
            if test == 1:
                axt.plot(data["strain"][m] * 1e3, data["stress"][m] / 1e6, style, lw=1.3, color=line.get_color(), label=lab)
    for a in (ax, axt):
        a.axhline(0, color="0.7", lw=0.5)
        a.axvline(0, color="0.7", lw=0.5)
        a.set_xlabel("axial strain [10⁻³] (tension positive)")
        a.set_ylabel("axial stress [MPa] (tension positive)")
        a.grid(alpha=0.3)
        if a.lines:
            a.legend(fontsize="small", loc="best")
    ax.set_title(title or _title("uniaxial test: stress-strain curves", run))
    axt.set_title("tension")
    fig.tight_layout()
    return [_finish(fig, out)]


# ------------------------------------------------------------------ run statistics
def _is_stats(cols: Set[str]) -> bool:
    return {"step", "time", "dt", "contacts", "potential_pairs"} <= cols


@kind("stats", _is_stats)
def plot_stats(data: Data, out: PathLike, title: Optional[str] = None, run: Optional[str] = None) -> List[str]:
    """stats.csv of `grit run`: real contacts and broad-phase candidate pairs, the time step, and the
    broad phase's rebuilds and re-sorts (so far) over time. Returns [out]."""
    _need(data, ["time", "dt", "contacts", "potential_pairs"], "a statistics plot")
    t = data["time"]
    fig, (ax, axd, axr) = plt.subplots(3, 1, figsize=(10.5, 7.5), sharex=True,
                                       gridspec_kw={"height_ratios": [3, 1.2, 1.5]})
    ax.plot(t, data["contacts"], lw=1.3, label="contacts (touching pairs)")
    ax.plot(t, data["potential_pairs"], lw=1.0, ls="--", label="candidate pairs of the broad phase")
    ax.set_ylabel("pairs [-]")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
    ax.grid(alpha=0.3)
    ax.set_title(title or _title("contacts, time step and broad phase", run))
    axd.plot(t, data["dt"], color="tab:purple", lw=1.2, label="time step dt")
    axd.set_ylabel("dt [s]")
    axd.ticklabel_format(axis="y", style="sci", scilimits=(-3, 3))
    axd.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
    axd.grid(alpha=0.3)
    for c, lab in (("rebuilds", "broad-phase rebuilds so far"), ("sorts", "particle re-sorts so far")):
        if c in data:
            axr.plot(t, data[c], lw=1.2, label=lab)
    axr.set_ylabel("count [-]")
    if axr.lines:
        axr.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
    axr.grid(alpha=0.3)
    axr.set_xlabel("time [s]")
    fig.tight_layout()
    return [_finish(fig, out)]


# ------------------------------------------------------------------ periodic simple shear
def _is_shear(cols: Set[str]) -> bool:
    return {"gamma", "ratio"} <= cols


@kind("shear", _is_shear)
def plot_shear(data: Data, out: PathLike, title: Optional[str] = None, run: Optional[str] = None) -> List[str]:
    """A periodic simple-shear record (columns gamma, ratio; optionally p, s_yy, eps_v): the stress ratio
    tau / sigma_n against the shear strain with the pressure and the normal stress beside it, and the
    volumetric strain below. Returns [out]."""
    _need(data, ["gamma", "ratio"], "a shear plot")
    g = data["gamma"]
    has_ev = "eps_v" in data
    fig, axes = plt.subplots(2 if has_ev else 1, 1, figsize=(9.5, 7 if has_ev else 4.5), sharex=True, squeeze=False,
                             gridspec_kw={"height_ratios": [3, 2] if has_ev else [1]})
    ax = axes[0, 0]
    ax.plot(g, data["ratio"], lw=1.2, label="stress ratio σ_xy / −σ_yy")
    ax.set_ylabel("stress ratio τ / σ_n [-]")
    ax.grid(alpha=0.3)
    handles, labels = ax.get_legend_handles_labels()
    stresses = [(c, lab) for c, lab in (("p", "mean pressure p"), ("s_yy", "normal stress −σ_yy")) if c in data]
    if stresses:
        ax2 = ax.twinx()
        for c, lab in stresses:
            ax2.plot(g, (-1 if c == "s_yy" else 1) * data[c] / 1e3, lw=0.8, ls="--", label=lab)
        ax2.set_ylabel("stress [kPa]")
        h2, l2 = ax2.get_legend_handles_labels()
        handles, labels = handles + h2, labels + l2
    ax.legend(handles, labels, loc="lower right", fontsize="small")
    ax.set_title(title or _title("periodic simple shear: stress ratio", run))
    if has_ev:
        axv = axes[1, 0]
        axv.plot(g, 100 * data["eps_v"], color="tab:red", lw=1.2, label="volumetric strain ln(V/V₀)")
        axv.axhline(0, color="0.7", lw=0.5)
        axv.set_ylabel("volumetric strain [%]\n(< 0: contraction)")
        axv.legend(loc="best", fontsize="small")
        axv.grid(alpha=0.3)
    axes[-1, 0].set_xlabel("shear strain γ [-]")
    fig.tight_layout()
    return [_finish(fig, out)]


# ------------------------------------------------------------------ outlets' discharge
def _is_discharge(cols: Set[str]) -> bool:
    return {"step", "time", "mass_0", "count_0"} <= cols


@kind("discharge", _is_discharge)
def plot_discharge(data: Data, out: PathLike, title: Optional[str] = None, run: Optional[str] = None) -> List[str]:
    """discharge.csv of a scene with outlets (grit run silo): the mass each outlet deleted over time, with the
    rate between rows below (its steady part is the discharge rate). Returns [out]."""
    _need(data, ["time", "mass_0"], "a discharge plot")
    t = data["time"]
    outlets = sorted(int(c[5:]) for c in data if c.startswith("mass_") and c[5:].isdigit())
    fig, (ax, axr) = plt.subplots(2, 1, figsize=(9, 6.5), sharex=True, gridspec_kw={"height_ratios": [3, 2]})
    for k in outlets:
        m = data[f"mass_{k}"]
        lab = f"outlet {k}" + (f" ({int(data[f'count_{k}'][-1])} particles)" if f"count_{k}" in data else "")
        ax.plot(t, 1e3 * m, lw=1.3, label=lab)
        if len(t) > 1:
            dt = np.diff(t)
            rate = np.divide(np.diff(m), dt, out=np.zeros_like(dt), where=dt > 0)
            axr.step(t[1:], 1e3 * rate, where="pre", lw=1.0, label=f"outlet {k}")
    ax.set_ylabel("deleted mass [g]")
    ax.legend(loc="upper left", fontsize="small")
    ax.grid(alpha=0.3)
    ax.set_title(title or _title("discharge through the outlets", run))
    axr.set_ylabel("rate [g/s]")
    axr.set_xlabel("time [s]")
    axr.grid(alpha=0.3)
    fig.tight_layout()
    return [_finish(fig, out)]


# ------------------------------------------------------------------ files
def detect_kind(columns: Iterable[str]) -> Optional[str]:
    """The kind of plot (a key of KINDS) whose detector accepts these CSV columns, or None."""
    cols = set(columns)
    for name, (detect, _) in KINDS.items():
        if detect(cols):
            return name
    return None


def plot_file(csv: PathLike, out: Optional[PathLike] = None, kind: Optional[str] = None, title: Optional[str] = None,
              **options: object) -> List[str]:
    """Plot one CSV file; returns the written PNG paths. out defaults to the CSV's name with .png; the title
    names the quantity and the run (:func:`run_name`) unless `title` is given."""
    data = read_csv(csv)
    k = kind or detect_kind(data)
    if k is None:
        raise ValueError(f"{csv}: cannot tell what the columns {', '.join(data)} are; known kinds: "
                         f"{', '.join(KINDS)} (use --kind)")
    if k not in KINDS:
        raise ValueError(f"unknown kind '{k}'; known kinds: {', '.join(KINDS)}")
    if out is None:
        out = os.path.splitext(csv)[0] + ".png"
    fn = KINDS[k][1]
    run = run_name(csv)
    if k == "lawtest":
        return fn(data, out, title=title, tan_phi=options.get("tan_phi"), stage_labels=options.get("stage_labels"),
                  run=run)
    return fn(data, out, title=title, run=run)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command line `grit plot` (python3 -m grit.plot): plots each CSV given; returns the exit status."""
    ap = argparse.ArgumentParser(prog="grit plot", description="PNG figures from grit CSV files (energy, stats, stress, "
                                 "uniaxial and shear tests, law tests).")
    ap.add_argument("csv", nargs="+", help="CSV files written by grit run or by the Python package")
    ap.add_argument("-o", "--out", help="output PNG (one CSV only); default: the CSV's name with .png")
    ap.add_argument("--outdir", help="directory for the PNGs (default: next to each CSV)")
    ap.add_argument("--kind", choices=sorted(KINDS), help="what the CSV holds (default: recognised from the columns)")
    ap.add_argument("--title", help="figure title (default: the quantity and the run that wrote the CSV)")
    ap.add_argument("--tan-phi", type=float, help="law tests: friction coefficient, to draw the Coulomb limit")
    a = ap.parse_args(argv)
    if a.out and len(a.csv) > 1:
        ap.error("-o/--out takes one CSV; use --outdir for several")
    status = 0
    for csv in a.csv:
        out = a.out
        if out is None and a.outdir:
            out = os.path.join(a.outdir, os.path.splitext(os.path.basename(csv))[0] + ".png")
        try:
            for p in plot_file(csv, out, kind=a.kind, title=a.title, tan_phi=a.tan_phi):
                print(p)
        except (OSError, ValueError) as e:
            print(f"grit plot: {e}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
