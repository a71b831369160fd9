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

# bad input
expect_error 2 "parameter 'file' is required" run restart
expect_error 2 "restart file 'nope.grit': cannot open" run restart file=nope.grit
head -c 1000 whole.grit >cut.grit
expect_error 2 "restart file 'cut.grit': truncated" run restart file=cut.grit
printf 'not a restart file at all, but long enough to hold a header, surely' >junk.grit
expect_error 2 "restart file 'junk.grit'" run restart file=junk.grit
expect_error 2 "'dt' is a scene parameter" run restart file=whole.grit dt=1e-5
expect_error 2 "unknown parameter 'nn'" run restart file=whole.grit nn=3
finish
