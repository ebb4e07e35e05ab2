#!/usr/bin/env bash
# Packs dist/dmltool-gpu (package.sh --with-directml) into a folder small enough to travel with the working tree
# to the GPU machine in one call (the device takes the checkout plus `carry` paths, 64 MiB in all; the unpacked
# Linux package and wine.tar.xz are 61 MB, the checkout ~15 MB): bin/ and lib/ go into linux.tar.xz (~10 MB),
# which run.sh unpacks on the machine when bin/dmltool is missing. So one call can run the Linux build, PyTorch
# and DirectML under Wine side by side.
#   scripts/gpu_machine/bundle.sh [OUT]     (default .gpu_pkg/p, which .git/info/exclude should ignore)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
dist="${DMLTOOL_DIST:-$repo/dist/dmltool-gpu}"
out="${1:-$repo/.gpu_pkg/p}"
[ -f "$dist/wine.tar.xz" ] && [ -x "$dist/bin/dmltool" ] || {
  echo "bundle.sh: $dist lacks bin/dmltool or wine.tar.xz: run scripts/gpu_machine/package.sh --with-directml" >&2; exit 2; }
rm -rf "$out"
mkdir -p "$out"
tar -C "$dist" -cf - bin lib | xz -T0 -6 > "$out/linux.tar.xz"
cp -r "$dist/cases" "$out/cases"
cp "$dist"/*.sh "$dist"/*.py "$dist/wine.tar.xz" "$out/"
du -sh "$out"
