#!/usr/bin/env bash
# Compiles src/main/cuda/*.cu to PTX (sm_80: Ampere and later run it, the driver JITs it for the chip)
# into src/main/resources/ptx/, where the Java runner loads them with cuModuleLoadData. Run it after
# changing a kernel and commit the PTX, so machines without nvcc (the GPU device machine among them)
# still have the kernels. Needs nvcc (CUDA 12 or 13); NVCC overrides the compiler path.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
nvcc="${NVCC:-$(command -v nvcc || echo /usr/local/bin/nvcc)}"
[[ -x "$nvcc" ]] || { echo "gpu-build-ptx: nvcc not found (set NVCC=...)" >&2; exit 2; }
out="$here/src/main/resources/ptx"
mkdir -p "$out"
for cu in "$here"/src/main/cuda/*.cu; do
  name="$(basename "$cu" .cu)"
  "$nvcc" -ptx -arch=sm_80 -O3 -I "$here/src/main/cuda" -o "$out/$name.ptx.tmp" "$cu"
  mv "$out/$name.ptx.tmp" "$out/$name.ptx"
  # Assemble for Ampere and Hopper here, so a PTX the driver would refuse fails now, not on the GPU machine.
  ptxas="$(dirname "$nvcc")/ptxas"
  if [[ -x "$ptxas" ]]; then
    for sm in sm_80 sm_90; do "$ptxas" -arch="$sm" -o /dev/null "$out/$name.ptx" 2>&1 | grep -v 'Advisory' || true; done
  fi
  echo "gpu-build-ptx: $name.ptx ($(grep -c '^.visible .entry' "$out/$name.ptx") entries)"
done
