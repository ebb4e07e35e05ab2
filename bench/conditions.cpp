#include "bench/conditions.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace dmltool::app {
namespace {

constexpr uint64_t kRowBytes = 1024;

// SPLIT of an int8 [1, 2, rows, 1024] constant tensor on axis 1: the smallest description of "read every byte once,
// write every byte once" that every device backend runs.
std::string split_case_json(uint64_t rows) {
    const std::string r = std::to_string(rows);
    return R"({"cases": [{"name": "bench/copy", "operator": {"type": "DML_OPERATOR_SPLIT", "desc": {
        "InputTensor": {"DataType": "INT8", "Sizes": [1, 2, )" + r + R"(, 1024]},
        "OutputTensors": [{"DataType": "INT8", "Sizes": [1, 1, )" + r + R"(, 1024]},
                          {"DataType": "INT8", "Sizes": [1, 1, )" + r + R"(, 1024]}],
        "Axis": 1}},
        "inputs": {"InputTensor": {"constant": 7}}}]})";
}

}  // namespace

Result<std::unique_ptr<DeviceCopy>> DeviceCopy::create(uint64_t bytes, const OpRegistry& registry, const Runner& runner) {
    auto copy = std::make_unique<DeviceCopy>();
    const uint64_t rows = std::max<uint64_t>(1, bytes / (2 * kRowBytes));
    copy->file_ = load_case_text(split_case_json(rows), "(dmltool bench copy)", registry);
    if (!copy->file_.status.is_ok()) return internal_error("bench copy: " + copy->file_.status.message());
    if (copy->file_.cases.size() != 1 || !copy->file_.cases[0].status.is_ok())
        return internal_error("bench copy: " + (copy->file_.cases.empty() ? std::string("no case")
                                                                            : copy->file_.cases[0].status.message()));
    DMLTOOL_ASSIGN_OR_RETURN(copy->inputs_, runner.prepare_inputs(copy->file_.cases[0].spec));
    for (const HostTensor& t : copy->inputs_) copy->input_pointers_.push_back(&t);
    copy->bytes_ = 2 * rows * 2 * kRowBytes;
    return copy;
}

Result<double> DeviceCopy::time(Backend& device, unsigned iterations) {
    const CaseSpec& spec = file_.cases[0].spec;
    return device.time_executions(*spec.op, *spec.desc, input_pointers_, iterations);
}

Result<double> DeviceCopy::fastest(Backend& device, unsigned iterations, double warmup_seconds) {
    // Doubling batches (one submission each) until the warm-up time is spent; the cap bounds one submission.
    double warmed = 0;
    for (unsigned batch = 4; warmed < warmup_seconds; batch = std::min(2 * batch, 256u)) {
        DMLTOOL_ASSIGN_OR_RETURN(const double mean, time(device, batch));
        if (mean <= 0) break;  // a device whose timestamps do not advance would never finish warming
        warmed += mean * batch;
    }
    double fastest = 0;
    for (unsigned i = 0; i < iterations; ++i) {
        DMLTOOL_ASSIGN_OR_RETURN(const double seconds, time(device, 1));
        if (i == 0 || seconds < fastest) fastest = seconds;
    }
    return fastest;
}

void HostCopy::flush() {
    std::memset(target_.data(), next_value_, target_.size());
    std::memset(source_.data(), next_value_ + 1, source_.size());
    next_value_ += 2;
}

double HostCopy::time() {
    const double start = host_now(timer_);
    std::memcpy(target_.data(), source_.data(), source_.size());
    const double seconds = host_now(timer_) - start;
    // Read back one byte so that the copy cannot be dropped as dead.
    volatile unsigned char sink = target_[target_.size() / 2];
    (void)sink;
    return seconds;
}

namespace {
constexpr size_t kCacheProbeElements = 4096;  // 16 KiB read, 16 KiB written
constexpr unsigned kCacheProbePasses = 16, kCacheProbeRounds = 5;
}  // namespace

HostCacheProbe::HostCacheProbe(HostTimer timer)
    : source_(kCacheProbeElements), target_(kCacheProbeElements), timer_(timer) {
    for (size_t i = 0; i < source_.size(); ++i) source_[i] = int32_t(i);
}

double HostCacheProbe::bytes_per_second() {
    constexpr size_t mask = kCacheProbeElements - 1;
    std::vector<double> seconds;
    for (unsigned round = 0; round < kCacheProbeRounds; ++round) {
        const double start = host_now(timer_);
        for (unsigned pass = 0; pass < kCacheProbePasses; ++pass) {
            // An odd stride visits every element once; the pass number in the index keeps passes distinct, and the
            // value read feeds the next pass's source, so no pass can be dropped or merged.
            const size_t stride = 2 * pass + 1;
            for (size_t i = 0; i < kCacheProbeElements; ++i) target_[i] = source_[(i * stride) & mask] + 1;
            source_.swap(target_);
        }
        seconds.push_back(host_now(timer_) - start);
    }
    volatile int32_t sink = source_[kCacheProbeElements / 2];
    (void)sink;
    std::sort(seconds.begin(), seconds.end());
    const double median = seconds[seconds.size() / 2];
    const double bytes = 2.0 * sizeof(int32_t) * kCacheProbeElements * kCacheProbePasses;
    return median > 0 ? bytes / median : 0;
}

double ThrottleMonitor::best(const std::string& backend) const {
    double best = 0;
    for (const ProbeRecord& p : history_)
        if (p.backend == backend) best = std::max(best, p.bytes_per_second);
    return best;
}

}  // namespace dmltool::app
