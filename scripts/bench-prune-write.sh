#!/usr/bin/env bash
# How fast `prune` writes a checkpoint next to `cp` of the same files, and how much heap it needs.
# prune streams each tensor in chunks in its stored dtype, so the heap must stay below one tensor as
# stored (the largest layer's bytes), far below the model. On SRC (a safetensors file or a sharded
# Hugging Face folder; default /tmp/llama/block1.safetensors), page cache warm (one `cat` first), in
# one run, alternating:
#   cp -r SRC                                   (median of RUNS; one right before each prune case)
#   sparseprof prune SRC --sparsity 0.5         (median of RUNS, JVM start included)
#   sparseprof prune SRC --nm 2:4               (median of RUNS)
#   sparseprof prune SRC --sparsity 0.5 --scope global   (median of RUNS: counting passes, then the write)
# Each prune case's ratio to cp is against the cp runs made right before it, in the same page-cache
# state (a cp run first after `cat`, with the source all cached and memory free for its output, is
# faster than one after a 13 GB write has pushed part of the source out).
# with -Xmx = the largest tensor's stored MiB (or XMX_MB) and GC logging, and prints the sizes,
# times, GB/s, the prune/cp ratios, the peak heap the GC log saw, and the load average before and
# after. Outputs go to a temporary folder under OUT_DIR (default /tmp) and are deleted.
# --cases LIST (comma-separated, of cp, 50, nm, global; default all four) runs only those, so a
# run on a large checkpoint can be split to keep each hold of the machine short. BEFORE=DIR
# (another checkout of sparseprof, built) runs its prune of each case right before this one's, in
# the same round, and prints its medians and the after/before ratios: before and after side by side;
# odd rounds run before first, even rounds after first, so that neither always gets the cache the
# other left (use an even RUNS).
# Usage: [BEFORE=DIR] scripts/bench-prune-write.sh [SRC] [--runs N] [--xmx-mb N] [--out-dir DIR] [--cases LIST]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
src=/tmp/llama/block1.safetensors
runs=3
xmx=""
outdir=/tmp
cases=cp,50,nm,global
while [[ $# -gt 0 ]]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --xmx-mb) xmx="$2"; shift 2 ;;
    --out-dir) outdir="$2"; shift 2 ;;
    --cases) cases="$2"; shift 2 ;;
    *) src="$1"; shift ;;
  esac
done
before="${BEFORE:-}"
[[ -z "$before" || -x "$before/sparseprof" ]] || { echo "bench-prune-write: BEFORE=$before: no sparseprof launcher there" >&2; exit 2; }
has() { [[ ",$cases," == *",$1,"* ]]; }
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
cp_times=(); un_times=(); nm_times=(); gl_times=(); bun_times=(); bnm_times=(); bgl_times=(); : > "$work/peaks"
prune() { # SPEC... : one timed prune run, its GC log read for the peak heap (LAUNCHER: whose sparseprof; default this one)
  rm -rf "$work/$out_name" "$work/gc.log"
  local s e p
  s=$(now)
  SPARSEPROF_JAVA_OPTS="-Xmx${xmx}m -Xlog:gc*:file=$work/gc.log" "${LAUNCHER:-$here}/sparseprof" prune "$src" "$@" --out "$work/$out_name" > /dev/null
  e=$(now)
  # the peak: the largest heap before a collection, or the heap in use at exit (it only grows between collections)
  # (this runs in a subshell: the peaks go to a file)
  [[ -n "${LAUNCHER:-}" ]] || { grep -o '[0-9]*M->[0-9]*M' "$work/gc.log" | sed 's/M->.*//' || true
    grep -E 'PSYoungGen|ParOldGen' "$work/gc.log" | grep -o 'used [0-9]*K' | awk '{s += $2} END {print int(s / 1024)}' || true
  } >> "$work/peaks"
  rm -rf "$work/$out_name"
  echo "$e - $s" | bc -l
}
cp_run() { # one timed cp -r of SRC, its time appended to the array named $1 and to cp_times
  local s e
  s=$(now); cp -r "$src" "$work/copy"; e=$(now); rm -rf "$work/copy"
  local t; t=$(echo "$e - $s" | bc -l)
  cp_times+=("$t"); eval "$1+=(\"\$t\")"
}
pair() { # ROUND BEFORE_ARRAY AFTER_ARRAY SPEC...: this checkout's and BEFORE's prune, in the order the round says
  local round="$1" b="$2" a="$3"; shift 3
  local t
  if [[ -n "$before" ]] && (( round % 2 == 1 )); then t=$(LAUNCHER="$before" prune "$@"); eval "$b+=(\"\$t\")"; fi
  t=$(prune "$@"); eval "$a+=(\"\$t\")"
  if [[ -n "$before" ]] && (( round % 2 == 0 )); then t=$(LAUNCHER="$before" prune "$@"); eval "$b+=(\"\$t\")"; fi
}
cp_un=(); cp_nm=(); cp_gl=(); cp_only=()
for i in $(seq "$runs"); do
  if has cp && ! has 50 && ! has nm && ! has global; then cp_run cp_only; fi
  if has 50; then
    ! has cp || cp_run cp_un
    pair "$i" bun_times un_times --sparsity 0.5
  fi
  if has nm; then
    ! has cp || cp_run cp_nm
    pair "$i" bnm_times nm_times --nm 2:4
  fi
  if has global; then
    ! has cp || cp_run cp_gl
    pair "$i" bgl_times gl_times --sparsity 0.5 --scope global
  fi
done
peak=$(sort -n "$work/peaks" | tail -1)
med() { (( $# )) && printf '%s\n' "$@" | median || echo 0; }
cp_med=$(med "${cp_times[@]}")
un_med=$(med "${un_times[@]}")
nm_med=$(med "${nm_times[@]}")
gl_med=$(med "${gl_times[@]}")
gbs() { echo "$bytes / $1 / 1000000000" | bc -l; }
printf 'machine         %s, %s cpus\n' "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" "$(nproc)"
printf 'source          %s (%s bytes in %d file(s))\n' "$src" "$bytes" "${#files[@]}"
printf 'largest tensor  %d MiB stored; prune ran at -Xmx%dm (the model is %d MiB)\n' "$stored_mb" "$xmx" "$(( bytes / 1048576 ))"
line() { # LABEL MEDIAN RUNS...
  local label="$1" m="$2"; shift 2
  printf '%-15s median %6.2f s  (%5.2f GB/s)   runs: %s\n' "$label" "$m" "$(gbs "$m")" "$*"
}
ratio() { echo "$1 / $2" | bc -l; }
has cp && line 'cp -r' "$cp_med" "${cp_times[@]}"
if [[ -n "$before" ]]; then
  has 50 && line 'before 50%' "$(med "${bun_times[@]}")" "${bun_times[@]}"
  has nm && line 'before 2:4' "$(med "${bnm_times[@]}")" "${bnm_times[@]}"
  has global && line 'before global' "$(med "${bgl_times[@]}")" "${bgl_times[@]}"
fi
has 50 && line 'prune 50%' "$un_med" "${un_times[@]}"
has nm && line 'prune 2:4' "$nm_med" "${nm_times[@]}"
has global && line 'prune global' "$gl_med" "${gl_times[@]}"
if has cp; then
  has 50 && printf 'prune 50%% / cp     %.2fx  (cp right before it: median %.2f s of %s)\n' "$(ratio "$un_med" "$(med "${cp_un[@]}")")" "$(med "${cp_un[@]}")" "${cp_un[*]}"
  has nm && printf 'prune 2:4 / cp     %.2fx  (cp right before it: median %.2f s of %s)\n' "$(ratio "$nm_med" "$(med "${cp_nm[@]}")")" "$(med "${cp_nm[@]}")" "${cp_nm[*]}"
  has global && printf 'prune global / cp  %.2fx  (cp right before it: median %.2f s of %s)\n' "$(ratio "$gl_med" "$(med "${cp_gl[@]}")")" "$(med "${cp_gl[@]}")" "${cp_gl[*]}"
  echo '(the time of cp, JVM start included)'
fi
if [[ -n "$before" ]]; then
  has 50 && printf 'after / before: 50%% %.2f\n' "$(ratio "$un_med" "$(med "${bun_times[@]}")")"
  has nm && printf 'after / before: 2:4 %.2f\n' "$(ratio "$nm_med" "$(med "${bnm_times[@]}")")"
  has global && printf 'after / before: global %.2f\n' "$(ratio "$gl_med" "$(med "${bgl_times[@]}")")"
fi
[[ -z "$before" ]] || echo "before: $before"
printf 'peak heap       %d MiB (GC log: the most before a collection or at exit, over the runs of this checkout, not those of BEFORE)\n' "$peak"
printf 'load average    %s before, %s after\n' "$load_before" "$(cut -d' ' -f1-3 /proc/loadavg)"
