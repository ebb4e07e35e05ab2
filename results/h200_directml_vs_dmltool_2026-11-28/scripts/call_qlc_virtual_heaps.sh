#!/usr/bin/env bash
# Device call C: call B's DirectML QLC run logged "vkd3d:fixme: Push constants size 260 exceeds maximum allowed
# size 256. Try VKD3D_CONFIG=virtual_heaps." before the hang (NVIDIA allows 256 bytes of push constants; vkd3d 1.6
# maps DirectML's root signature into more). This call sets VKD3D_CONFIG=virtual_heaps: doc/QLC-A alone first
# (stop if it still hangs), then the whole suite with --backend all and the QLC perf group's benches, DirectML then
# dmltool's kernels (both with virtual heaps), then dmltool's kernels again with vkd3d's default heaps.
#   (on the device, from the bundle's folder)  OUT=$OUT bash call_qlc_virtual_heaps.sh
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${OUT:?}"
cd "$here"
t0=$(date +%s)
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
[ -x "$here/bin/dmltool" ] || tar -C "$here" -xJf "$here/linux.tar.xz"
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json; do
  [ -f "$icd" ] && export VK_DRIVER_FILES="$icd" && break
done
# shellcheck source=/dev/null
. "$here/wine_env.sh"
VKD3D_CONFIG=virtual_heaps VKD3D_DEBUG=fixme timeout 45 "$WINE64" "$DMLTOOL_EXE" run cases/doc_examples.json \
  --filter '^doc/QLC-A$' --backend all -v </dev/null >"$out/qlc_a_virtual_heaps.txt" 2>&1
rc=$?
echo "exit $rc after $(( $(date +%s) - t0 )) s" >>"$out/qlc_a_virtual_heaps.txt"
"$WINESERVER" -k 2>/dev/null; kill "$wine_env_xvfb" 2>/dev/null; sleep 1
# run.sh starts its own Xvfb only when DISPLAY is unset (the one above is gone).
unset DISPLAY
[ "$rc" = 0 ] || exit 1
VKD3D_CONFIG=virtual_heaps WINE_BENCH_GROUPS=qlconv WINE_DEADLINE=$(( t0 + ${CALL_SECONDS:-330} )) OUT="$out" \
  bash run.sh directml --max-time 0.25 >"$out/console.txt" 2>&1
echo "run.sh directml (virtual heaps): exit $? after $(( $(date +%s) - t0 )) s" >>"$out/console.txt"
mkdir -p "$out/default_heaps"
WINE_RUN_FILTER='^doc/(?!QLC)' WINE_BENCH_GROUPS=qlconv WINE_DEADLINE=$(( t0 + ${CALL_SECONDS:-330} + 100 )) \
  WINE_BENCH_BACKENDS=gpu OUT="$out/default_heaps" bash run.sh directml --max-time 0.25 >"$out/default_heaps/console.txt" 2>&1
echo "dmltool's kernels, default heaps: exit $? after $(( $(date +%s) - t0 )) s" >>"$out/console.txt"
