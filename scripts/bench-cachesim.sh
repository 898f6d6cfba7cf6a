#!/usr/bin/env bash
# Generates a 20 M-access din trace (60% of accesses to 2000 hot words, 40% uniform over 64 MiB,
# 30% writes: the shape of the Dinero oracle's mixed trace, larger) and replays it through three
# LRU levels (Zen-like 32k/1m/32m) with the CLI, printing accesses per second. Then runs the JMH
# benchmark of the in-process path (kernels pushing into the hierarchy) unless NO_JMH=1.
# Usage: scripts/bench-cachesim.sh [ACCESSES]   (default 20000000)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
n="${1:-20000000}"
trace="target/bench/trace-${n}.din"
mkdir -p target/bench
if [[ ! -f "$trace" ]]; then
  echo "generating $n accesses into $trace ..." >&2
  awk -v n="$n" 'BEGIN { srand(7); for (i = 0; i < n; i++) {
      a = (rand() < 0.6) ? 268435456 + 4 * int(rand() * 2000) : 536870912 + 4 * int(rand() * 16777216);
      printf "%d %x\n", (rand() < 0.3), a } }' > "$trace"
fi
levels=(--level L1:32k:8:64 --level L2:1m:16:64 --level L3:32m:16:64)
for i in 1 2 3; do
  ./sparseprof cachesim --trace "$trace" "${levels[@]}" | tail -1
done
if [[ "${NO_JMH:-0}" != 1 ]]; then
  source .ci/java-home.sh
  mvn -q -B -ntp -o test-compile >&2
  cp="target/test-classes:target/classes:$(mvn -q -B -ntp -o dependency:build-classpath -Dmdep.outputFile=/dev/stdout -Dmdep.includeScope=test)"
  "$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector -cp "$cp" org.openjdk.jmh.Main 'dev.sparseprof.bench.CacheHierarchyBench' \
    -f 1 -wi 1 -i 3 -w 3s -r 5s -bm thrpt -jvmArgs "-Xmx3g --add-modules jdk.incubator.vector" ${JMH_ARGS:-} 2>&1 | grep -v '^WARNING'
fi
