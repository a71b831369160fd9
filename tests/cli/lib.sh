# Helpers for the command-line tests: sourced by tests/cli/*.sh, which ctest
# runs as `bash tests/cli/NAME.sh GRIT_BINARY SOURCE_DIR`.
set -u
GRIT=$1
SRC=$2
fails=0
work=$(mktemp -d /tmp/grit-cli-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2

fail() {
    echo "FAIL: $*" >&2
    fails=$((fails + 1))
}

listing() { ls -A | grep -v -x -e out.txt -e err.txt | sort; }

# expect_error CODE PATTERN ARGS...: grit ARGS exits with CODE, writes
# exactly one line to stderr, matching the extended regex PATTERN, and
# leaves no file or folder behind in the working folder.
expect_error() {
    local code=$1 pattern=$2
    shift 2
    local before rc lines
    before=$(listing)
    "$GRIT" "$@" >out.txt 2>err.txt
    rc=$?
    lines=$(wc -l <err.txt)
    if [ "$rc" != "$code" ]; then fail "grit $*: exit $rc, expected $code"; fi
    if [ "$lines" != 1 ]; then fail "grit $*: $lines lines on stderr, expected 1"; fi
    if ! grep -E -q -- "$pattern" err.txt; then fail "grit $*: stderr does not match /$pattern/"; fi
    if [ "$before" != "$(listing)" ]; then fail "grit $*: left behind: $(listing | tr '\n' ' ')"; fi
    echo "exit $rc: $(cat err.txt)"
    rm -f out.txt err.txt
}

# expect_ok ARGS...: grit ARGS exits 0 (stdout kept in out.txt).
expect_ok() {
    "$GRIT" "$@" >out.txt 2>err.txt
    local rc=$?
    if [ $rc != 0 ]; then fail "grit $*: exit $rc"; cat err.txt >&2; fi
    if [ -s err.txt ]; then fail "grit $*: wrote to stderr"; cat err.txt >&2; fi
}

# interrupt_run ARGS...: start grit ARGS in the background (stdout in
# out.txt, stderr in err.txt), send SIGINT once it is stepping, and return
# its exit status.
interrupt_run() {
    "$GRIT" "$@" >out.txt 2>err.txt &
    local pid=$!
    for _ in $(seq 100); do # until it is stepping
        grep -q "output in" out.txt 2>/dev/null && break
        sleep 0.1
    done
    sleep 0.5
    kill -INT $pid
    wait $pid
}

# sanitized: true when GRIT is a sanitizer build (ASan: 10-20x slower), for
# tests that run a long scene to skip repetitions that check nothing more
# for memory errors.
sanitized() { ldd "$GRIT" 2>/dev/null | grep -q -e libasan -e libubsan; }

# grit_python ARGS...: /usr/bin/python3 with this tree's grit package and the
# libgrit.so built beside GRIT; a sanitizer build's library needs its
# runtimes loaded first (and Python's own allocations are not leak-checked).
grit_python() {
    local lib pre=""
    lib="$(dirname "$GRIT")/libgrit.so"
    for rt in asan ubsan; do
        if ldd "$lib" 2>/dev/null | grep -q "lib$rt"; then
            pre="$pre${pre:+:}$(ldd "$lib" | awk -v r="lib$rt" '$1 ~ r {print $3}')"
        fi
    done
    PYTHONPATH="$SRC/python" GRIT_LIB="$lib" LD_PRELOAD="$pre" ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0" \
        /usr/bin/python3 "$@"
}

# pvbatch_run SCRIPT OUT_DIR IMAGE: render with ParaView under a virtual X
# server (output in pv.txt). xvfb-run -a races with other X servers that
# start at the same moment (two tests in parallel), and a fresh X server may
# not take the connection under load: a display number of its own per test
# and try, up to 3 tries.
pvbatch_run() {
    for try in 1 2 3; do
        rm -f "$3"
        xvfb-run -a -n $((100 + $$ % 800 + 10 * try)) pvbatch "$@" >pv.txt 2>&1
        [ -s "$3" ] && return 0
        sleep 1
    done
    return 1
}

finish() {
    if [ "$fails" != 0 ]; then
        echo "$fails check(s) failed" >&2
        exit 1
    fi
    echo "all checks passed"
    exit 0
}
