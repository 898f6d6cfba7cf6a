#!/usr/bin/env bash
# Writes a LLaMA-2-7B-shaped checkpoint with random weights (numpy only): 32 blocks of 4096x4096
# q/k/v/o, 11008x4096 gate/up, 4096x11008 down, embeddings, norms; about 13.5 GB at fp16/bf16.
# Usage: scripts/gen-llama-checkpoint.sh OUT [--blocks N] [--dtype fp16|bf16] [--sparsity dense|50|2:4]
#          [--layout single|sharded] [--max-shard-gb G] [--hidden H --intermediate I --heads A --kv-heads K --vocab V]
# OUT is a .safetensors file (--layout single) or a folder (sharded, the default: shards, index, config.json).
# Example: one 404 MB fp16 block in one file:
#   scripts/gen-llama-checkpoint.sh /tmp/llama-1block.safetensors --blocks 1 --dtype fp16 --layout single --vocab 1
set -euo pipefail
exec python3 "$(dirname "${BASH_SOURCE[0]}")/gen_llama_checkpoint.py" "$@"
