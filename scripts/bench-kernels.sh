#!/usr/bin/env bash
# Peer comparison of the kernels in ONE run: the same random matrices (3072x768, N = 1..128,
# sparsity 0.5..0.95) through scipy's CSR @ dense (single thread), numpy/OpenBLAS dense (1 and 2
# threads) and sparseprof's kernels (dev.sparseprof.bench.KernelPeerBench), then the ratios the
# goals of issue 4 name. On a shared machine every figure is under contention: quote medians.
# OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE, when this machine sets them, slow a current numpy: they are
# unset for the numpy runs alone, and the OpenBLAS core it then picks is printed.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
source .ci/java-home.sh
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 scripts/bench_kernels.py gen "$work"
OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python3 scripts/bench_kernels.py scipy "$work" > "$work/scipy.json"
env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python3 scripts/bench_kernels.py numpy "$work" > "$work/numpy1.json"
env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OMP_NUM_THREADS=2 OPENBLAS_NUM_THREADS=2 python3 scripts/bench_kernels.py numpy "$work" > "$work/numpy2.json"

mvn -q -B -ntp -o test-compile >&2
[[ -f target/bench-classpath.txt ]] || mvn -q -B -ntp -o dependency:build-classpath -Dmdep.outputFile=target/bench-classpath.txt >&2
# one JVM per N, so that the JIT's profile at one N does not shape the code timed at another
for n in 128 16 1 4 8; do
  "$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector -Xmx4g \
    -cp "target/classes:target/test-classes:$(cat target/bench-classpath.txt)" \
    dev.sparseprof.bench.KernelPeerBench "$work" "$n" 2> >(grep -v '^WARNING: Using incubator modules' >&2) >> "$work/java.json"
done

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cpus; load average $(cut -d' ' -f1-3 /proc/loadavg)"
python3 scripts/bench_kernels.py report "$work"
