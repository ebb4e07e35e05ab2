#!/usr/bin/env bash
# CI for the DirectML backend: fetches Microsoft's DirectML.dll (scripts/fetch_directml.sh) and Mesa 25's lavapipe
# (scripts/fetch_lavapipe.sh: Debian 12's lavapipe makes Wine's vkd3d reject DirectML's descriptor tables), cross-
# builds dmltool.exe (scripts/build_windows.sh) and runs the bundled suite under Wine with --backend directml and
# --backend all. Both must exit 0 with no FAILED case: DirectML's registered departures from the contract are
# DEVIATES (gpu/directml/deviations/), and scripts/check_deviations.py holds them to what the registry predicts
# (every certain prediction happened, nothing else deviated). Output: $DMLTOOL_DIRECTML_OUT (default
# build-windows/directml_wine/): <backend>.txt (console) and <backend>.json (report) per run.
#   scripts/test_directml_wine.sh
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
dll="$(scripts/fetch_directml.sh | tail -n 1)"
scripts/build_windows.sh
exe=build-windows/app/dmltool.exe
# The default look-up: DirectML.dll next to dmltool.exe (the build directory is not part of the source tree).
cp -f "$dll" "$(dirname "$exe")/DirectML.dll"
source scripts/wine_session.sh  # an Xvfb for Wine's DXGI, Mesa 25's lavapipe
out="${DMLTOOL_DIRECTML_OUT:-build-windows/directml_wine}"
mkdir -p "$out"
status=0
for backend in directml all; do
  start=$(date +%s)
  # dmltool exits 1 when a case fails: that fails this script (below), as does the registry check.
  set +e
  scripts/wine.sh "$exe" run --backend "$backend" cases/*.json --json "$out/$backend.json" > "$out/$backend.txt" 2>&1
  rc=$?
  set -e
  echo "dmltool.exe run --backend $backend cases/*.json: exit $rc in $(( $(date +%s) - start )) s ($out/$backend.txt)"
  if [ "$rc" -ge 2 ] || [ ! -s "$out/$backend.json" ]; then
    echo "test_directml_wine.sh: --backend $backend did not run (exit $rc):" >&2
    tail -n 20 "$out/$backend.txt" >&2
    status=1
    continue
  fi
  tail -n 3 "$out/$backend.txt"
  scripts/check_deviations.py "$out/$backend.json" || status=1
  if [ "$rc" -ne 0 ]; then
    echo "test_directml_wine.sh: --backend $backend exited $rc: a case FAILED or was MISTRUSTED ($out/$backend.txt)" >&2
    status=1
  fi
done
exit "$status"
