#!/usr/bin/env bash
# Issue 38 (2026-11-30): the element-wise and activation perf cases on the H200, one lease, two device commands a
# minute apart (one command's 10-minute limit holds either half, not both):
#   linux     the bundled suite on our kernels (Linux build), `dmltool bench` of cases/perf/element_wise.json, PyTorch
#             timing the same workloads and compare.py's summary (run.sh bench)
#   directml  DirectML's own shaders on the same cases under the packaged Wine (run.sh directml, groups ew and act)
# Each tars its results into $OUT/MODE.tar.xz.
# Here (repository root), after scripts/build.sh and scripts/build_windows.sh:
#   DMLTOOL_DIST=$PWD/.gpu_pkg/dmltool-gpu scripts/gpu_machine/package.sh --with-directml
#   DMLTOOL_DIST=$PWD/.gpu_pkg/dmltool-gpu scripts/gpu_machine/bundle.sh && rm -rf .gpu_pkg/p/cases
#   (cd .gpu_pkg/dmltool-gpu && tar -cf - --exclude=bin/dmltool_pipeline_stats bin lib | xz -T2 -9e > ../p/linux.tar.xz)
#   cp results/h200_element_wise_2026-11-30_one_lease/call.sh .gpu_pkg/p/
# (the checkout, 26.4 MB, plus .gpu_pkg/p, 39.9 MB, just fit the device's 64 MiB), then on the device, carrying
# .gpu_pkg/p:   cd .gpu_pkg/p && OUT=$OUT bash call.sh linux      and then      cd .gpu_pkg/p && OUT=$OUT bash call.sh directml
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
[ -e cases ] || ln -s ../../cases cases
mode="${1:?usage: call.sh linux|directml}"
res="/tmp/$mode"
mkdir -p "$res"
finish() {
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > "$res/gpu.txt" 2>&1
  tar -C /tmp -cJf "$OUT/$mode.tar.xz" "$mode"
}
trap finish EXIT
start=$(date +%s)
case "$mode" in
  linux)
    OUT="$res" RUN_SUITE=1 PERF_CASES=cases/perf/element_wise.json timeout 550 bash run.sh bench --max-time 0.2 \
      > "$res/call.txt" 2>&1 ;;
  directml)
    OUT="$res" PERF_CASES=cases/perf/element_wise.json WINE_RUN=0 WINE_BENCH_GROUPS="ew act" \
      WINE_BENCH_BACKENDS=directml WINE_BENCH_TIMEOUT=360 timeout 560 bash run.sh directml --max-time 0.2 \
      > "$res/call.txt" 2>&1 ;;
  *) echo "call.sh: unknown mode $mode" >&2; exit 2 ;;
esac
echo "exit $? after $(( $(date +%s) - start )) s" >> "$res/call.txt"
tail -n 45 "$res/call.txt"
