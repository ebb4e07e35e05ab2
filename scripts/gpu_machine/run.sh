#!/usr/bin/env bash
# Runs on the GPU machine from an unpacked dist/dmltool-gpu/: points the loader at the carried libraries and
# vkd3d's Vulkan loader at the machine's NVIDIA driver, lists adapters and runs the bundled suite (GPU vs CPU
# reference vs expected). With `bench`, it then benchmarks the perf suite and times the same workloads in
# PyTorch in the same session, and writes the comparison. Everything lands in $OUT (or ./out), at most 8 files:
#   run.txt junit.xml                       adapters + the correctness suite
#   bench.json bench.txt report.json report.csv   dmltool bench: Google Benchmark JSON, console, bench report
#   pytorch.json summary.md                 pytorch_baseline.py and compare.py's table with the issue's targets
#
#   bash run.sh                      correctness suite only
#   bash run.sh bench [ARGS...]      also the benchmarks; ARGS go to `dmltool bench` (e.g. --benchmark_repetitions=3)
#   bash run.sh pipeline-stats ARGS  only the driver's per-kernel statistics: ARGS go to bin/dmltool_pipeline_stats
#                                    (e.g. cases/perf/perf.json --filter qlconv --variants --json $OUT/stats.json);
#                                    console copy in pipeline_stats.txt
#   bash run.sh directml [ARGS...]   DirectML under Wine (package.sh --with-directml): dmltool.exe list and
#                                    run --backend all cases/*.json (WINE_RUN_FILTER=REGEX selects), then (WINE_BENCH=0
#                                    skips) dmltool.exe bench of the perf suite, one operator group at a time
#                                    (WINE_BENCH_GROUPS, default "d2s split resample"), --backend directml then
#                                    --backend gpu (ARGS go to both), each under timeout WINE_BENCH_TIMEOUT (900 s)
#                                    or an even share of the time to WINE_DEADLINE (epoch seconds), if sooner;
#                                    WINE_BENCH_BACKENDS="gpu" (or "directml") times one side only; a group is
#                                    the case-name prefix after WINE_BENCH_PREFIX (default "perf/"; imported
#                                    models: WINE_BENCH_PREFIX= WINE_BENCH_GROUPS="MODEL ..."); WINE_RUN=0 skips
#                                    the run of cases/*.json (bench checks every case it times anyway)
#   bash run.sh all [ARGS...]        bench (the Linux build and PyTorch), then directml; ARGS go to every bench
#   directml and all write more than the device's 8 files: wine_setup.txt xvfb.log wine_list.txt wine_run.txt
#   wine_run.json wine_junit.xml {directml,wine_gpu}_GROUP_{bench.json,bench.txt,report.json}: tar $OUT up on the
#   device; scripts/gpu_machine/directml_table.py makes the table of DirectML vs dmltool's kernels vs PyTorch.
# Environment: PERF_FILTER=REGEX limits both dmltool and PyTorch to matching perf cases; RUN_SUITE=0 skips the
# correctness suite; BENCH_BACKEND=both also times the CPU reference (slow on the perf shapes); PERF_CASES picks
# another case file (default cases/perf/perf.json); PYTORCH_ARGS go to pytorch_baseline.py (e.g. "--cudnn-picks 1").
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${OUT:-$here/out}"
mkdir -p "$out"
# bundle.sh packs bin/ and lib/ into linux.tar.xz so that the Linux and the Wine packages travel together.
[ -x "$here/bin/dmltool" ] || [ ! -f "$here/linux.tar.xz" ] || tar -C "$here" -xJf "$here/linux.tar.xz"
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if [ -z "${VK_DRIVER_FILES:-}" ]; then
  for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json \
             /etc/vulkan/icd.d/nvidia_icd.json; do
    [ -f "$icd" ] && export VK_DRIVER_FILES="$icd" && break
  done
fi
export VKD3D_SHADER_DEBUG=none VKD3D_DEBUG=none PYTHONUNBUFFERED=1
dmltool="$here/bin/dmltool"
cd "$here"
if [ "${1:-}" = "pipeline-stats" ]; then
  shift
  echo "VK_DRIVER_FILES=${VK_DRIVER_FILES:-<unset>}" | tee "$out/pipeline_stats.txt"
  "$here/bin/dmltool_pipeline_stats" "$@" 2>&1 | tee -a "$out/pipeline_stats.txt"
  exit "${PIPESTATUS[0]}"
fi
status=0
mode="${1:-}"
# DirectML.dll and dmltool's kernels run as a Windows program under the packaged Wine (wine_env.sh); bench ARGS
# are the rest of the command line.
run_directml() {
  if [ ! -f "$here/wine.tar.xz" ]; then
    echo "run.sh: no wine.tar.xz: package with scripts/gpu_machine/package.sh --with-directml" >&2
    return 2
  fi
  # shellcheck source=wine_env.sh
  . "$here/wine_env.sh"
  cat "$out/wine_setup.txt"
  # Output goes to files, not pipes: Wine's services can inherit a pipe and hold it open after dmltool.exe exits.
  wine_run list >"$out/wine_list.txt" 2>&1 || status=$?
  cat "$out/wine_list.txt"
  local run_filter=()
  [ -n "${WINE_RUN_FILTER:-}" ] && run_filter=(--filter "$WINE_RUN_FILTER")
  if [ "${WINE_RUN:-1}" != 0 ]; then
    wine_run run cases/*.json --backend all "${run_filter[@]}" --junit "$out/wine_junit.xml" --json "$out/wine_run.json" \
      >"$out/wine_run.txt" 2>&1 || status=$?
    tail -n 5 "$out/wine_run.txt"
  fi
  if [ "${WINE_BENCH:-1}" != 0 ]; then
    # One bench per operator group and backend, DirectML then dmltool's kernels for each group, so that the two
    # sides of a ratio run minutes apart at most and a group that runs out of time loses only itself (Google
    # Benchmark writes its JSON at the end). -v prints each case's correctness check as it happens: progress
    # that a killed run still leaves behind. qlconv is not a default group: its DirectML executions hung on NVIDIA
    # until wine_env.sh set VKD3D_CONFIG=virtual_heaps (docs/directml-gpu-machine.md); WINE_BENCH_GROUPS adds it.
    # WINE_DEADLINE (epoch seconds) shares the time left evenly among the benches still to run, so that a device
    # call's limit is not spent on the first group.
    local cases="${PERF_CASES:-cases/perf/perf.json}" group backend name limit
    local groups=(${WINE_BENCH_GROUPS:-d2s split resample}) backends=(${WINE_BENCH_BACKENDS:-directml gpu}) left
    left=$(( ${#groups[@]} * ${#backends[@]} ))
    for group in "${groups[@]}"; do
      for backend in "${backends[@]}"; do
        name="${backend/gpu/wine_gpu}_${group//\//_}"
        limit="${WINE_BENCH_TIMEOUT:-900}"
        if [ -n "${WINE_DEADLINE:-}" ]; then
          local share=$(( (WINE_DEADLINE - $(date +%s)) / left ))
          [ "$share" -lt "$limit" ] && limit=$share
          [ "$limit" -lt 1 ] && limit=1
        fi
        left=$(( left - 1 ))
        echo "== bench $group --backend $backend ($(date -u +%T), limit ${limit} s)"
        timeout "$limit" "$WINE64" "$DMLTOOL_EXE" bench "$cases" --backend "$backend" \
          --filter "^${WINE_BENCH_PREFIX-perf/}$group/" -v --benchmark_out="$out/${name}_bench.json" \
          --benchmark_out_format=json --report-json "$out/${name}_report.json" "$@" </dev/null \
          >"$out/${name}_bench.txt" 2>&1 || { echo "exit $?" >>"$out/${name}_bench.txt"; status=1; }
        grep -E '^(RESAMPLE|DEPTH|SPLIT|QUANT|MAX_POOL|AVERAGE|GEMM|JOIN|ELEMENT|ACTIVATION)' "$out/${name}_bench.txt" | cut -c1-160
        tail -n 1 "$out/${name}_bench.txt"
      done
    done
  fi
  "$WINESERVER" -k 2>/dev/null || true
  [ -n "${wine_env_xvfb:-}" ] && kill "$wine_env_xvfb" 2>/dev/null
  return 0
}
if [ "$mode" = directml ]; then
  shift
  run_directml "$@"
  exit $status
fi
{
  echo "VK_DRIVER_FILES=${VK_DRIVER_FILES:-<unset>}"
  "$dmltool" list
} 2>&1 | tee "$out/run.txt"
if [ "${RUN_SUITE:-1}" != 0 ]; then
  "$dmltool" run cases/*.json --junit "$out/junit.xml" 2>&1 | tee -a "$out/run.txt" || status=$?
fi
if [ "$mode" = bench ] || [ "$mode" = all ]; then
  shift
  cases="${PERF_CASES:-cases/perf/perf.json}"
  filter=()
  [ -n "${PERF_FILTER:-}" ] && filter=(--filter "$PERF_FILTER")
  "$dmltool" bench "$cases" --backend "${BENCH_BACKEND:-gpu}" "${filter[@]}" --benchmark_min_time=0.05 \
    --benchmark_out="$out/bench.json" --benchmark_out_format=json \
    --report-json "$out/report.json" --report-csv "$out/report.csv" "$@" 2>&1 | tee "$out/bench.txt" || status=$?
  if command -v python3 >/dev/null; then
    python3 "$here/pytorch_baseline.py" --cases "$cases" --dmltool "$dmltool" "${filter[@]}" --out "$out/pytorch.json" \
      ${PYTORCH_ARGS:-} 2>&1 \
      | tee -a "$out/bench.txt" || status=$?
    if [ -f "$out/bench.json" ] && [ -f "$out/pytorch.json" ]; then
      python3 "$here/compare.py" "$out/bench.json" "$out/pytorch.json" --report "$out/report.json" \
        > "$out/summary.md" || status=$?
      cat "$out/summary.md"
    fi
  fi
fi
[ "$mode" = all ] && run_directml "$@"
exit $status
