#!/usr/bin/env bash
# Cross-builds dmltool's non-header-only dependencies for 64-bit Windows from Debian 12 packages, as static
# libraries with CMake config files, and prints the install prefix as the LAST line of stdout (everything else goes
# to stderr):
#   prefix="$(scripts/windows_deps.sh | tail -1)"
#   cmake -G Ninja -S . -B build-windows -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake \
#         -DCMAKE_PREFIX_PATH="$prefix"
#
# What and from where (Debian only, nothing vendored in the repository):
# - HDF5 1.10.8 (C library only: no tools, tests, examples, HL, C++, Fortran, Java; no zlib/szip filters: the
#   bundled cases/**/*.h5 use neither compression nor chunking, and Debian has no MinGW zlib). Source: Debian's
#   `hdf5` source package (dpkg-source -x applies Debian's patches).
# - Google Benchmark 1.7.1: Debian's `benchmark` source package.
# - GoogleTest + GoogleMock: /usr/src/googletest (Debian package googletest, pulled in by libgtest-dev).
# - Header-only nlohmann-json 3.11.2 and CLI11 2.1.2 (Debian source packages nlohmann-json3, cli11): installed with
#   their CMake configs, because the host's configs point at /usr/include (Linux headers) and must not be used.
# Source packages come through a PRIVATE apt configuration (a deb-src entry in the cache directory, its own lists
# and archive cache); the system's apt sources and lists are not touched and no root rights are needed for that.
#
# Where: ${DMLTOOL_CACHE_DIR:-$HOME/.cache/dmltool}/windows-deps/
#   <key>/        the install prefix (include/, lib/*.a, lib/cmake/{hdf5,benchmark,GTest}/ ...)
#   <key>/.dmltool-windows-deps-complete   stamp written last: a prefix without it is rebuilt from scratch
#   src/          downloaded Debian source packages (kept, so a rebuild needs no network)
#   build-<key>/  build trees (removed after success; DMLTOOL_KEEP_BUILD=1 keeps them)
#   apt/          the private apt configuration
# <key> = Debian source versions + MinGW GCC version + hash of cmake/mingw-w64-x86_64.cmake and this script, so an
# unchanged machine finds the finished prefix and returns in well under a second (no network); an flock makes
# concurrent calls wait for one build.
#
# Cross-building notes:
# - CMake runs the Windows try_run() checks and HDF5's generators (H5detect -> H5Tinit.c, H5make_libsettings) under
#   Wine through CMAKE_CROSSCOMPILING_EMULATOR (scripts/wine.sh). HDF5's "maximum decimal precision" check writes
#   pac_Cconftest.out into the CURRENT directory and reads it back from CMAKE_BINARY_DIR, so HDF5 is configured
#   from inside its build directory.
# - HDF5's error stack prints __FILE__: -ffile-prefix-map shortens the cache path to hdf5-<version>/.
# - HDF5's config goes to lib/cmake/hdf5 (its default, share/cmake, is not on find_package's search path).
#
# Environment: DMLTOOL_CACHE_DIR, DMLTOOL_JOBS (default 2; builds run under nice), DMLTOOL_KEEP_BUILD=1,
# DMLTOOL_DEPS_CCACHE=0 (default: use ccache when installed),
# DMLTOOL_DEBIAN_MIRROR (default http://deb.debian.org/debian), DMLTOOL_DEBIAN_SUITE (default bookworm).
set -euo pipefail
exec 3>&1 1>&2  # stdout is only for the final prefix line

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
script="$repo/scripts/$(basename "${BASH_SOURCE[0]}")"
toolchain="$repo/cmake/mingw-w64-x86_64.cmake"
cache="${DMLTOOL_CACHE_DIR:-$HOME/.cache/dmltool}"
root="$cache/windows-deps"
jobs="${DMLTOOL_JOBS:-2}"
mirror="${DMLTOOL_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
suite="${DMLTOOL_DEBIAN_SUITE:-bookworm}"
# The Debian 12 source versions this script was written and tested against. If the archive no longer has one of
# them, the version it does have is used (and goes into the key).
hdf5_version="${DMLTOOL_HDF5_DEBIAN_VERSION:-1.10.8+repack1-1}"
benchmark_version="${DMLTOOL_BENCHMARK_DEBIAN_VERSION:-1.7.1-1}"
json_version="${DMLTOOL_JSON_DEBIAN_VERSION:-3.11.2-2}"
cli11_version="${DMLTOOL_CLI11_DEBIAN_VERSION:-2.1.2+ds-1}"

log() { echo "windows_deps: $*" >&2; }
die() { log "error: $*"; exit 1; }

# --- prerequisites ------------------------------------------------------------------------------------------------
for tool in cmake ninja x86_64-w64-mingw32-gcc-posix x86_64-w64-mingw32-g++-posix dpkg-source apt-get flock; do
  command -v "$tool" >/dev/null || die "$tool not found (Debian: cmake ninja-build g++-mingw-w64-x86-64-posix dpkg-dev)"
done
[ -x /usr/lib/wine/wine64 ] || command -v wine64 >/dev/null || command -v wine >/dev/null ||
  die "Wine not found (Debian: wine64), needed to run HDF5's configure checks and generators"
[ -f /usr/src/googletest/CMakeLists.txt ] || die "/usr/src/googletest missing (Debian: googletest)"
gtest_version="$(dpkg-query -W -f='${Version}' googletest 2>/dev/null || echo unknown)"
gcc_version="$(x86_64-w64-mingw32-gcc-posix -dumpfullversion)"

mkdir -p "$root"
exec 8>>"$root/lock"
flock 8  # one build at a time; a waiting caller then finds the finished prefix

# --- private apt configuration for Debian source packages ----------------------------------------------------------
apt_dir="$root/apt"
apt_opts=(-o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=$apt_dir/sources"
          -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache" -o "Dir::State::status=/dev/null"
          -o "APT::Sandbox::User=$(id -un)" -o "Debug::NoLocking=1" -q)
apt_updated=0
apt_update() {
  [ "$apt_updated" = 1 ] && return 0
  mkdir -p "$apt_dir/sources" "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
  echo "deb-src $mirror $suite main" > "$apt_dir/sources/dmltool-deb-src.list"
  log "apt-get update (private deb-src list for $suite)"
  apt-get "${apt_opts[@]}" update >&2 || die "apt-get update failed (network? mirror $mirror)"
  apt_updated=1
}
# fetch_source NAME VERSION: downloads (once) into $root/src/NAME_VERSION/ and unpacks with Debian's patches into
# .../tree; prints the version actually fetched.
fetch_source() {
  local name="$1" version="$2" dir
  dir="$root/src/${name}_$version"
  if [ ! -e "$dir/.unpacked" ]; then
    apt_update
    if ! apt-cache "${apt_opts[@]}" showsrc "$name=$version" 2>/dev/null | grep -q '^Package:'; then
      local available
      available="$(apt-cache "${apt_opts[@]}" showsrc "$name" | sed -n 's/^Version: //p' | head -1)"
      [ -n "$available" ] || die "no source package $name in $suite"
      log "warning: $name $version is no longer in $suite; using $available"
      version="$available"
      dir="$root/src/${name}_$version"
    fi
    if [ ! -e "$dir/.unpacked" ]; then
      rm -rf "$dir" && mkdir -p "$dir"
      log "downloading Debian source $name $version"
      (cd "$dir" && apt-get "${apt_opts[@]}" source --download-only "$name=$version" >&2) ||
        die "apt-get source $name=$version failed"
      (cd "$dir" && dpkg-source -x ./*.dsc tree >&2) || die "dpkg-source -x failed for $name"
      touch "$dir/.unpacked"
    fi
  fi
  echo "$version"
}

# --- the key: versions + toolchain + this script -------------------------------------------------------------------
make_key() {
  local hash
  hash="$(cat "$toolchain" "$script" | sha256sum | cut -c1-12)"
  echo "hdf5-${hdf5_version}_benchmark-${benchmark_version}_gtest-${gtest_version}_json-${json_version}_cli11-${cli11_version}_gcc-${gcc_version}_${hash}" |
    tr -c 'A-Za-z0-9._+\n-' '_'
}
key="$(make_key)"
prefix="$root/$key"
stamp="$prefix/.dmltool-windows-deps-complete"
if [ -e "$stamp" ]; then
  log "up to date: $prefix"
  echo "$prefix" >&3
  exit 0
fi

start=$(date +%s)
if [ ! -e "$root/src/hdf5_$hdf5_version/.unpacked" ] || [ ! -e "$root/src/benchmark_$benchmark_version/.unpacked" ] ||
   [ ! -e "$root/src/nlohmann-json3_$json_version/.unpacked" ] || [ ! -e "$root/src/cli11_$cli11_version/.unpacked" ]; then
  apt_update  # once here: fetch_source runs in a subshell
fi
hdf5_version="$(fetch_source hdf5 "$hdf5_version")"
benchmark_version="$(fetch_source benchmark "$benchmark_version")"
json_version="$(fetch_source nlohmann-json3 "$json_version")"
cli11_version="$(fetch_source cli11 "$cli11_version")"
key="$(make_key)"  # the same unless the archive moved on
prefix="$root/$key"
stamp="$prefix/.dmltool-windows-deps-complete"
if [ -e "$stamp" ]; then
  echo "$prefix" >&3
  exit 0
fi
build="$root/build-$key"
rm -rf "$prefix" "$build"
mkdir -p "$prefix" "$build"
log "building into $prefix"

common=(-G Ninja -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix"
        -DCMAKE_PREFIX_PATH="$prefix" -DBUILD_SHARED_LIBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=OFF
        -DCMAKE_INSTALL_LIBDIR=lib -Wno-dev)
# ccache (Debian: ccache), when present, makes a rebuild after a key change (an edited toolchain file or script)
# mostly cache hits; DMLTOOL_DEPS_CCACHE=0 turns it off.
if [ "${DMLTOOL_DEPS_CCACHE:-1}" != 0 ] && command -v ccache >/dev/null; then
  common+=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
build_install() {  # build_install DIR
  nice cmake --build "$1" -j "$jobs" >&2
  nice cmake --install "$1" >&2
}

# GoogleTest + GoogleMock
log "GoogleTest $gtest_version"
cmake -S /usr/src/googletest -B "$build/googletest" "${common[@]}" -DBUILD_GMOCK=ON -DINSTALL_GTEST=ON \
  -Dgtest_force_shared_crt=OFF >&2
build_install "$build/googletest"

# Google Benchmark (its own tests off). Debian's patch 0001 stops reading the version from git tags and expects
# GIT_VERSION from debian/rules: give it the upstream version.
log "Google Benchmark $benchmark_version"
cmake -S "$root/src/benchmark_$benchmark_version/tree" -B "$build/benchmark" "${common[@]}" \
  -DBENCHMARK_ENABLE_TESTING=OFF -DBENCHMARK_ENABLE_GTEST_TESTS=OFF -DBENCHMARK_ENABLE_WERROR=OFF \
  -DBENCHMARK_ENABLE_INSTALL=ON -DBENCHMARK_INSTALL_DOCS=OFF -DBENCHMARK_ENABLE_LTO=OFF \
  -DBENCHMARK_DOWNLOAD_DEPENDENCIES=OFF -DGIT_VERSION="${benchmark_version%%-*}" >&2
build_install "$build/benchmark"

# The header-only libraries, so that find_package(nlohmann_json) and find_package(CLI11) work in the cross build
# (the host's /usr/share/cmake configs would put /usr/include, Linux headers, on the Windows compile line).
log "nlohmann-json $json_version, CLI11 $cli11_version (headers and CMake configs only)"
cmake -S "$root/src/nlohmann-json3_$json_version/tree" -B "$build/nlohmann-json" "${common[@]}" \
  -DJSON_BuildTests=OFF -DJSON_Install=ON -DJSON_MultipleHeaders=ON -DBUILD_TESTING=OFF >&2
build_install "$build/nlohmann-json"
cmake -S "$root/src/cli11_$cli11_version/tree" -B "$build/cli11" "${common[@]}" -DCLI11_BUILD_TESTS=OFF \
  -DCLI11_BUILD_EXAMPLES=OFF -DCLI11_BUILD_DOCS=OFF -DCLI11_INSTALL=ON -DCLI11_SINGLE_FILE=OFF -DBUILD_TESTING=OFF >&2
build_install "$build/cli11"

# HDF5, C library only. Configured from inside its build directory (see the note at the top).
log "HDF5 $hdf5_version"
# MinGW has <unistd.h> but no <sys/wait.h>, which HDF5 1.10.8's H5private.h includes along with it (nothing from
# it is used on Windows): an empty stand-in in a build-local include directory, instead of patching the source.
mkdir -p "$build/hdf5" "$build/mingw-shim/sys"
echo '/* empty stand-in: MinGW lacks <sys/wait.h>; HDF5 1.10.8 includes it with <unistd.h> but uses nothing */' \
  > "$build/mingw-shim/sys/wait.h"
(cd "$build/hdf5" && cmake -S "$root/src/hdf5_$hdf5_version/tree" -B . "${common[@]}" \
  -DCMAKE_C_FLAGS="-I$build/mingw-shim -ffile-prefix-map=$root/src/hdf5_$hdf5_version/tree=hdf5-$hdf5_version" \
  -DBUILD_STATIC_LIBS=ON -DONLY_SHARED_LIBS=OFF -DBUILD_TESTING=OFF -DHDF5_BUILD_TOOLS=OFF \
  -DHDF5_BUILD_UTILS=OFF -DHDF5_BUILD_EXAMPLES=OFF -DHDF5_BUILD_HL_LIB=OFF -DHDF5_BUILD_CPP_LIB=OFF \
  -DHDF5_BUILD_FORTRAN=OFF -DHDF5_BUILD_JAVA=OFF -DHDF5_BUILD_GENERATORS=OFF -DHDF5_BUILD_DOC=OFF \
  -DHDF5_ENABLE_Z_LIB_SUPPORT=OFF -DHDF5_ENABLE_SZIP_SUPPORT=OFF -DHDF5_ENABLE_PARALLEL=OFF \
  -DHDF5_ENABLE_THREADSAFE=OFF -DHDF5_NO_PACKAGES=ON -DHDF5_PACKAGE_EXTLIBS=OFF \
  -DHDF5_INSTALL_CMAKE_DIR=lib/cmake/hdf5 -DHDF5_INSTALL_DATA_DIR=share/hdf5 >&2)
(cd "$build/hdf5" && build_install .)

touch "$stamp"
log "done in $(( $(date +%s) - start )) s: $(du -sh "$prefix" | cut -f1) in $prefix"
if [ "${DMLTOOL_KEEP_BUILD:-0}" != 1 ]; then
  rm -rf "$build"
fi
echo "$prefix" >&3
