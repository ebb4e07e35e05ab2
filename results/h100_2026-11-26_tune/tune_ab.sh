#!/usr/bin/env bash
# QLinearConv autotuning on the GPU machine: the perf suite's 8 QLinearConv cases with the heuristic plans
# (--autotune off), then tuned (every plan variant timed, winners stored in $OUT/tuning.json), then with the cached
# winners, then the heuristic again (drift check), in one call on one device. (First version, before the timing
# fix: off/tuned/off2 only; its files are tuned.json etc. of the first call, see README.md.)
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"; out="${OUT:-$here/out}"; mkdir -p "$out"; cd "$here"
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
  [ -f "$icd" ] && export VK_DRIVER_FILES="$icd" && break; done
export VKD3D_SHADER_DEBUG=none VKD3D_DEBUG=none
run() { local tag=$1 log=$2; shift 2; echo "== $tag $(date -u +%T)"; timeout 280 bin/dmltool bench cases/perf/perf.json --backend gpu --filter qlconv \
  --roofline-mib 64 --max-time 0.5 --report-json "$out/$tag.json" "$@" > "$log" 2>&1; echo "exit $? $(date -u +%T)"; }
run v3_off /tmp/off.txt --autotune off
run v3_tuned "$out/v3_tuned.txt" --autotune tune --tuning-cache "$out/v3_tuning.json"
run v3_cached "$out/v3_cached.txt" --autotune cached --tuning-cache "$out/v3_tuning.json"
run v3_off2 /tmp/off2.txt --autotune off
grep -A12 "Plans (autotuning)" "$out/v3_tuned.txt"
