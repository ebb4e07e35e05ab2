#!/usr/bin/env bash
# Runs on the GPU machine from an unpacked dist/dmltool-gpu/: points the loader at the carried libraries and
# vkd3d's Vulkan loader at the machine's NVIDIA driver, lists adapters, runs the bundled suite (GPU vs CPU
# reference vs expected) and, with `bench`, the benchmarks. Results go to $OUT (or ./out).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${OUT:-$here/out}"
mkdir -p "$out"
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if [ -z "${VK_DRIVER_FILES:-}" ]; then
  for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json \
             /etc/vulkan/icd.d/nvidia_icd.json; do
    [ -f "$icd" ] && export VK_DRIVER_FILES="$icd" && break
  done
fi
echo "VK_DRIVER_FILES=${VK_DRIVER_FILES:-<unset>}"
export VKD3D_SHADER_DEBUG=none VKD3D_DEBUG=none
dmltool="$here/bin/dmltool"
cd "$here"
"$dmltool" list | tee "$out/list.txt"
status=0
"$dmltool" run cases/*.json --junit "$out/junit.xml" --json "$out/run.json" 2>&1 | tee "$out/run.txt" || status=$?
if [ "${1:-}" = "bench" ]; then
  shift
  "$dmltool" bench cases/perf/perf.json --backend gpu --benchmark_min_time=0.05 --benchmark_out="$out/bench.json" --benchmark_out_format=json "$@" 2>&1 \
    | tee "$out/bench.txt" || status=$?
  if command -v python3 >/dev/null && [ -f "$here/pytorch_baseline.py" ]; then
    OUT="$out" python3 "$here/pytorch_baseline.py" 2>&1 | tee "$out/pytorch.txt"
  fi
fi
exit $status
