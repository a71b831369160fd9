# An interrupted run leaves OUT.partial, never OUT, and exits with 130.
. "$(dirname "$0")/lib.sh"

interrupt_run run deposit n=200 steps=2000000000 out=run progress=0
rc=$?
[ $rc = 130 ] || fail "exit $rc after SIGINT, expected 130"
grep -q "interrupted at step [0-9]*; the incomplete output is in 'run.partial'" err.txt || fail "message: $(cat err.txt)"
[ -e run ] && fail "an interrupted run left 'run' as if complete"
[ -d run.partial ] || fail "no run.partial"
# the next run with the same out= replaces the stale partial folder
expect_ok run deposit n=20 time=0.001 out=run progress=0
[ -d run ] && [ ! -e run.partial ] || fail "the next run did not take over"
finish
