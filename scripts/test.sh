#!/usr/bin/env bash
# The whole test suite on a fresh machine: install, build, then ctest (unit, operator, golden, cli, gpu, fuzz
# corpus replay); then the same suite under ASan + UBSan and a bounded fuzz session (README: "Sanitizers and
# fuzzing"). CTEST_ARGS go to the Release ctest. DMLTOOL_TEST_SANITIZED=0 stops after the Release suite;
# DMLTOOL_FUZZ_SECONDS sets the length of the fuzz session (default 90).
#   scripts/test.sh [CTEST_ARGS...]
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$repo/scripts/build.sh"
(cd "$repo/build" && ctest --output-on-failure -j "$(nproc)" "$@")
if [ "${DMLTOOL_TEST_SANITIZED:-1}" != 0 ]; then
  "$repo/scripts/test_sanitized.sh"
  "$repo/scripts/fuzz.sh" "${DMLTOOL_FUZZ_SECONDS:-90}"
fi
