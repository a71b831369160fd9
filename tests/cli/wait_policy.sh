# The grit program runs its OpenMP threads with OMP_WAIT_POLICY=passive
# (app/main.c: it sets the policy and starts itself again, keeping its pid):
# the environment of a running grit holds it, and a policy the user set is
# kept as it was.
. "$(dirname "$0")/lib.sh"

policy_of_run() { # ENV...: the OMP_WAIT_POLICY of a running `grit run deposit` started with ENV
    env "$@" "$GRIT" run deposit n=300 time=5 vtk_every=-1 progress=0 out=w >out.txt 2>err.txt &
    local pid=$!
    for _ in $(seq 100); do
        grep -q "output in" out.txt 2>/dev/null && break
        sleep 0.1
    done
    tr '\0' '\n' </proc/$pid/environ | sed -n 's/^OMP_WAIT_POLICY=//p'
    kill -INT $pid
    wait $pid
    rm -rf w w.partial out.txt err.txt
}

got=$(policy_of_run -u OMP_WAIT_POLICY)
[ "$got" = passive ] || fail "OMP_WAIT_POLICY of a run: '$got', expected passive"
got=$(policy_of_run OMP_WAIT_POLICY=active)
[ "$got" = active ] || fail "OMP_WAIT_POLICY set to active by the user became '$got'"
echo "wait policy: passive by default, the user's kept"
finish
