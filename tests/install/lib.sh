# Shared by the install tests (sourced after `work` is set): a scratch folder
# removed on exit, fail and run, and an environment with nothing from the build
# or source tree in it.
fails=0
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2
fail() {
    echo "FAIL: $*" >&2
    fails=$((fails + 1))
}
# run LABEL COMMAND...: run it, output in LABEL.log; a failure shows the log's end
run() {
    local label=$1
    shift
    if ! "$@" >"$label.log" 2>&1; then
        fail "$label: $*"
        tail -40 "$label.log" >&2
        return 1
    fi
}
# nothing from the build or source tree may leak in
unset GRIT_LIB GRIT_DATA_DIR GRIT_PYTHON_DIR GRIT_PYTHON PYTHONPATH
