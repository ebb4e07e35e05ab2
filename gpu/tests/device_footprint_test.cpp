// The up-front device memory check (no device needed): padding, overflow, the 4 GiB tensor rule, the device's
// per-buffer limit and the budget, each refused with the numbers and the buffer's name.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/op_registry.h"
#include "gpu/device_footprint.h"

namespace dmltool::gpu {
namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;
constexpr uint64_t kGiB = uint64_t{1} << 30;

TEST(DeviceBufferSize, PadsToSixteenBytesWithOverflowCheck) {
    EXPECT_EQ(device_buffer_size(1), 16u);
    EXPECT_EQ(device_buffer_size(16), 16u);
    EXPECT_EQ(device_buffer_size(17), 32u);
    EXPECT_EQ(device_buffer_size(UINT64_MAX - 15), UINT64_MAX - 15);
    EXPECT_FALSE(device_buffer_size(UINT64_MAX - 14).has_value());
    EXPECT_FALSE(device_buffer_size(UINT64_MAX).has_value());
}

TEST(DescribeBytes, PicksAReadableUnit) {
    EXPECT_EQ(describe_bytes(512), "512 bytes");
    EXPECT_EQ(describe_bytes(3584), "3.5 KiB");
    EXPECT_EQ(describe_bytes(640 * kMiB), "640.0 MiB");
    EXPECT_EQ(describe_bytes(3 * kGiB), "3.00 GiB");
}

TEST(DeviceFootprint, FitsWithinLimits) {
    const std::vector<DeviceBufferNeed> buffers = {{"InputTensor", kMiB, kMiB}, {"OutputTensor", kMiB, kMiB}};
    EXPECT_TRUE(check_device_footprint(buffers, {"dev", 2 * kMiB, 2 * kMiB}).is_ok());
    EXPECT_TRUE(check_device_footprint(buffers, {"dev", 0, 0}).is_ok());  // limits unknown: nothing to check
}

TEST(DeviceFootprint, TensorBeyondFourGiB) {
    const uint64_t bytes = (uint64_t{1} << 32) + 4;
    Status s = check_device_footprint({{"OutputTensor", bytes + 12, bytes}}, {"dev", 0, 0});
    EXPECT_EQ(s.code(), ErrorCode::kUnsupported);
    EXPECT_EQ(s.message(), "OutputTensor takes 4294967300 bytes (4.00 GiB); dmltool's GPU kernels address at most "
                           "4 GiB per tensor (32-bit byte addresses)");
}

TEST(DeviceFootprint, BufferBeyondTheDeviceLimit) {
    Status s = check_device_footprint({{"InputTensor", 16, 16}, {"OutputTensor", 3 * kGiB, 3 * kGiB}},
                                      {"llvmpipe", 2 * kGiB, 0});
    EXPECT_EQ(s.code(), ErrorCode::kUnsupported);
    EXPECT_EQ(s.message(), "OutputTensor needs a buffer of 3221225472 bytes (3.00 GiB), more than the 2147483648 "
                           "bytes (2.00 GiB) 'llvmpipe' allows per buffer (Vulkan maxMemoryAllocationSize/"
                           "maxBufferSize, D3D12 virtual address bits per resource)");
}

TEST(DeviceFootprint, BudgetNamesTheLargestBuffers) {
    std::vector<DeviceBufferNeed> buffers = {{"InputTensor", 2 * kMiB, 2 * kMiB}, {"auxiliary 0", 4096, 0}};
    for (int i = 0; i < 5; ++i)
        buffers.push_back({"OutputTensors[" + std::to_string(i) + "]", (i + 1) * kMiB, (i + 1) * kMiB});
    Status s = check_device_footprint(buffers, {"dev", 0, 8 * kMiB});
    EXPECT_EQ(s.code(), ErrorCode::kUnsupported);
    EXPECT_EQ(s.message(), "needs 17.0 MiB of device memory (OutputTensors[4] 5.0 MiB, OutputTensors[3] 4.0 MiB, "
                           "OutputTensors[2] 3.0 MiB, InputTensor 2.0 MiB, and 3 more), more than the 8.0 MiB allowed "
                           "on 'dev' (--max-device-memory)");
    EXPECT_TRUE(check_device_footprint(buffers, {"dev", 0, 17 * kMiB + 4096}).is_ok());
}

TEST(DeviceFootprint, OverflowIsInvalid) {
    Status s = check_device_footprint({{"a", UINT64_MAX / 2 + 1, 0}, {"b", UINT64_MAX / 2 + 1, 0}}, {"dev", 0, 0});
    EXPECT_EQ(s.code(), ErrorCode::kInvalidInput);
    EXPECT_NE(s.message().find("overflow 64-bit byte counts"), std::string::npos) << s.message();
}

// The buffers of a real plan: every present tensor, padded as GpuBackend allocates it, and the auxiliary data.
TEST(DeviceFootprint, ListsEveryBufferOfAPlan) {
    const OpRegistry registry = make_builtin_registry();
    const Op& op = *registry.find("RESAMPLE");
    nlohmann::json desc = nlohmann::json::parse(R"({
        "InputTensor": {"DataType": "FLOAT32", "Sizes": [1, 1, 3, 5]},
        "OutputTensor": {"DataType": "FLOAT32", "Sizes": [1, 1, 6, 10]},
        "InterpolationMode": "LINEAR", "Scales": [1, 1, 2, 2]})");
    JsonObjectReader reader(desc, "/operator/desc");
    auto parsed = op.parse(reader);
    ASSERT_TRUE(parsed.is_ok()) << parsed.status().message();
    auto plan = op.plan_device(**parsed, {});
    ASSERT_TRUE(plan.is_ok()) << plan.status().message();
    auto buffers = device_buffers(op, **parsed, *plan);
    ASSERT_TRUE(buffers.is_ok()) << buffers.status().message();
    ASSERT_EQ(buffers->size(), 2 + plan->auxiliary_buffers.size());
    EXPECT_EQ((*buffers)[0].name, "InputTensor");
    EXPECT_EQ((*buffers)[0].bytes, 64u);  // 60 bytes padded to 16
    EXPECT_EQ((*buffers)[0].tensor_bytes, 60u);
    EXPECT_EQ((*buffers)[1].name, "OutputTensor");
    EXPECT_EQ((*buffers)[1].bytes, 240u);
    for (size_t i = 0; i < plan->auxiliary_buffers.size(); ++i) {
        EXPECT_EQ((*buffers)[2 + i].name, "auxiliary " + std::to_string(i));
        EXPECT_EQ((*buffers)[2 + i].bytes, *device_buffer_size(plan->auxiliary_buffers[i].size()));
    }
}

}  // namespace
}  // namespace dmltool::gpu
