#!/usr/bin/env bash
# Interpreter throughput (thread-instructions per second) on three kinds of kernels:
#   loop          arithmetic-bound (f32 fma, integer multiply-add, conversions)
#   reduce_shared memory + CTA barriers (8M instructions, 64 CTAs of 256 threads)
#   warp_ops      warp collectives under divergence (shfl, vote, match, redux)
# usage: tools/ptx-run/bench/bench.sh [BUILD_DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
run="${1:-$root/build}/bin/ptx-run"
"$run" "$here/loop.ptx" --spec "$here/loop.spec" --quiet --stats
"$run" "$root/tests/exec/reduce_shared.ptx" --spec "$here/reduce_shared.spec" --quiet --stats
"$run" "$root/tests/exec/warp_ops.ptx" --spec "$here/warp_ops.spec" --quiet --stats
