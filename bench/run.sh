#!/bin/sh
# bench/run.sh [CAMPAIGN [MACHINE]]: the whole comparison of grit with LIGGGHTS, LAMMPS and Yade on
# the scenes box-2000, box-20000, box-100000 (../shared/bench/SCENES.md), then the tables
# bench/results/MACHINE.csv and MACHINE-runs.csv. About 4 hours of one core, most of it the peers'
# settle runs (Yade box-20000 settle alone: about an hour); docs/performance.md shows the results.
# Each step is a `run_bench.py run` call that can also be run alone (see its --help).
# Needs: a Release build (built here), liggghts, lmp, yade (apt-get install liggghts lammps yade).
set -e
cd "$(dirname "$0")/.."
C=${1:-c1}
M=${2:-$(hostname)}
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j2 --target grit_bench
P="/usr/bin/python3 bench/run_bench.py"
# dense phase: 2000 steps from the settled beds, every code, alternating
$P run --campaign "$C" --phase dense --scenes box-2000,box-20000 --reps 5
$P run --campaign "$C" --phase dense --scenes box-100000 --reps 3
# settle phase: 100 000 steps from the loose clouds (Yade box-100000 would take about 6 hours: left out)
$P run --campaign "$C" --phase settle --scenes box-2000 --reps 3
$P run --campaign "$C" --phase settle --scenes box-20000 --reps 1
$P run --campaign "$C" --phase settle --scenes box-100000 --reps 1 --codes grit,liggghts,lammps
$P table --machine "$M"
$P report --machine "$M" --campaigns "$C"
