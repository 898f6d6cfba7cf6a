#!/usr/bin/env bash
# Predicts the published cases (validation/published/*.yaml) with the shipped specs and runtimes and
# writes the side-by-side table and JSON next to each (validation/published/NAME-predicted.{txt,json}),
# then prints validate's per-group summary. Rerun after a model change and commit the new figures with it.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$here/validation/published"
for f in "$out"/*.yaml; do
  name="$(basename "$f" .yaml)"
  "$here/sparseprof" simulate --published "$f" --json "$out/$name-predicted.json" > "$out/$name-predicted.txt"
  cat "$out/$name-predicted.txt"
done
"$here/sparseprof" validate --cases "$here/validation" | sed -n '/^published group/,$p'
