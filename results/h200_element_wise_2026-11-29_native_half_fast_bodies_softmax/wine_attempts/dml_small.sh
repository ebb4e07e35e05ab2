#!/usr/bin/env bash
# DirectML vs our kernels on the element-wise perf cases at 2x64x256x256 (element_wise_2x.json), one call.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"; cd "$here"
[ -e cases ] || ln -s ../../cases cases
out=/tmp/dmls; mkdir -p "$out"
finish() { tar -C /tmp -cJf "$OUT/dmls.tar.xz" dmls; }
trap finish EXIT
end=$(( $(date +%s) + ${CALL_SECONDS:-400} ))
[ -d lib ] || tar -xJf lib_gl.tar.xz
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json \
           /etc/vulkan/icd.d/nvidia_icd.json; do
  [ -f "$icd" ] && export VK_DRIVER_FILES="$icd" && break
done
export VKD3D_SHADER_DEBUG=none VKD3D_DEBUG=none
. ./wine_env.sh > "$out/wine_setup.txt" 2>&1
s=$(date +%s)
timeout 60 "$WINE64" "$DMLTOOL_EXE" run element_wise_2x.json --filter '^perf/ew/unary/identity/float32/' --backend directml -v \
  </dev/null > "$out/diag_run_directml.txt" 2>&1
echo "rc=$? $(( $(date +%s) - s )) s" >> "$out/diag_run_directml.txt"; tail -n 2 "$out/diag_run_directml.txt"
for group in ew act; do
  for backend in directml gpu; do
  left=$(( end - $(date +%s) ))
  case "$group/$backend" in ew/directml) left=$(( left / 4 ));; ew/gpu) left=$(( left / 3 ));; act/directml) left=$(( left / 2 ));; esac
  [ "$left" -lt 5 ] && break
  echo "== bench $group $backend, limit $left s"
  timeout "$left" "$WINE64" "$DMLTOOL_EXE" bench element_wise_2x.json --backend $backend --filter "^perf/$group/" \
    -v --max-time 0.1 --report-json "$out/${backend}_${group}_report.json" </dev/null > "$out/${backend}_${group}_bench.txt" 2>&1
  echo "exit $?" >> "$out/${backend}_${group}_bench.txt"
  grep -c PASSED "$out/${backend}_${group}_bench.txt"; tail -n 1 "$out/${backend}_${group}_bench.txt"
  done
done
"$WINESERVER" -k 2>/dev/null
