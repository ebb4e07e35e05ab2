#!/usr/bin/env bash
# A/B/C/D of the narrow-type interleave variants (one binary built with A/B-only environment switches, plus the
# ab09f0a binary), on the data-movement cases they touch; each case is read relative to the copy probes measured
# right before and after it (this machine's bandwidth dips between 1.3 and 2.6 TB/s).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"; out="${OUT:-$here/out}"; mkdir -p "$out"; cd "$here"
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
  [ -f "$icd" ] && export VK_DRIVER_FILES="$icd" && break; done
export VKD3D_SHADER_DEBUG=none VKD3D_DEBUG=none
filter='d2s/(dcr|crd)/(float16|int8)/|nearest/.*_x2|d2s/crd/float32/.*_b2'
run() { local tag=$1 bin=$2; shift 2; local cases=cases/perf/perf.json; [ "$bin" = dmltool_base ] && cases=cases/perf/perf_old.json; echo "== $tag $(date -u +%T)"; env "$@" timeout 120 "bin/$bin" bench "$cases" --backend gpu --filter "$filter" --roofline-mib 64 \
  --max-time 0.5 --throttle on --report-json "$out/$tag.json" > "$out/$tag.txt" 2>&1; echo "exit $?"; }
run base dmltool_base X=1; run new dmltool_ab X=1; run vpt1 dmltool_ab DMLTOOL_AB_VPT1=1; run vpt1_bitfield dmltool_ab DMLTOOL_AB_VPT1=1 DMLTOOL_AB_BITFIELD=1
filter='resample/linear'
run lin_base dmltool_base X=1; run lin_new dmltool X=1
