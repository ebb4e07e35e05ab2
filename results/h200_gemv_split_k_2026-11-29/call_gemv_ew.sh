#!/usr/bin/env bash
# One device call: (1) the GEMM/QLMM split-K kernels (branch gemv, bin/dmltool) against main's (bin/dmltool_main)
# on the two classifier shapes, alternating; (2) DirectML's shaders vs our kernels under the same Wine on the
# element-wise perf cases, one operator group at a time until the deadline.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
[ -e cases ] || ln -s ../../cases cases
res=/tmp/r2; mkdir -p "$res"
finish() { tar -C /tmp -cJf "$OUT/r2.tar.xz" r2; }
trap finish EXIT
start=$(date +%s); end=$(( start + ${CALL_SECONDS:-170} ))
tar -xJf linux.tar.xz
export LD_LIBRARY_PATH="$here/lib"
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
  [ -f "$icd" ] && export VK_DRIVER_FILES="$icd" && break
done
export VKD3D_SHADER_DEBUG=none VKD3D_DEBUG=none
for i in 1 2; do
  for b in dmltool dmltool_main; do
    timeout 40 bin/$b bench gemv_classifiers.json --backend gpu --max-time 0.3 --autotune off --roofline-mib 64 \
      --report-json "$res/gemv_${b}_$i.json" > "$res/gemv_${b}_$i.txt" 2>&1
    echo "$b round $i: exit $? at $(( $(date +%s) - start )) s"; grep -E "^  gpu" "$res/gemv_${b}_$i.txt"
  done
done
OUT="$res" RUN_SUITE=0 PERF_CASES=cases/perf/element_wise.json WINE_RUN=0 WINE_BENCH_PREFIX=perf/ \
  WINE_BENCH_GROUPS="act/gelu act/tanh act/sigmoid ew/clip act/relu ew/multiply ew/add act/leaky_relu" WINE_DEADLINE="$end" \
  timeout $(( end - $(date +%s) + 3 )) bash run.sh directml --max-time 0.1 --autotune off --roofline-mib 64 > "$res/wine.txt" 2>&1
echo "wine exit $? at $(( $(date +%s) - start )) s" | tee -a "$res/wine.txt"
grep -E "^== bench|^exit" "$res/wine.txt"
