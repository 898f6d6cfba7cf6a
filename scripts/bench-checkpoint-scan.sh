#!/usr/bin/env bash
# profile's scan of a LLaMA-2-7B-shaped checkpoint against `cat` of the same files, in one run:
# page cache warm for both (each read once first), then REPEATS alternating timed runs of
#   cat FILES > /dev/null                        (the peer)
#   ./sparseprof profile MODEL > /dev/null       (the whole command: JVM start, open, scan, table)
# then the scan inside one JVM (dev.sparseprof.bench.CheckpointScanBench: its first pass, JIT cold,
# is what one profile run does; the later passes are the steady state). With --cold and a writable
# /proc/sys/vm/drop_caches (root), one more cat and one more profile each after dropping the page cache.
# Prints GB/s and the ratios to cat, medians, the machine and the load average, and the CPU time
# (user+sys) of each, which a shared machine's load disturbs far less than the wall time.
# BEFORE=DIR (another checkout of sparseprof, built) adds its profile to each round, after cat, the
# two builds' runs in turns first (odd rounds: before first), and to the cold runs: before and after
# side by side in one run.
# Usage: [BEFORE=DIR] scripts/bench-checkpoint-scan.sh [MODEL (default /tmp/sparseprof-llama7b, generated: bf16,
#          32 blocks, sharded)] [REPEATS (3)] [--cold]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
source .ci/java-home.sh
model="${1:-/tmp/sparseprof-llama7b}"
repeats="${2:-3}"
cold="${3:-}"
[[ -e "$model" ]] || scripts/gen-llama-checkpoint.sh "$model" --dtype bf16 --layout sharded
mvn -q -B -ntp -o test-compile >&2
touch target/.built 2>/dev/null || true
if [[ -d "$model" ]]; then mapfile -t files < <(find "$model" -maxdepth 1 -type f | sort); else files=("$model"); fi
bytes=$(stat -c %s "${files[@]}" | paste -sd+ | bc)
now() { date +%s.%N; }
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
gbps() { echo "$bytes / $1 / 1000000000" | bc -l; }
export SPARSEPROF_JAVA_OPTS="-Xmx2g"
load0=$(cut -d' ' -f1-3 /proc/loadavg)
before="${BEFORE:-}"
[[ -z "$before" || -x "$before/sparseprof" ]] || { echo "BEFORE=$before: no sparseprof launcher there" >&2; exit 2; }
cat "${files[@]}" > /dev/null
./sparseprof profile "$model" > /dev/null
[[ -z "$before" ]] || "$before/sparseprof" profile "$model" > /dev/null
cat_t=(); prof_t=(); cat_cpu=(); prof_cpu=(); before_t=(); before_cpu=()
cpu() { /usr/bin/time -f '%U %S' -o "$tmp" "$@" > /dev/null; awk '{print $1 + $2}' "$tmp"; }
tmp=$(mktemp); trap 'rm -f "$tmp"' EXIT
run_before() { t0=$(now); c=$(cpu "$before/sparseprof" profile "$model"); t1=$(now); before_t+=("$(echo "$t1 - $t0" | bc -l)"); before_cpu+=("$c"); }
run_this() { t0=$(now); c=$(cpu ./sparseprof profile "$model"); t1=$(now); prof_t+=("$(echo "$t1 - $t0" | bc -l)"); prof_cpu+=("$c"); }
for round in $(seq "$repeats"); do
  t0=$(now); c=$(cpu cat "${files[@]}"); t1=$(now); cat_t+=("$(echo "$t1 - $t0" | bc -l)"); cat_cpu+=("$c")
  # the two builds take turns going first: the second of a pair ran up to 0.1 s faster in some
  # rounds on the Granite Rapids VM (6 Dec), which a fixed order credits to one build
  if [[ -z "$before" ]]; then run_this
  elif (( round % 2 )); then run_before; run_this
  else run_this; run_before; fi
done
t0=$(now); ./sparseprof --version > /dev/null 2>&1 || ./sparseprof --help > /dev/null; t1=$(now); start_s=$(echo "$t1 - $t0" | bc -l)
cat_s=$(printf '%s\n' "${cat_t[@]}" | median)
prof_s=$(printf '%s\n' "${prof_t[@]}" | median)
cat_c=$(printf '%s\n' "${cat_cpu[@]}" | median)
prof_c=$(printf '%s\n' "${prof_cpu[@]}" | median)
# the JIT flags the launcher gives the scanning commands (see ./sparseprof), so the first pass is profile's
jvm=$("$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -XX:+UseParallelGC -Xmx2g \
  -XX:CompileCommand=quiet '-XX:CompileCommand=CompileThresholdScaling,dev.sparseprof.model.StoredBits::*Vector,0.01' \
  -cp "target/classes:target/test-classes:target/lib/*" dev.sparseprof.bench.CheckpointScanBench "$model" "$repeats" 2>&1 | grep -v 'incubator modules')
first_s=$(echo "$jvm" | sed -n 's/^FIRST_SECONDS=//p')
scan_s=$(echo "$jvm" | sed -n 's/^SCAN_SECONDS=//p')
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cpus, $(free -g | awk '/Mem:/ {print $2}') GiB"
echo "load average before: $load0, after: $(cut -d' ' -f1-3 /proc/loadavg)"
printf 'model: %s, %d files, %.2f GB; page cache warm\n' "$model" "${#files[@]}" "$(echo "$bytes / 1000000000" | bc -l)"
printf 'cat FILES > /dev/null:           %6.2f GB/s (median of %d: %s s)\n' "$(gbps "$cat_s")" "$repeats" "${cat_t[*]}"
if [[ -n "$before" ]]; then
  before_s=$(printf '%s\n' "${before_t[@]}" | median)
  before_c=$(printf '%s\n' "${before_cpu[@]}" | median)
  printf 'before (%s) profile MODEL: %6.2f GB/s (median of %d: %s s), ratio to cat %.2f, CPU %.2f s\n' "$before" "$(gbps "$before_s")" \
    "$repeats" "${before_t[*]}" "$(echo "$cat_s / $before_s" | bc -l)" "$before_c"
fi
printf 'sparseprof profile MODEL:        %6.2f GB/s (median of %d: %s s; JVM start alone %.2f s)\n' "$(gbps "$prof_s")" "$repeats" "${prof_t[*]}" "$start_s"
echo "$jvm" | grep -v '_SECONDS='
printf 'ratio to cat: profile command %.2f, in-JVM first pass %.2f, in-JVM steady %.2f\n' \
  "$(echo "$cat_s / $prof_s" | bc -l)" "$(echo "$cat_s / $first_s" | bc -l)" "$(echo "$cat_s / $scan_s" | bc -l)"
printf 'CPU time (user+sys, medians): cat %.2f s, profile %.2f s (%d cores): profile needs %.2fx the CPU of cat; on idle cores its wall time would be at best %.2f s, ratio %.2f\n' \
  "$cat_c" "$prof_c" "$(nproc)" "$(echo "$prof_c / $cat_c" | bc -l)" "$(echo "$prof_c / $(nproc)" | bc -l)" "$(echo "$cat_c * $(nproc) / $prof_c" | bc -l)"
if [[ "$cold" == "--cold" ]]; then
  if [[ -w /proc/sys/vm/drop_caches ]]; then
    sync; echo 3 > /proc/sys/vm/drop_caches; t0=$(now); cat "${files[@]}" > /dev/null; t1=$(now); ccat=$(echo "$t1 - $t0" | bc -l)
    if [[ -n "$before" ]]; then
      sync; echo 3 > /proc/sys/vm/drop_caches; t0=$(now); "$before/sparseprof" profile "$model" > /dev/null; t1=$(now); cbefore=$(echo "$t1 - $t0" | bc -l)
      printf 'page cache cold, before: profile %.2f GB/s (%.2f s), ratio to cold cat %.2f\n' "$(gbps "$cbefore")" "$cbefore" "$(echo "$ccat / $cbefore" | bc -l)"
    fi
    sync; echo 3 > /proc/sys/vm/drop_caches; t0=$(now); ./sparseprof profile "$model" > /dev/null; t1=$(now); cprof=$(echo "$t1 - $t0" | bc -l)
    printf 'page cache cold (dropped before each): cat %.2f GB/s (%.2f s), profile %.2f GB/s (%.2f s), ratio %.2f\n' \
      "$(gbps "$ccat")" "$ccat" "$(gbps "$cprof")" "$cprof" "$(echo "$ccat / $cprof" | bc -l)"
  else
    echo "page cache cold: not measured (/proc/sys/vm/drop_caches is not writable here)"
  fi
fi
