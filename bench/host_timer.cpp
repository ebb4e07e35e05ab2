#include "bench/host_timer.h"

#include <chrono>
#include <ctime>

namespace dmltool::app {

std::string_view host_timer_name(HostTimer timer) { return timer == HostTimer::kProcessCpu ? "cpu" : "wall"; }

Status host_timer_available(HostTimer timer) {
#ifdef _WIN32
    if (timer == HostTimer::kProcessCpu)
        return unsupported("--timer cpu: not in the Windows build (Windows counts a process's CPU time in scheduler "
                           "ticks of about 15.6 ms, coarser than one sample)");
#else
    (void)timer;
#endif
    return Status::ok();
}

double host_now(HostTimer timer) {
#ifndef _WIN32
    if (timer == HostTimer::kProcessCpu) {
        timespec t{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
        return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
    }
#else
    (void)timer;
#endif
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace dmltool::app
