#!/usr/bin/env bash
# Builds a shadow CUDA toolkit bin/ folder in which nvcc runs our assembler as its ptxas.
#
#   tools/nvcc-shim/make-shadow.sh OPTXAS_BINARY DEST [CUDA_HOME]
#
# nvcc looks for ptxas beside its own binary (nvcc.profile puts $(_HERE_) on its PATH) and reads
# nvcc.profile from its own folder, so a symlink to nvcc is not enough: DEST/bin gets a copy of
# nvcc, an nvcc.profile whose TOP is the real installation, symlinks for every other tool, and
# OPTXAS_BINARY as ptxas. Then `DEST/bin/nvcc -arch=sm_90 -cubin k.cu` assembles with optxas, and
# CMake projects can use -DCMAKE_CUDA_COMPILER=DEST/bin/nvcc.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 OPTXAS_BINARY DEST [CUDA_HOME]" >&2; exit 2; }
optxas="$(readlink -f "$1")"
dest="$2"
# The real toolkit: the folder whose bin/ has nvcc and nvcc.profile. The nvcc on PATH may be a
# wrapper or a copy outside it (/usr/local/bin/nvcc), so ask nvcc where it runs from (-dryrun
# prints _HERE_) before trying the usual places.
find_cuda() {
  local nvcc here c
  nvcc="$(command -v nvcc || true)"
  if [ -n "$nvcc" ]; then
    here="$("$nvcc" -dryrun -c -x cu /dev/null -o /dev/null 2>&1 | sed -n 's/^#\$ _HERE_=//p' | head -n1)"
    [ -z "$here" ] || set -- "$(dirname "$here")"
    set -- "$@" "$(dirname "$(dirname "$(readlink -f "$nvcc")")")"
  fi
  for c in "$@" ${CUDA_HOME:-} ${CUDA_PATH:-} /usr/local/cuda /usr/local/cuda-13.0; do
    c="$(readlink -f "$c" || true)"
    if [ -n "$c" ] && [ -x "$c/bin/nvcc" ] && [ -f "$c/bin/nvcc.profile" ]; then echo "$c"; return; fi
  done
}
cuda="${3:-$(find_cuda)}"
[ -n "$cuda" ] || { echo "make-shadow: no CUDA installation (bin/nvcc and bin/nvcc.profile) found" >&2; exit 1; }
[ -x "$optxas" ] || { echo "make-shadow: $optxas is not executable" >&2; exit 1; }
[ -x "$cuda/bin/nvcc" ] && [ -f "$cuda/bin/nvcc.profile" ] ||
  { echo "make-shadow: no nvcc and nvcc.profile under $cuda/bin" >&2; exit 1; }
# The nvcc on PATH may itself be a shadow's (its ptxas is optxas): name the real toolkit then.
[ "$(readlink -f "$cuda/bin/ptxas")" != "$optxas" ] ||
  { echo "make-shadow: $cuda is a shadow toolkit already; pass the real CUDA_HOME" >&2; exit 1; }

mkdir -p "$dest/bin"
bin="$(cd "$dest/bin" && pwd)"
for f in "$cuda"/bin/*; do
  name="$(basename "$f")"
  case "$name" in nvcc|nvcc.profile|ptxas) continue ;; esac
  ln -sfn "$f" "$bin/$name"
done
cp -f "$cuda/bin/nvcc" "$bin/nvcc"
# The real profile, with TOP pinned to the real installation instead of $(_HERE_)/.. .
sed "s|^TOP *=.*|TOP              = $cuda|" "$cuda/bin/nvcc.profile" > "$bin/nvcc.profile"
ln -sfn "$optxas" "$bin/ptxas"
# nvcc and CMake also look at ../include, ../lib64, ../nvvm relative to bin/.
for d in include lib64 lib nvvm targets; do
  [ -e "$cuda/$d" ] && ln -sfn "$cuda/$d" "$dest/$d"
done
echo "$bin/nvcc"
