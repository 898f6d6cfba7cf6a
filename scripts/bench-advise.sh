#!/usr/bin/env bash
# advise's speed goal: MiniLM x 3 specs x 4 token counts (default patterns and grid), whole process
# (./sparseprof advise), median of REPEATS wall and CPU seconds against the 60 s goal, with the load average.
# Usage: scripts/bench-advise.sh [REPEATS (3)]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repeats="${1:-3}"
./sparseprof advise --hw epyc-zen5-2c --tokens 1 > /dev/null   # build once, outside the timing
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores"
walls=(); cpus=()
for _ in $(seq "$repeats"); do
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  out=$( { /usr/bin/time -f 'TIME %e %U %S' env SPARSEPROF_JAVA_OPTS=-Xmx3g ./sparseprof advise \
    --hw epyc-zen5-2c,a100-80gb,h100-sxm --tokens 1,16,128,2048 > /dev/null; } 2>&1 | grep '^TIME')
  set -- $out
  walls+=("$2"); cpus+=("$(echo "$3 + $4" | bc -l)")
  echo "  wall $2 s, cpu $(echo "$3 + $4" | bc -l) s, load average before $load"
done
median() { printf '%s\n' "$@" | sort -g | sed -n "$(( (repeats + 1) / 2 ))p"; }
w=$(median "${walls[@]}")
printf 'advise MiniLM x 3 specs x 4 token counts: median wall %s s, median cpu %s s; goal 60 s: %s\n' "$w" "$(median "${cpus[@]}")" \
  "$(echo "$w < 60" | bc -l | sed 's/1/met/;s/0/not met/')"
