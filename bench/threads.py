#!/usr/bin/env python3
"""Wall time of grit with 1 and with 2 threads on one benchmark scene, interleaved (1 2 1 2 ...), with the
machine's load average before each run: the issue's target is 2 threads at least 1.8x as fast as 1.

    bench/threads.py [--exe build/bench/grit_bench] [--scene box-20000] [--reps 2] [--dense-steps 2000]
        [--settle-steps 4000] [--phases dense,settle] [--cloud FILE]
        [--csv bench/results/MACHINE-threads.csv --machine NAME]

The dense phase starts from ../shared/bench/scenes/<scene>-settled.csv, the settle phase from the loose
cloud (--cloud; ../shared/bench/gen_scene.py --outdir DIR <scene> makes it), its first --settle-steps
steps only; the box side comes from <scene>.json. Every run is one CSV row, appended as it ends. The
thread count is set by OMP_NUM_THREADS (grit's default). On a shared machine the load from other
processes decides the result: read the load column beside every figure.
"""
import argparse
import csv
import datetime
import json
import os
import statistics
import subprocess
import sys

from ab import SCENES, summary

HERE = os.path.dirname(os.path.abspath(__file__))


def commit():
    r = subprocess.run(["git", "-C", HERE, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return r.stdout.strip() or "unknown"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--exe", default=os.path.join(HERE, "..", "build", "bench", "grit_bench"))
    ap.add_argument("--scene", default="box-20000")
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--dense-steps", type=int, default=2000)
    ap.add_argument("--settle-steps", type=int, default=4000)
    ap.add_argument("--phases", default="dense,settle")
    ap.add_argument("--cloud", help="the loose cloud of the settle phase (default: SCENES/<scene>.csv)")
    ap.add_argument("--csv")
    ap.add_argument("--machine", default="unknown")
    a = ap.parse_args()
    meta = json.load(open(os.path.join(SCENES, a.scene + ".json")))
    cloud = a.cloud or os.path.join(SCENES, a.scene + ".csv")
    phases = [p for p in (("dense", os.path.join(SCENES, a.scene + "-settled.csv"), a.dense_steps),
                          ("settle", cloud, a.settle_steps)) if p[0] in a.phases.split(",")]
    rows = []
    for phase, scene_csv, steps in phases:
        for rep in range(a.reps):
            for threads in (1, 2):
                load = os.getloadavg()[0]
                env = dict(os.environ, OMP_NUM_THREADS=str(threads))
                r = subprocess.run([a.exe, "--csv", scene_csv, "--L", str(meta["box_Lx_m"]),
                                    "--steps", str(steps), "--phase", phase], capture_output=True, text=True,
                                   check=True, env=env)
                s = summary(r.stdout)
                row = {"machine": a.machine, "date": datetime.date.today().isoformat(), "commit": commit(),
                       "scene": a.scene, "phase": phase, "steps": steps, "threads": threads, "rep": rep,
                       "wall_s": float(s["wall_s"]), "cpu_s_calling_thread": float(s["cpu_s"]),
                       "load1_before": round(load, 2), "load1_after": round(os.getloadavg()[0], 2)}
                rows.append(row)
                if a.csv:
                    new = not os.path.exists(a.csv)
                    with open(a.csv, "a", newline="") as f:
                        w = csv.DictWriter(f, fieldnames=list(row))
                        if new:
                            w.writeheader()
                        w.writerow(row)
                print(f"{phase:6s} rep {rep} threads {threads}: wall {row['wall_s']:.2f} s "
                      f"(load {row['load1_before']:.2f} -> {row['load1_after']:.2f})", flush=True)
    for phase, _, _ in phases:
        w = {t: statistics.median(r["wall_s"] for r in rows if r["phase"] == phase and r["threads"] == t)
             for t in (1, 2)}
        print(f"{phase}: median wall 1 thread {w[1]:.2f} s, 2 threads {w[2]:.2f} s: speed-up {w[1] / w[2]:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
