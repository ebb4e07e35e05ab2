#!/usr/bin/env bash
# The Windows build's test stages, run under Wine on Linux (docs/directml-and-windows.md: Windows). Prints each stage's time.
#   scripts/test_windows.sh
# 1. deps      scripts/windows_deps.sh (cached prefix: instant when warm; minutes cold)
# 2. build     scripts/build_windows.sh -> build-windows/ (dmltool.exe + test executables)
# 3. ctest     the Windows test executables (GoogleTest: one Wine process per executable or shard, through
#              scripts/gtest_once.py; cmake/gtests.cmake) and the golden cases through the emulator (scripts/wine.sh):
#              labels DMLTOOL_WINDOWS_CTEST_LABELS (default unit|shaders|golden|gpu)
# 4. cases     dmltool.exe run cases/*.json (reference + GPU on Wine's d3d12): every case must pass
# 5. cli       ctest -L cli: the bad-input corpus (exit code 2 + each file's message) and the CLI contract
# 6. bench     dmltool.exe bench on cases/perf/smoke.json, short
# Environment (scripts/wine_session.sh): one Xvfb for the run (Wine's DXGI needs a display) and Mesa 25's lavapipe
# (Wine 8.0's vkd3d needs VK_EXT_descriptor_indexing; DMLTOOL_WINDOWS_LAVAPIPE=system keeps the host's ICD).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
jobs="${DMLTOOL_JOBS:-$(nproc)}"
exe=build-windows/app/dmltool.exe
total_start=$(date +%s)
status=0
declare -a summary=()

stage() {  # stage NAME COMMAND...: runs, times and records one stage; a failed stage fails the script at the end
  local name=$1
  shift
  local start rc
  start=$(date +%s)
  echo "=== $name: $*"
  set +e
  "$@"
  rc=$?
  set -e
  local seconds=$(( $(date +%s) - start ))
  summary+=("$(printf '%-10s %5d s  exit %d' "$name" "$seconds" "$rc")")
  echo "=== $name: exit $rc in $seconds s"
  [ "$rc" -eq 0 ] || status=1
  return 0
}

source scripts/wine_session.sh  # one Xvfb for Wine's DXGI; Mesa 25 lavapipe for Wine's vkd3d

stage deps bash -c 'scripts/windows_deps.sh >/dev/null'
stage build scripts/build_windows.sh
if [ ! -x "$exe" ] && [ ! -f "$exe" ]; then
  echo "test_windows.sh: $exe was not built" >&2
  exit 1
fi

# run_ctest NAME CTEST_ARGS...: ctest in build-windows with the whole log in build-windows/test_windows/NAME.log;
# prints the summary and, when tests failed, each failed test's own output (a tail of the log alone cut it off).
# Failed tests then run once more, alone, selected by name (log NAME.rerun.log): under Wine on two shared cores a
# test has now and then failed once without a message (seen: exit 1 with no output after 0.04-0.32 s, one test of
# 432 or 512, passing on every other run) while a real failure fails both times. A test that passes only on the
# rerun is printed as FLAKY UNDER WINE and does not fail the stage; one that fails again does. Not `ctest
# --rerun-failed`: it selects by test number, and a run filtered with -L/-LE/-E numbers its tests without the
# excluded ones, so the unfiltered rerun's #355 was another test (seen: it ran DeriveMinFeatureLevel.
# PicksLowestAllowingRow and called the failure of ExplainsDisallowedRank flaky).
run_ctest() {
  local name=$1
  shift
  local log=build-windows/test_windows/$name.log rc
  mkdir -p build-windows/test_windows
  (cd build-windows && ctest "$@" -j "$jobs" --output-on-failure --timeout 600) >"$log" 2>&1
  rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "--- output of the failed tests ($log has everything):"
    awk '/\*\*\*(Failed|Timeout|Exception)/ { show = 1 }
         /^ +Start +[0-9]+:|^ *[0-9]+\/[0-9]+ Test +#/ && !/\*\*\*(Failed|Timeout|Exception)/ { show = 0 }
         show' "$log" | head -n 400
    local failed
    failed=$(sed -n 's/^[[:space:]]*[0-9]* - \(.*\) (\(Failed\|Timeout\|Exception\|SEGFAULT\|Subprocess aborted\|Child aborted\|OTHER_FAULT\).*/\1/p' "$log" | sort -u)
    tail -n 25 "$log"
    echo "--- rerunning the failed tests once, one at a time: $(echo $failed)"
    local count pattern rerun="${log%.log}.rerun.log"
    count=$(echo "$failed" | grep -c .)
    # ^(name|name...)$ with the names' regular-expression characters escaped.
    pattern="^($(echo "$failed" | sed 's/[][\\.*^$+?(){}|]/\\&/g' | paste -sd'|'))\$"
    (cd build-windows && ctest -R "$pattern" -j 1 --output-on-failure --timeout 600) >"$rerun" 2>&1
    rc=$?
    tail -n 15 "$rerun"
    # Every failed test must have run again (a pattern that matched fewer would pass vacuously).
    if [ "$rc" -eq 0 ] && [ "$count" -gt 0 ] && grep -q "tests passed, 0 tests failed out of $count\$" "$rerun"; then
      echo "FLAKY UNDER WINE (failed once, passed when rerun): $(echo $failed)"
      return 0
    fi
    [ "$rc" -ne 0 ] || echo "--- the rerun did not run the $count failed tests (see $rerun)"
    return 1
  fi
  tail -n 25 "$log"
  return "$rc"
}

labels="${DMLTOOL_WINDOWS_CTEST_LABELS:-unit|shaders|golden|gpu}"
# Known Wine gaps, left out of the GoogleTest executables here (GoogleTest's negative filter, which
# scripts/gtest_once.py passes on) and listed in docs/directml-and-windows.md: Windows: Wine shows Unix symbolic links
# as plain files (SymlinkPaths.*); spirv-val/vkd3d-compiler validation of every roofline kernel through Wine outlasts
# its timeout (RooflineProbe.EveryKernelPassesVkd3dAndSpirvVal); and the QLINEARCONV tests with the largest
# dispatches (multi-view tensors, tiled/float kernel geometries): one dispatch on lavapipe under Wine can outlast the
# 60 s submit timeout when another test shares the two cores (they passed alone or timed out, never gave wrong
# values). The Linux suite runs all of them.
wine_gaps='SymlinkPaths.*:RooflineProbe.EveryKernelPassesVkd3dAndSpirvVal'
for qlc_test in MultiViewKernels TiledKernelChunksAndWindows FloatKernelGeometries FloatKernelExactAtRunBoundaries; do
  wine_gaps+=":QuantizedLinearConvolutionGpu.$qlc_test"
done
# Not gaps but time: the convolution's plan-variant and tuning sweeps over its three largest shapes, 1361 s of the
# 2295 s that every GoogleTest test took here with Mesa's shader cache cold (2026-11-30, 2-core machine: lavapipe
# compiling each variant's pipeline, as in a fresh CI machine). Every variant still runs under Wine on the other
# three shapes (EveryVariant.MatchesTheReference/0, /2, /3) and the tuning's logic is host code; the Linux suite runs
# all of them.
time_cuts='QuantizedLinearConvolutionVariants/EveryVariant.MatchesTheReference/1'
time_cuts+=':QuantizedLinearConvolutionVariants/EveryVariant.MatchesTheReference/4'
time_cuts+=':QuantizedLinearConvolutionVariants/EveryVariant.MatchesTheReference/5'
time_cuts+=':QuantizedLinearConvolutionVariants.BackendTunesStoresAndReusesTheWinner'
time_cuts+=':QuantizedLinearConvolutionVariants.TuningRefusesAVariantWithOtherOutputs'
# gtest_once.py reruns a test that failed once alone and judges it there (FLAKY UNDER WINE when it then passes).
GTEST_FILTER="-$wine_gaps:$time_cuts" stage ctest run_ctest ctest -L "$labels" -LE cli

run_cases() {
  local out=build-windows/test_windows
  mkdir -p "$out"
  scripts/wine.sh "$exe" run cases/*.json --json "$out/cases.json" > "$out/cases.txt" 2>&1
  local rc=$?
  tail -n 3 "$out/cases.txt"
  return "$rc"
}
stage cases run_cases

# The CLI contract with the Windows binary: the bad-input corpus (exit code 2 and each file's expectations.txt
# message), usage errors, exit codes, reports, device faults, bench reports; the same checkers as on Linux.
# cli_bench_conditions (cold mode, injected throttle) benchmarks with many probes: under Wine it outlasts its
# timeout; the bench stage below and cli_bench_reports cover bench under Wine.
stage cli run_ctest cli -L cli -E 'cli_bench_conditions'

# Bounded: the stage checks that bench runs and reports under Wine, not its figures (lavapipe under Wine).
stage bench scripts/wine.sh "$exe" bench cases/perf/smoke.json --min-samples 3 --max-time 0.5 --roofline-mib 4

echo "=== summary (total $(( $(date +%s) - total_start )) s)"
printf '%s\n' "${summary[@]}"
exit "$status"
