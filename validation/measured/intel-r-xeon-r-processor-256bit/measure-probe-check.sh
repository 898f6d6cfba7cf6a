#!/usr/bin/env bash
# The SIMD-width check of issue 12: the same Intel VM as ../intel-r-xeon-r-processor-512bit, with the
# JIT held to AVX2 (-XX:UseAVX=2: the Vector API's preferred species, and so every kernel, is 256 bits
# wide, 16 vector registers), i.e. a machine kind whose runs were never fitted. A fresh probe at 256
# bits, then MiniLM blocks 0 and 3 at 0.7/0.9 and 2:4, N = 16-128, 1 and 2 threads; `sparseprof validate`
# predicts them with probe-check.yaml alone (set minilm-cpu-256-probe-check of sets.yaml).
set -euo pipefail
sp="${SPARSEPROF:-./sparseprof}"
export SPARSEPROF_JAVA_OPTS="-Xmx3g -XX:UseAVX=2"
d=validation/measured/intel-r-xeon-r-processor-256bit
layers='*layer.0/*,*layer.3/*'
echo "$(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) probe"
"$sp" calibrate --probe --preset validation/measured/intel-r-xeon-r-processor-512bit/this-vm-base.yaml --out $d/probe-check.yaml > /dev/null
m() { local name=$1; shift; "$sp" measure --reps 15 --layers "$layers" --json "$d/$name.json" "$@" | tail -1; echo "$(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) $name"; }
m check-t1-s0.9-n128 --formats csr,coo,bsr4x4 --sparsity 0.9 --batch 128 --threads 1
m check-t1-s0.7-n32 --formats csr,coo,bsr4x4 --sparsity 0.7 --batch 32 --threads 1
m check-t1-nm24-n16 --formats 2:4,csr --nm 2:4 --batch 16 --threads 1
m check-t2-s0.9-n64 --formats csr,coo,bsr4x4 --sparsity 0.9 --batch 64 --threads 2
