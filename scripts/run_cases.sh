#!/usr/bin/env bash
# The main job on a fresh machine: install, build, then `dmltool run cases/*.json` (extra arguments are passed
# to `dmltool run`, e.g. --backend cpu or --junit report.xml).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$repo/scripts/build.sh"
cd "$repo"
exec build/app/dmltool run cases/*.json "$@"
