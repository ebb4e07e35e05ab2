#!/usr/bin/env bash
# Issue 38, after the probe-gated exp2 (fastexp): the exp2 probe's verdict on this GPU, the bundled suite on our
# kernels, then `dmltool bench` of cases/perf/element_wise.json and PyTorch timing the same workloads, one call.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"; cd "$here"
[ -e cases ] || ln -s ../../cases cases
res=/tmp/ewb; mkdir -p "$res"
finish() {
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$res/gpu.txt" 2>&1
  tar -C /tmp -cJf "$OUT/ewb.tar.xz" ewb
}
trap finish EXIT
start=$(date +%s)
[ -x bin/dmltool ] || tar -xJf linux.tar.xz
( export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json \
             /etc/vulkan/icd.d/nvidia_icd.json; do [ -f "$icd" ] && export VK_DRIVER_FILES="$icd" && break; done
  DMLTOOL_TUNING_TRACE=1 timeout 60 bin/dmltool run cases/perf/element_wise.json --filter 'unary/(exp|tanh)/float32' \
    --backend gpu -v > "$res/probe_trace.txt" 2>&1; echo "exit $?" >> "$res/probe_trace.txt" )
grep -i "probe\|exp2\|PASSED\|FAILED" "$res/probe_trace.txt" | head -8
OUT="$res" RUN_SUITE="${RUN_SUITE:-1}" PERF_CASES=cases/perf/element_wise.json timeout $(( ${CALL_SECONDS:-520} - ($(date +%s) - start) )) \
  bash run.sh bench --max-time 0.2 > "$res/call.txt" 2>&1
echo "exit $? after $(( $(date +%s) - start )) s" >> "$res/call.txt"
tail -n 30 "$res/call.txt"
