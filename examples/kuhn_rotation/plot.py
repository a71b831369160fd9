"""Plot of the rigid-rotation demonstration (examples/kuhn_rotation/kuhn_rotation.c).

    /usr/bin/python3 examples/kuhn_rotation/plot.py kuhn_rotation.csv kuhn_rotation.png

Left: error of the rotated-back stress, |R^T sigma R - sigma0| / |sigma0|,
against the rotation angle, per variant (solid: 1000 increments, dashed:
10000). Right: the same split into its symmetric and skew parts at 90 degrees.
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

NAMES = [
    "projection + exact twirl (Kuhn)",
    "projection + first-order twirl",
    "projection only",
    "neither",
    "IdealElPl (L6Geom frame)",
]
COLORS = ["tab:green", "tab:olive", "tab:orange", "tab:red", "tab:blue"]


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "kuhn_rotation.csv"
    dst = sys.argv[2] if len(sys.argv) > 2 else "kuhn_rotation.png"
    runs = {}
    with open(src) as f:
        for row in csv.DictReader(f):
            key = (int(row["variant"]), int(row["M"]))
            runs.setdefault(key, []).append(
                (float(row["angle_deg"]), float(row["err"]), float(row["err_sym"]), float(row["err_skew"]))
            )
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(12, 4.8), gridspec_kw={"width_ratios": [3, 2]})
    for (v, m), pts in sorted(runs.items()):
        pts = [p for p in pts if p[0] > 0]
        ax.semilogy(
            [p[0] for p in pts],
            [max(p[1], 1e-16) for p in pts],
            color=COLORS[v],
            ls="-" if m == 1000 else "--",
            label=f"{NAMES[v]}, {m} increments",
        )
    ax.set_xlabel("rotation angle (degrees)")
    ax.set_ylabel(r"$|R^T\sigma R-\sigma_0|\,/\,|\sigma_0|$")
    ax.set_title("stress of a loaded assembly rotated rigidly about (1,2,3)")
    ax.set_ylim(1e-15, 1)  # room for the legend below the curves
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="lower right", title="(dashed: 10000 increments; projection only: hidden under 1000)",
              title_fontsize=7)
    labels, sym, skew = [], [], []
    for (v, m), pts in sorted(runs.items()):
        last = pts[-1]
        labels.append(f"{NAMES[v]}\n{m} incr.")
        sym.append(max(last[2], 1e-16))
        skew.append(max(last[3], 1e-16))
    y = range(len(labels))
    bx.barh([i + 0.2 for i in y], sym, height=0.4, color="tab:gray", label="symmetric part")
    bx.barh([i - 0.2 for i in y], skew, height=0.4, color="tab:purple", label="skew part")
    bx.set_xscale("log")
    bx.set_yticks(list(y))
    bx.set_yticklabels(labels, fontsize=7)
    bx.invert_yaxis()
    bx.set_xlabel("error at 90 degrees, relative to $|\\sigma_0|$")
    bx.legend(fontsize=8)
    bx.grid(True, axis="x", which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(dst, dpi=120)
    print(f"wrote {dst}")


if __name__ == "__main__":
    main()
