"""Radial plot of the strain probes' plastic strain (kuhn_probes --radial).

    /usr/bin/python3 examples/kuhn_probes/plot_radial.py kuhn_radial.csv kuhn_radial.png

Reads kuhn_radial.csv (one row per probe) and kuhn_radial_fits.csv (one row
per series). Left and middle: the Rendulic plane, volumetric (x) and
deviatoric (y) stress-increment direction on a common orthonormal basis,
compression positive; each probe is a point along its stress increment at
the distance |d eps_p| / |d sigma| (1/MPa), the lines are the fitted circles
through the origin (diameter 1/H). Filled: the loading side used by the fit;
hollow: the other side. Left: replays in 30 steps; middle: free DEM probes
in 30 steps. Right: the conventional law's H against the refined law's, per
number of steps n (replays; the free probes and the free refined probe of a
perturbed assembly as markers at n = 30).
"""
import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

STYLE = {
    "refined": ("tab:green", "o", "refined (Kuhn)"),
    "conventional": ("tab:red", "x", "conventional"),
    "refined-perturbed": ("tab:blue", "+", "refined, assembly moved by 1e-12 m"),
}


def load(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def panel(ax, pts, fits, kind, n, title):
    for law, (color, marker, label) in STYLE.items():
        rows = [r for r in pts if r["set"] == "rendulic" and r["kind"] == kind and r["law"] == law
                and int(r["n"]) == n]
        if not rows:
            continue
        for loading in (True, False):
            sel = [r for r in rows if (float(r["loading"]) > 0.5) == loading]
            xs = [1e6 * float(r["r"]) * math.cos(math.radians(float(r["theta_deg"]))) for r in sel]
            ys = [1e6 * float(r["r"]) * math.sin(math.radians(float(r["theta_deg"]))) for r in sel]
            if marker == "o":
                ax.scatter(xs, ys, s=16, marker=marker, facecolors=color if loading else "none", edgecolors=color,
                           linewidths=0.8, label=label if loading else None)
            else:
                ax.scatter(xs, ys, s=22 if loading else 10, marker=marker, color=color, linewidths=0.8,
                           label=label if loading else None)
        fit = [f for f in fits if f["set"] == "rendulic" and f["kind"] == kind and f["law"] == law
               and int(f["n"]) == n]
        if fit:
            f = fit[0]
            d1, d2 = 1e6 * float(f["d1"]), 1e6 * float(f["d2"])
            t = [2 * math.pi * i / 200 for i in range(201)]
            ax.plot([d1 / 2 + math.hypot(d1, d2) / 2 * math.cos(a) for a in t],
                    [d2 / 2 + math.hypot(d1, d2) / 2 * math.sin(a) for a in t], color=color, lw=0.8,
                    ls="-" if law == "refined" else "--")
    ax.axhline(0, color="0.7", lw=0.5)
    ax.axvline(0, color="0.7", lw=0.5)
    ax.set_aspect("equal")
    ax.set_xlabel("volumetric (1/MPa)")
    ax.set_ylabel("deviatoric (1/MPa)")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7, loc="lower left")


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "kuhn_radial.csv"
    out = sys.argv[2] if len(sys.argv) > 2 else "kuhn_radial.png"
    pts = load(src)
    fits = load(src[:-4] + "_fits.csv" if src.endswith(".csv") else src + "_fits.csv")
    fig, axs = plt.subplots(1, 3, figsize=(13, 4.3))
    panel(axs[0], pts, fits, "replay", 30, "replays in 30 steps (the law alone differs)")
    panel(axs[1], pts, fits, "free", 30, "free DEM probes in 30 steps")
    H = {(f["set"], f["kind"], f["law"], int(f["n"])): float(f["H"]) for f in fits}
    ax = axs[2]
    for st, ls in (("rendulic", "-"), ("sphere", ":")):
        ns = sorted(n for (s_, k, law, n) in H if s_ == st and k == "replay" and law == "conventional")
        if ns:
            ax.loglog(ns, [abs(H[(st, "replay", "conventional", n)] / H[(st, "replay", "refined", n)] - 1)
                           for n in ns], "o" + ls, color="tab:red", ms=4,
                      label=f"replay, conventional vs refined ({st})")
            ax.loglog(ns, [abs(H[(st, "replay", "refined", n)] / H[(st, "replay", "refined", ns[-1])] - 1) + 1e-9
                           for n in ns[:-1]] + [float("nan")], "s" + ls, color="tab:green", ms=4,
                      label=f"replay, refined vs refined at n = {ns[-1]} ({st})")
        for law, color, m in (("conventional", "tab:red", "*"), ("refined-perturbed", "tab:blue", "P")):
            key, ref = (st, "free", law, 30), (st, "free", "refined", 30)
            if key in H and ref in H:
                ax.loglog([30], [abs(H[key] / H[ref] - 1)], m, color=color, ms=9, alpha=0.8 if st == "rendulic" else 0.4,
                          label=f"free, {law} vs refined ({st})")
    ax.axhline(0.05, color="0.5", lw=0.8, ls="--")
    ax.text(1.1, 0.06, "the paper: about 5 % at n = 30", fontsize=7, color="0.4")
    ax.set_ylim(3e-7, 0.3)
    ax.set_xlabel("steps per probe n")
    ax.set_ylabel("|H / H_refined - 1|")
    ax.set_title("hardening modulus H = 1 / diameter", fontsize=9)
    ax.legend(fontsize=6, loc="upper right", bbox_to_anchor=(1.0, 0.9))
    fig.tight_layout()
    fig.savefig(out, dpi=70)


if __name__ == "__main__":
    main()
