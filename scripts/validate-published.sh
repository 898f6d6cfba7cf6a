#!/usr/bin/env bash
# Predicts the published cases (validation/published/a100.yaml) with the shipped specs and writes
# the side-by-side table and JSON next to them (validation/published/a100-predicted.{txt,json}).
# Nothing is fitted: rerun after a model change and commit the new figures with it.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$here/validation/published"
"$here/sparseprof" simulate --published "$out/a100.yaml" --json "$out/a100-predicted.json" | tee "$out/a100-predicted.txt"
