// The roofline probes on a real device (lavapipe in CI): every figure is measured and positive, every copy
// variant is verified on the device, and the verification itself catches copies that move too little.
#include <gtest/gtest.h>

#include "gpu/roofline_probe.h"
#include "gpu/roofline_probe_kernels.h"
#include "gpu/tests/gpu_test_support.h"
#include "shaders/testing/validate_blob.h"

namespace dmltool::gpu {
namespace {

// Small and quick: a copy whose size is not a multiple of any variant's per-group span (tails), few timings.
RooflineProbeOptions quick_options() {
    RooflineProbeOptions options;
    options.copy_bytes = (1u << 20) + 48;
    options.batch = 2;
    options.samples = 1;
    options.min_dispatch_seconds = 1e-3;
    options.max_alu_groups = 64;
    return options;
}

TEST(RooflineProbe, EveryKernelPassesVkd3dAndSpirvVal) {
    std::vector<std::pair<std::string, Result<std::vector<uint8_t>>>> blobs;
    for (uint32_t views : {1u, 3u}) {
        blobs.emplace_back("fill", build_pattern_fill_kernel(views));
        blobs.emplace_back("check", build_pattern_check_kernel(views));
        for (uint32_t dwords : {1u, 2u, 4u})
            for (uint32_t per_thread : {1u, 2u, 4u}) {
                const CopyVariant variant{dwords, per_thread, views};
                blobs.emplace_back(variant.name(), build_copy_variant_kernel(variant));
            }
        for (uint32_t per_thread : {1u, 2u, 4u}) {
            const CopyVariant variant{4, per_thread, views, true};
            blobs.emplace_back(variant.name(), build_copy_variant_kernel(variant));
        }
    }
    blobs.emplace_back("imad", build_multiply_add_kernel(false));
    blobs.emplace_back("mad", build_multiply_add_kernel(true));
    for (const auto& [name, blob] : blobs) {
        ASSERT_TRUE(blob.is_ok()) << name << ": " << blob.status().message();
        const auto validation = shaders::testing::validate_with_vkd3d(*blob, "roofline_" + name);
        if (!validation.tools_found) GTEST_SKIP() << validation.log;
        EXPECT_TRUE(validation.ok) << name << ": " << validation.log;
    }
}

TEST(RooflineProbe, BadCopyVariantsAreRefused) {
    EXPECT_FALSE(build_copy_variant_kernel({3, 1, 1}).is_ok());
    EXPECT_FALSE(build_copy_variant_kernel({4, 0, 1}).is_ok());
    EXPECT_FALSE(build_copy_variant_kernel({4, 1, 9}).is_ok());
    EXPECT_FALSE(build_copy_variant_kernel({2, 1, 1, true}).is_ok());
}

TEST(RooflineProbe, MeasuresEveryFigure) {
    DMLTOOL_GPU_CONTEXT_OR_SKIP(context);
    auto roofline = measure_roofline(*context, quick_options());
    ASSERT_TRUE(roofline.is_ok()) << roofline.status().message();
    EXPECT_GT(roofline->copy_bytes_per_second, 0);
    EXPECT_FALSE(roofline->copy_method.empty());
    EXPECT_GT(roofline->int_multiply_adds_per_second, 0);
    EXPECT_GT(roofline->float_fmas_per_second, 0);
    EXPECT_NE(roofline->adapter.find(context->adapter().name), std::string::npos) << roofline->adapter;
    EXPECT_NE(roofline->adapter.find("vendor 0x"), std::string::npos) << roofline->adapter;
    std::printf("%s: copy %.2f GB/s (%s), imad %.3g/s, fma %.3g/s\n", roofline->adapter.c_str(),
                roofline->copy_bytes_per_second / 1e9, roofline->copy_method.c_str(),
                roofline->int_multiply_adds_per_second, roofline->float_fmas_per_second);
}

TEST(RooflineProbe, EveryCopyVariantIsVerifiedAndTimed) {
    DMLTOOL_GPU_CONTEXT_OR_SKIP(context);
    auto copies = measure_copies(*context, quick_options());
    ASSERT_TRUE(copies.is_ok()) << copies.status().message();
    // CopyBufferRegion + 3 raw access widths x 3 accesses per thread + typed uint4 x 3 accesses per thread.
    ASSERT_EQ(copies->size(), 13u);
    for (const CopyMeasurement& copy : *copies) EXPECT_GT(copy.bytes_per_second, 0) << copy.method;
}

TEST(RooflineProbe, VerificationCatchesCopiesThatMoveTooLittle) {
    DMLTOOL_GPU_CONTEXT_OR_SKIP(context);
    const uint64_t bytes = 4096 + 16;
    auto source = GpuBuffer::create(*context, MemoryKind::kDevice, bytes, "source");
    auto destination = GpuBuffer::create(*context, MemoryKind::kDevice, bytes, "destination");
    ASSERT_TRUE(source.is_ok() && destination.is_ok());
    auto copy = [&](uint64_t copied) {
        return [&, copied] {
            ID3D12GraphicsCommandList* list = context->command_list();
            source->transition(list, D3D12_RESOURCE_STATE_COPY_SOURCE);
            destination->transition(list, D3D12_RESOURCE_STATE_COPY_DEST);
            list->CopyBufferRegion(destination->resource(), 0, source->resource(), 0, copied);
            return Status::ok();
        };
    };
    const Status nothing = verify_copy(*context, *source, *destination, bytes, "no-op", [] { return Status::ok(); });
    EXPECT_EQ(nothing.code(), ErrorCode::kDevice);
    EXPECT_NE(nothing.message().find("1028 of 1028 words differ"), std::string::npos) << nothing.message();
    const Status short_by_one = verify_copy(*context, *source, *destination, bytes, "short", copy(bytes - 4));
    EXPECT_NE(short_by_one.message().find("'short': 1 of 1028 words differ"), std::string::npos)
        << short_by_one.message();
    const Status whole = verify_copy(*context, *source, *destination, bytes, "whole", copy(bytes));
    EXPECT_TRUE(whole.is_ok()) << whole.message();
}

}  // namespace
}  // namespace dmltool::gpu
