#!/usr/bin/env bash
# The test suite under AddressSanitizer + UndefinedBehaviorSanitizer (docs/testing.md: Sanitizers and fuzzing):
# clang build in build-sanitize/ (shared with scripts/fuzz.sh: one build serves both), then ctest.
# Any report fails its test (scripts/sanitizers/env.sh).
#   scripts/test_sanitized.sh [CTEST_ARGS...]   (default: every test but labels timing and docs and the GPU kernel
#                                                sweeps below; the other GPU tests included)
# Label timing (cli_compare_gate_rates) measures the regression gate's rates on the build's own speed: under the
# sanitizers that measures the instrumentation, not the gate. Label docs checks the documentation's text, links and
# tour, whose dmltool commands the cli tests run too. The Release suite runs both.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${DMLTOOL_SANITIZE_BUILD_DIR:-$repo/build-sanitize}"

"$repo/scripts/build_sanitized.sh"

source "$repo/scripts/sanitizers/env.sh"
cd "$build"
# The GPU kernel sweeps: the same few host paths (plan, build, dispatch, compare) repeated over tens of kernel
# geometries or variants, whose time is spent in lavapipe (uninstrumented), not in dmltool's code. The Release suite
# runs every one of them; here each kernel family keeps its lighter GPU tests, which take the same host paths under
# the sanitizers. Together 870 s of the Release suite's 1700 s of test time with Mesa's shader cache cold, 197 of
# 675 s warm (as this suite finds it after the Release suite; 2026-11-30, ctest -j2 on the 2-core machine).
sweeps=(
  'QuantizedLinearConvolutionGpu\.(FloatKernelGeometries|MultiViewKernels|TiledKernelChunksAndWindows)'
  'QuantizedLinearConvolutionGpu\.(FloatKernelExactAtRunBoundaries|RandomCasesEveryTypeAndRank|MultiViewBlobsValidate)'
  'QuantizedLinearConvolutionGpu\.(EightChannelTiles|WinogradKernelExact)'
  'QuantizedLinearConvolutionVariants/EveryVariant\.MatchesTheReference/.*'
  'QuantizedLinearConvolutionVariants\.(BackendTunesStoresAndReusesTheWinner|TuningRefusesAVariantWithOtherOutputs)'
  'ResampleGpu\.(NearestDownsampleDecimatedRows|EveryKernelVariantValidates)'
  'Kernels\.Copy16OfTensorLargerThanOneView'
)
sweep_pattern="^($(IFS='|'; echo "${sweeps[*]}"))\$"
if [ "$#" -eq 0 ]; then set -- -LE "^(timing|docs)$" -E "$sweep_pattern"; fi
ctest --output-on-failure -j "$(nproc)" "$@"
