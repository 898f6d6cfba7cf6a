#!/usr/bin/env bash
# BSR, COO, CSR and dense side by side in one run (dev.sparseprof.bench.KernelBlockBench):
# 3072x768, N = 16 and 128, 1 thread, at 90% sparsity element-random and 4x4-block-pruned.
# One JVM per N. On a shared machine every figure is under contention: compare the ratios.
# Usage: scripts/bench-kernels-block.sh [formats...]   (default: csr bsr4x4 coo dense)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
source .ci/java-home.sh
formats=("$@")
[[ ${#formats[@]} -gt 0 ]] || formats=(csr bsr4x4 coo dense)
mvn -q -B -ntp -o test-compile >&2
[[ -f target/bench-classpath.txt ]] || mvn -q -B -ntp -o dependency:build-classpath -Dmdep.outputFile=target/bench-classpath.txt >&2
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cpus; load average $(cut -d' ' -f1-3 /proc/loadavg)"
for n in 128 16; do
  "$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector -Xmx4g \
    -cp "target/classes:target/test-classes:$(cat target/bench-classpath.txt)" \
    dev.sparseprof.bench.KernelBlockBench 3072 768 "$n" 1 0.9 4 4 "${formats[@]}" 2> >(grep -v '^WARNING: Using incubator modules' >&2)
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
