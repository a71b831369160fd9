#!/usr/bin/env bash
# Coverage-guided fuzzing of grit's input parsers with libFuzzer (clang),
# under AddressSanitizer and UndefinedBehaviorSanitizer: the spheres CSV (also read as a packing), STL,
# restart (with the CRC rewritten so that mutations reach the sections) and
# key=value parameter parsers (fuzz/fuzz_*.c, seeds in fuzz/corpus/).
#
#   tools/fuzz.sh [SECONDS]          every harness for SECONDS each (default 60)
#   GRIT_FUZZ_FULL=1 tools/fuzz.sh 3600   the documented long run: an hour per harness, every
#                                    source instrumented (the stepping of loaded files too)
#
# The engine is built with gcc elsewhere; here clang compiles the library's
# sources itself (the parsers, and the stepping that a loaded file gets).
# A crash, a hang (-timeout) or a sanitizer report fails the script and
# leaves the reproducer in build-fuzz/. docs/reliability.md has the results.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/debian-deps.sh
need_packages $CLANG_PACKAGES libclang-rt-14-dev
secs=${1:-60}
only=${2:-}
out=build-fuzz
mkdir -p "$out/obj"
flags=(-std=c11 -fopenmp -g -O1 -DGRIT_SHORT_NAMES -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -fno-omit-frame-pointer
       -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -Iinclude -Isrc)
objs=()
# (src/mpi/ is libgrit_mpi, apart from the library the parsers are in)
for f in $(find src -name '*.c' -not -path 'src/mpi/*' | sort); do
    o="$out/obj/$(echo "$f" | tr / _).o"
    if [ ! -f "$o" ] || [ "$f" -nt "$o" ]; then
        # The parsers and what a loaded file reaches first (io, core, shapes,
        # materials, broad phase) get coverage, ASan and UBSan; the rest (the
        # contact kernels: hundreds of inlined functor and law instances, minutes
        # per file under coverage) is built plain unless GRIT_FUZZ_FULL=1 (the
        # long run): CI's build stays within a few minutes.
        case "$f" in
            src/io/*|src/core/*|src/shape/*|src/material/*|src/collide/*|src/pack/packing.c) fflags=("${flags[@]}") ;;
            *) if [ "${GRIT_FUZZ_FULL:-0}" = 1 ]; then fflags=("${flags[@]}")
               else fflags=(-std=c11 -fopenmp -g -O1 -DGRIT_SHORT_NAMES -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Iinclude -Isrc); fi ;;
        esac
        clang "${fflags[@]}" -c "$f" -o "$o" &
        while [ "$(jobs -r | wc -l)" -ge "$JOBS" ]; do wait -n; done
    fi
    objs+=("$o")
done
wait
ar rcs "$out/libgrit-fuzz.a" "${objs[@]}"
fails=0
for h in csv stl restart params; do
    [ -n "$only" ] && [ "$only" != "$h" ] && continue
    clang "${flags[@]}" -fsanitize=fuzzer fuzz/fuzz_$h.c "$out/libgrit-fuzz.a" -lz -lm -o "$out/fuzz_$h"
    mkdir -p "$out/corpus-$h"
    echo "== fuzz_$h: $secs s"
    if ! (cd "$out" && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
          "./fuzz_$h" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
          -print_final_stats=1 "corpus-$h" "../fuzz/corpus/$h" 2>&1 | tee "fuzz_$h.log" |
          grep -E "^#[0-9]+ *(DONE|INITED)|stat::number_of_executed_units|cov:|ERROR|SUMMARY" | tail -4); then
        :
    fi
    if grep -qE "ERROR: (libFuzzer|AddressSanitizer|UndefinedBehaviorSanitizer)|runtime error|Test unit written" \
        "$out/fuzz_$h.log"; then
        echo "fuzz_$h: FAILED (see $out/fuzz_$h.log)"
        fails=$((fails + 1))
    fi
done
[ $fails = 0 ] && echo "fuzzing: no crash, hang or sanitizer report" || exit 1
