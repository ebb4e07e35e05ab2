#!/usr/bin/env bash
# The whole test suite on a fresh machine: install, build, then ctest (unit, operator, golden, cli, gpu).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$repo/scripts/build.sh"
cd "$repo/build"
ctest --output-on-failure -j "$(nproc)" "$@"
