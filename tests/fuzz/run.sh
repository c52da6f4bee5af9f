#!/usr/bin/env bash
# Builds the PTX parser fuzzer with clang (libFuzzer + ASan + UBSan) in its own build folder and
# runs it for a bounded time, seeded with the PTX corpus and the negative suite. Exits non-zero
# on any finding (crash, leak, sanitizer report, timeout) or when clang/libFuzzer is missing.
#
# usage: tests/fuzz/run.sh [SOURCE_DIR] [BUILD_DIR] [SECONDS]
set -euo pipefail
src="${1:-$(cd "$(dirname "$0")/../.." && pwd)}"
build="${2:-$src/build/fuzz}"
seconds="${3:-60}"
cc="${FUZZ_CC:-clang}"
cxx="${FUZZ_CXX:-clang++}"
if ! command -v "$cxx" >/dev/null; then
  echo "FAIL: $cxx not found (the fuzzer needs clang with libFuzzer)" >&2
  exit 1
fi
san="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_CXX_FLAGS="$san" -DCMAKE_C_FLAGS="$san" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DOPTXAS_BUILD_FUZZERS=ON -DOPTXAS_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" --target fuzz-ptx -j "${FUZZ_JOBS:-2}" >/dev/null
work="$build/fuzz-run"
rm -rf "$work"
mkdir -p "$work/corpus" "$work/artifacts"
cp "$src"/tests/corpus/ptx/*.ptx "$src"/tests/negative/cases/*.ptx "$work/corpus/"
[ -d "$src/tests/fuzz/seeds" ] && cp "$src"/tests/fuzz/seeds/* "$work/corpus/" 2>/dev/null || true
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
set +e
"$build/bin/fuzz-ptx" "$work/corpus" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
  -rss_limit_mb=4096 -dict="$src/tests/fuzz/ptx.dict" -artifact_prefix="$work/artifacts/" \
  -print_final_stats=1 > "$work/log.txt" 2>&1
rc=$?
set -e
tail -n 25 "$work/log.txt"
if [ $rc -ne 0 ] || ls "$work/artifacts/"* >/dev/null 2>&1; then
  echo "FAIL: the fuzzer found a problem (exit $rc); reproducers in $work/artifacts/" >&2
  exit 1
fi
echo "fuzz-ptx: no findings in ${seconds}s"
