#!/usr/bin/env bash
# Installs everything optxas needs to build and test, as on a new machine: Debian packages and
# NVIDIA's nvdisasm/cuobjdump (through ../shared/tools/fetch-nvdisasm.sh). Safe to re-run.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
pkgs=(cmake ninja-build g++ clang libclang-rt-14-dev llvm-14-dev libfmt-dev libzstd-dev libgtest-dev libgmock-dev pkg-config python3)
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# The nvdisasm/cuobjdump oracle. Tests find it through NVDISASM or ~/.cache/cuda-disasm.
if [ -z "${NVDISASM:-}" ] || [ ! -x "${NVDISASM}" ]; then
  fetch="$here/../shared/tools/fetch-nvdisasm.sh"
  if [ -x "$HOME/.cache/cuda-disasm/nvdisasm" ]; then :
  elif [ -f "$fetch" ]; then bash "$fetch" >/dev/null
  else echo "install-deps: cannot find $fetch to install nvdisasm" >&2; exit 1; fi
fi
for tool in ptxas nvcc; do
  command -v "$tool" >/dev/null || [ -x "/usr/local/cuda/bin/$tool" ] || { echo "install-deps: $tool (CUDA 13.0) not found" >&2; exit 1; }
done
