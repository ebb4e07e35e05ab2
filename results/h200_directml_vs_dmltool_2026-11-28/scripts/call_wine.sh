#!/usr/bin/env bash
# Device call A: DirectML 1.15.4 vs dmltool's kernels, both as dmltool.exe under Wine 8.0 on the GPU machine:
# the correctness suite without QUANTIZED_LINEAR_CONVOLUTION (whose DirectML executions hung on the H200), then
# `bench` of the perf cases one operator group at a time, DirectML then dmltool's kernels, inside a deadline.
#   (on the device, from the bundle's folder)  OUT=$OUT bash call_wine.sh
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${OUT:?}"
cd "$here"
nvidia-smi >"$out/gpu.txt" 2>&1
t0=$(date +%s)
WINE_RUN_FILTER='^(?!qlconv/|doc/QLC)' WINE_DEADLINE=$(( t0 + ${CALL_SECONDS:-540} )) OUT="$out" \
  bash run.sh directml --max-time 0.25 >"$out/console.txt" 2>&1
echo "run.sh directml: exit $? after $(( $(date +%s) - t0 )) s" >>"$out/console.txt"
nvidia-smi >"$out/gpu_after.txt" 2>&1
