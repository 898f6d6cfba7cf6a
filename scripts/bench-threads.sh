#!/usr/bin/env bash
# The 2-thread speedup of the measured kernels, side by side with 1 thread, on the first MiniLM
# block's six layers: per format, the median over the layers of t1 median / t2 median.
#   bash scripts/bench-threads.sh [SPARSEPROF] [SPARSITY] [N]
# SPARSEPROF: the launcher to time (default ./sparseprof; point it at a frozen build of another
# commit to compare two builds in one sitting). Prints one line per format.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sp="${1:-$here/sparseprof}"
sparsity="${2:-0.9}"
n="${3:-32}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for t in 1 2; do
  "$sp" measure --formats csr,coo,bsr4x4 --sparsity "$sparsity" --batch "$n" --threads "$t" --reps 21 \
    --layers '*layer.0/*' --json "$tmp/t$t.json" > /dev/null
done
python3 - "$tmp/t1.json" "$tmp/t2.json" <<'PY'
import json, statistics, sys
one, two = ({(r["layer"], r["format"]): r["medianSeconds"] for r in json.load(open(f))["results"]} for f in sys.argv[1:3])
by = {}
for (layer, fmt), s1 in one.items():
    if (layer, fmt) in two:
        by.setdefault(fmt, []).append((s1 / two[(layer, fmt)], s1))
for fmt, v in by.items():
    print(f"{fmt:8s} 2-thread speedup median {statistics.median(x for x, _ in v):.2f}x "
          f"(min {min(x for x, _ in v):.2f}, max {max(x for x, _ in v):.2f}; 1-thread median {statistics.median(s for _, s in v) * 1e6:.0f} us, {len(v)} layers)")
PY
