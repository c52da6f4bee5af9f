#!/usr/bin/env bash
# One entry point for a fresh machine:
#   tools/dev.sh assemble IN.ptx [ptxas options...]   install deps, build, assemble IN.ptx
#   tools/dev.sh test                                  install deps, build, run every test
#   tools/dev.sh build                                 install deps, build only
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${OPTXAS_BUILD_DIR:-$root/build}"
cmd="${1:-build}"; shift || true
"$root/tools/install-deps.sh"
export PATH="$PATH:/usr/local/cuda/bin"
[ -n "${NVDISASM:-}" ] || export NVDISASM="$HOME/.cache/cuda-disasm/nvdisasm"
export CUOBJDUMP="${CUOBJDUMP:-$(dirname "$NVDISASM")/cuobjdump}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j "$(nproc)"
case "$cmd" in
  build) ;;
  assemble) exec "$build/bin/optxas" "$@" ;;
  test) cd "$build" && exec ctest --output-on-failure -j "$(nproc)" ;;
  *) echo "usage: tools/dev.sh {build|assemble IN.ptx [options]|test}" >&2; exit 2 ;;
esac
