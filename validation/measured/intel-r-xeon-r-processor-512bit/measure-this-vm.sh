#!/usr/bin/env bash
# The measurement campaign behind the minilm-cpu set of sets.yaml, as it was run on the build VM
# (2 vCPU KVM guest, Intel Xeon with AVX-512).
# Each measure call interleaves the formats' repetitions (every format sees the same load) and
# writes its own header (machine, date, exact command). Run from the repository root;
# SPARSEPROF names the launcher (a frozen copy of the build, so edits meanwhile do not rebuild it).
set -euo pipefail
sp="${SPARSEPROF:-./sparseprof}"
d=validation/measured/intel-r-xeon-r-processor-512bit
reps=21
"$sp" calibrate --probe --preset $d/this-vm-base.yaml --out $d/probe-this-vm.yaml
m() { local name=$1; shift; "$sp" measure --reps $reps --json "$d/$name.json" "$@" > /dev/null; echo "$(date -u +%T) $name"; }
m minilm-t1-s0.5-n32 --formats csr,coo,bsr4x4 --sparsity 0.5 --batch 32 --threads 1
m minilm-t1-s0.9-n32 --formats csr,coo,bsr4x4 --sparsity 0.9 --batch 32 --threads 1
m minilm-t1-nm24-n32 --formats 2:4,csr --nm 2:4 --batch 32 --threads 1
m minilm-t1-s0.7-n32 --formats csr,coo,bsr4x4 --sparsity 0.7 --batch 32 --threads 1
m minilm-t1-s0.9-n128 --formats csr,coo,bsr4x4 --sparsity 0.9 --batch 128 --threads 1
m minilm-t2-s0.7-n32 --formats csr,coo,bsr4x4 --sparsity 0.7 --batch 32 --threads 2
m minilm-t1-s0.8-n32 --formats csr,coo,bsr4x4 --sparsity 0.8 --batch 32 --threads 1
m minilm-t1-s0.5-n128 --formats csr,coo,bsr4x4 --sparsity 0.5 --batch 128 --threads 1
m minilm-t1-s0.95-n32 --formats csr,coo,bsr4x4 --sparsity 0.95 --batch 32 --threads 1
m minilm-t2-s0.9-n128 --formats csr,coo,bsr4x4 --sparsity 0.9 --batch 128 --threads 2
m minilm-t1-s0.7-n128 --formats csr,coo,bsr4x4 --sparsity 0.7 --batch 128 --threads 1
m minilm-t1-nm24-n128 --formats 2:4,csr --nm 2:4 --batch 128 --threads 1
m minilm-t2-s0.9-n32 --formats csr,coo,bsr4x4 --sparsity 0.9 --batch 32 --threads 2
m minilm-t2-nm24-n32 --formats 2:4,csr --nm 2:4 --batch 32 --threads 2
m minilm-t2-s0.5-n32 --formats csr,coo,bsr4x4 --sparsity 0.5 --batch 32 --threads 2
m minilm-t2-s0.7-n128 --formats csr,coo,bsr4x4 --sparsity 0.7 --batch 128 --threads 2
m minilm-t2-nm24-n128 --formats 2:4,csr --nm 2:4 --batch 128 --threads 2
