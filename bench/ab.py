#!/usr/bin/env python3
"""A/B speed of two grit builds on one benchmark scene, interleaved (A B A B ...), so that both see the
same machine load: the check that a change costs no speed.

    bench/ab.py --a OLD/build/bench/grit_bench --a-name 866cb88 --b build/bench/grit_bench --b-name HEAD \
        --scene box-20000 [--reps 8] [--steps 2000] [--csv bench/results/MACHINE-ab.csv --machine NAME]

The scenes are ../shared/bench/scenes/<scene>-settled.csv with their box side from <scene>.json (the
benchmark's own scenes; see docs/performance.md). Prints best and median CPU seconds and the contact
loop's share for each build and the ratio B/A; with --csv appends one row per build.
"""
import argparse
import csv
import datetime
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCENES = os.path.join(HERE, "..", "..", "shared", "bench", "scenes")


def summary(out):
    for line in out.splitlines():
        if line.startswith("GRIT_SUMMARY"):
            return dict(kv.split("=", 1) for kv in line.split()[1:] if "=" in kv)
    raise RuntimeError("no GRIT_SUMMARY line in the benchmark's output")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", required=True)
    ap.add_argument("--a-name", default="A")
    ap.add_argument("--b", required=True)
    ap.add_argument("--b-name", default="B")
    ap.add_argument("--scene", default="box-20000")
    ap.add_argument("--reps", type=int, default=8)
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--csv")
    ap.add_argument("--machine", default="unknown")
    a = ap.parse_args()
    meta = json.load(open(os.path.join(SCENES, a.scene + ".json")))
    scene_csv = os.path.join(SCENES, a.scene + "-settled.csv")
    runs = {a.a_name: [], a.b_name: []}
    for _ in range(a.reps):
        for name, exe in ((a.a_name, a.a), (a.b_name, a.b)):
            r = subprocess.run([exe, "--csv", scene_csv, "--L", str(meta["box_Lx_m"]), "--steps", str(a.steps),
                                "--phase", "dense"], capture_output=True, text=True, check=True)
            runs[name].append(summary(r.stdout))
    rows = []
    for name in runs:
        cpu = [float(s["cpu_s"]) for s in runs[name]]
        con = [float(s["t_contacts_s"]) for s in runs[name]]
        rows.append({"machine": a.machine, "date": datetime.date.today().isoformat(), "build": name,
                     "scene": a.scene, "phase": "dense", "steps": a.steps, "reps": a.reps,
                     "cpu_s_best": min(cpu), "cpu_s_median": statistics.median(cpu),
                     "contacts_s_best": min(con), "contacts_s_median": statistics.median(con),
                     "psps_best": meta["n"] * a.steps / min(cpu)})
        print(f"{name:>12}: cpu best {min(cpu):.3f} s, median {statistics.median(cpu):.3f} s; contact loop best "
              f"{min(con):.3f} s; {rows[-1]['psps_best'] / 1e6:.2f} M particle-steps/s")
    rb, ra = rows[1], rows[0]
    print(f"{a.b_name} / {a.a_name}: best {rb['cpu_s_best'] / ra['cpu_s_best']:.3f}, median "
          f"{rb['cpu_s_median'] / ra['cpu_s_median']:.3f}")
    if a.csv:
        new = not os.path.exists(a.csv)
        with open(a.csv, "a", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            if new:
                w.writeheader()
            w.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
