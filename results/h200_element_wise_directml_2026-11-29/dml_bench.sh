#!/usr/bin/env bash
# DirectML's own shaders on cases/perf/element_wise.json (16x64x256x256 class) under the packaged Wine on the H200,
# groups ew and act (bench checks each case first, then times it), after the reference's per-element allocations
# were removed (they made one 8M-element check take 55 s under Wine on 16 threads). First the 2x64 identity check
# as a sanity figure (reference_ms), then the benches until CALL_SECONDS.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"; cd "$here"
[ -e cases ] || ln -s ../../cases cases
out=/tmp/dmlb; mkdir -p "$out"
finish() { tar -C /tmp -cJf "$OUT/dmlb.tar.xz" dmlb; }
trap finish EXIT
end=$(( $(date +%s) + ${CALL_SECONDS:-500} ))
[ -d lib ] || tar -xJf lib_gl.tar.xz
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json \
           /etc/vulkan/icd.d/nvidia_icd.json; do
  [ -f "$icd" ] && export VK_DRIVER_FILES="$icd" && break
done
export VKD3D_SHADER_DEBUG=none VKD3D_DEBUG=none
. ./wine_env.sh > "$out/wine_setup.txt" 2>&1
python3 - <<'PY'
import json
d = json.load(open("cases/perf/element_wise.json"))
open("element_wise_2x.json", "w").write(json.dumps(d).replace("[16, 64, 256, 256]", "[2, 64, 256, 256]"))
PY
s=$(date +%s)
timeout 100 "$WINE64" "$DMLTOOL_EXE" run element_wise_2x.json --filter '^perf/ew/unary/identity/float32/' \
  --backend directml --json "$out/sanity_2x.json" </dev/null > "$out/sanity_2x.txt" 2>&1
echo "rc=$? $(( $(date +%s) - s )) s" >> "$out/sanity_2x.txt"; tail -n 2 "$out/sanity_2x.txt"
for group in ew act; do
  left=$(( end - $(date +%s) )); [ "$group" = ew ] && left=$(( left * 3 / 5 ))
  [ "$left" -lt 10 ] && break
  echo "== bench $group directml, limit $left s"
  s=$(date +%s)
  timeout "$left" "$WINE64" "$DMLTOOL_EXE" bench cases/perf/element_wise.json --backend directml --filter "^perf/$group/" \
    -v --max-time 0.2 --report-json "$out/directml_${group}_report.json" \
    --benchmark_out="$out/directml_${group}_bench.json" </dev/null > "$out/directml_${group}_bench.txt" 2>&1
  echo "exit $? after $(( $(date +%s) - s )) s" >> "$out/directml_${group}_bench.txt"
  grep -c PASSED "$out/directml_${group}_bench.txt"; tail -n 3 "$out/directml_${group}_bench.txt"
done
"$WINESERVER" -k 2>/dev/null
