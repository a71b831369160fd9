#!/usr/bin/python3
"""The uniaxial test on the example's dog bone and on the periodic cell it was cut from (docs/concrete.md,
"The periodic variant"): the same material, rates and law (grit's defaults), no boundary in the cell.

    PYTHONPATH=python /usr/bin/python3 bench/uniax_periodic.py [--seed 1] [--figure docs/uniax-periodic.png]
"""
import argparse

import grit.pack
import grit.uniax


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--figure")
    a = ap.parse_args()
    cell = grit.pack.dense(n=2000, radius=3.5e-3, tan_phi=0.5463, pressure=3.33e5, seed=a.seed)
    region = grit.pack.Region(shape="hyperboloid")
    runs = [("specimen (dog bone, supports)", grit.uniax.run(cell.clip(region), region=region)),
            ("periodic cell (no boundary)", grit.uniax.run(cell, periodic=True))]
    for name, r in runs:
        print(f"{name:32s} {r['spheres']} spheres, {r['bonds_per_sphere']:.2f} bonds per sphere: E {r['young'] / 1e9:.4g} GPa"
              f"  nu {r['poisson']:.4f}  ft {r['ft'] / 1e6:.4g} MPa at {r['eps_ft']:.3g}  fc {r['fc'] / 1e6:.4g} MPa at "
              f"{r['eps_fc']:.3g}  Gf {r['gf']:.4g} J/m3  kN Gf/ft2 {r['gf_norm']:.3f}  fc/ft {r['fc_ft']:.3g}  "
              f"CPU {r['cpu_tension'] + r['cpu_compression']:.3g} s", flush=True)
    if a.figure:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, (ax, axt) = plt.subplots(1, 2, figsize=(12, 4.8))
        for name, r in runs:
            line = None
            for run in ("tension", "compression"):
                c = r[run]
                line, = ax.plot(c["strain"] * 1e3, c["stress"] / 1e6, lw=1.2, label=name if run == "tension" else None,
                                color=line.get_color() if line else None)
            axt.plot(r["tension"]["strain"] * 1e3, r["tension"]["stress"] / 1e6, lw=1.2, color=line.get_color(), label=name)
        for x in (ax, axt):
            x.axhline(0, color="0.7", lw=0.5)
            x.set_xlabel("axial strain [10⁻³]")
            x.set_ylabel("axial stress [MPa] (tension positive)")
            x.grid(alpha=0.3)
            x.legend(fontsize="small")
        ax.set_title("uniaxial test: specimen and periodic cell (grit's defaults)")
        axt.set_title("tension")
        fig.tight_layout()
        fig.savefig(a.figure, dpi=110)


if __name__ == "__main__":
    main()
