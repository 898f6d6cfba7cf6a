#!/usr/bin/env bash
# Renders a sparseprof HTML report in headless Chromium and writes a screenshot, to check that the
# self-contained file (embedded PNG charts, no scripts, no network) renders.
# Usage: scripts/check-html.sh [REPORT.html [SCREENSHOT.png]]
# Without arguments it first writes a simulate report for the A100 spec at 90% sparsity.
# Needs the Debian package 'chromium' (apt-get install -y chromium).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
html="${1:-}"
shot="${2:-/tmp/sparseprof-report.png}"
if [[ -z "$html" ]]; then
  html="$(mktemp --suffix=.html)"
  "$here/sparseprof" simulate --hw "$here/hardware-specs/a100.yaml" --sparsity 0.9 --html "$html" >/dev/null
fi
command -v chromium >/dev/null || { echo "check-html: chromium is not installed (apt-get install -y chromium)" >&2; exit 2; }
profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
chromium --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update \
  --no-first-run --user-data-dir="$profile" --screenshot="$shot" --window-size=1200,3000 \
  "file://$(realpath "$html")" >/dev/null 2>&1
[[ -s "$shot" ]] || { echo "check-html: no screenshot written" >&2; exit 1; }
images=$(grep -o '<img ' "$html" | wc -l)
external=$(grep -Eo '(src|href)="https?:' "$html" | wc -l || true)
echo "check-html: $html has $images embedded charts, $external external references; screenshot $shot ($(stat -c %s "$shot") bytes)"
[[ "$images" -ge 5 && "$external" -eq 0 ]]
