# mpirun -np K grit run box: the same final state as one process running the
# scene with id_order (and without energy tracking, which MPI runs turn off);
# grit run restart of the run's checkpoint, on 2 ranks, the same as on one;
# a scene that cannot be spread refused on every rank with one message.
. "$(dirname "$0")/lib.sh"
if ! "$GRIT" version | grep -q "MPI runs.*: yes"; then
    echo "grit was built without MPI (libopenmpi-dev): nothing to run" >&2
    exit 0
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ASAN_OPTIONS=detect_leaks=0
MPI="mpiexec --oversubscribe -n"
args="n=1500 steps=1500 vtk_frames=3 threads=1"
"$GRIT" run box $args out=one track_energy=false id_order=true >out.txt 2>err.txt || fail "one process: exit $?"
for k in 2 3; do
    $MPI $k "$GRIT" run box $args out=k$k >out.txt 2>err.txt || { fail "$k ranks: exit $?"; cat err.txt >&2; }
    grep -q "mpi           $k ranks" out.txt || fail "$k ranks: no mpi line in the summary"
    grep -q "energy tracking is off" out.txt || fail "$k ranks: no note on the energy"
    [ "$(grep -c "grit run box: done" out.txt)" = 1 ] || fail "$k ranks: the summary is not printed once"
    cmp -s one/final.csv k$k/final.csv || fail "$k ranks: final.csv differs from one process"
    [ "$(ls k$k/particles_*.vtp | wc -l)" = "$(ls one/particles_*.vtp | wc -l)" ] || fail "$k ranks: other VTK frames"
    echo "$k ranks: $(grep "mpi  " out.txt)"
done
# a checkpoint written by 2 ranks continues on 2 as on one process
"$GRIT" run restart file=k2/restart.grit steps=500 out=r1 >out.txt 2>err.txt || fail "restart, one process: exit $?"
$MPI 2 "$GRIT" run restart file=k2/restart.grit steps=500 out=r2 >out.txt 2>err.txt || fail "restart, 2 ranks: exit $?"
cmp -s r1/final.csv r2/final.csv || fail "restart on 2 ranks differs from one process"
# what cannot be spread: one message, exit 2, nothing left behind
before=$(listing)
$MPI 2 "$GRIT" run hopper steps=10 out=hop >out.txt 2>err.txt
rc=$?
[ $rc = 2 ] || fail "hopper on 2 ranks: exit $rc, expected 2"
[ "$(grep -c "grit: error:" err.txt)" = 1 ] || fail "hopper on 2 ranks: not one error line"
grep -q "is not a sphere and moves freely" err.txt || fail "hopper on 2 ranks: the message does not say why"
[ -e hop ] && fail "hopper on 2 ranks: left its output folder"
$MPI 2 "$GRIT" run pack n=100 out=pk >out.txt 2>err.txt
[ $? = 2 ] && grep -q "runs on one process" err.txt || fail "pack on 2 ranks: not refused"
echo "refused: $(grep "grit: error:" err.txt | head -1)"
exit $fails
