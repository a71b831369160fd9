# An interrupted run leaves OUT.partial, never OUT, and exits with 130.
. "$(dirname "$0")/lib.sh"

interrupt_run run deposit n=200 steps=2000000000 out=run progress=0
rc=$?
[ $rc = 130 ] || fail "exit $rc after SIGINT, expected 130"
# on a loaded machine the step in progress may not end within the 1 s grace
# period; the run then stops inside it, which is the other correct answer
grep -q "interrupted at step [0-9]*; the incomplete output is in 'run.partial'" err.txt ||
    grep -q "did not reach the end of a step within 1 s.*'run.partial'; its last checkpoint" err.txt ||
    fail "message: $(cat err.txt)"
[ -e run ] && fail "an interrupted run left 'run' as if complete"
[ -d run.partial ] || fail "no run.partial"
# the next run with the same out= does not delete the checkpoint (it did,
# silently): refused, naming the way to continue
expect_error 2 "'run.partial' holds the checkpoint of an unfinished run; continue it with grit run restart file=run.partial/restart.grit" \
    run deposit n=20 time=0.001 out=run progress=0
[ -s run.partial/restart.grit ] || fail "the refused run touched the checkpoint"
# continuing it into the same out=: the input is set aside until the new
# run's first checkpoint is on disk, then the run completes and takes over
expect_ok run restart file=run.partial/restart.grit steps=20 out=run progress=0
[ -d run ] && [ ! -e run.partial ] || fail "the continued run did not take over"
ls -d run.partial.old-* 2>/dev/null && fail "the set-aside input was left behind"
# a partial folder without a checkpoint (a run that failed before its first
# one) is still replaced
mkdir stale.partial && touch stale.partial/grit-run.txt
expect_ok run deposit n=20 time=0.001 out=stale progress=0
[ -d stale ] && [ ! -e stale.partial ] || fail "a stale partial folder without checkpoint was not replaced"

# a step that never ends (GRIT_TEST_STALL_AT: the run stalls there): SIGTERM
# is still honoured within a second, with one line saying where the run was
GRIT_TEST_STALL_AT=3 "$GRIT" run deposit n=20 steps=100 out=stall progress=0 >out.txt 2>err.txt &
pid=$!
for _ in $(seq 100); do grep -q "output in" out.txt 2>/dev/null && break; sleep 0.1; done
sleep 0.3
t0=$(date +%s.%N)
kill -TERM $pid
wait $pid
rc=$?
t1=$(date +%s.%N)
[ $rc = 130 ] || fail "stalled run: exit $rc after SIGTERM, expected 130"
# 1 s of grace, plus room for the scheduler of a loaded machine
awk -v a="$t0" -v b="$t1" 'BEGIN { exit !(b - a < 4.0) }' || fail "stalled run took $(echo "$t1 - $t0" | bc) s to stop"
grep -q "did not reach the end of a step within 1 s.*'stall.partial'; its last checkpoint: grit run restart file=stall.partial/restart.grit" err.txt || fail "stalled run message: $(cat err.txt)"
[ "$(wc -l <err.txt)" = 1 ] || fail "stalled run: more than one line on stderr"
rm -rf stall.partial
finish
