# An interrupted run leaves OUT.partial, never OUT, and exits with 130.
. "$(dirname "$0")/lib.sh"

"$GRIT" run deposit n=200 steps=2000000000 out=run progress=0 >out.txt 2>err.txt &
pid=$!
for _ in $(seq 100); do # until it is stepping
    grep -q "output in" out.txt 2>/dev/null && break
    sleep 0.1
done
sleep 0.5
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] || fail "exit $rc after SIGINT, expected 130"
grep -q "interrupted at step [0-9]*; the incomplete output is in 'run.partial'" err.txt || fail "message: $(cat err.txt)"
[ -e run ] && fail "an interrupted run left 'run' as if complete"
[ -d run.partial ] || fail "no run.partial"
# with save=FILE the interrupted state is saved, and it loads
"$GRIT" run periodic n=27 steps=2000000000 out=per save=per.grit progress=0 >out.txt 2>err.txt &
pid=$!
for _ in $(seq 100); do
    grep -q "output in" out.txt 2>/dev/null && break
    sleep 0.1
done
sleep 0.5
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] || fail "periodic: exit $rc after SIGINT, expected 130"
grep -q "interrupted at step [0-9]*; the incomplete output is in 'per.partial', the state in the restart file per.grit$" err.txt ||
    fail "message: $(cat err.txt)"
step=$(sed -n "s/.*interrupted at step \([0-9]*\);.*/\1/p" err.txt)
grit_python -c "
import grit
s = grit.Scene.load('per.grit')
assert s.step == $step and s.cell is not None, (s.step, $step)
" || fail "the restart file of the interrupted run does not hold step $step"
# the next run with the same out= replaces the stale partial folder
expect_ok run deposit n=20 time=0.001 out=run progress=0
[ -d run ] && [ ! -e run.partial ] || fail "the next run did not take over"
finish
