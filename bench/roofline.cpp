#include "bench/roofline.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

namespace dmltool::app {

BackendRoofline measure_device_roofline(Backend& backend, uint64_t copy_bytes) {
    auto measured = backend.measure_roofline(copy_bytes);
    if (measured.is_ok()) {
        BackendRoofline r{*measured, {}};
        if (r.measured.adapter.empty()) r.measured.adapter = backend.name();
        std::vector<std::string> missing;
        if (!(r.measured.copy_bytes_per_second > 0)) missing.push_back("copy");
        if (!(r.measured.int_multiply_adds_per_second > 0)) missing.push_back("integer multiply-add");
        if (!(r.measured.float_fmas_per_second > 0)) missing.push_back("float32 FMA");
        for (size_t i = 0; i < missing.size(); ++i) r.note += (i ? ", " : "not measured: ") + missing[i];
        return r;
    }
    BackendRoofline r;
    r.measured.adapter = backend.name();
    const bool absent = measured.status().code() == ErrorCode::kUnsupported;
    r.note = (absent ? "not measured: " : "roofline probe failed: ") + measured.status().message();
    return r;
}

BackendRoofline measure_host_roofline(ThreadPool& pool, uint64_t copy_bytes, const std::string& cpu_model,
                                      HostTimer timer) {
    constexpr uint64_t kChunk = 1 << 20;  // large enough that hand-offs cost nothing next to the copy
    constexpr int kRepetitions = 5;
    // Both buffers are written before timing so that page faults stay out of the figure.
    std::vector<std::byte> source(copy_bytes, std::byte{0x5a});
    std::vector<std::byte> target(copy_bytes, std::byte{0});
    const uint64_t chunks = (copy_bytes + kChunk - 1) / kChunk;
    double best = std::numeric_limits<double>::infinity();
    for (int i = 0; i < kRepetitions; ++i) {
        const double start = host_now(timer);
        pool.parallel_for(
            chunks,
            [&](uint64_t begin, uint64_t end) {
                for (uint64_t c = begin; c < end; ++c) {
                    const uint64_t offset = c * kChunk;
                    std::memcpy(target.data() + offset, source.data() + offset, std::min(kChunk, copy_bytes - offset));
                }
            },
            1);
        best = std::min(best, host_now(timer) - start);
    }
    BackendRoofline r;
    r.measured.adapter = cpu_model;
    if (best > 0 && copy_bytes > 0) {
        r.measured.copy_bytes_per_second = 2 * double(copy_bytes) / best;
        r.measured.copy_method = "host memcpy of " + std::to_string(copy_bytes >> 20) + " MiB, " +
                                 std::to_string(pool.size()) + " threads, best of " + std::to_string(kRepetitions) +
                                 (timer == HostTimer::kProcessCpu ? ", process CPU time (--timer cpu)" : "");
    }
    r.note = "not measured: integer multiply-add, float32 FMA (no CPU arithmetic probes)";
    return r;
}

BackendRoofline unmeasured_roofline(const std::string& why) { return {DeviceRoofline{}, "not measured: " + why}; }

}  // namespace dmltool::app
