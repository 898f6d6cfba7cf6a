#!/usr/bin/env bash
# How fast `prune` writes a big checkpoint and how much heap it needs: prune streams tensor by
# tensor, so the heap must stay near one tensor's fp32 matrix (the largest layer as floats), not the
# model. Runs, on FILE (a safetensors file; default: a 2-block LLaMA-2-7B-shaped fp16 file written by
# scripts/gen-llama-checkpoint.sh into /tmp), with the page cache warm:
#   cp FILE (median of 3)  vs  sparseprof prune FILE --sparsity 0.5 (median of 3, JVM start included)
# with -Xmx just above the largest tensor as fp32 (or XMX_MB), GC logging on, and prints the
# sizes, both times, the ratio, and the peak heap seen by the GC log.
# Usage: scripts/bench-prune-write.sh [FILE] [--xmx-mb N] [--spec "--nm 2:4"]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
file=""
xmx=""
spec="--sparsity 0.5"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --xmx-mb) xmx="$2"; shift 2 ;;
    --spec) spec="$2"; shift 2 ;;
    *) file="$1"; shift ;;
  esac
done
work="$(mktemp -d /tmp/bench-prune.XXXXXX)"
trap 'rm -rf "$work"' EXIT
if [[ -z "$file" ]]; then
  file=/tmp/bench-prune-llama2.safetensors
  [[ -f "$file" ]] || "$here/scripts/gen-llama-checkpoint.sh" "$file" --blocks 2 --dtype fp16 --layout single --vocab 1
fi
bytes=$(stat -c %s "$file")
# the largest tensor, from the safetensors header: its elements (x 4 bytes as floats) and stored bytes
largest=$(python3 - "$file" <<'PY'
import json, struct, sys
with open(sys.argv[1], "rb") as f:
    n = struct.unpack("<Q", f.read(8))[0]
    h = json.loads(f.read(n))
best = (0, 0)
for k, v in h.items():
    if k == "__metadata__": continue
    e = 1
    for d in v["shape"]: e *= d
    best = max(best, (e, v["data_offsets"][1] - v["data_offsets"][0]))
print(best[0], best[1])
PY
)
read -r largest stored_bytes <<< "$largest"
fp32_mb=$(( largest * 4 / 1048576 ))
stored_mb=$(( stored_bytes / 1048576 ))
# the fp32 matrix and the stored copy both live in the old generation (about 2/3 of a ParallelGC heap)
[[ -n "$xmx" ]] || xmx=$(( (fp32_mb + stored_mb) * 3 / 2 + 32 ))
cat "$file" > /dev/null
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
cp_times=()
for i in 1 2 3; do
  s=$(date +%s.%N); cp "$file" "$work/copy.safetensors"; e=$(date +%s.%N); rm -f "$work/copy.safetensors"
  cp_times+=("$(echo "$e - $s" | bc -l)")
done
prune_times=()
peak=0
for i in 1 2 3; do
  rm -f "$work/out.safetensors" "$work/gc.log"
  s=$(date +%s.%N)
  SPARSEPROF_JAVA_OPTS="-Xmx${xmx}m -Xlog:gc:file=$work/gc.log" "$here/sparseprof" prune "$file" $spec --out "$work/out.safetensors" > /dev/null
  e=$(date +%s.%N)
  prune_times+=("$(echo "$e - $s" | bc -l)")
  p=$(grep -o '[0-9]*M->[0-9]*M' "$work/gc.log" | sed 's/M->.*//' | sort -n | tail -1)
  [[ -n "$p" && "$p" -gt "$peak" ]] && peak=$p
done
cp_med=$(printf '%s\n' "${cp_times[@]}" | median)
prune_med=$(printf '%s\n' "${prune_times[@]}" | median)
printf 'file            %s (%s bytes)\n' "$file" "$bytes"
printf 'largest tensor  %d elements = %d MiB as fp32, %d MiB stored\n' "$largest" "$fp32_mb" "$stored_mb"
printf 'cp              %.2f s  (%.2f GB/s)   runs: %s\n' "$cp_med" "$(echo "$bytes / $cp_med / 1000000000" | bc -l)" "${cp_times[*]}"
printf 'prune %-9s %.2f s  (%.2f GB/s)   runs: %s\n' "$spec" "$prune_med" "$(echo "$bytes / $prune_med / 1000000000" | bc -l)" "${prune_times[*]}"
printf 'prune / cp      %.2fx the time of cp\n' "$(echo "$prune_med / $cp_med" | bc -l)"
printf 'heap            -Xmx%dm; peak heap before a GC %d MiB (model %d MiB)\n' "$xmx" "$peak" "$(( bytes / 1048576 ))"
printf 'load average    %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
