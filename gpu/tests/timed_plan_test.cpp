// GpuBackend::time_executions keeps the last timed desc prepared. Its key must not be only the desc's and inputs'
// addresses: bench's same-size copies (2026-11-28) freed one copy and created the next, of another size, at the same
// addresses, and every size was timed with the first one's plan.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/op_registry.h"
#include "gpu/gpu_backend.h"
#include "gpu/tests/gpu_test_support.h"
#include "ops/split/split.h"

namespace dmltool {
namespace {

// SPLIT of an INT8 {1, 2, rows, 1024} tensor on axis 1: a plain copy of 2 KiB per row.
std::unique_ptr<OpDesc> split_desc(const Op& op, uint32_t rows) {
    const nlohmann::json half = {{"DataType", "INT8"}, {"Sizes", {1u, 1u, rows, 1024u}}};
    const nlohmann::json desc = {{"InputTensor", {{"DataType", "INT8"}, {"Sizes", {1u, 2u, rows, 1024u}}}},
                                 {"OutputTensors", {half, half}},
                                 {"Axis", 1u}};
    JsonObjectReader reader(desc, "/operator/desc");
    auto parsed = op.parse(reader);
    EXPECT_TRUE(parsed.is_ok()) << parsed.status().message();
    return parsed.is_ok() ? std::move(parsed).value() : nullptr;
}

TEST(TimedPlan, ANewDescAtAnOldAddressIsPreparedAgain) {
    auto adapters = gpu::list_adapters();
    if (!adapters.is_ok() || adapters->empty()) GTEST_SKIP() << "no Vulkan device on this machine";
    auto backend = gpu::GpuBackend::create({}, {});
    ASSERT_TRUE(backend.is_ok()) << backend.status().message();
    const OpRegistry registry = make_builtin_registry();
    const Op& op = *registry.find("DML_OPERATOR_SPLIT");
    // One desc object and one input tensor object, each overwritten in place: the same addresses, another size.
    std::unique_ptr<OpDesc> desc = split_desc(op, 8192);  // 16 MiB in, as much out
    std::unique_ptr<OpDesc> small = split_desc(op, 1);     // 2 KiB
    ASSERT_TRUE(desc && small);
    auto& split = static_cast<ops::split::SplitDesc&>(*desc);
    HostTensor input(split.input);
    const std::vector<const HostTensor*> inputs = {&input};
    const auto fastest = [&](unsigned batches) {
        double best = 0;
        for (unsigned i = 0; i < batches; ++i) {
            auto seconds = (*backend)->time_executions(op, *desc, inputs, 2);
            EXPECT_TRUE(seconds.is_ok()) << seconds.status().message();
            if (seconds.is_ok() && (i == 0 || *seconds < best)) best = *seconds;
        }
        return best;
    };
    const double big_seconds = fastest(2);
    split = static_cast<const ops::split::SplitDesc&>(*small);
    input = HostTensor(split.input);
    const double small_seconds = fastest(3);
    // 8192x fewer bytes: even a software device's fixed costs leave the small copy far below the big one, which
    // is what it would time with the stale plan.
    EXPECT_LT(small_seconds * 4, big_seconds) << "big " << big_seconds << " s, small " << small_seconds << " s";
}

}  // namespace
}  // namespace dmltool
