// Starting a dmltool child and waiting for it: `compare --ab` runs each build's bench per round, and `bench
// --processes N` re-runs itself N times (app/bench_processes.cpp). One helper so both report a failed child alike.
#pragma once

#include <string>
#include <vector>

#include "core/status.h"

namespace dmltool::app {

// Runs argv[0] with argv, stdout and stderr into log_path, stdin from the null device, this process's environment
// plus DMLTOOL_LAYOUT_PAD (below); the exit status (128 + signal when killed). kUnsupported on hosts without
// posix_spawn (Windows).
//
// The environment size moves a process's initial stack, and with it the alignment of everything on the stack: a
// memory-bound case can run several percent faster or slower for the process's whole life by it (measured
// 2026-11-28: a 60-byte longer environment moved the split case +3-6% in every round). Every child is a measurement
// (compare --ab's rounds, bench --processes' processes), and the two sides of a gate always differ by something
// (paths, wrappers, the round reports' names), so every child gets DMLTOOL_LAYOUT_PAD, 0 to kMaxLayoutPad - 1 bytes
// drawn at random: the layout becomes a random draw per process, the same for both builds, rather than a bias one
// build always gets (docs/compare-gate.md says what prompted it and what is not known). The child ignores it.
constexpr size_t kMaxLayoutPad = 4096;
Result<int> run_process(const std::vector<std::string>& argv, const std::string& log_path);

// The last non-empty line of a log: what a failed child said last.
std::string last_line(const std::string& path);

// The arguments joined by spaces, as a command line to quote in a message.
std::string quoted_command(const std::vector<std::string>& argv);

}  // namespace dmltool::app
