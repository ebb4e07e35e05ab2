#!/usr/bin/env bash
# Where Wine's d3d12 on the H200 spends ~30 s per 32 MiB case check: the identity case at 2x64x256x256 with
# DMLTOOL_TRANSFER_TRACE=1 (every upload's and download's steps timed) and the run report's reference_ms,
# backend_ms and case_ms: under the packaged Wine with our kernels and with DirectML,
# then our kernels under Wine without VKD3D_CONFIG=virtual_heaps.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"; cd "$here"
[ -e cases ] || ln -s ../../cases cases
out=/tmp/wt; mkdir -p "$out"
finish() { tar -C /tmp -cJf "$OUT/wt.tar.xz" wt; }
trap finish EXIT
[ -d lib ] || tar -xJf lib_gl.tar.xz
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json \
           /etc/vulkan/icd.d/nvidia_icd.json; do
  [ -f "$icd" ] && export VK_DRIVER_FILES="$icd" && break
done
python3 - <<'PY'
import json
d = json.load(open("cases/perf/element_wise.json"))
s = json.dumps(d).replace("[16, 64, 256, 256]", "[2, 64, 256, 256]")
open("element_wise_2x.json", "w").write(s)
PY
case_filter='^perf/ew/unary/identity/float32/'
export DMLTOOL_TRANSFER_TRACE=1
export VKD3D_SHADER_DEBUG=none VKD3D_DEBUG=none
. ./wine_env.sh > "$out/wine_setup.txt" 2>&1
run_wine() {  # name backend limit
  local s=$(date +%s)
  timeout "$3" "$WINE64" "$DMLTOOL_EXE" run element_wise_2x.json --filter "$case_filter" --backend "$2" -v \
    --json "$out/$1.json" </dev/null > "$out/$1.txt" 2>&1
  echo "rc=$? $(( $(date +%s) - s )) s" >> "$out/$1.txt"; grep -v "^Fontconfig\|^Xlib" "$out/$1.txt"
}
run_wine wine_gpu gpu 100
run_wine wine_directml directml 100
VKD3D_CONFIG= run_wine wine_gpu_no_virtual_heaps gpu 70
"$WINESERVER" -k 2>/dev/null
