# save=FILE, OUT/restart.grit and `grit run restart`: a run split in two
# by a restart file ends bitwise where the uninterrupted run ends; an
# interrupted run leaves a restart file it can be continued from; bad
# restart input is one clear error line.
. "$(dirname "$0")/lib.sh"

common="n=150 progress=0 vtk_every=-1"
expect_ok run deposit $common steps=3000 out=whole save=whole.grit
[ -s whole/restart.grit ] || fail "no whole/restart.grit"
cmp -s whole.grit whole/restart.grit || fail "save=FILE differs from OUT/restart.grit"
expect_ok run deposit $common steps=1500 out=half
expect_ok run restart file=half/restart.grit steps=1500 out=rest progress=0 vtk_every=-1
grep -q "contacts *[1-9][0-9]* real" out.txt || fail "the continued bed has no contacts: $(grep contacts out.txt)"
cmp -s whole/final.csv rest/final.csv || fail "continued run: final.csv differs from the uninterrupted run"
cmp -s whole/restart.grit rest/restart.grit || fail "continued run: restart.grit differs from the uninterrupted run"
# the energy log goes on from the saved step and the saved books
tail -n 1 whole/energy.csv >a.row
tail -n 1 rest/energy.csv >b.row
cmp -s a.row b.row || fail "last energy rows differ: $(cat a.row) / $(cat b.row)"
head -n 2 rest/energy.csv | tail -n 1 | grep -q "^1500," || fail "continued energy log does not start at step 1500"
rm -f a.row b.row

# Ctrl-C: the state at the interruption is saved in OUT.partial
interrupt_run run deposit n=150 steps=2000000000 out=run progress=0 vtk_every=-1
[ $? = 130 ] || fail "exit after SIGINT is not 130"
grep -q "continue with: grit run restart file=run.partial/restart.grit" err.txt || fail "message: $(cat err.txt)"
[ -s run.partial/restart.grit ] || fail "no run.partial/restart.grit after Ctrl-C"
expect_ok run restart file=run.partial/restart.grit steps=10 out=more
rm -f out.txt err.txt

# an interrupted run continued with `grit run restart` and nothing else
# goes on to its own end into its own folder, appending to its series: every
# output file is the uninterrupted run's, byte for byte (GRIT_TEST_INTERRUPT_AT
# stops the run as Ctrl-C would, at a step that is on no output's cadence)
series="n=150 steps=3000 progress=0"
expect_ok run deposit $series out=full
GRIT_TEST_INTERRUPT_AT=1234 "$GRIT" run deposit $series out=cut >out.txt 2>err.txt
[ $? = 130 ] || fail "GRIT_TEST_INTERRUPT_AT: exit is not 130"
grep -q "^# series: first=0 end=3000 vtk_every=75 save_every=15 vtk_format=zlib vtk_precision=float64$" cut.partial/grit-run.txt ||
    fail "no series line in the record: $(grep series cut.partial/grit-run.txt)"
expect_ok run restart file=cut.partial/restart.grit progress=1e-9
grep -q "^grit run restart: 155 particles, 1766 steps" out.txt || fail "continued run: $(head -n 1 out.txt)"
# the progress counts the series' steps, not this run's (it said 2134/766, 279 %)
grep "^step" out.txt | tail -n 1 | grep -q "^step 3000/3000 (100%)" || fail "progress: $(grep '^step' out.txt | tail -n 1)"
grep "^step" out.txt | awk '{ split($2, a, "/"); if (a[1] < 1234 || a[2] != 3000) exit 1 }' ||
    fail "progress steps: $(grep '^step' out.txt | head -n 3)"
[ -d cut ] && [ ! -e cut.partial ] || fail "the continued run did not complete into 'cut'"
for f in $(cd full && ls); do
    [ "$f" = grit-run.txt ] && continue
    cmp -s "full/$f" "cut/$f" || fail "interrupted and continued: $f differs from the uninterrupted run's"
done
[ "$(ls full | wc -l)" = "$(ls cut | wc -l)" ] || fail "the continued output has other files: $(ls cut | tr '\n' ' ')"
grep -q "^# continued at step 1234: grit run restart file=cut.partial/restart.grit" cut/grit-run.txt ||
    fail "the record does not say where the run was continued"
# killed (SIGKILL) after a checkpoint: the rows and frames written after it
# are dropped and written again; the end is again the uninterrupted run's
GRIT_TEST_STALL_AT=1500 "$GRIT" run deposit $series out=kill checkpoint=1e-9 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 200); do grep -q "particles_000001500" kill.partial/particles.pvd 2>/dev/null && break; sleep 0.1; done
sleep 0.3
kill -KILL $pid
wait $pid 2>/dev/null
[ -e kill.partial/energy.csv.partial ] || fail "the killed run left no energy.csv.partial"
expect_ok run restart file=kill.partial/restart.grit progress=0
for f in $(cd full && ls); do
    [ "$f" = grit-run.txt ] && continue
    cmp -s "full/$f" "kill/$f" || fail "killed and continued: $f differs from the uninterrupted run's"
done
# a run given more steps goes on in the same series; a key that would change
# the series' cadence is refused
GRIT_TEST_INTERRUPT_AT=100 "$GRIT" run deposit $series out=more2 >/dev/null 2>&1
expect_error 2 "'vtk_every' cannot change when a run goes on with the output in 'more2.partial'" \
    run restart file=more2.partial/restart.grit vtk_every=10
expect_ok run restart file=more2.partial/restart.grit steps=50 vtk_every=75 progress=0
grep -q "^# series: first=0 end=150 " more2/grit-run.txt || fail "steps=50: $(grep series more2/grit-run.txt)"
tail -n 1 more2/energy.csv | grep -q "^150," || fail "steps=50: the energy log does not end at step 150"
rm -rf full cut kill more2

# bad input
expect_error 2 "needs time= or steps= \(how far to go on\)" run restart file=whole/restart.grit
expect_error 2 "parameter 'file' is required" run restart
expect_error 2 "restart file 'nope.grit': cannot open" run restart file=nope.grit
head -c 1000 whole.grit >cut.grit
expect_error 2 "restart file 'cut.grit': truncated" run restart file=cut.grit
printf 'not a restart file at all, but long enough to hold a header, surely' >junk.grit
expect_error 2 "restart file 'junk.grit'" run restart file=junk.grit
expect_error 2 "'dt' is a scene parameter" run restart file=whole.grit dt=1e-5
expect_error 2 "unknown parameter 'nn'" run restart file=whole.grit nn=3
finish
