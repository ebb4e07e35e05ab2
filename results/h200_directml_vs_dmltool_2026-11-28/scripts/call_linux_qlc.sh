#!/usr/bin/env bash
# Device call B: the Linux build's bench of the same perf groups (dmltool's kernels on vkd3d 1.2) and PyTorch's
# timings of the same workloads (run.sh bench), then the QUANTIZED_LINEAR_CONVOLUTION hang under Wine: dmltool's
# own kernels for every QLC case (do they run on NVIDIA under Wine's vkd3d?), then DirectML's doc/QLC-A alone with
# vkd3d's shader dump (the DXBC DirectML hands vkd3d on this GPU, to compare with lavapipe's), and the kernel log.
#   (on the device, from the bundle's folder)  OUT=$OUT bash call_linux_qlc.sh
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${OUT:?}"
cd "$here"
t0=$(date +%s)
PERF_FILTER='^perf/(d2s|split|resample)/' OUT="$out" timeout "${LINUX_SECONDS:-330}" \
  bash run.sh bench --max-time 0.25 >"$out/linux_console.txt" 2>&1
echo "run.sh bench: exit $? after $(( $(date +%s) - t0 )) s" >>"$out/linux_console.txt"
# As run.sh does: the carried GL dispatch libraries (NVIDIA's ICD needs them) and the machine's NVIDIA ICD.
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if [ -z "${VK_DRIVER_FILES:-}" ]; then
  for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json \
             /etc/vulkan/icd.d/nvidia_icd.json; do
    [ -f "$icd" ] && export VK_DRIVER_FILES="$icd" && break
  done
fi
# shellcheck source=/dev/null
. "$here/wine_env.sh"
timeout 90 "$WINE64" "$DMLTOOL_EXE" run cases/*.json --backend gpu --filter 'qlconv/|doc/QLC' -v </dev/null \
  >"$out/qlc_wine_gpu.txt" 2>&1
echo "exit $?" >>"$out/qlc_wine_gpu.txt"
# The deviation registry's two QLC refusals (CreateOperator E_INVALIDARG on lavapipe): refused before anything
# executes, so they can be checked on NVIDIA despite the hang.
timeout 60 "$WINE64" "$DMLTOOL_EXE" run cases/*.json --backend directml \
  --filter '^qlconv/(types/s8_s8_u8|filter_zp_1d|filter_scale_1d_per_channel)$' -v </dev/null \
  >"$out/qlc_directml_refusals.txt" 2>&1
echo "exit $?" >>"$out/qlc_directml_refusals.txt"
dmesg 2>&1 | tail -n 40 >"$out/dmesg_before.txt"
mkdir -p "$out/dump_directml"
VKD3D_SHADER_DUMP_PATH="Z:${out//\//\\}\\dump_directml" VKD3D_DEBUG=fixme VKD3D_SHADER_DEBUG=fixme WINEDEBUG=err+all,fixme+all \
  timeout 45 "$WINE64" "$DMLTOOL_EXE" run cases/doc_examples.json --filter '^doc/QLC-A$' --backend directml -v </dev/null \
  >"$out/qlc_directml.txt" 2>&1
echo "exit $?" >>"$out/qlc_directml.txt"
dmesg 2>&1 | tail -n 40 >"$out/dmesg_after.txt"
nvidia-smi >"$out/gpu_after.txt" 2>&1
"$WINESERVER" -k 2>/dev/null
echo "call B: $(( $(date +%s) - t0 )) s" >>"$out/linux_console.txt"
