#!/usr/bin/env bash
# The test suite under AddressSanitizer + UndefinedBehaviorSanitizer (docs/testing.md: Sanitizers and fuzzing):
# clang build in build-sanitize/ (shared with scripts/fuzz.sh: one build serves both), then ctest.
# Any report fails its test (scripts/sanitizers/env.sh).
#   scripts/test_sanitized.sh [CTEST_ARGS...]   (default: every test but labels timing and docs, GPU ones included)
# Label timing (cli_compare_gate_rates) measures the regression gate's rates on the build's own speed: under the
# sanitizers that measures the instrumentation, not the gate. Label docs checks the documentation's text, links and
# tour, whose dmltool commands the cli tests run too. The Release suite runs both.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${DMLTOOL_SANITIZE_BUILD_DIR:-$repo/build-sanitize}"

"$repo/scripts/build_sanitized.sh"

source "$repo/scripts/sanitizers/env.sh"
cd "$build"
if [ "$#" -eq 0 ]; then set -- -LE "^(timing|docs)$"; fi
ctest --output-on-failure -j "$(nproc)" "$@"
