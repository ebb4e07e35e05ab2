#include "gate/child_process.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>

#ifndef _WIN32
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
extern char** environ;
#endif

namespace dmltool::app {

Result<int> run_process(const std::vector<std::string>& argv, const std::string& log_path) {
#ifdef _WIN32
    (void)argv;
    (void)log_path;
    return unsupported("starting dmltool child processes (compare --ab, bench --processes) is implemented for POSIX "
                       "hosts only (run them on Linux; a Windows build can be driven through a wrapper script around "
                       "scripts/wine.sh)");
#else
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    static constexpr char kPadName[] = "DMLTOOL_LAYOUT_PAD=";
    std::random_device random;
    std::string pad = kPadName +
                      std::string(std::uniform_int_distribution<size_t>(0, kMaxLayoutPad - 1)(random), 'x');
    std::vector<char*> environment;
    for (char** entry = environ; *entry; ++entry)  // a pad this process was given itself is replaced, not stacked
        if (std::strncmp(*entry, kPadName, sizeof kPadName - 1) != 0) environment.push_back(*entry);
    environment.push_back(pad.data());
    environment.push_back(nullptr);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environment.data());
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) return io_error("cannot start " + argv[0] + ": " + std::strerror(spawned));
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return io_error("waiting for " + argv[0] + ": " + std::strerror(errno));
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
#endif
}

std::string last_line(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return "";
    std::string text, line;
    char buffer[4096];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) text.append(buffer, n);
    std::fclose(f);
    size_t end = text.find_last_not_of("\r\n");
    if (end == std::string::npos) return "";
    size_t begin = text.rfind('\n', end);
    return text.substr(begin == std::string::npos ? 0 : begin + 1, end - (begin == std::string::npos ? 0 : begin + 1) + 1);
}

std::string quoted_command(const std::vector<std::string>& argv) {
    std::string out;
    for (const std::string& a : argv) out += (out.empty() ? "" : " ") + a;
    return out;
}

}  // namespace dmltool::app
