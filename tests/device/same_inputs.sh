#!/usr/bin/env bash
# ctest device.same_inputs: device-expect (the PTX interpreter, at pack time) and gpu-run (on the
# GPU) must generate the same input bytes for a kernel, or the interpreter's outputs judge a
# different run. device-expect records the digest of the inputs it ran; gpu-run --check-expect
# regenerates them from the recorded parameter layout with its own copy of the generator and
# compares. Kernels with pointer, scalar and by-value struct parameters; a wrong seed must be
# caught.
set -u -o pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bin="$1/bin"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
# gpu-run links libcuda.so.1; without a driver the toolkit's stub serves (--check-expect never
# initializes CUDA).
if ! ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1'; then
  for d in /usr/local/cuda/lib64/stubs /usr/local/cuda/targets/x86_64-linux/lib/stubs; do
    [ -f "$d/libcuda.so" ] && ln -sf "$d/libcuda.so" "$tmp/libcuda.so.1" && break
  done
  export LD_LIBRARY_PATH="$tmp${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
status=0
for f in "$root/tests/corpus/ptx/atomics.sm_90.ptx" "$root/tests/corpus/ptx/cub_device_reduce.sm_90.ptx"; do
  n="$(basename "$f" .ptx)"
  python3 "$here/corpus_kernels.py" "$f" >"$tmp/$n.txt" || exit 1
  "$bin/device-expect" "$f" "$tmp/$n.txt" --out "$tmp/$n" --seed 7 >/dev/null || { echo "FAIL device-expect $n"; exit 1; }
  out="$("$bin/gpu-run" --auto "$tmp/$n.txt" --expect "$tmp/$n" --check-expect --seed 7)"; rc=$?
  echo "$n: $out"
  matched="$(printf '%s\n' "$out" | sed -n 's/.*: \([0-9]*\) interpreter expectation(s) match.*/\1/p')"
  if [ $rc -ne 0 ] || [ "${matched:-0}" -lt 2 ]; then echo "FAIL $n: inputs differ or too few kernels checked"; status=1; fi
  if "$bin/gpu-run" --auto "$tmp/$n.txt" --expect "$tmp/$n" --check-expect --seed 8 >/dev/null; then
    echo "FAIL $n: expectations for seed 7 accepted for seed 8"; status=1
  fi
done
exit $status
