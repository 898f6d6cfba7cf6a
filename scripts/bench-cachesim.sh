#!/usr/bin/env bash
# Replays 20 M-access din traces through three LRU levels (Zen-like 32k/8w, 1m/16w, 32m/16w, one
# core) with the CLI and prints accesses per second; then runs the JMH benchmark of the in-process
# path (a traced kernel pushing into the hierarchy), the din parser alone, and din + simulation.
# Traces (generated once into target/bench/):
#   spmm  - the stream of row-wise CSR SpMM (4096 rows, 98 nnz per row, N = 16: rowptr, colidx,
#           values, B-row gathers, C-row read + write), 50 accesses per nonzero
#   mixed - the oracle's mixed-random shape, larger: 60% to 2000 hot words, 40% uniform over 64 MiB
#           (so those miss all three levels), 30% writes
# If dineroIV is on PATH it is timed on the same traces and the ratio printed; otherwise the ratio is
# against the 13-17 M accesses/s issue 3 quotes for Dinero IV here (not measured by this script).
# BASELINE=DIR (a target/classes of another build, e.g. of main) times that build's CLI too, run
# for run alternating with this one, and prints the ratio of the medians.
# Usage: scripts/bench-cachesim.sh [ACCESSES]   (default 20000000, e.g. 100000000 for 1.1 GB traces; NO_JMH=1 skips JMH)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
n="${1:-20000000}"
mkdir -p target/bench
spmm="target/bench/spmm-${n}.din"
mixed="target/bench/mixed-${n}.din"
if [[ ! -f "$spmm" ]]; then
  echo "generating $spmm ..." >&2
  awk -v n="$n" 'BEGIN { srand(7); N = 16; K = 98; i = 0; c = 0;
      while (c < n) {
        printf "0 %x\n0 %x\n", 268435456 + 4 * i, 268435456 + 4 * (i + 1); c += 2;
        for (k = 0; k < K && c < n; k++) {
          j = i * K + k; col = int(rand() * 4096);
          printf "0 %x\n0 %x\n", 536870912 + 4 * j, 805306368 + 4 * j; c += 2;
          for (x = 0; x < N && c < n; x++) {
            printf "0 %x\n0 %x\n1 %x\n", 1073741824 + 4 * (col * N + x), 1342177280 + 4 * (i * N + x), 1342177280 + 4 * (i * N + x); c += 3;
          }
        }
        i = (i + 1) % 4096;
      } }' | head -n "$n" > "$spmm"
fi
if [[ ! -f "$mixed" ]]; then
  echo "generating $mixed ..." >&2
  awk -v n="$n" 'BEGIN { srand(7); for (i = 0; i < n; i++) {
      a = (rand() < 0.6) ? 268435456 + 4 * int(rand() * 2000) : 536870912 + 4 * int(rand() * 16777216);
      printf "%d %x\n", (rand() < 0.3), a } }' > "$mixed"
fi
rate_of() { sed -E 's/.*\(([0-9.]+) M accesses\/s\).*/\1/' <<<"$1"; }
baseline_cli() {
  # the launcher's JVM options, the baseline's classes, this build's libraries
  "$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector -XX:+UseParallelGC -Djava.awt.headless=true -Xss4m -Xmx8g \
    -cp "$BASELINE:target/lib/*" dev.sparseprof.cli.Main "$@" 2> >(grep -v -e '^WARNING: Using incubator modules' >&2)
}
source .ci/java-home.sh
./sparseprof --help >/dev/null # builds when needed, before anything is timed
levels=(--level L1:32k:8:64 --level L2:1m:16:64 --level L3:32m:16:64)
dinero_args="-informat d -l1-dsize 32k -l1-dbsize 64 -l1-dassoc 8 -l1-drepl l -l1-dfetch d -l1-dwalloc a -l1-dwback a
 -l2-usize 1m -l2-ubsize 64 -l2-uassoc 16 -l2-urepl l -l2-ufetch d -l2-uwalloc a -l2-uwback a
 -l3-usize 32m -l3-ubsize 64 -l3-uassoc 16 -l3-urepl l -l3-ufetch d -l3-uwalloc a -l3-uwback a"
for trace in "$spmm" "$mixed"; do
  echo "== $trace (3 runs; load average: $(cut -d' ' -f1 /proc/loadavg))"
  rates=()
  base_rates=()
  for i in 1 2 3; do
    line=$(./sparseprof cachesim --trace "$trace" "${levels[@]}" | tail -1)
    echo "sparseprof: $line"
    rates+=("$(rate_of "$line")")
    if [[ -n "${BASELINE:-}" ]]; then
      line=$(baseline_cli cachesim --trace "$trace" "${levels[@]}" | tail -1)
      echo "baseline:   $line"
      base_rates+=("$(rate_of "$line")")
    fi
  done
  median=$(printf '%s\n' "${rates[@]}" | sort -g | sed -n 2p)
  if [[ -n "${BASELINE:-}" ]]; then
    base_median=$(printf '%s\n' "${base_rates[@]}" | sort -g | sed -n 2p)
    echo "median $median vs baseline $base_median M accesses/s: $(awk -v a="$median" -v b="$base_median" 'BEGIN { printf "%.2f", a / b }')x"
  fi
  if command -v dineroIV >/dev/null; then
    start=$(date +%s.%N)
    # shellcheck disable=SC2086
    dineroIV $dinero_args < "$trace" > /dev/null
    end=$(date +%s.%N)
    dinero=$(awk -v n="$n" -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", n / (e - s) / 1e6 }')
    echo "dineroIV: $dinero M accesses/s; ratio sparseprof/dinero (median) = $(awk -v a="$median" -v b="$dinero" 'BEGIN { printf "%.2f", a / b }')"
  else
    echo "median $median M accesses/s = $(awk -v a="$median" 'BEGIN { printf "%.2f-%.2f", a / 17, a / 13 }')x the 13-17 M/s quoted for Dinero IV (dineroIV not on PATH)"
  fi
done
if [[ "${NO_JMH:-0}" != 1 ]]; then
  source .ci/java-home.sh
  mvn -q -B -ntp -o test-compile >&2
  deps=$(mvn -q -B -ntp -o -Dstyle.color=never dependency:build-classpath -Dmdep.outputFile=/dev/stdout -Dmdep.includeScope=test \
    | sed 's/\x1b\[[0-9;]*m//g')
  cp="target/test-classes:target/classes:$deps"
  "$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector -cp "$cp" org.openjdk.jmh.Main 'dev.sparseprof.bench.CacheHierarchyBench' \
    -f 1 -wi 1 -i 3 -w 3s -r 5s -bm thrpt -jvmArgs "-Xmx3g --add-modules jdk.incubator.vector" ${JMH_ARGS:-} 2>&1 | grep -v '^WARNING'
fi
