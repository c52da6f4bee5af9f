#!/usr/bin/env bash
# ctest device.verdicts: gpu-run's three-way judgement (docs/device.md) against a mock driver
# (mock/mock_cuda.cpp) whose "cubins" say what a launch does, on a kernel that writes nothing
# (mock/k.ptx: the interpreter's outputs are the inputs). Every verdict, in spec and auto mode,
# with the exit status and the words run.sh counts.
set -u -o pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="$(cd "$1" && pwd)"; bin="$build/bin"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
echo "k 32 1 1 0" >"$tmp/k.txt"
"$bin/device-expect" "$here/mock/k.ptx" "$tmp/k.txt" --out "$tmp/k" --seed 1 >/dev/null || { echo "FAIL device-expect"; exit 1; }
"$bin/ptx-run" "$here/mock/k.ptx" --spec "$here/mock/k.spec" --seed 1 --dump "$tmp/spec.bin" || { echo "FAIL ptx-run"; exit 1; }
for b in PLAIN CORRUPT1 CORRUPT2 NONDET TRAP; do printf 'MOCK_%s\0' "$b" >"$tmp/$b"; done
export LD_LIBRARY_PATH="$build/device-mock" MOCK_SLOTS="0:8,8:4"
status=0
# expect RC TEXT MODE REF TEST1 TEST2 [EXTRA...]: gpu-run exits RC and prints TEXT.
expect() {
  local rc="$1" text="$2" mode="$3" ref="$4" t1="$5" t2="$6"; shift 6
  local args=(--auto "$tmp/k.txt" --expect "$tmp/k")
  [ "$mode" = spec ] && args=(--spec "$here/mock/k.spec" --expect "$tmp/spec.bin")
  local out got
  out="$(cd "$tmp" && "$bin/gpu-run" "${args[@]}" --ref "$ref" --test "$t1" --test "$t2" --seed 1 "$@" 2>&1)"; got=$?
  if [ "$got" != "$rc" ] || [[ "$out" != *"$text"* ]]; then
    echo "FAIL $mode ref=$ref tests=$t1,$t2 $*: want exit $rc and '$text', got exit $got:"; echo "$out"; status=1
  else
    echo "ok   $mode ref=$ref tests=$t1,$t2 $*: $text"
  fi
}
for mode in auto spec; do
  expect 0 "all agree with the interpreter" $mode PLAIN PLAIN PLAIN
  expect 0 "ptxas wrong, ours right" $mode CORRUPT1 PLAIN PLAIN
  expect 1 "ours wrong, ptxas right" $mode PLAIN CORRUPT1 PLAIN
  expect 0 "the interpreter differs" $mode CORRUPT1 CORRUPT1 CORRUPT1
  expect 1 "both wrong, differently" $mode CORRUPT1 CORRUPT2 CORRUPT1
done
# A failure that poisons the context ends the process (125, run.sh goes on in a fresh one).
expect 125 "FAIL k: TRAP fails" auto PLAIN TRAP PLAIN
expect 1 "FAIL: TRAP failed" spec PLAIN TRAP PLAIN
# Only --auto runs ptxas's cubin twice.
expect 0 "ptxas wrong, ours right: two runs of ptxas's cubin differ" auto NONDET PLAIN PLAIN
expect 0 "skip k: nondeterministic" auto NONDET CORRUPT1 PLAIN
expect 125 "skip k: ptxas's cubin fails" auto TRAP PLAIN PLAIN
# A ptxas cubin that fails where the interpreter ran: ours right if it gives the interpreter's.
expect 0 "ptxas wrong (its cubin fails" spec TRAP PLAIN PLAIN
# Without the interpreter's outputs ours must equal ptxas's (the two-way check).
LD_LIBRARY_PATH="$build/device-mock" "$bin/gpu-run" --auto "$tmp/k.txt" --ref "$tmp/CORRUPT1" --test "$tmp/PLAIN" \
  --test "$tmp/PLAIN" >/dev/null && { echo "FAIL auto without --expect: a difference from ptxas passed"; status=1; }
# An expectation for another seed is refused before the launch.
expect 1 "interpreter outputs for seed 1" auto PLAIN PLAIN PLAIN --seed 2
# Interpreter outputs that do not fit the spec are refused.
head -c 20 "$tmp/spec.bin" >"$tmp/short.bin"
out="$(cd "$tmp" && "$bin/gpu-run" --spec "$here/mock/k.spec" --expect "$tmp/short.bin" --ref PLAIN --test PLAIN 2>&1)"
[ $? -eq 1 ] && [[ "$out" == *"do not fit the spec"* ]] || { echo "FAIL a short spec expectation: $out"; status=1; }

# run.sh --from on a hand-made pack: its counts and exit status follow the verdicts.
pack="$tmp/pack"; mkdir -p "$pack/bin" "$pack/lib" "$pack/cubins" "$pack/specs" "$pack/kernels" "$pack/expect"
cp "$bin/gpu-run" "$pack/bin/"; cp "$here/mock/k.spec" "$pack/specs/"; cp "$tmp/k.txt" "$pack/kernels/"
cp "$tmp/spec.bin" "$pack/expect/k.bin"; cp "$tmp"/k.0.expect "$pack/expect/corpus.k.0.expect"
echo 1 >"$pack/seed"; echo "0 0" >"$pack/pack-counts"
cubins() { cp "$tmp/$2" "$pack/cubins/$1.ptxas.cubin"; cp "$tmp/$3" "$pack/cubins/$1.optxas-O3.cubin"; cp "$tmp/$4" "$pack/cubins/$1.optxas-O0.cubin"; }
cubins exec.k CORRUPT1 PLAIN PLAIN
cubins corpus.k PLAIN PLAIN PLAIN
cubins exec.bad PLAIN CORRUPT1 PLAIN
printf '%s\n' "spec k specs/k.spec cubins/exec.k expect/k.bin" "auto corpus.k kernels/k.txt cubins/corpus.k expect/corpus.k" >"$pack/jobs.txt"
out="$("$here/run.sh" --from "$pack" 2>&1)"; rc=$?
if [ $rc -ne 0 ] || [[ "$out" != *"1 all agree, 1 ptxas wrong (ours right), 0 ptxas and ours agree"* ]]; then
  echo "FAIL run.sh --from (exit $rc):"; echo "$out"; status=1
else
  echo "ok   run.sh --from: $(printf '%s\n' "$out" | tail -1)"
fi
echo "spec bad specs/k.spec cubins/exec.bad expect/k.bin" >>"$pack/jobs.txt"
out="$("$here/run.sh" --from "$pack" 2>&1)"; rc=$?
if [ $rc -ne 1 ] || [[ "$out" != *"ours wrong, ptxas right"* ]]; then
  echo "FAIL run.sh --from with ours wrong (exit $rc):"; echo "$out"; status=1
else
  echo "ok   run.sh --from with ours wrong: exit 1"
fi
exit $status
