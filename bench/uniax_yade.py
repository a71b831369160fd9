#!/usr/bin/python3
"""grit against Yade on the uniaxial test of the concrete model's example (docs/concrete.md, "Uniaxial test
and calibration"): the same specimens, the same material, one core.

    PYTHONPATH=python /usr/bin/python3 bench/uniax_yade.py [--seeds 1,2,3] [--yade-seeds 1]
        [--csv bench/results/xeon-2c-uniax.csv] [--figure docs/uniax-yade.png]

For each packing seed: a periodic cell of 2000 spheres of 3.5 mm compacted as Yade's randomDensePack does
(friction tan 0.5 rad, pressure / stiffness 1/300), cut to the example's hyperboloid; then
* grit with the Yade switches (ref_length=distance, yield_surface=lin, eps_soft=1, Yade's cross-section
  figure, 0.8 of the p-wave step), the tension run continued to 0.1 f_t for the fracture energy;
* the same with the example's stop rule (0.5 of the peak in both runs), timed;
* grit's defaults (Woo's switches, the convex-hull section, 0.7 of the p-wave step);
* with --yade-seeds, Yade's own examples/concrete/uniax.py on the same spheres (bench/peers/yade-uniax.py),
  its curves analysed by the same functions (grit.uniax.fit_young).
Rows go to the CSV (one per run); the figure overlays the curves of the first seed.
"""
import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

import grit
import grit.pack
import grit.uniax

HERE = os.path.dirname(os.path.abspath(__file__))
YADE_SWITCHES = dict(ref_length="distance", yield_surface="lin", eps_soft=1, section="yade", dt_safety=0.8)
COLUMNS = ["machine", "date", "code", "config", "seed", "spheres", "bonds_per_sphere", "area", "young", "poisson",
           "ft", "fc", "gf", "steps_tension", "steps_compression", "cpu", "particle_steps_per_s"]


def packing(seed):
    cell = grit.pack.dense(n=2000, radius=3.5e-3, tan_phi=0.5463, pressure=3.33e5, seed=seed)
    region = grit.pack.Region(shape="hyperboloid")
    return cell.clip(region), region


def row(code, config, seed, spheres, r, steps_t, steps_c, cpu):
    return {"code": code, "config": config, "seed": seed, "spheres": spheres,
            "bonds_per_sphere": r.get("bonds_per_sphere", float("nan")), "area": r["area"], "young": r["young"],
            "poisson": r.get("poisson", float("nan")), "ft": r["ft"], "fc": r["fc"], "gf": r.get("gf", float("nan")),
            "steps_tension": steps_t, "steps_compression": steps_c, "cpu": cpu,
            "particle_steps_per_s": (steps_t + steps_c) * spheres / cpu if cpu > 0 else float("nan")}


def grit_run(bone, region, config, seed, **kw):
    r = grit.uniax.run(bone, region=region, **kw)
    cpu = r["cpu_tension"] + r["cpu_compression"]
    return r, row("grit", config, seed, r["spheres"], r, r["steps_tension"], r["steps_compression"], cpu)


def yade_run(bone, seed):
    with tempfile.TemporaryDirectory() as tmp:
        pf, js = os.path.join(tmp, "packing.csv"), os.path.join(tmp, "yade.json")
        bone.save(pf)
        env = dict(os.environ, PACKING=pf, OUTJSON=js, OMP_NUM_THREADS="1")
        subprocess.run(["yade", "-n", "-x", "-j1", os.path.join(HERE, "peers", "yade-uniax.py")], env=env, cwd=tmp,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, timeout=3600)
        y = json.load(open(js))
    d = {k: np.array(v) for k, v in y["data"].items()}
    # the example reverses the tension rows when it switches to compression: split by the sign of the strain
    curves = {}
    for name, m in (("tension", d["eps"] > 0), ("compression", d["eps"] < 0)):
        o = np.argsort(d["i"][m])
        curves[name] = {"strain": np.r_[0, d["eps"][m][o]], "stress": np.r_[0, d["sigma"][m][o]],
                        "steps": int(d["i"][m].max())}
    t, c = curves["tension"], curves["compression"]
    r = {"area": y["area"], "ft": t["stress"].max(), "fc": -c["stress"].min(),
         "young": grit.uniax.fit_young(t["strain"], t["stress"]), "tension": t, "compression": c}
    return r, row("yade", "yade-example", seed, y["spheres"], r, t["steps"], c["steps"], y["cpu"])


def figure(path, runs):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (ax, axt) = plt.subplots(1, 2, figsize=(12, 4.8))
    for label, r, style in runs:
        for k, run in enumerate(("tension", "compression")):
            c = r[run]
            if len(c["strain"]) == 0:
                continue
            for a in (ax, axt) if run == "tension" else (ax,):
                a.plot(c["strain"] * 1e3, c["stress"] / 1e6, style, lw=1.2, label=label if k == 0 else None,
                       color=a.lines[-1].get_color() if k and a is ax and a.lines else None)
    for a in (ax, axt):
        a.axhline(0, color="0.7", lw=0.5)
        a.set_xlabel("axial strain [10⁻³]")
        a.set_ylabel("axial stress [MPa] (tension positive)")
        a.grid(alpha=0.3)
        a.legend(fontsize="small")
    ax.set_title("uniaxial test of the example's dog bone (966 spheres)")
    axt.set_title("tension")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="1")
    ap.add_argument("--yade-seeds", default="")
    ap.add_argument("--csv")
    ap.add_argument("--figure")
    ap.add_argument("--machine", default="xeon-2c")
    a = ap.parse_args()
    yseeds = {int(s) for s in a.yade_seeds.split(",") if s}
    rows, shown = [], None
    for seed in [int(s) for s in a.seeds.split(",")]:
        bone, region = packing(seed)
        ry, r1 = grit_run(bone, region, "yade-switches", seed, **YADE_SWITCHES)
        _, r2 = grit_run(bone, region, "yade-switches-yade-stop", seed, stop_tension=0.5, **YADE_SWITCHES)
        rw, r3 = grit_run(bone, region, "woo-defaults", seed)
        rows += [r1, r2, r3]
        if seed in yseeds:
            ya, r4 = yade_run(bone, seed)
            rows.append(r4)
        if shown is None:
            shown = [("grit, Yade switches", ry, "-"), ("grit, defaults (Woo's switches)", rw, "-")]
            if seed in yseeds:
                shown.insert(1, ("Yade 2023.02a, examples/concrete/uniax.py", ya, "--"))
        for r in rows[-4:]:
            if r["seed"] == seed:
                print(f"seed {seed} {r['code']:5s} {r['config']:24s} {r['spheres']} spheres  E {r['young'] / 1e9:.4g} GPa"
                      f"  nu {r['poisson']:.4f}  ft {r['ft'] / 1e6:.4g}  fc {r['fc'] / 1e6:.4g} MPa  Gf {r['gf']:.4g}"
                      f"  steps {r['steps_tension']}+{r['steps_compression']}  CPU {r['cpu']:.3g} s"
                      f"  {r['particle_steps_per_s']:.3g} particle-steps/s", flush=True)
    if a.csv:
        new = not os.path.exists(a.csv)
        with open(a.csv, "a") as f:
            if new:
                f.write(",".join(COLUMNS) + "\n")
            for r in rows:
                r = dict(r, machine=a.machine, date=datetime.date.today().isoformat())
                f.write(",".join(f"{r[k]:.6g}" if isinstance(r[k], float) else str(r[k]) for k in COLUMNS) + "\n")
    if a.figure and shown:
        figure(a.figure, shown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
