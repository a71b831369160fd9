#!/usr/bin/env python3
"""Strong scaling on MPI ranks: the dense phase of a benchmark box (a settled bed in a box of walls), grit on
one process and on K ranks (mpirun -np K grit run box), and LIGGGHTS on one and on K ranks, in one run, with
the machine's load before each run. grit's K-rank run must end byte for byte as one process with id_order:
the script compares final.csv and says so.

    bench/mpi.py [--grit build/grit] [--scene box-100000] [--steps 2000] [--ranks 2] [--reps 1]
        [--liggghts liggghts] [--csv bench/results/MACHINE-mpi.csv --machine NAME]
    bench/mpi.py --weak 1,2,4,8 [--per-rank 10000] [--steps 500] ...   (weak scaling: bytes per step and rank)

Reads ../shared/bench/scenes/<scene>-settled.csv and <scene>.json (the box side), and LIGGGHTS' input from
../shared/bench/liggghts/ (its `processors 1 1 1` made `processors * * 1` for K ranks). Particle-steps per
second are N * steps / wall time of the steps (grit: the summary's wall time; LIGGGHTS: its loop time).
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

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, "..", "..", "shared", "bench")
ENV = dict(os.environ, OMP_NUM_THREADS="1", OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def commit():
    r = subprocess.run(["git", "-C", HERE, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return r.stdout.strip() or "unknown"


def mpirun(k):
    return ["mpirun", "--oversubscribe", "-np", str(k)] if k > 1 else []


def run_grit(exe, csvfile, side, steps, k, id_order, out):
    cmd = mpirun(k) + [exe, "run", "box", "csv=" + csvfile, "box_x=%r" % side, "box_y=%r" % side,
                       "steps=%d" % steps, "vtk_every=-1", "save_every=-1", "checkpoint=0", "track_energy=false",
                       "progress=0", "threads=1", "out=" + out] + (["id_order=true"] if id_order else [])
    txt = subprocess.run(cmd, capture_output=True, text=True, env=ENV, check=True).stdout
    wall = float(re.search(r"wall time +([\d.eE+-]+) s", txt).group(1))
    mb = re.search(r"([\d.eE+-]+) MB sent", txt)
    return wall, float(mb.group(1)) if mb else 0.0


def run_liggghts(exe, csvfile, meta, side, steps, k, work):
    data = os.path.join(work, "in.data")
    subprocess.run(["/usr/bin/python3", os.path.join(SHARED, "liggghts", "csv2data.py"), csvfile, meta, data],
                   check=True, stdout=subprocess.DEVNULL)
    src = open(os.path.join(SHARED, "liggghts", "box.in")).read()
    inp = os.path.join(work, "box.in")
    open(inp, "w").write(src.replace("processors      1 1 1", "processors      * * 1"))
    cmd = mpirun(k) + [exe, "-echo", "none", "-log", os.path.join(work, "log"), "-in", inp, "-var", "data", data,
                       "-var", "L", repr(side), "-var", "nsteps", str(steps), "-var", "phase", "dense",
                       "-var", "out", os.path.join(work, "final.dump"), "-var", "stamp", os.path.join(work, "stamp"),
                       "-var", "here", os.path.join(SHARED, "liggghts"), "-var", "thev", str(max(1, steps // 2))]
    txt = subprocess.run(cmd, capture_output=True, text=True, env=ENV, check=True, cwd=work).stdout
    return float(re.search(r"Loop time of ([\d.eE+-]+) on \d+ procs", txt).group(1))


def weak(a):
    """Weak scaling: a generated loose cloud of per_rank spheres per rank falling into its box, on 1, 2, 4, ...
    ranks (oversubscribed on a small machine: the point is the bytes each rank sends per step, not the time)."""
    print("%6s %9s %8s %10s %14s %16s" % ("ranks", "spheres", "ghosts", "wall_s", "kB/step/rank", "MB in all/rank"))
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for k in [int(x) for x in a.weak.split(",")]:
            n = a.per_rank * k
            cmd = mpirun(k) + [a.grit, "run", "box", "n=%d" % n, "steps=%d" % a.steps, "vtk_every=-1", "save_every=-1",
                               "checkpoint=0", "track_energy=false", "progress=0", "threads=1",
                               "out=" + os.path.join(work, "w%d" % k)]
            if k == 1:
                cmd += ["id_order=true"]
            txt = subprocess.run(cmd, capture_output=True, text=True, env=ENV, check=True).stdout
            wall = float(re.search(r"wall time +([\d.eE+-]+) s", txt).group(1))
            m = re.search(r"([\d.eE+-]+) MB sent in all, ([\d.eE+-]+) kB per step by the ranks together \((\d+) ghosts\)",
                          txt)
            mb, kb, ghosts = (float(m.group(1)), float(m.group(2)), int(m.group(3))) if m else (0.0, 0.0, 0)
            print("%6d %9d %8d %10.2f %14.3g %16.3g" % (k, n, ghosts, wall, kb / k, mb / k), flush=True)
            rows.append([a.machine, datetime.date.today().isoformat(), commit(), "cloud-%d-per-rank" % a.per_rank,
                         a.steps, "grit", k, 0, "%.3f" % wall, "%.4g" % (n * a.steps / wall), "%.3g" % mb,
                         "%.2f" % os.getloadavg()[0]])
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--grit", default=os.path.join(HERE, "..", "build", "grit"))
    ap.add_argument("--liggghts", default="liggghts")
    ap.add_argument("--scene", default="box-100000")
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument("--weak", help="weak scaling instead: rank counts, e.g. 1,2,4,8")
    ap.add_argument("--per-rank", type=int, default=10000)
    ap.add_argument("--csv")
    ap.add_argument("--machine", default="unknown")
    a = ap.parse_args()
    if a.weak:
        rows = weak(a)
        if a.csv:
            with open(a.csv, "a", newline="") as f:
                csv.writer(f).writerows(rows)
        return
    csvfile = os.path.join(SHARED, "scenes", a.scene + "-settled.csv")
    meta = os.path.join(SHARED, "scenes", a.scene + ".json")
    side = json.load(open(meta))["box_Lx_m"]
    n = sum(1 for _ in open(csvfile)) - 1
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for rep in range(a.reps):
            for code, k in (("grit", 1), ("grit", a.ranks), ("liggghts", 1), ("liggghts", a.ranks)):
                load = os.getloadavg()[0]
                sent = 0.0
                if code == "grit":
                    out = os.path.join(work, "grit-%d-%d" % (k, rep))
                    wall, sent = run_grit(a.grit, csvfile, side, a.steps, k, True, out)
                else:
                    d = os.path.join(work, "lig-%d-%d" % (k, rep))
                    os.makedirs(d)
                    wall = run_liggghts(a.liggghts, csvfile, meta, side, a.steps, k, d)
                psps = n * a.steps / wall
                rows.append([a.machine, datetime.date.today().isoformat(), commit(), a.scene, a.steps, code, k, rep,
                             "%.3f" % wall, "%.4g" % psps, "%.3g" % sent, "%.2f" % load])
                print("%-8s %d rank(s): %8.2f s  %.3g particle-steps/s  (load %.2f before)%s" %
                      (code, k, wall, psps, load, "  %.0f MB sent" % sent if sent else ""), flush=True)
            same = open(os.path.join(work, "grit-1-%d" % rep, "final.csv")).read() == \
                open(os.path.join(work, "grit-%d-%d" % (a.ranks, rep), "final.csv")).read()
            print("grit: final.csv on %d ranks %s one process's (id_order)" % (a.ranks, "==" if same else "DIFFERS from"))
            if not same:
                sys.exit(1)
    if a.csv:
        new = not os.path.exists(a.csv)
        with open(a.csv, "a", newline="") as f:
            w = csv.writer(f)
            if new:
                w.writerow(["machine", "date", "commit", "scene", "steps", "code", "ranks", "rep", "wall_s",
                            "particle_steps_per_s", "mb_sent", "load1_before"])
            w.writerows(rows)


if __name__ == "__main__":
    main()
