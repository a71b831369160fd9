# Sourced by tools/run-demo.sh and tools/run-tests.sh: install the Debian
# packages that are missing (and only those), with sudo unless root.
#   need_packages PKG...      fail if they cannot be installed
#   want_packages PKG...      try; go on without them if that fails

missing_packages() {
    local p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
    done
}

apt_install() {
    local sudo=
    [ "$(id -u)" = 0 ] || sudo=sudo
    if ! command -v apt-get >/dev/null; then
        echo "grit: missing packages ($*) and no apt-get here: install them by hand" >&2
        return 1
    fi
    echo "grit: installing missing Debian packages: $*"
    $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"
}

need_packages() {
    local m
    m=$(missing_packages "$@")
    [ -z "$m" ] || apt_install $m || { echo "grit: cannot install: $m" >&2; exit 1; }
}

want_packages() {
    local m
    m=$(missing_packages "$@")
    [ -z "$m" ] || apt_install $m || echo "grit: could not install $m; going on without" >&2
}

# Build tools for the C engine.
BUILD_PACKAGES="cmake make gcc libc6-dev zlib1g-dev"
# Parallel build jobs: at most 2 (the machines this runs on are shared).
JOBS=${JOBS:-$(n=$(nproc 2>/dev/null || echo 1); [ "$n" -gt 2 ] && echo 2 || echo "$n")}
# Clang's OpenMP runtime (GCC brings its own, libgomp): the threads of the
# step; without it a Clang build runs on one thread.
CLANG_PACKAGES="clang libomp-dev"
