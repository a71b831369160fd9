"""Plot of the strain-probe demonstration (examples/kuhn_probes/kuhn_probes.c).

    /usr/bin/python3 examples/kuhn_probes/plot.py kuhn_probes.csv kuhn_probes.png

Left: error of the stress increment of a probe replayed in n steps, against
the refined law at n = 1000 (mean over the eight directions), per law; solid
delta = 1e-4, dashed delta = 1e-3. Middle: the same for the stress left after
the probe's reversal (the irreversible part), mean over the directions with
plastic loading. Right: the directional stiffness d sigma : D / delta of the
quasi-static probes and of the free probes in 30 and 300 steps.
"""
import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

LAWS = ["refined", "conventional", "conv+twirl", "conv+R3", "IdealElPl"]
LABELS = {
    "refined": "refined (Kuhn)",
    "conventional": "conventional (R1-R3, twirl off)",
    "conv+twirl": "conventional + twirl",
    "conv+R3": "conventional + turning R3 only",
    "IdealElPl": "IdealElPl (grit's Cundall law)",
}
COLORS = {
    "refined": "tab:green",
    "conventional": "tab:red",
    "conv+twirl": "tab:orange",
    "conv+R3": "tab:purple",
    "IdealElPl": "tab:blue",
}
COMP = ("xx", "yy", "zz", "xy", "xz", "yz")


def norm(t):
    return math.sqrt(sum(x * x for x in t[:3]) + 2 * sum(x * x for x in t[3:]))


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "kuhn_probes.csv"
    dst = sys.argv[2] if len(sys.argv) > 2 else "kuhn_probes.png"
    rows = list(csv.DictReader(open(src)))
    replay = [r for r in rows if r["kind"] == "replay"]
    deltas = sorted({float(r["delta"]) for r in replay})
    nmax = max(int(r["n"]) for r in replay)
    # plastic directions: the irreversible part at least a tenth of the increment
    plastic = set()
    for r in replay:
        if r["law"] == "refined" and int(r["n"]) == nmax:
            ds = [float(r["ds" + c]) for c in COMP]
            irr = [float(r["irr" + c]) for c in COMP]
            if norm(irr) > 0.1 * norm(ds):
                plastic.add((float(r["delta"]), r["phi_deg"]))

    fig = plt.figure(figsize=(17, 6.6))
    gs = fig.add_gridspec(2, 3, height_ratios=[4, 0.95])
    ax, bx, cx = (fig.add_subplot(gs[0, i]) for i in range(3))
    for panel, col, title in (
        (ax, "err", "stress increment of the probe"),
        (bx, "err_irr", "irreversible part (stress left after the reversal)\nplastic directions"),
    ):
        for d in deltas:
            for law in LAWS:
                pts = {}
                for r in replay:
                    if r["law"] != law or float(r["delta"]) != d:
                        continue
                    if col == "err_irr" and (d, r["phi_deg"]) not in plastic:
                        continue
                    pts.setdefault(int(r["n"]), []).append(float(r[col]))
                if not pts:
                    continue
                ns = [n for n in sorted(pts) if not (law == "refined" and n == nmax)]
                mean = [sum(pts[n]) / len(pts[n]) for n in ns]
                panel.loglog(
                    ns,
                    mean,
                    "o-" if d == deltas[0] else "s--",
                    color=COLORS[law],
                    ms=4,
                    label=f"{LABELS[law]}, $\\delta$ = {d:g}",
                )
        panel.loglog([1, 1000], [3e-3, 3e-6], ":", color="gray", lw=1, label="$\\propto 1/n$")
        panel.plot([30], [0.05], "k*", ms=12, label="paper: about 5 % at 30 steps\n(hardening modulus)")
        panel.axvline(30, color="gray", lw=0.5)
        panel.set_xlabel("steps per probe n")
        panel.set_ylabel("$|\\Delta\\sigma_n-\\Delta\\sigma_{ref}|\\,/\\,|\\Delta\\sigma_{ref}|$")
        panel.set_title(title, fontsize=10)
        panel.set_ylim(1e-9, 1)
        panel.grid(True, which="both", alpha=0.3)
    la = fig.add_subplot(gs[1, 0:2])
    la.axis("off")
    la.legend(*ax.get_legend_handles_labels(), loc="upper center", ncol=4, fontsize=7.5)

    # right: directional stiffness
    def series(kind, law, n=None, d=deltas[0]):
        out = sorted(
            (float(r["phi_deg"]), float(r["K"]))
            for r in rows
            if r["kind"] == kind and r["law"] == law and float(r["delta"]) == d and (n is None or int(r["n"]) == n)
        )
        return [p[0] for p in out], [p[1] / 1e6 for p in out]

    x, y = series("qs", "refined")
    cx.plot(x, y, "k-o", ms=5, label="quasi-static probe (refined)")
    x, y = series("replay", "refined", nmax)
    cx.plot(x, y, "+", color="tab:green", ms=10, label=f"its motion replayed in {nmax} steps, refined")
    x, y = series("replay", "conventional", 1)
    cx.plot(x, y, "x", color=COLORS["conventional"], ms=8, label="... in 1 step, conventional")
    for n, style, law, color in (
        (30, "-", "refined", "tab:cyan"),
        (30, "--", "conventional", "tab:pink"),
        (300, ":", "refined", "tab:olive"),
    ):
        x, y = series("free", law, n)
        if x:
            cx.plot(x, y, style, color=color, marker=".", label=f"free probe in {n} steps, {law}")
    for r in rows:
        if r["kind"] == "qs" and float(r["delta"]) == deltas[0]:
            cx.annotate(
                f"{float(r['angle_med']):.0f}°",
                (float(r["phi_deg"]), float(r["K"]) / 1e6),
                textcoords="offset points",
                xytext=(0, 8),
                ha="center",
                fontsize=7,
                color="gray",
            )
    cx.set_xlabel("probe direction $\\varphi$ in the Rendulic plane (degrees)\n"
                  "0: isotropic compression, 90: axial compression at constant volume")
    cx.set_ylabel("directional stiffness $\\Delta\\sigma:D/\\delta$ (MPa)")
    cx.set_title(f"stiffness per direction, $\\delta$ = {deltas[0]:g}; grey: median angle between\n"
                 "force and movement of the contacts at the friction limit", fontsize=10)
    cx.set_xticks(range(0, 360, 45))
    cx.set_ylim(0, 58)
    cx.grid(True, alpha=0.3)
    lc = fig.add_subplot(gs[1, 2])
    lc.axis("off")
    lc.legend(*cx.get_legend_handles_labels(), loc="upper center", ncol=2, fontsize=7)
    fig.tight_layout()
    fig.savefig(dst, dpi=110)
    print(f"wrote {dst}")


if __name__ == "__main__":
    main()
