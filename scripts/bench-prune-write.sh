#!/usr/bin/env bash
# How fast `prune` writes a checkpoint next to `cp` of the same files, and how much heap it needs.
# prune streams each tensor in chunks in its stored dtype, so the heap must stay below one tensor as
# stored (the largest layer's bytes), far below the model. On SRC (a safetensors file or a sharded
# Hugging Face folder; default /tmp/llama/block1.safetensors), page cache warm (one `cat` first), in
# one run, alternating:
#   cp -r SRC                                   (median of RUNS)
#   sparseprof prune SRC --sparsity 0.5         (median of RUNS, JVM start included)
#   sparseprof prune SRC --nm 2:4               (median of RUNS)
#   sparseprof prune SRC --sparsity 0.5 --scope global   (median of RUNS: counting passes, then the write)
# with -Xmx = the largest tensor's stored MiB (or XMX_MB) and GC logging, and prints the sizes,
# times, GB/s, the prune/cp ratios, the peak heap the GC log saw, and the load average before and
# after. Outputs go to a temporary folder under OUT_DIR (default /tmp) and are deleted.
# Usage: scripts/bench-prune-write.sh [SRC] [--runs N] [--xmx-mb N] [--out-dir DIR]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
src=/tmp/llama/block1.safetensors
runs=3
xmx=""
outdir=/tmp
while [[ $# -gt 0 ]]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --xmx-mb) xmx="$2"; shift 2 ;;
    --out-dir) outdir="$2"; shift 2 ;;
    *) src="$1"; shift ;;
  esac
done
[[ -e "$src" ]] || { echo "bench-prune-write: $src does not exist (scripts/gen-llama-checkpoint.sh makes one)" >&2; exit 2; }
work="$(mktemp -d "$outdir/bench-prune.XXXXXX")"
trap 'rm -rf "$work"' EXIT
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
if [[ -d "$src" ]]; then files=("$src"/*.safetensors); out_name=pruned; else files=("$src"); out_name=pruned.safetensors; fi
bytes=$(du -cb "${files[@]}" | tail -1 | cut -f1)
# the largest tensor's stored bytes, from the safetensors headers
stored_bytes=$(python3 - "${files[@]}" <<'PY'
import json, struct, sys
best = 0
for path in sys.argv[1:]:
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        h = json.loads(f.read(n))
    for k, v in h.items():
        if k != "__metadata__": best = max(best, v["data_offsets"][1] - v["data_offsets"][0])
print(best)
PY
)
stored_mb=$(( (stored_bytes + 1048575) / 1048576 ))
[[ -n "$xmx" ]] || xmx=$stored_mb
(( xmx >= 48 )) || xmx=48
cat "${files[@]}" > /dev/null
now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
cp_times=(); un_times=(); nm_times=(); gl_times=(); : > "$work/peaks"
prune() { # SPEC... : one timed prune run, its GC log read for the peak heap
  rm -rf "$work/$out_name" "$work/gc.log"
  local s e p
  s=$(now)
  SPARSEPROF_JAVA_OPTS="-Xmx${xmx}m -Xlog:gc*:file=$work/gc.log" "$here/sparseprof" prune "$src" "$@" --out "$work/$out_name" > /dev/null
  e=$(now)
  # the peak: the largest heap before a collection, or the heap in use at exit (it only grows between collections)
  # (this runs in a subshell: the peaks go to a file)
  { grep -o '[0-9]*M->[0-9]*M' "$work/gc.log" | sed 's/M->.*//' || true
    grep -E 'PSYoungGen|ParOldGen' "$work/gc.log" | grep -o 'used [0-9]*K' | awk '{s += $2} END {print int(s / 1024)}' || true
  } >> "$work/peaks"
  rm -rf "$work/$out_name"
  echo "$e - $s" | bc -l
}
for i in $(seq "$runs"); do
  s=$(now); cp -r "$src" "$work/copy"; e=$(now); rm -rf "$work/copy"
  cp_times+=("$(echo "$e - $s" | bc -l)")
  un_times+=("$(prune --sparsity 0.5)")
  nm_times+=("$(prune --nm 2:4)")
  gl_times+=("$(prune --sparsity 0.5 --scope global)")
done
peak=$(sort -n "$work/peaks" | tail -1)
cp_med=$(printf '%s\n' "${cp_times[@]}" | median)
un_med=$(printf '%s\n' "${un_times[@]}" | median)
nm_med=$(printf '%s\n' "${nm_times[@]}" | median)
gl_med=$(printf '%s\n' "${gl_times[@]}" | median)
gbs() { echo "$bytes / $1 / 1000000000" | bc -l; }
printf 'machine         %s, %s cpus\n' "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" "$(nproc)"
printf 'source          %s (%s bytes in %d file(s))\n' "$src" "$bytes" "${#files[@]}"
printf 'largest tensor  %d MiB stored; prune ran at -Xmx%dm (the model is %d MiB)\n' "$stored_mb" "$xmx" "$(( bytes / 1048576 ))"
printf 'cp -r           median %6.2f s  (%5.2f GB/s)   runs: %s\n' "$cp_med" "$(gbs "$cp_med")" "${cp_times[*]}"
printf 'prune 50%%       median %6.2f s  (%5.2f GB/s)   runs: %s\n' "$un_med" "$(gbs "$un_med")" "${un_times[*]}"
printf 'prune 2:4       median %6.2f s  (%5.2f GB/s)   runs: %s\n' "$nm_med" "$(gbs "$nm_med")" "${nm_times[*]}"
printf 'prune global    median %6.2f s  (%5.2f GB/s)   runs: %s\n' "$gl_med" "$(gbs "$gl_med")" "${gl_times[*]}"
printf 'prune / cp      %.2fx (50%%)  %.2fx (2:4)  %.2fx (global 50%%)  the time of cp, JVM start included\n' "$(echo "$un_med / $cp_med" | bc -l)" "$(echo "$nm_med / $cp_med" | bc -l)" "$(echo "$gl_med / $cp_med" | bc -l)"
printf 'peak heap       %d MiB (GC log: the most before a collection or at exit, over all prune runs)\n' "$peak"
printf 'load average    %s before, %s after\n' "$load_before" "$(cut -d' ' -f1-3 /proc/loadavg)"
