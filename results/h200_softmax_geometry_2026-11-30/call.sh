#!/usr/bin/env bash
# Issue 38: FLOAT32 softmax1 over the last axis (16x64x256x256) was 0.98x PyTorch on the H200 (96.8% of the copy).
# Does the kernel's geometry decide it? One device command: `dmltool bench` of the softmax1 perf cases under each
# threads-per-group : most-chunks-per-thread setting (an experiment build whose plan_softmax read them from
# DMLTOOL_EXPERIMENT_SOFTMAX; the default is 256:4), the default again last, then PyTorch on the same cases.
# Here: that build packaged as in ../h200_element_wise_2026-11-30_one_lease/call.sh (linux.tar.xz, run.sh,
# pytorch_baseline.py), this script beside it; on the device: cd .gpu_pkg/l && OUT=$OUT bash call.sh
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"; cd "$here"
[ -e cases ] || ln -s ../../cases cases
[ -x bin/dmltool ] || tar -xJf linux.tar.xz
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" VKD3D_SHADER_DEBUG=none VKD3D_DEBUG=none
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json \
           /etc/vulkan/icd.d/nvidia_icd.json; do [ -f "$icd" ] && export VK_DRIVER_FILES="$icd" && break; done
res=/tmp/smx; mkdir -p "$res"
trap 'nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$res/gpu.txt" 2>&1; tar -C /tmp -cJf "$OUT/smx.tar.xz" smx' EXIT
for g in 256:4 256:8 256:16 128:4 128:8 128:16 64:4 64:8 64:16 512:4 1024:4 32:8 256:4; do
  DMLTOOL_EXPERIMENT_SOFTMAX=$g timeout 60 bin/dmltool bench cases/perf/element_wise.json --filter 'softmax1' \
    --backend gpu --max-time 0.3 --roofline-mib 0 --report-json "$res/bench_${g/:/_}.json" > "$res/bench_${g/:/_}.txt" 2>&1
  echo "$g: $(grep -E '^  gpu .*softmax1/float(32|16)' "$res/bench_${g/:/_}.txt" | awk '{print $5, $6, $9, $10}' | tr '\n' ' ')"
done | tee "$res/summary.txt"
timeout 200 python3 pytorch_baseline.py --cases cases/perf/element_wise.json --dmltool bin/dmltool --filter softmax1 \
  --out "$res/pytorch.json" > "$res/pytorch.txt" 2>&1
grep -h '"name"' "$res/pytorch.json" | cut -c1-160 | tee -a "$res/summary.txt"
tail -n 3 "$res/pytorch.txt"
