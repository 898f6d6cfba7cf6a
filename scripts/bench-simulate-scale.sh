#!/usr/bin/env bash
# simulate at LLM scale: a LLaMA-2-7B-shaped fp16 checkpoint (50% unstructured) on h100-sxm at 2048 tokens,
# one block and 32 blocks, whole process (./sparseprof simulate, default settings), median of 3 wall and
# CPU seconds each, with the load average; then the cost per layer by shape and N (LlamaScaleBench layers).
# The checkpoints are generated under target/ (1 block 0.4 GB, 32 blocks 13 GB) unless they exist,
# or given (any LLaMA-2-7B-shaped fp16 safetensors, e.g. from scripts/gen-llama-checkpoint.sh
# --dtype fp16 --sparsity 50 --layout single); --one-only skips the 32 blocks.
# Usage: scripts/bench-simulate-scale.sh [REPEATS (3)] [ONE_BLOCK_FILE [ALL_BLOCKS_FILE]] [--one-only]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source .ci/java-home.sh
one_only=0
args=()
for a in "$@"; do if [[ "$a" == --one-only ]]; then one_only=1; else args+=("$a"); fi; done
repeats="${args[0]:-3}"
[[ -d target/test-classes/dev/sparseprof/bench && -d target/bench-lib ]] || mvn -q -B -ntp -o package -DskipTests
cp="target/classes:target/test-classes:target/bench-lib/*"
bench() { "$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector -Xmx3g -cp "$cp" dev.sparseprof.bench.LlamaScaleBench "$@" 2>&1 | grep -v 'incubator modules'; }
one="${args[1]:-target/llama7b-1block.safetensors}"
all="${args[2]:-target/llama7b-32blocks.safetensors}"
[[ -f "$one" ]] || bench generate "$one" 1
files=("$one")
if (( ! one_only )); then [[ -f "$all" ]] || bench generate "$all" 32; files+=("$all"); fi
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores"
for f in "${files[@]}"; do
  cat "$f" > /dev/null   # page cache warm
  # one untimed run: after a build, the first simulate with a model makes the launcher's class-data archive
  SPARSEPROF_JAVA_OPTS=-Xmx3g ./sparseprof simulate --hw hardware-specs/h100-sxm.yaml --model "$f" --batch 2048 > /dev/null 2>&1
  walls=(); cpus=()
  for _ in $(seq "$repeats"); do
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    out=$( { /usr/bin/time -f 'TIME %e %U %S' env SPARSEPROF_JAVA_OPTS=-Xmx3g ./sparseprof simulate --hw hardware-specs/h100-sxm.yaml \
      --model "$f" --batch 2048 > /dev/null; } 2>&1 | grep '^TIME')
    set -- $out
    walls+=("$2"); cpus+=("$(echo "$3 + $4" | bc -l)")
    echo "  $f: wall $2 s, cpu $(echo "$3 + $4" | bc -l) s, load average before $load"
  done
  printf '%s: median wall %s s, median cpu %s s\n' "$f" "$(printf '%s\n' "${walls[@]}" | sort -g | sed -n "$(( (repeats + 1) / 2 ))p")" \
    "$(printf '%s\n' "${cpus[@]}" | sort -g | sed -n "$(( (repeats + 1) / 2 ))p")"
done
bench layers h100-sxm "$repeats"
