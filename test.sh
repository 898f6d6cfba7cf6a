#!/usr/bin/env bash
# The test command of README.md: sets up Java 25 and the test fixtures, then runs the whole suite.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
source .ci/java-home.sh
mvn -B -ntp package "$@"
touch target/.built
