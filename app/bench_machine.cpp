#include "app/bench_machine.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <ctime>
#include <fstream>
#include <thread>

namespace dmltool::app {
namespace {

// The value of the first "key<sep>value" line of a text file, trimmed of spaces and quotes.
std::string read_key(const char* path, const std::string& key, char separator) {
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind(key, 0) != 0) continue;
        const size_t at = line.find(separator, key.size());
        if (at == std::string::npos || line.find_first_not_of(" \t", key.size()) != at) continue;
        std::string value = line.substr(at + 1);
        const size_t first = value.find_first_not_of(" \t\"");
        const size_t last = value.find_last_not_of(" \t\"");
        return first == std::string::npos ? std::string() : value.substr(first, last - first + 1);
    }
    return {};
}

std::string or_unknown(std::string value) { return value.empty() ? "unknown" : value; }

}  // namespace

MachineInfo describe_machine() {
    MachineInfo m;
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) == 0) m.hostname = host;
    m.hostname = or_unknown(m.hostname);
    m.cpu_model = or_unknown(read_key("/proc/cpuinfo", "model name", ':'));
    m.logical_cores = std::thread::hardware_concurrency();
    m.os = or_unknown(read_key("/etc/os-release", "PRETTY_NAME", '='));
    utsname names{};
    if (uname(&names) == 0) m.kernel = std::string(names.sysname) + " " + names.release + " " + names.machine;
    m.kernel = or_unknown(m.kernel);
    return m;
}

BuildInfo build_info() {
    // Both come from app/CMakeLists.txt at configure time.
    return {DMLTOOL_VERSION, DMLTOOL_GIT_COMMIT};
}

std::string utc_timestamp() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

}  // namespace dmltool::app
