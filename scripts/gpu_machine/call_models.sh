#!/usr/bin/env bash
# One device call (issue 39): both imported int8 CNNs, our kernels (Linux build), PyTorch float32 layers, then
# DirectML and our kernels under the same Wine; everything tarred into $OUT/models.tar.xz when the time is up.
# Here (repository root), after `ctest -R cli_import_models` and scripts/build_windows.sh:
#   DMLTOOL_DIST=$PWD/.gpu_pkg/dmltool-gpu scripts/gpu_machine/package.sh --with-directml
#   DMLTOOL_DIST=$PWD/.gpu_pkg/dmltool-gpu scripts/gpu_machine/bundle.sh && rm -rf .gpu_pkg/p/cases
#   I=build/tests/cli_import_models/imported; mkdir -p .gpu_pkg/p/imported
#   scripts/gpu_machine/imported_cases.py .gpu_pkg/p/imported/int8_cnns.json $I/resnet50_v1.5_int8.json $I/mobilenetv2_int8.json
#   cp scripts/gpu_machine/call_models.sh .gpu_pkg/p/
# then on the device (carry .gpu_pkg/p): cd .gpu_pkg/p && CALL_SECONDS=270 bash call_models.sh
# and here: scripts/gpu_machine/model_table.py (see its --help) on the unpacked models/.
# cases/ is a link to the checkout's (the carried size limit).
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
[ -e cases ] || ln -s ../../cases cases
res=/tmp/models; mkdir -p "$res"
finish() { nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$res/gpu.txt" 2>&1; tar -C /tmp -cJf "$OUT/models.tar.xz" models; }
trap finish EXIT
start=$(date +%s)
end=$(( start + ${CALL_SECONDS:-300} ))
OUT="$res" RUN_SUITE=0 PERF_CASES=imported/int8_cnns.json WINE_RUN=0 WINE_BENCH_PREFIX= \
  WINE_BENCH_GROUPS="resnet50_v1.5_int8 mobilenetv2_int8" WINE_DEADLINE="$end" PYTORCH_ARGS="--cudnn-picks 1 --samples 11" \
  timeout $(( end - start + 5 )) bash run.sh all --max-time 0.1 --autotune off --roofline-mib 64 > "$res/call.txt" 2>&1
echo "exit $? after $(( $(date +%s) - start )) s" >> "$res/call.txt"
tail -n 30 "$res/call.txt"
