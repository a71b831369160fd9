# Fault injection (issue 15, docs/reliability.md): full disk, read-only
# folders, SIGKILL at random moments followed by continuation from whatever is
# on disk, and the destination checks made before the first step. The mounts
# need root (CI runs as root); without it those parts are skipped, saying so.
. "$(dirname "$0")/lib.sh"

common="n=400 progress=0 vtk_every=-1"
# ---- destinations, all checked before anything is written (exit 2)
expect_error 2 "save= 'nodir/x.grit': the folder 'nodir' does not exist" run deposit $common steps=10 save=nodir/x.grit
expect_error 2 "save= 'o/x.grit' is inside the output folder 'o', which the run replaces" run deposit $common steps=10 out=o save=o/x.grit
expect_error 2 "save= 'o.partial/x.grit' is inside the output folder 'o'" run deposit $common steps=10 out=o save=o.partial/x.grit
expect_error 2 "output folder '/' cannot be replaced" run deposit $common steps=10 out=/
# out=dir/ (trailing slash) is the folder dir: it failed only at the end
expect_ok run deposit $common steps=10 out=slash/
[ -f slash/restart.grit ] && [ ! -e slash/.partial ] || fail "out=slash/ did not make slash/"
rm -rf slash

# ---- restart chains: the checkpoint a run continues from is kept until the
# continued run's own first checkpoint is on disk; SIGKILL at any moment
# leaves a state to go on from, and the end equals an uninterrupted run
total=40000
expect_ok run deposit $common steps=$total out=whole
step_of() { grit_python -c "import grit, sys; print(grit.Scene.load(sys.argv[1]).step)" "$1"; }
have_python=1
step_of whole/restart.grit >/dev/null 2>&1 || { have_python=0; echo "skip: SIGKILL chain (no Python grit)"; }
if [ $have_python = 1 ]; then
    "$GRIT" run deposit $common steps=$total out=chain checkpoint=0.05 >/dev/null 2>&1 &
    pid=$!
    sleep 0.$((RANDOM % 5 + 3))
    kill -KILL $pid 2>/dev/null
    kills=1
    wait $pid 2>/dev/null
    for round in 1 2 3 4 5 6 7 8; do
        [ -d chain ] && break
        [ -s chain.partial/restart.grit ] || { fail "round $round: nothing to continue from in chain.partial"; break; }
        at=$(step_of chain.partial/restart.grit)
        "$GRIT" run restart file=chain.partial/restart.grit steps=$((total - at)) out=chain progress=0 vtk_every=-1 checkpoint=0.05 \
            >/dev/null 2>err.txt &
        pid=$!
        if [ $round -lt 4 ]; then # killed again, sooner or later
            sleep 0.$((RANDOM % 4 + 2))
            kill -KILL $pid 2>/dev/null && kills=$((kills + 1))
        fi
        wait $pid 2>/dev/null
    done
    [ -d chain ] || fail "the SIGKILL chain never completed"
    echo "SIGKILL chain: $kills kills, then completed"
    cmp -s whole/restart.grit chain/restart.grit || fail "SIGKILL chain: final state differs from the uninterrupted run"
    ls -d chain.partial* 2>/dev/null && fail "the SIGKILL chain left partial folders behind"
    rm -rf chain
fi

# ---- a full disk and a read-only folder (small tmpfs mounts)
mnt="$work/mnt"
mkdir -p "$mnt"
if mount -t tmpfs -o size=200k tmpfs "$mnt" 2>/dev/null; then
    "$GRIT" run deposit n=200 steps=3000 vtk_format=ascii progress=0 out="$mnt/full" >out.txt 2>err.txt
    rc=$?
    [ $rc = 1 ] || fail "full disk: exit $rc, expected 1"
    grep -q "cannot write '$mnt/full.partial/.*': No space left on device" err.txt || fail "full disk message: $(cat err.txt)"
    grep -q "continue from step [0-9]* with: grit run restart file=$mnt/full.partial/restart.grit" err.txt ||
        fail "full disk: no state named to continue from: $(cat err.txt)"
    [ "$(wc -l <err.txt)" = 1 ] || fail "full disk: more than one line"
    "$GRIT" run restart file="$mnt/full.partial/restart.grit" steps=1 out=after progress=0 vtk_every=-1 >/dev/null 2>&1 ||
        fail "full disk: the restart file left is not loadable"
    ls "$mnt"/full.partial/*.tmp* 2>/dev/null && fail "full disk: temporary files left"
    rm -rf after
    umount "$mnt"
    mount -t tmpfs -o ro,size=100k tmpfs "$mnt"
    expect_error 2 "cannot (create|write into) output folder '$mnt/ro.partial'" run deposit $common steps=10 out="$mnt/ro"
    expect_error 2 "save= '$mnt/x.grit': cannot write into the folder '$mnt'" run deposit $common steps=10 save="$mnt/x.grit"
    umount "$mnt"
else
    echo "skip: full disk and read-only folders (cannot mount a tmpfs here)"
fi
finish
