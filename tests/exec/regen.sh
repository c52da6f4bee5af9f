#!/usr/bin/env bash
# Regenerates the PTX of every exec test from its CUDA source (run after editing src/*.cu).
#   tests/exec/regen.sh        (needs nvcc on PATH)
set -euo pipefail
cd "$(dirname "$0")"
for cu in src/*.cu; do
  name=$(basename "$cu" .cu)
  nvcc -arch=sm_90 -ptx "$cu" -o "$name.ptx"
done
