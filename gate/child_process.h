// Starting a dmltool child and waiting for it: `compare --ab` runs each build's bench per round, and `bench
// --processes N` re-runs itself N times (app/bench_processes.cpp). One helper so both report a failed child alike.
#pragma once

#include <string>
#include <vector>

#include "core/status.h"

namespace dmltool::app {

// Runs argv[0] with argv, stdout and stderr into log_path, stdin from the null device; the exit status (128 +
// signal when killed). kUnsupported on hosts without posix_spawn (Windows).
Result<int> run_process(const std::vector<std::string>& argv, const std::string& log_path);

// The last non-empty line of a log: what a failed child said last.
std::string last_line(const std::string& path);

// The arguments joined by spaces, as a command line to quote in a message.
std::string quoted_command(const std::vector<std::string>& argv);

}  // namespace dmltool::app
