#!/usr/bin/env bash
# The sparsity scan against `cat FILE > /dev/null` on one generated multi-GiB safetensors file, in
# one run, page cache warm for both: prints GB/s of each and the ratio.
# Usage: scripts/bench-profile-scan.sh [FILE (default /tmp/sparseprof-bench-2.5g.safetensors)] [GIB (2.5)] [ZEROS (0.9)]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source .ci/java-home.sh
file="${1:-/tmp/sparseprof-bench-2.5g.safetensors}"
gib="${2:-2.5}"
zeros="${3:-0.9}"
[[ -d target/test-classes/dev/sparseprof/bench && -d target/bench-lib ]] || mvn -q -B -ntp -o package -DskipTests
cp="target/classes:target/test-classes:target/bench-lib/*"
java_run() { "$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector -Xmx2g -cp "$cp" dev.sparseprof.bench.ProfileScanBench "$@" 2>&1 | grep -v 'incubator modules'; }
[[ -f "$file" ]] || java_run generate "$file" "$gib" "$zeros"
size=$(stat -c %s "$file")
cat "$file" > /dev/null   # warm the page cache
times=()
for _ in 1 2 3 4 5; do
  t0=$(date +%s.%N); cat "$file" > /dev/null; t1=$(date +%s.%N)
  times+=("$(echo "$t1 - $t0" | bc -l)")
done
cat_s=$(printf '%s\n' "${times[@]}" | sort -g | sed -n 3p)
cat_gbps=$(echo "$size / $cat_s / 1000000000" | bc -l)
printf 'file: %s (%.2f GiB)\n' "$file" "$(echo "$size / 1073741824" | bc -l)"
printf 'cat FILE > /dev/null: %.2f GB/s (median of 5: %s s)\n' "$cat_gbps" "${times[*]}"
out=$(java_run scan "$file" 5)
echo "$out" | grep -v '^SCAN_GBPS='
scan_gbps=$(echo "$out" | sed -n 's/^SCAN_GBPS=//p')
printf 'scan / cat: %.2f\n' "$(echo "$scan_gbps / $cat_gbps" | bc -l)"
