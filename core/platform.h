// The operating-system seam outside gpu/: the few things POSIX and Windows spell differently (console set-up,
// terminal detection, process ids, UTC time, host description, UTF-8 command lines). Everything else uses
// the C++ standard library (std::filesystem for paths). Implemented in platform.cpp with one #if per function.
#pragma once

#include <cstdint>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

namespace dmltool::platform {

// Call first in main(). Windows: the console shows UTF-8 and stdout/stderr are switched to binary mode, so
// "\n" stays "\n" (the CLI tests and report consumers compare bytes, as on Linux). Elsewhere: nothing.
void prepare_console();

// The arguments as UTF-8 strings. Windows: re-read from the wide command line (argv is in the ANSI code
// page there, which cannot hold every file name); elsewhere argv as given.
std::vector<std::string> utf8_arguments(int argc, char** argv);

// Whether `stream` (stdout or stderr) is an interactive terminal (progress lines and colours only then).
bool is_terminal(std::FILE* stream);

uint64_t process_id();

// Broken-down UTC time (gmtime_r / gmtime_s).
std::tm utc_time(std::time_t when);

// Host description for reports; an empty string when the system does not say.
struct HostDescription {
    std::string hostname;
    std::string cpu_model;
    std::string os;      // Linux: /etc/os-release PRETTY_NAME; Windows: "Windows" (or "Wine x.y" under Wine)
    std::string kernel;  // Linux: uname sysname release machine; Windows: "Windows NT major.minor.build"
};
HostDescription describe_host();

}  // namespace dmltool::platform
