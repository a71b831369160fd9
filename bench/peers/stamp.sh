#!/bin/sh
# stamp.sh OUTFILE: run by the peers' inputs through their `shell` command just before and after
# the timed `run`. Writes one line "utime_ticks stime_ticks CLK_TCK wall_epoch_s pid" for the
# nearest ancestor process that is the simulation (liggghts or lmp), so that the CPU time of
# the run alone can be taken from /proc/<pid>/stat (10 ms resolution).
p=$$
while [ "$p" -gt 1 ]; do
  c=$(cat /proc/$p/comm 2>/dev/null)
  case "$c" in liggghts|lmp|lmp_*) break ;; esac
  p=$(awk '{print $4}' /proc/$p/stat)
done
set -- "$1" $(cut -d' ' -f14,15 /proc/$p/stat)
echo "$2 $3 $(getconf CLK_TCK) $(date +%s.%N) $p" > "$1"
