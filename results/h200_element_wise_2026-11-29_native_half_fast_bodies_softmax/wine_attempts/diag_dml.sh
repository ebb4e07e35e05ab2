#!/usr/bin/env bash
# Where DirectML's time goes on the 16x64x256x256 element-wise cases under Wine, then its benches.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"; cd "$here"
[ -e cases ] || ln -s ../../cases cases
out=/tmp/dml; mkdir -p "$out"
finish() { tar -C /tmp -cJf "$OUT/dml.tar.xz" dml; }
trap finish EXIT
end=$(( $(date +%s) + ${CALL_SECONDS:-400} ))
[ -x bin/dmltool ] || tar -xJf linux.tar.xz
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json \
           /etc/vulkan/icd.d/nvidia_icd.json; do
  [ -f "$icd" ] && export VK_DRIVER_FILES="$icd" && break
done
export VKD3D_SHADER_DEBUG=none VKD3D_DEBUG=none
. ./wine_env.sh > "$out/wine_setup.txt" 2>&1
for be in gpu directml; do
  s=$(date +%s)
  timeout 90 "$WINE64" "$DMLTOOL_EXE" run cases/perf/element_wise.json --filter '^perf/ew/unary/identity/float32/' \
    --backend $be -v </dev/null > "$out/diag_run_$be.txt" 2>&1
  echo "rc=$? $(( $(date +%s) - s )) s" >> "$out/diag_run_$be.txt"
  tail -n 2 "$out/diag_run_$be.txt"
done
for group in ew act; do
  left=$(( end - $(date +%s) )); [ "$group" = ew ] && left=$(( left / 2 ))
  echo "== bench $group directml, limit $left s"
  timeout "$left" "$WINE64" "$DMLTOOL_EXE" bench cases/perf/element_wise.json --backend directml --filter "^perf/$group/" \
    -v --max-time 0.1 --throttle off --roofline-mib 0 --report-json "$out/directml_${group}_report.json" </dev/null \
    > "$out/directml_${group}_bench.txt" 2>&1
  echo "exit $?" >> "$out/directml_${group}_bench.txt"
  grep -c PASSED "$out/directml_${group}_bench.txt"; tail -n 2 "$out/directml_${group}_bench.txt"
done
"$WINESERVER" -k 2>/dev/null
