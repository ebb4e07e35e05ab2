#!/usr/bin/env bash
# Installs the Debian packages dmltool needs (if missing) and builds it into build/ (Release).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$repo/scripts/install_deps.sh"
jobs="$(nproc)"
cmake -S "$repo" -B "$repo/build" -G Ninja -DCMAKE_BUILD_TYPE=Release ${DMLTOOL_CMAKE_ARGS:-} >/dev/null
cmake --build "$repo/build" -j "$jobs"
