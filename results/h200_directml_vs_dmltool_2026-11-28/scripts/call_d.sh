#!/usr/bin/env bash
# Device call D: what calls A-C left out. (1) The Linux build's bench of the QLC perf cases and PyTorch's timings of
# them (call B filtered them out). (2) DirectML alone on the data-movement perf groups with VKD3D_CONFIG=virtual_heaps
# (call A ran them with vkd3d's default heaps; QLC needs virtual heaps on NVIDIA): does the heap mode move
# DirectML's times? dmltool's kernels are not re-timed (call A's numbers stand; call C timed QLC both ways).
#   (on the device, from the bundle's folder)  OUT=$OUT bash call_d.sh
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${OUT:?}"
cd "$here"
t0=$(date +%s)
mkdir -p "$out/linux_qlconv" "$out/wine_virtual_heaps"
PERF_FILTER='^perf/qlconv/' RUN_SUITE=0 OUT="$out/linux_qlconv" timeout 170 bash run.sh bench --max-time 0.25 \
  >"$out/linux_qlconv/console.txt" 2>&1
echo "run.sh bench (qlconv): exit $? after $(( $(date +%s) - t0 )) s" >>"$out/linux_qlconv/console.txt"
VKD3D_CONFIG=virtual_heaps WINE_RUN_FILTER='^doc/' WINE_BENCH_GROUPS='d2s split resample' WINE_BENCH_BACKENDS=directml \
  WINE_DEADLINE=$(( t0 + ${CALL_SECONDS:-420} )) OUT="$out/wine_virtual_heaps" bash run.sh directml --max-time 0.25 \
  >"$out/wine_virtual_heaps/console.txt" 2>&1
echo "run.sh directml (virtual heaps, DirectML only): exit $? after $(( $(date +%s) - t0 )) s" >>"$out/wine_virtual_heaps/console.txt"
