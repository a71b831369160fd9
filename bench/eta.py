#!/usr/bin/env python3
"""How true is the ETA of grit run's progress line?

    python3 bench/eta.py [--grit build/grit] [--out DIR] [scene key=value ...]

Runs `grit run SCENE progress=0.2 ...` (default: deposit threads=1), reads
every progress line and samples, at each one, the wall clock and the CPU time
of the process (/proc/PID/stat). At the end it knows the actual remaining
time at every line and prints the ETA's error at 10, 25, 50 and 75 % of the
steps: the ETA printed (whole seconds, from the wall clock) against the
remaining wall time (what the user waits), and the estimator of app/eta.c
replayed here on the CPU time of the same history against the remaining CPU
time (the work left, free of the other jobs of a shared machine), beside the
estimator grit used before (an average of the rate with a time constant of a
quarter of the time gone, at least 2 s). The history is written to
DIR/eta.csv. `--replay DIR/eta.csv` replays an earlier history.
"""
import argparse
import math
import os
import re
import subprocess
import sys
import time

LINE = re.compile(r"step (\d+)/(\d+) .*?contacts (\d+)(?: .*?ETA (?:<= )?(\d+):(\d+)(?::(\d+))?)?")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def eta_seconds(m):
    a, b, c = m.group(4), m.group(5), m.group(6)
    if a is None:
        return -1  # no ETA yet
    return int(a) * 3600 + int(b) * 60 + int(c) if c else int(a) * 60 + int(b)


def eta_window(T, K, end, show=2.0, min_window=0.5, fraction=0.25):
    """app/eta.c on the samples (T, K): the rate over the last max(min_window, fraction * time gone)."""
    out = []
    for i, (t, k) in enumerate(zip(T, K)):
        j = i
        while j > 0 and T[j] > t - max(min_window, fraction * (t - T[0])):
            j -= 1
        rate = (k - K[j]) / (t - T[j]) if t > T[j] and k > K[j] else 0
        out.append((end - k) / rate if t - T[0] >= show and rate > 0 else None)
    return out


def eta_before(T, K, end, show=2.0):
    """grit's estimator before app/eta.c: the rate averaged with a time constant max(2 s, a quarter of the time
    gone)."""
    out, rate, tp, kp = [], 0.0, T[0], K[0]
    for t, k in zip(T, K):
        if t > tp and k > kp:
            inst = (k - kp) / (t - tp)
            rate = rate + (1 - math.exp(-(t - tp) / max(2.0, 0.25 * (t - T[0])))) * (inst - rate) if rate else inst
            tp, kp = t, k
        out.append((end - k) / rate if t - T[0] >= show and rate > 0 else None)
    return out


def report(rows, wall_end, cpu_end):
    """The errors at 10, 25, 50, 75 % of the steps."""
    T = [0.0] + [r[1] for r in rows]
    K = [0] + [r[2] for r in rows]
    end = rows[0][3]
    new, old = eta_window(T, K, end)[1:], eta_before(T, K, end)[1:]
    print("  done  printed  left(wall)  err(wall)   left(CPU)  eta.c(CPU)  before(CPU)")
    for frac in (0.10, 0.25, 0.50, 0.75):
        i = min(range(len(rows)), key=lambda i: abs(rows[i][2] / end - frac))
        w, c, k, _, nc, eta = rows[i]
        lw, lc = wall_end - w, cpu_end - c
        err = lambda e, left: f"{100 * (e / left - 1):+8.0f}%" if e is not None and e >= 0 else "  (none)"
        print(f"  {100 * k / end:3.0f}%  {eta if eta >= 0 else '-':>7}  {lw:9.1f}  {err(eta, lw)}   {lc:9.1f}  "
              f"{err(new[i], lc)}   {err(old[i], lc)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--grit", default="build/grit")
    ap.add_argument("--out", default="/tmp/grit-eta")
    ap.add_argument("--replay", metavar="CSV", help="report on the history of an earlier run instead")
    ap.add_argument("args", nargs="*", default=["deposit", "threads=1"])
    a = ap.parse_args()
    if a.replay:
        import csv
        rows = [(float(r["wall_s"]), float(r["cpu_s"]), int(r["step"]), int(r["end"]), int(r["contacts"]),
                 int(r["eta_s"])) for r in csv.DictReader(open(a.replay))]
        last = list(csv.DictReader(open(a.replay)))[-1]
        report(rows, rows[-1][0] + float(last["left_wall_s"]), rows[-1][1] + float(last["left_cpu_s"]))
        return
    os.makedirs(a.out, exist_ok=True)
    cmd = [a.grit, "run", *a.args, "progress=0.2", "vtk_every=-1", f"out={a.out}/run"]
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, bufsize=1)
    rows = []  # wall, cpu, step, end, contacts, eta
    for line in p.stdout:
        m = LINE.search(line)
        if m:
            try:
                cpu = cpu_seconds(p.pid)
            except OSError:
                break
            rows.append((time.monotonic() - t0, cpu, int(m.group(1)), int(m.group(2)), int(m.group(3)),
                         eta_seconds(m)))
    try:
        cpu_end = cpu_seconds(p.pid)  # still a zombie until waited for
    except OSError:
        cpu_end = rows[-1][1] if rows else 0.0
    if p.wait() != 0:
        sys.exit(f"{' '.join(cmd)} failed")
    wall_end = time.monotonic() - t0
    with open(os.path.join(a.out, "eta.csv"), "w") as f:
        f.write("wall_s,cpu_s,step,end,contacts,eta_s,left_wall_s,left_cpu_s\n")
        for w, c, k, end, nc, eta in rows:
            f.write(f"{w:.3f},{c:.3f},{k},{end},{nc},{eta},{wall_end - w:.3f},{cpu_end - c:.3f}\n")
    print(f"{' '.join(cmd)}: {wall_end:.1f} s wall, {cpu_end:.1f} s CPU, {sum(r[5] >= 0 for r in rows)} of {len(rows)} lines with an ETA")
    report(rows, wall_end, cpu_end)

if __name__ == "__main__":
    main()
