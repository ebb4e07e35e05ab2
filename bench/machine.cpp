#include "bench/machine.h"

#include <ctime>
#include <fstream>
#include <thread>

#include "core/platform.h"
#include "dmltool_git_commit.h"  // generated: DMLTOOL_GIT_COMMIT

namespace dmltool::app {
namespace {

std::string or_unknown(std::string value) { return value.empty() ? "unknown" : value; }

}  // namespace

MachineInfo describe_machine() {
    MachineInfo m;
    const platform::HostDescription host = platform::describe_host();  // core/platform.h: per OS
    m.hostname = or_unknown(host.hostname);
    m.cpu_model = or_unknown(host.cpu_model);
    m.logical_cores = std::thread::hardware_concurrency();
    m.os = or_unknown(host.os);
    m.kernel = or_unknown(host.kernel);
    return m;
}

BuildInfo build_info() {
    // The version from bench/CMakeLists.txt, the commit from the header every build regenerates.
    return {DMLTOOL_VERSION, DMLTOOL_GIT_COMMIT};
}

std::string utc_timestamp() {
    const std::time_t now = std::time(nullptr);
    const std::tm utc = platform::utc_time(now);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

}  // namespace dmltool::app
