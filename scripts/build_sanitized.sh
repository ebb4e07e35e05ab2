#!/usr/bin/env bash
# Configures and builds the sanitizer + fuzzer tree (clang, ASan + UBSan, libFuzzer instrumentation) that
# scripts/test_sanitized.sh and scripts/fuzz.sh share: build-sanitize/, or $DMLTOOL_SANITIZE_BUILD_DIR.
#   scripts/build_sanitized.sh [TARGET...]   (default: everything)
# -O1 keeps the sanitized suite quick to build on two cores, and so do the precompiled headers (clang with the
# sanitizers: -17% per file, cmake/precompiled_headers.cmake); asserts stay on (no NDEBUG) and line tables give
# sanitizer reports file:line frames.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${DMLTOOL_SANITIZE_BUILD_DIR:-$repo/build-sanitize}"
"$repo/scripts/install_deps.sh"
cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
  -DDMLTOOL_SANITIZE=ON -DDMLTOOL_FUZZ=ON -DDMLTOOL_PCH=ON >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$build" -j "$(nproc)" "${targets[@]}"
# Not instrumented: preloaded ahead of the executables' own ASan runtime (see the file's comment).
cc -O2 -shared -fPIC -o "$build/keep_libraries_loaded.so" "$repo/scripts/sanitizers/keep_libraries_loaded.c"
