#!/usr/bin/env bash
# The probe-only check of issue 12 on this kind of machine: a fresh probe (calibrate --probe, the ECM
# model's in-core rates and bandwidths) over the machine's base spec, then MiniLM blocks 0 and 3 at
# 0.5-0.95 magnitude sparsity and 2:4, N = 16-128, 1 and 2 threads, formats against dense. Nothing of
# these runs is fitted: `sparseprof validate --hw DIR/probe-check.yaml` predicts them with the probe alone.
#   scripts/measure-probe-check.sh DIR [BASE_SPEC]
# DIR is the machine's folder, validation/measured/<MachineIdentity.folderName()>; BASE_SPEC the spec
# the probe overlays (default auto: calibrate --probe's choice of the bundled preset of this CPU's kind). Run from the repository root. SPARSEPROF names the
# launcher (a frozen copy of the build, so edits meanwhile do not rebuild it); SPARSEPROF_JAVA_OPTS
# passes JVM options (-XX:UseAVX=2 holds the Vector API to 256 bits). PARTS (default "probe t1 t2")
# runs only those parts, so each fits a quiet hold of < 7 min; the part "sell" (not in the default)
# measures SELL (the kernel of the probe's width, sell-16-256 or sell-8-256) beside csr and dense at
# N = 1 and 16, 1 and 2 threads: its probe-only check.
set -euo pipefail
d="${1:?usage: measure-probe-check.sh DIR [BASE_SPEC]}"
base="${2:-auto}"
parts=" ${PARTS:-probe t1 t2} "
sp="${SPARSEPROF:-./sparseprof}"
mkdir -p "$d"
layers='*layer.0/*,*layer.3/*'
if [[ "$parts" == *" probe "* ]]; then
  echo "$(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) probe"
  "$sp" calibrate --probe --preset "$base" --out "$d/probe-check.yaml" > /dev/null
fi
m() { local name=$1; shift; "$sp" measure --reps 15 --layers "$layers" --json "$d/$name.json" "$@" | tail -1; echo "$(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) $name"; }
if [[ "$parts" == *" t1 "* ]]; then
  m check-t1-s0.5-n16 --formats csr,coo,bsr4x4 --sparsity 0.5 --batch 16 --threads 1
  m check-t1-s0.9-n16 --formats csr,coo,bsr4x4 --sparsity 0.9 --batch 16 --threads 1
  m check-t1-s0.95-n64 --formats csr,coo,bsr4x4 --sparsity 0.95 --batch 64 --threads 1
  m check-t1-s0.7-n128 --formats csr,coo,bsr4x4 --sparsity 0.7 --batch 128 --threads 1
  m check-t1-nm24-n16 --formats 2:4,csr --nm 2:4 --batch 16 --threads 1
  m check-t1-nm24-n128 --formats 2:4,csr --nm 2:4 --batch 128 --threads 1
fi
if [[ "$parts" == *" sell "* ]]; then
  bits=$(sed -n 's/^ *simdWidth: \([0-9]*\)bits.*/\1/p' "$d/probe-check.yaml")
  [[ -n "$bits" ]] || { echo "$d/probe-check.yaml: no simdWidth (run the probe part first)" >&2; exit 2; }
  sell="sell-$((bits / 32))-256"
  m sell-t1-s0.5-n1 --formats "$sell,csr" --sparsity 0.5 --batch 1 --threads 1
  m sell-t1-s0.9-n1 --formats "$sell,csr" --sparsity 0.9 --batch 1 --threads 1
  m sell-t1-s0.95-n1 --formats "$sell,csr" --sparsity 0.95 --batch 1 --threads 1
  m sell-t1-nm24-n1 --formats "$sell,2:4,csr" --nm 2:4 --batch 1 --threads 1
  m sell-t2-s0.9-n1 --formats "$sell,csr" --sparsity 0.9 --batch 1 --threads 2
  m sell-t1-s0.9-n16 --formats "$sell,csr" --sparsity 0.9 --batch 16 --threads 1
fi
if [[ "$parts" == *" t2 "* ]]; then
  m check-t2-s0.5-n32 --formats csr,coo,bsr4x4 --sparsity 0.5 --batch 32 --threads 2
  m check-t2-s0.9-n128 --formats csr,coo,bsr4x4 --sparsity 0.9 --batch 128 --threads 2
  m check-t2-s0.95-n16 --formats csr,coo,bsr4x4 --sparsity 0.95 --batch 16 --threads 2
  m check-t2-nm24-n64 --formats 2:4,csr --nm 2:4 --batch 64 --threads 2
fi
