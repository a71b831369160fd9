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
# the next run with the same out= replaces the stale partial folder
expect_ok run deposit n=20 time=0.001 out=run progress=0
[ -d run ] && [ ! -e run.partial ] || fail "the next run did not take over"
finish
