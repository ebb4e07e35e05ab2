#!/usr/bin/env bash
# The whole test suite on a fresh machine: install, build, then ctest (unit, operator, golden, cli, gpu, fuzz
# corpus replay); then the same suite under ASan + UBSan and a bounded fuzz session (docs/testing.md: Sanitizers
# and fuzzing). CTEST_ARGS go to the Release ctest. DMLTOOL_TEST_SANITIZED=0 stops after the Release suite;
# DMLTOOL_FUZZ_SECONDS sets the length of the fuzz session (default 90). After the Release suite: the Windows
# build's tests under Wine (scripts/test_windows.sh: cross build, Windows unit tests, cases/*.json, the CLI and
# bad-input corpus, bench smoke; DMLTOOL_TEST_WINDOWS=0 skips it), then the DirectML backend's suite under Wine
# (scripts/directml_wine_probe.sh, then scripts/test_directml_wine.sh: Microsoft's DirectML.dll, Mesa 25
# lavapipe; DMLTOOL_TEST_DIRECTML=0 skips it) and scripts/diff_directml.sh (random cases vs DirectML, two seeds).
#   scripts/test.sh [CTEST_ARGS...]
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$repo/scripts/build.sh"
(cd "$repo/build" && ctest --output-on-failure -j "$(nproc)" "$@")
if [ "${DMLTOOL_TEST_WINDOWS:-1}" != 0 ]; then
  "$repo/scripts/test_windows.sh"
fi
if [ "${DMLTOOL_TEST_DIRECTML:-1}" != 0 ]; then
  "$repo/scripts/directml_wine_probe.sh"  # DirectML.dll + dml_api.h + Mesa 25 lavapipe under Wine, no dmltool build
  "$repo/scripts/test_directml_wine.sh"
  # Random differential testing against the real DLL (docs/generated-cases.md), 200 cases per seed; every FAILED
  # case is shrunk to a repro under build-windows/diff_directml_*/repro/. Both seeds gate: the fixed one, and the
  # date's, which explores new cases every day (ten seeds, 4000 cases: 0 failed,
  # results/diff_directml_2026-11-28_seeds.txt). DMLTOOL_DIFF_DATE_GATES=0 reports the date's seed without gating.
  # The seed operators by name (--count is per operator: "all" would multiply it by every registered operator).
  seeds='SPLIT,RESAMPLE,DEPTH_TO_SPACE1,QUANTIZED_LINEAR_CONVOLUTION'
  "$repo/scripts/diff_directml.sh" --count 50 --seed 20261128 --operators "$seeds" --out build-windows/diff_directml_fixed
  # The element-wise and activation families (89 operators; docs/element-wise.md: DirectML): a fixed seed, gating.
  # FAMILY_COUNT cases per operator (measured on the 2-core machine: results/directml_element_wise_2026-11-29.txt).
  "$repo/scripts/diff_directml.sh" --count "${DMLTOOL_DIFF_FAMILY_COUNT:-FAMILY_COUNT}" --seed 20261129 \
    --operators 'ELEMENT_WISE_*,ACTIVATION_*' --out build-windows/diff_directml_element_wise
  today="$(date +%Y%m%d)"
  if [ "$today" != 20261128 ]; then
    "$repo/scripts/diff_directml.sh" --count 50 --seed "$today" --operators "$seeds" --out build-windows/diff_directml_today ||
      { [ "${DMLTOOL_DIFF_DATE_GATES:-1}" = 0 ] && echo "test.sh: diff_directml with the date's seed $today found disagreements (not gating: DMLTOOL_DIFF_DATE_GATES=0)"; } ||
      exit 1
  fi
fi
if [ "${DMLTOOL_TEST_SANITIZED:-1}" != 0 ]; then
  "$repo/scripts/test_sanitized.sh"
  "$repo/scripts/fuzz.sh" "${DMLTOOL_FUZZ_SECONDS:-90}"
fi
