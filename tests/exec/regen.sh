#!/usr/bin/env bash
# Regenerates the PTX of every exec test from its CUDA source (run after editing src/*.cu).
#   tests/exec/regen.sh        (needs nvcc on PATH)
# A source whose first line is "// regen-flags: FLAGS" gets those nvcc flags too (e.g. -G).
set -euo pipefail
cd "$(dirname "$0")"
for cu in src/*.cu; do
  name=$(basename "$cu" .cu)
  flags=$(sed -n '1s|^// regen-flags: ||p' "$cu")
  nvcc -arch=sm_90 -ptx $flags "$cu" -o "$name.ptx"
done
