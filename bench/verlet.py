#!/usr/bin/env python3
"""CPU time and broad-phase rebuilds of grit with fixed Verlet distances and the automatic one
(verlet_dist=nan), on flowing and dense scenes, the configurations interleaved (rep 1 of every
configuration, then rep 2, ...), so that all see the same machine load.

    bench/verlet.py [--scenes dense,settle,hopper,silo] [--skins=-0.05,-0.3,nan] [--reps 1]
        [--dense-steps 1000] [--settle-steps 10000] [--cloud /tmp/scenes/box-20000.csv]
        [--csv bench/results/MACHINE-verlet.csv --machine NAME]

dense: box-20000 from ../shared/bench/scenes/box-20000-settled.csv (grit_bench); settle: the first
--settle-steps steps of box-20000 from the loose cloud (../shared/bench/gen_scene.py makes it); hopper and
silo: `grit run hopper` and `grit run silo`, whole runs. One thread everywhere. A skin is a number
(metres, or negative: a fraction of the smallest radius) or nan (automatic); 'default' leaves the scene's
own. CPU time is the child's user + system time (the machine is shared: wall time says more about the
others than about grit); the rebuild count does not depend on the load.
"""
import argparse
import csv
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile

from ab import SCENES, summary

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.join(HERE, "..", "build")


def commit():
    r = subprocess.run(["git", "-C", HERE, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return r.stdout.strip() or "unknown"


def run_one(scene, skin, a, tmp):
    meta = json.load(open(os.path.join(SCENES, "box-20000.json")))
    if scene in ("dense", "settle"):
        src = os.path.join(SCENES, "box-20000-settled.csv") if scene == "dense" else a.cloud
        steps = a.dense_steps if scene == "dense" else a.settle_steps
        cmd = [os.path.join(BUILD, "bench", "grit_bench"), "--csv", src, "--L", str(meta["box_Lx_m"]), "--steps",
               str(steps), "--phase", scene]
        if skin != "default":
            cmd += ["--verlet", "auto" if skin == "nan" else skin]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True,
                             env=dict(os.environ, OMP_NUM_THREADS="1")).stdout
        s = summary(out)
        return {"steps": steps, "cpu_s": float(s["cpu_s"]), "rebuilds": int(s["rebuilds"]),
                "verlet_end_m": float(s["verlet_dist_m"])}
    cmd = [os.path.join(BUILD, "grit"), "run", scene, "threads=1", "vtk_every=-1", "progress=0",
           "out=" + os.path.join(tmp, scene)]
    if skin != "default":
        cmd.append("verlet_dist=" + skin)
    before = os.times()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True,
                         env=dict(os.environ, OMP_NUM_THREADS="1")).stdout
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    m = re.search(r"broad phase +(\d+) rebuilds, \d+ re-sorts, Verlet distance ([0-9.e+-]+) m", out)
    st = re.search(r"steps +(\d+) of dt", out)
    return {"steps": int(st.group(1)), "cpu_s": cpu, "rebuilds": int(m.group(1)), "verlet_end_m": float(m.group(2))}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", default="dense,settle,hopper,silo")
    ap.add_argument("--skins", default="default,nan")
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument("--dense-steps", type=int, default=1000)
    ap.add_argument("--settle-steps", type=int, default=10000)
    ap.add_argument("--cloud", default=os.path.join(SCENES, "box-20000.csv"))
    ap.add_argument("--csv")
    ap.add_argument("--machine", default="unknown")
    a = ap.parse_args()
    fields = ["machine", "date", "commit", "scene", "skin", "rep", "steps", "cpu_s", "rebuilds", "verlet_end_m",
              "load1_before", "load1_after"]
    with tempfile.TemporaryDirectory() as tmp:
        for rep in range(a.reps):
            for scene in a.scenes.split(","):
                for skin in a.skins.split(","):
                    load0 = os.getloadavg()[0]
                    r = run_one(scene, skin, a, tmp)
                    row = {"machine": a.machine, "date": datetime.date.today().isoformat(), "commit": commit(),
                           "scene": scene, "skin": skin, "rep": rep, **r, "load1_before": load0,
                           "load1_after": os.getloadavg()[0]}
                    print(" ".join(f"{k}={row[k]}" for k in fields[3:]), flush=True)
                    if a.csv:
                        new = not os.path.exists(a.csv)
                        with open(a.csv, "a", newline="") as f:
                            w = csv.DictWriter(f, fieldnames=fields)
                            if new:
                                w.writeheader()
                            w.writerow(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
