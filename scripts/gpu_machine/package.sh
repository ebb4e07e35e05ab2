#!/usr/bin/env bash
# Packages dmltool for a machine with a GPU but no package registry (the H200 machine): the binary, every
# shared library it links except glibc's (resolved with ldd on this Debian 12 build), the bundled cases,
# run.sh, pytorch_baseline.py and compare.py; also dmltool_pipeline_stats and its libraries when it was built.
# Output: dist/dmltool-gpu/ (git-ignored; DMLTOOL_DIST overrides), about 20 MB. Build first (scripts/build.sh;
# DMLTOOL_BUILD_DIR names another build directory).
# --with-directml adds wine.tar.xz (scripts/gpu_machine/package_wine.sh: dmltool.exe from build-windows/,
# DirectML.dll, the part of Debian 12's Wine it needs, a prepared prefix, Xvfb; about 28 MB) and wine_env.sh, so
# that run.sh directml / all run DirectML on the machine's GPU (docs/directml-gpu-machine.md).
set -euo pipefail
with_directml=0
case "${1:-}" in
  --with-directml) with_directml=1 ;;
  "") ;;
  *) echo "usage: package.sh [--with-directml]" >&2; exit 2 ;;
esac
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${DMLTOOL_DIST:-$repo/dist/dmltool-gpu}"
build="${DMLTOOL_BUILD_DIR:-$repo/build}"
binary="$build/app/dmltool"
[ -x "$binary" ] || { echo "package.sh: $binary not found: run scripts/build.sh first" >&2; exit 2; }
rm -rf "$out"
mkdir -p "$out/bin" "$out/lib"
# Copies a binary into bin/ and the shared libraries it links into lib/.
# glibc (libc, libm, libdl, libpthread, librt, libresolv, the loader) and the C++ runtime must come from the
# target: they match its kernel and are at least as new as Debian 12's (the binary needs nothing newer).
package_binary() {
  cp "$1" "$out/bin/"
  ldd "$1" | awk '/=> \// {print $3}' | while read -r lib; do
    case "$(basename "$lib")" in
      libc.so.*|libm.so.*|libdl.so.*|libpthread.so.*|librt.so.*|libresolv.so.*|ld-linux*|libstdc++.so.*|libgcc_s.so.*) ;;
      *) cp -L "$lib" "$out/lib/" ;;
    esac
  done
}
package_binary "$binary"
# The driver's per-kernel statistics (docs/gpu-machine.md: Pipeline statistics); built only where Vulkan and libvkd3d-shader are.
pipeline_stats="$build/tools/pipeline_stats/dmltool_pipeline_stats"
if [ -x "$pipeline_stats" ]; then
  package_binary "$pipeline_stats"
else
  echo "package.sh: $pipeline_stats not built: run.sh pipeline-stats will not work" >&2
fi
# NVIDIA's Vulkan ICD (libGLX_nvidia) needs the GL vendor-neutral dispatch libraries; the GPU machine's image
# has none, and ldd of dmltool cannot see them (the Vulkan loader dlopens the ICD).
for lib in libGLdispatch.so.0 libGLX.so.0 libGL.so.1 libEGL.so.1 libOpenGL.so.0; do cp -L "/usr/lib/x86_64-linux-gnu/$lib" "$out/lib/"; done
cp -r "$repo/cases" "$out/cases"
cp "$repo/scripts/gpu_machine/run.sh" "$out/"
cp "$repo/scripts/gpu_machine/pytorch_baseline.py" "$repo/scripts/gpu_machine/pytorch_element_wise.py" \
   "$repo/scripts/gpu_machine/pytorch_layers.py" \
   "$repo/scripts/gpu_machine/compare.py" "$out/"
if [ "$with_directml" = 1 ]; then
  cp "$repo/scripts/gpu_machine/wine_env.sh" "$out/"
  "$repo/scripts/gpu_machine/package_wine.sh" "$out"
fi
du -sh "$out"
