#include "core/platform.h"

#include <fstream>

#if defined(_WIN32)
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
#include <fcntl.h>
#include <io.h>
#include <shellapi.h>
#else
#include <sys/utsname.h>
#include <unistd.h>
#endif

namespace dmltool::platform {
namespace {

#if !defined(_WIN32)
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
#else
std::string utf8_from_wide(const wchar_t* text) {
    const int bytes = WideCharToMultiByte(CP_UTF8, 0, text, -1, nullptr, 0, nullptr, nullptr);
    if (bytes <= 1) return {};
    std::string out(size_t(bytes), '\0');
    WideCharToMultiByte(CP_UTF8, 0, text, -1, out.data(), bytes, nullptr, nullptr);
    out.resize(size_t(bytes) - 1);
    return out;
}
#endif

}  // namespace

void prepare_console() {
#if defined(_WIN32)
    SetConsoleOutputCP(CP_UTF8);
    _setmode(_fileno(stdout), _O_BINARY);
    _setmode(_fileno(stderr), _O_BINARY);
#endif
}

std::vector<std::string> utf8_arguments(int argc, char** argv) {
#if defined(_WIN32)
    int count = 0;
    if (LPWSTR* wide = CommandLineToArgvW(GetCommandLineW(), &count)) {
        std::vector<std::string> out;
        for (int i = 0; i < count; ++i) out.push_back(utf8_from_wide(wide[i]));
        LocalFree(wide);
        if (int(out.size()) == argc) return out;  // else fall back to argv (e.g. a changed command line)
    }
#endif
    return std::vector<std::string>(argv, argv + argc);
}

bool is_terminal(std::FILE* stream) {
#if defined(_WIN32)
    return _isatty(_fileno(stream)) != 0;
#else
    return isatty(fileno(stream)) != 0;
#endif
}

uint64_t process_id() {
#if defined(_WIN32)
    return GetCurrentProcessId();
#else
    return uint64_t(getpid());
#endif
}

std::tm utc_time(std::time_t when) {
    std::tm utc{};
#if defined(_WIN32)
    gmtime_s(&utc, &when);
#else
    gmtime_r(&when, &utc);
#endif
    return utc;
}

HostDescription describe_host() {
    HostDescription host;
#if defined(_WIN32)
    wchar_t name[MAX_COMPUTERNAME_LENGTH + 1] = {};
    DWORD length = MAX_COMPUTERNAME_LENGTH + 1;
    if (GetComputerNameW(name, &length)) host.hostname = utf8_from_wide(name);
    wchar_t cpu[256] = {};
    DWORD cpu_bytes = sizeof cpu;
    if (RegGetValueW(HKEY_LOCAL_MACHINE, L"HARDWARE\\DESCRIPTION\\System\\CentralProcessor\\0", L"ProcessorNameString",
                     RRF_RT_REG_SZ, nullptr, cpu, &cpu_bytes) == ERROR_SUCCESS)
        host.cpu_model = utf8_from_wide(cpu);
    // RtlGetVersion tells the real version (GetVersionEx lies to unmanifested programs); ntdll always exports it.
    // Wine's ntdll also exports wine_get_version, which tells results measured under Wine apart.
    host.os = "Windows";
    if (HMODULE ntdll = GetModuleHandleW(L"ntdll.dll")) {
        using WineVersion = const char*(CDECL*)();
        if (auto wine = reinterpret_cast<WineVersion>(reinterpret_cast<void*>(GetProcAddress(ntdll, "wine_get_version"))))
            host.os = std::string("Wine ") + wine();
        using RtlGetVersion = LONG(WINAPI*)(OSVERSIONINFOW*);
        if (auto get = reinterpret_cast<RtlGetVersion>(reinterpret_cast<void*>(GetProcAddress(ntdll, "RtlGetVersion")))) {
            OSVERSIONINFOW version{};
            version.dwOSVersionInfoSize = sizeof version;
            if (get(&version) == 0)
                host.kernel = "Windows NT " + std::to_string(version.dwMajorVersion) + "." +
                              std::to_string(version.dwMinorVersion) + "." + std::to_string(version.dwBuildNumber);
        }
    }
#else
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) == 0) host.hostname = name;
    host.cpu_model = read_key("/proc/cpuinfo", "model name", ':');
    host.os = read_key("/etc/os-release", "PRETTY_NAME", '=');
    utsname names{};
    if (uname(&names) == 0) host.kernel = std::string(names.sysname) + " " + names.release + " " + names.machine;
#endif
    return host;
}

}  // namespace dmltool::platform
