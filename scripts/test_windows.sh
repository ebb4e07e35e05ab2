#!/usr/bin/env bash
# The Windows build's test stages, run under Wine on Linux (README: "Windows"). Prints each stage's time.
#   scripts/test_windows.sh
# 1. deps      scripts/windows_deps.sh (cached prefix: instant when warm; minutes cold)
# 2. build     scripts/build_windows.sh -> build-windows/ (dmltool.exe + test executables)
# 3. ctest     the Windows test executables (GoogleTest, one Wine process per test) and the golden cases through
#              the emulator (scripts/wine.sh): labels DMLTOOL_WINDOWS_CTEST_LABELS (default unit|shaders|golden|gpu)
# 4. cases     dmltool.exe run cases/*.json (reference + GPU on Wine's d3d12): every case must pass
# 5. cli       ctest -L cli: the bad-input corpus (exit code 2 + each file's message) and the CLI contract
# 6. bench     dmltool.exe bench on cases/perf/smoke.json, short
# Vulkan for Wine: Mesa 25's lavapipe from scripts/fetch_lavapipe.sh (default). Wine 8.0's vkd3d registers
# descriptor heaps only on devices with VK_EXT_descriptor_indexing, which Debian 12's lavapipe (Mesa 22.3) lacks:
# there every dispatch that binds a descriptor table runs without its views (all 245 cases fail with untouched
# outputs). DMLTOOL_WINDOWS_LAVAPIPE=system uses the host's ICD anyway.
# Display: Wine's DXGI needs an X display (without one CreateDXGIFactory1 fails with DXGI_ERROR_UNSUPPORTED), so
# one Xvfb serves the whole run when DISPLAY is unset (one X server instead of xvfb-run per Wine call).
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

if [ -z "${DISPLAY:-}" ]; then
  for display in $(seq 90 99); do
    [ -e "/tmp/.X11-unix/X$display" ] || [ -e "/tmp/.X$display-lock" ] || break
  done
  Xvfb ":$display" -nolisten tcp -screen 0 640x480x24 >/dev/null 2>&1 &
  xvfb_pid=$!
  trap 'kill "$xvfb_pid" 2>/dev/null || true' EXIT
  export DISPLAY=":$display"
  for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$display" ] && break; sleep 0.1; done
fi
if [ "${DMLTOOL_WINDOWS_LAVAPIPE:-mesa25}" = mesa25 ]; then
  VK_ICD_FILENAMES="$(scripts/fetch_lavapipe.sh | tail -n 1)"
  export VK_ICD_FILENAMES
  export LD_LIBRARY_PATH="$(dirname "$VK_ICD_FILENAMES")/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi

stage deps bash -c 'scripts/windows_deps.sh >/dev/null'
stage build scripts/build_windows.sh
if [ ! -x "$exe" ] && [ ! -f "$exe" ]; then
  echo "test_windows.sh: $exe was not built" >&2
  exit 1
fi

labels="${DMLTOOL_WINDOWS_CTEST_LABELS:-unit|shaders|golden|gpu}"
stage ctest bash -c "cd build-windows && ctest -L '$labels' -LE cli -j $jobs --output-on-failure --timeout 600 2>&1 | tail -n 40; exit \${PIPESTATUS[0]}"

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
stage cli bash -c "cd build-windows && ctest -L cli -j $jobs --output-on-failure --timeout 600 2>&1 | tail -n 40; exit \${PIPESTATUS[0]}"

stage bench scripts/wine.sh "$exe" bench cases/perf/smoke.json --benchmark_min_time=0.01

echo "=== summary (total $(( $(date +%s) - total_start )) s)"
printf '%s\n' "${summary[@]}"
exit "$status"
