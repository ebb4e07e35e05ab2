// Every kernel shape the shared pieces produce must be accepted by vkd3d 1.2 and spirv-val. Their numbers
// are checked on lavapipe in gpu/tests/kernels_test.cpp.
#include <gtest/gtest.h>

#include "shaders/disasm.h"
#include "shaders/elements.h"
#include "shaders/kernels.h"
#include "shaders/testing/validate_blob.h"

namespace dmltool::shaders {
namespace {

void expect_valid(const Result<std::vector<uint8_t>>& blob, const std::string& name) {
    ASSERT_TRUE(blob.is_ok()) << name << ": " << blob.status().message();
    const testing::BlobValidation v = testing::validate_with_vkd3d(*blob, name);
    if (!v.tools_found) GTEST_SKIP() << v.log;
    auto text = disassemble_container(*blob);
    EXPECT_TRUE(v.ok) << name << ": " << v.log << "\n" << (text.is_ok() ? *text : text.status().message());
}

TEST(Kernels, Copy16Validates) {
    expect_valid(build_copy16_kernel(), "copy16");
    expect_valid(build_copy16_kernel({.views = 3, .window_log2 = 12}), "copy16_3_views");
}

TEST(Kernels, StridedGatherValidatesForEveryElementSize) {
    for (uint32_t bytes : {1u, 2u, 4u, 8u}) {
        for (bool in_buffer : {false, true}) {
            const std::string name = "gather_" + std::to_string(bytes) + (in_buffer ? "_buffer" : "_root");
            expect_valid(build_strided_gather_kernel({.element_bytes = bytes, .rank = 4, .sizes_in_buffer = in_buffer}),
                         name);
        }
    }
    EXPECT_FALSE(build_strided_gather_kernel({.element_bytes = 3}).is_ok());
}

TEST(Elements, AtomicSubwordStoresAndHalfConversionsValidate) {
    for (uint32_t bytes : {1u, 2u, 4u, 8u}) {
        ProgramBuilder b;
        const TensorViews in = TensorViews::single(b.srv_raw(0));
        const TensorViews out{{b.uav_raw(0), b.uav_raw(1)}, 8};
        Operand i = linear_thread_index(b, b.root_constant(0));
        Operand v = b.temp();
        load_element(b, in, bytes, i, bytes == 8 ? v.xy() : v.x(), Extend::kSign);
        store_element_atomic(b, out, bytes, i, bytes == 8 ? v.xy() : v.x());
        expect_valid(b.build_dxbc(), "atomic_store_" + std::to_string(bytes));
    }
    ProgramBuilder b;
    Operand r = b.temp();
    half_to_float(b, r.x(), r.y());
    float_to_half(b, r.z(), r.x());
    unfused_mul(b, r.w(), r.x(), r.z(), b.root_constant(0));
    b.store_raw(b.uav_raw(0), imm(0), r.xyzw());
    expect_valid(b.build_dxbc(), "half_conversions");
}

TEST(Elements, RejectsBadArguments) {
    ProgramBuilder b;
    Operand r = b.temp();
    load_element(b, TensorViews::single(b.srv_raw(0)), 3, r.x(), r.y());
    EXPECT_FALSE(b.finish().is_ok());
    ProgramBuilder c;
    load_element(c, TensorViews{{}, 29}, 4, r.x(), r.y());
    EXPECT_FALSE(c.finish().is_ok());
}

TEST(Elements, PlanDispatchWrapsLargeLaunches) {
    const DispatchGrid small = plan_dispatch(1000, 64);
    EXPECT_EQ(small.groups_x, 16u);
    EXPECT_EQ(small.groups_y, 1u);
    EXPECT_EQ(small.threads_per_row, 1024u);
    const uint64_t threads = uint64_t{1} << 28;  // 2^22 groups of 64
    const DispatchGrid big = plan_dispatch(threads, 64);
    EXPECT_LE(big.groups_x, 65535u);
    EXPECT_LE(big.groups_y, 65535u);
    EXPECT_GE(uint64_t{big.groups_x} * big.groups_y * 64, threads);
    EXPECT_EQ(big.threads_per_row, big.groups_x * 64);
    EXPECT_EQ(plan_dispatch(0, 64).groups_x, 0u);
}

}  // namespace
}  // namespace dmltool::shaders
