#!/usr/bin/env bash
# Regenerates the committed PTX inputs from the CUDA sources (needs nvcc; the tests do not run this).
set -euo pipefail
cd "$(dirname "$0")"
for cu in *.cu; do
  b=${cu%.cu}
  arch=sm_80; extra=()
  case $b in
    cluster) arch=sm_90 ;;
    hopper) arch=sm_90a ;;
    extern_fn|features|big) extra=(-rdc=true) ;;  # visible device functions, weak template kernels
  esac
  nvcc -ptx -arch=$arch "${extra[@]}" "$cu" -o "$b.ptx"
done
# Line-number and full debug variants of a few inputs.
for b in calls globals local shared; do
  nvcc -ptx -arch=sm_80 -lineinfo "$b.cu" -o "$b.lineinfo.ptx"
done
for b in calls globals local shared; do
  nvcc -ptx -arch=sm_80 -G "$b.cu" -o "$b.g.ptx"
done
