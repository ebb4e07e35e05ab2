// Where and with what a benchmark ran, for the report files and Google Benchmark's JSON context: a figure
// without its machine, adapter and build is not comparable with anything.
#pragma once

#include <string>

namespace dmltool::app {

struct MachineInfo {
    std::string hostname;
    std::string cpu_model;  // /proc/cpuinfo "model name"
    unsigned logical_cores = 0;
    std::string os;         // /etc/os-release PRETTY_NAME
    std::string kernel;     // uname: sysname release machine
};

// Fields that cannot be read say "unknown".
MachineInfo describe_machine();

struct BuildInfo {
    std::string version;     // the project version
    std::string git_commit;  // at configure time, "-dirty" when tracked files differed; "unknown" outside git
};

BuildInfo build_info();

// Now, as "2026-11-20T23:33:25Z".
std::string utc_timestamp();

}  // namespace dmltool::app
