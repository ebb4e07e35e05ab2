#!/usr/bin/env bash
# One device call (issue 38): the element-wise and activation families on the GPU machine. The bundled suite on our
# kernels (Linux build), `dmltool bench` of cases/perf/element_wise.json with PyTorch timing the same workloads,
# then DirectML's own shaders under Wine on the same cases (groups ew and act; WINE_BENCH_BACKENDS="directml gpu"
# also times our kernels under that Wine); everything tarred into $OUT/element_wise.tar.xz when the time is up
# (CALL_SECONDS, default 420). Plans are tuned (bench's default --autotune): FLOAT16 softmax's native-half variant
# is a tuning choice.
# Here (repository root), after scripts/build.sh and scripts/build_windows.sh:
#   DMLTOOL_DIST=$PWD/.gpu_pkg/dmltool-gpu scripts/gpu_machine/package.sh --with-directml
#   DMLTOOL_DIST=$PWD/.gpu_pkg/dmltool-gpu scripts/gpu_machine/bundle.sh && rm -rf .gpu_pkg/p/cases
#   cp scripts/gpu_machine/call_element_wise.sh .gpu_pkg/p/
# then on the device (carry .gpu_pkg/p): cd .gpu_pkg/p && CALL_SECONDS=420 bash call_element_wise.sh
# and here: compare.py's summary.md is in the tarball; scripts/gpu_machine/directml_table.py makes the DirectML
# table (see its --help). cases/ is a link to the checkout's (the carried size limit).
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
[ -e cases ] || ln -s ../../cases cases
res=/tmp/element_wise; mkdir -p "$res"
finish() {
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$res/gpu.txt" 2>&1
  tar -C /tmp -cJf "$OUT/element_wise.tar.xz" element_wise
}
trap finish EXIT
start=$(date +%s)
end=$(( start + ${CALL_SECONDS:-420} ))
OUT="$res" RUN_SUITE="${RUN_SUITE:-1}" PERF_CASES=cases/perf/element_wise.json WINE_RUN=0 WINE_BENCH_GROUPS="ew act" \
  WINE_BENCH_BACKENDS="${WINE_BENCH_BACKENDS:-directml}" WINE_DEADLINE="$end" \
  timeout $(( end - start + 5 )) bash run.sh all --max-time 0.2 > "$res/call.txt" 2>&1
echo "exit $? after $(( $(date +%s) - start )) s" >> "$res/call.txt"
tail -n 40 "$res/call.txt"
