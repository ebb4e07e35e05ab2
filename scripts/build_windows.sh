#!/usr/bin/env bash
# Cross-builds dmltool for 64-bit Windows with MinGW-w64 into build-windows/ (Release, Ninja, ccache when
# present): build-windows/app/dmltool.exe and the test executables, whose ctest list runs under Wine
# (scripts/wine.sh is the toolchain's emulator). docs/directml-and-windows.md: Windows.
#   scripts/build_windows.sh
# Installs missing Debian packages (through scripts/install_deps.sh), takes HDF5, Google Benchmark and
# GoogleTest from scripts/windows_deps.sh's cached prefix (built once, minutes cold) and passes
# DMLTOOL_WINDOWS_CMAKE_ARGS to CMake. DMLTOOL_JOBS sets the build parallelism (default: nproc).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
packages=(
  cmake ninja-build pkg-config dpkg-dev python3
  g++-mingw-w64-x86-64-posix gcc-mingw-w64-x86-64-posix mingw-w64-x86-64-dev
  wine64 xvfb xauth mesa-vulkan-drivers
  libcli11-dev nlohmann-json3-dev directx-headers-dev googletest
)
"$repo/scripts/install_deps.sh" "${packages[@]}"

prefix="$(scripts/windows_deps.sh | tail -n 1)"
[ -d "$prefix" ] || { echo "build_windows.sh: scripts/windows_deps.sh gave no prefix ('$prefix')" >&2; exit 1; }

launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S "$repo" -B "$repo/build-windows" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_TOOLCHAIN_FILE="$repo/cmake/mingw-w64-x86_64.cmake" -DCMAKE_PREFIX_PATH="$prefix" \
  "${launcher[@]}" ${DMLTOOL_WINDOWS_CMAKE_ARGS:-} >/dev/null
cmake --build "$repo/build-windows" -j "${DMLTOOL_JOBS:-$(nproc)}"
