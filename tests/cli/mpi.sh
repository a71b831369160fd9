# mpirun -np K grit run box: the same final state as one process running the
# scene with id_order, and the same energy book (summed over the ranks) in
# every row of energy.csv; the same for deposit and with the automatic
# Verlet distance; grit run restart of the run's checkpoint, on 2 ranks, the
# same as on one; a scene that cannot be spread refused on every rank with
# one message.
. "$(dirname "$0")/lib.sh"
if ! "$GRIT" version | grep -q "MPI runs.*: yes"; then
    echo "grit was built without MPI (libopenmpi-dev): nothing to run" >&2
    exit 0
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ASAN_OPTIONS=detect_leaks=0
MPI="mpiexec --oversubscribe -n"
# same_energy A B: the rows of A/energy.csv and B/energy.csv are at the same
# steps, each term within 1e-12 of its value, the total within 1e-12 of the
# sum of the terms' magnitudes and the balance error within 1e-12 (the ranks
# add the same terms in another order); prints the largest differences.
same_energy() {
    awk -F, 'NR == FNR { row[FNR] = $0; n = FNR; next }
        FNR == 1 { if ($0 != row[1]) bad = bad " header"; next }
        {
            split(row[FNR], a, ",")
            if (a[1] != $1) { bad = bad " step " a[1] "/" $1; next }
            sa = 0
            for (k = 3; k < NF - 1; k++) sa += (a[k] < 0 ? -a[k] : a[k])
            for (k = 3; k <= NF; k++) {
                d = a[k] - $k; d = d < 0 ? -d : d
                of = k < NF - 1 ? (a[k] < 0 ? -a[k] : a[k]) : k == NF - 1 ? sa : 1
                if (d > 1e-12 * of) bad = bad " step " $1 " column " k
                r = of > 0 ? d / of : d
                if (k < NF - 1 && r > wt) wt = r
                if (k == NF && d > wb) wb = d
            }
            rows++
        }
        END {
            if (FNR != n) bad = bad " rows " n "/" FNR
            printf "%d rows, largest relative difference of a term %.3g, of the balance error %.3g\n", rows, wt, wb
            exit bad != ""
        }' "$1/energy.csv" "$2/energy.csv"
}
args="n=1500 steps=1500 vtk_frames=3 save_every=100 threads=1"
"$GRIT" run box $args out=one id_order=true >out.txt 2>err.txt || fail "one process: exit $?"
for k in 2 3; do
    $MPI $k "$GRIT" run box $args out=k$k >out.txt 2>err.txt || { fail "$k ranks: exit $?"; cat err.txt >&2; }
    grep -q "mpi           $k ranks" out.txt || fail "$k ranks: no mpi line in the summary"
    grep -q "energy tracking is off" out.txt && fail "$k ranks: energy tracking turned off"
    grep -q "balance error" out.txt || fail "$k ranks: no energy balance in the summary"
    [ "$(grep -c "grit run box: done" out.txt)" = 1 ] || fail "$k ranks: the summary is not printed once"
    cmp -s one/final.csv k$k/final.csv || fail "$k ranks: final.csv differs from one process"
    [ "$(ls k$k/particles_*.vtp | wc -l)" = "$(ls one/particles_*.vtp | wc -l)" ] || fail "$k ranks: other VTK frames"
    echo "$k ranks: $(grep "mpi  " out.txt)"
    m=$(same_energy one k$k) || fail "$k ranks: energy.csv differs from one process"
    echo "$k ranks, energy.csv: $m"
done
dargs="n=800 steps=1000 vtk_frames=2 save_every=100 threads=1"
"$GRIT" run deposit $dargs out=d1 id_order=true >out.txt 2>err.txt || fail "deposit, one process: exit $?"
$MPI 2 "$GRIT" run deposit $dargs out=d2 >out.txt 2>err.txt || fail "deposit, 2 ranks: exit $?"
cmp -s d1/final.csv d2/final.csv || fail "deposit, 2 ranks: final.csv differs from one process"
m=$(same_energy d1 d2) || fail "deposit, 2 ranks: energy.csv differs from one process"
echo "deposit, 2 ranks, energy.csv: $m"
# the automatic Verlet distance: the skin is chosen from the whole scene, as
# one process chooses it (with one row at the end and no progress lines: a
# row or a progress line gathers the scene, and spreading it again is a
# rebuild one process does not make; a rank re-sorts its own part)
vargs="n=1500 steps=1500 vtk_frames=1 save_every=1500 progress=0 checkpoint=0 threads=1 verlet_dist=nan"
skin() { grep -o "[0-9]* rebuilds" "$1"; grep -o "Verlet distance [^ ]* m" "$1"; }
"$GRIT" run box $vargs out=va1 id_order=true >va1.txt 2>err.txt || fail "verlet_dist=nan, one process: exit $?"
for k in 2 3; do
    $MPI $k "$GRIT" run box $vargs out=va$k >out.txt 2>err.txt || fail "verlet_dist=nan, $k ranks: exit $?"
    cmp -s va1/final.csv va$k/final.csv || fail "verlet_dist=nan, $k ranks: final.csv differs from one process"
    same_energy va1 va$k >/dev/null || fail "verlet_dist=nan, $k ranks: energy.csv differs from one process"
    [ "$(skin out.txt)" = "$(skin va1.txt)" ] || fail "verlet_dist=nan, $k ranks: '$(skin out.txt)', one process '$(skin va1.txt)'"
    echo "verlet_dist=nan, $k ranks:" $(skin out.txt) "(one process:" $(skin va1.txt)")"
done
# a checkpoint written by 2 ranks continues on 2 as on one process
"$GRIT" run restart file=k2/restart.grit steps=500 save_every=100 out=r1 >out.txt 2>err.txt || fail "restart, one process: exit $?"
$MPI 2 "$GRIT" run restart file=k2/restart.grit steps=500 save_every=100 out=r2 >out.txt 2>err.txt || fail "restart, 2 ranks: exit $?"
cmp -s r1/final.csv r2/final.csv || fail "restart on 2 ranks differs from one process"
m=$(same_energy r1 r2) || fail "restart on 2 ranks: energy.csv differs from one process"
echo "restart, 2 ranks, energy.csv: $m"
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
