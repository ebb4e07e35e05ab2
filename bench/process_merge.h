// `bench --processes N` (app/bench_processes.cpp) runs the same bench in N fresh processes and merges their
// --report-json files here into one report. Why processes: a process can run a case in one of a few speeds for its
// whole life (memory layout: the linear resample took 35 us in 7 of 10 processes and 50-65 us in the others,
// 2026-11-29; pinning CPUs or padding buffers did not change it), so one process per run cannot tell a process mode
// from a change of the code. With several, `compare` takes each process as one observation (gate/compare_processes.h).
//
// The merged report is a report of the same format (kSampleFormat) that older readers still load: per case,
// `samples` holds every process's samples (pooled, as `--passes` pools passes) and `seconds` the median of the
// processes' medians (a slow process mode then moves it only when it is the majority). What is new:
//   - cases[i].processes: per process {seconds (its median), samples, converged, executions_per_sample,
//     probe_before_bytes_per_second, probe_after_bytes_per_second};
//   - root.processes: {count, note, runs: per process {date, rooflines, probes (its copy probes' count)}};
//   - root.throttle.probes: every process's copy probes, each with its `process` (1-based);
//   - options.processes: N.
// The root's tables (feature_level_table, operator_dtype_table, model_table) and rooflines are the first
// process's (root.processes.note says so); the per-case rates follow the merged `seconds`.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/status.h"

namespace dmltool::app {

// Merges the reports of the processes (in the order they ran; at least one), `paths` naming them in errors.
// kInvalidInput when they do not hold the same cases (a process timed a case another did not) or a report is not a
// bench report with samples.
Result<nlohmann::json> merge_process_reports(const std::vector<nlohmann::json>& reports,
                                             const std::vector<std::string>& paths);

}  // namespace dmltool::app
