// SPLIT on the GPU backend (lavapipe in CI) against the CPU reference, bit-exact: every data type, 1 to 8
// dimensions, uneven parts, many outputs, packed / padded / permuted / broadcast inputs and padded / permuted
// outputs; which kernel path a layout takes; the multi-view kernels (small windows); and every blob the
// shared strided-copy generator can produce, through vkd3d-compiler + spirv-val.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "ops/split/kernel.h"
#include "ops/split/layout_test_support.h"
#include "shaders/strided_copy.h"
#include "shaders/testing/validate_blob.h"
#include "tests/testing/gpu_testing.h"
#include "tests/testing/op_testing.h"

namespace dmltool::ops::split {
namespace {

using namespace dmltool::testing::layouts;
using dmltool::testing::DifferentialCase;
using dmltool::testing::run_differential;
using nlohmann::json;

const Op& split_op() { return dmltool::testing::builtin_op("SPLIT"); }

struct SplitCase {
    DataType type;
    TensorDesc input;
    std::vector<TensorDesc> outputs;
    uint32_t axis;
};

DifferentialCase to_differential(const SplitCase& c, const std::string& name, uint64_t seed) {
    json outputs = json::array();
    for (const TensorDesc& out : c.outputs) outputs.push_back(dmltool::testing::tensor_json(out));
    const json desc = {{"InputTensor", dmltool::testing::tensor_json(c.input)}, {"OutputTensors", outputs}, {"Axis", c.axis}};
    DifferentialCase d;
    d.name = name;
    d.op_type = "DML_OPERATOR_SPLIT";
    d.desc_json = desc.dump();
    d.inputs.push_back(random_bits_tensor(c.input, seed));
    d.seed = seed;
    return d;
}

// `parts` along `axis` of `sizes`, with the given layouts.
SplitCase make_case(DataType type, const Dims& sizes, uint32_t axis, const std::vector<uint32_t>& parts,
                    Layout input_layout, Layout output_layout, std::mt19937& rng) {
    SplitCase c{type, make_desc(type, sizes, make_strides(sizes, input_layout, rng), TensorRole::kInput), {}, axis};
    for (uint32_t part : parts) {
        Dims out = sizes;
        out[axis] = part;
        c.outputs.push_back(make_desc(type, out, make_strides(out, output_layout, rng), TensorRole::kOutput));
    }
    return c;
}

// Random uneven parts (each >= 1) summing to `total`.
std::vector<uint32_t> random_parts(uint32_t total, std::mt19937& rng) {
    const uint32_t count = 1 + rng() % std::min<uint32_t>(total, 5);
    std::vector<uint32_t> parts(count, 1);
    for (uint32_t left = total - count; left > 0; --left) ++parts[rng() % count];
    return parts;
}

TEST(SplitGpu, RandomLayoutsEveryTypeAndRank) {
    SKIP_WITHOUT_GPU();
    const Layout input_layouts[] = {Layout::kPacked, Layout::kPadded, Layout::kPermuted, Layout::kBroadcast};
    const Layout output_layouts[] = {Layout::kPacked, Layout::kPadded, Layout::kPermuted};
    uint64_t seed = 1000;
    for (DataType type : all_movement_types()) {
        for (uint32_t rank = 1; rank <= 8; ++rank) {
            for (int variant = 0; variant < 2; ++variant, ++seed) {
                std::mt19937 rng{uint32_t(seed)};
                Dims sizes(rank);
                uint64_t count = 1;
                for (uint32_t& s : sizes) {
                    s = 1 + rng() % (count > 200 ? 2 : 6);  // odd sizes, at most a few hundred elements
                    count *= s;
                }
                const uint32_t axis = rng() % rank;
                sizes[axis] = std::max<uint32_t>(sizes[axis], 2 + rng() % 5);
                const Layout in = input_layouts[rng() % 4];
                // Outputs mostly packed (the common case), otherwise padded or permuted.
                const Layout out = variant == 0 ? Layout::kPacked : output_layouts[rng() % 3];
                const SplitCase c = make_case(type, sizes, axis, random_parts(sizes[axis], rng), in, out, rng);
                const std::string name = "split_gpu/" + std::string(data_type_name(type)) + "/rank" +
                                         std::to_string(rank) + "/" + layout_name(in) + "_" + layout_name(out);
                const auto result = run_differential(split_op(), to_differential(c, name, seed));
                EXPECT_TRUE(result.passed) << result.message;
            }
        }
    }
}

// Larger packed and padded cases that take each kernel path (see PathSelection) on every element size.
TEST(SplitGpu, FastAndGeneralPaths) {
    SKIP_WITHOUT_GPU();
    struct Shape {
        Dims sizes;
        uint32_t axis;
        std::vector<uint32_t> parts;
        Layout input, output;
    };
    const Shape shapes[] = {
        {{2, 12, 8, 16}, 1, {4, 8}, Layout::kPacked, Layout::kPacked},   // 16-byte vectors
        {{3, 5, 7, 9}, 3, {2, 7}, Layout::kPacked, Layout::kPacked},     // misaligned rows: gathered chunks
        {{4, 37, 5}, 1, {1, 17, 19}, Layout::kPacked, Layout::kPacked},  // odd everything
        {{6, 10, 33}, 2, {16, 17}, Layout::kPadded, Layout::kPadded},
        {{5, 6, 7}, 0, {2, 3}, Layout::kPermuted, Layout::kPermuted},
        {{2, 64, 24}, 1, {40, 24}, Layout::kBroadcast, Layout::kPacked},
    };
    uint64_t seed = 5000;
    for (DataType type : all_movement_types()) {
        for (size_t s = 0; s < std::size(shapes); ++s, ++seed) {
            std::mt19937 rng{uint32_t(seed)};
            const Shape& shape = shapes[s];
            const SplitCase c = make_case(type, shape.sizes, shape.axis, shape.parts, shape.input, shape.output, rng);
            const std::string name = "split_gpu/paths/" + std::string(data_type_name(type)) + "/" + std::to_string(s);
            const auto result = run_differential(split_op(), to_differential(c, name, seed));
            EXPECT_TRUE(result.passed) << result.message;
        }
    }
}

TEST(SplitGpu, ManyOutputs) {
    SKIP_WITHOUT_GPU();
    std::mt19937 rng(7);
    std::vector<uint32_t> parts(40, 1);
    parts[3] = 5;
    parts[17] = 2;
    for (DataType type : {DataType::kInt8, DataType::kFloat16, DataType::kFloat32, DataType::kUint64}) {
        const SplitCase c = make_case(type, {3, 45, 5}, 1, parts, Layout::kPacked, Layout::kPacked, rng);
        const auto result = run_differential(
            split_op(), to_differential(c, "split_gpu/many_outputs/" + std::string(data_type_name(type)), 7));
        EXPECT_TRUE(result.passed) << result.message;
    }
}

// Windows of 512 bytes: tensors of a few KiB span several views, as tensors over 512 MiB do with real windows.
TEST(SplitGpu, MultiViewKernels) {
    SKIP_WITHOUT_GPU();
    const ReplannedOp windowed(split_op(), [](const OpDesc& desc) {
        return plan_split_device(static_cast<const SplitDesc&>(desc), {.window_log2 = 9});
    });
    uint64_t seed = 9000;
    for (DataType type : {DataType::kInt8, DataType::kFloat16, DataType::kFloat32, DataType::kInt64}) {
        for (Layout out : {Layout::kPacked, Layout::kPadded}) {
            for (Layout in : {Layout::kPacked, Layout::kPermuted}) {
                std::mt19937 rng{uint32_t(++seed)};
                const SplitCase c = make_case(type, {7, 9, 24}, 1, {4, 5}, in, out, rng);
                const std::string name = "split_gpu/multiview/" + std::string(data_type_name(type)) + "/" +
                                         layout_name(in) + "_" + layout_name(out);
                const auto result = run_differential(windowed, to_differential(c, name, seed));
                EXPECT_TRUE(result.passed) << result.message;
            }
        }
    }
}

// The kernel each layout gets (the dispatch labels name unit bytes x lanes and outer+row ranks).
TEST(SplitPlan, PathSelection) {
    std::mt19937 rng(1);
    auto labels = [&](DataType type, const Dims& sizes, uint32_t axis, const std::vector<uint32_t>& parts,
                      Layout in, Layout out) {
        const SplitCase c = make_case(type, sizes, axis, parts, in, out, rng);
        SplitDesc desc;
        desc.input = c.input;
        desc.outputs = c.outputs;
        desc.axis = axis;
        auto plan = plan_split_device(desc);
        EXPECT_TRUE(plan.is_ok()) << plan.status().message();
        std::vector<std::string> out_labels;
        if (plan.is_ok())
            for (const KernelDispatch& d : plan->dispatches) out_labels.push_back(d.label.substr(d.label.find("strided_copy ") + 13));
        return out_labels;
    };
    using V = std::vector<std::string>;
    // Packed, aligned: 16-byte units, the output one row (2-D after merging: outer x contiguous run). Every
    // 16-byte access goes through typed uint4 aliases ("typed").
    EXPECT_EQ(labels(DataType::kFloat32, {2, 12, 8, 16}, 1, {4, 8}, Layout::kPacked, Layout::kPacked),
              (V{"u16x1 r0+2 typed", "u16x1 r0+2 typed"}));
    // INT8 runs of 3 and 4 bytes: output words/vectors gathered byte by byte.
    EXPECT_EQ(labels(DataType::kInt8, {3, 5, 7}, 2, {3, 4}, Layout::kPacked, Layout::kPacked),
              (V{"u1x16 r0+2 typed", "u1x16 r0+2 typed"}));
    // Splitting the outermost axis of a packed tensor is one contiguous run: a plain vector copy.
    EXPECT_EQ(labels(DataType::kFloat16, {4, 6, 8}, 0, {1, 3}, Layout::kPacked, Layout::kPacked),
              (V{"u16x1 r0+1 typed", "u16x1 r0+1 typed"}));
    // FLOAT64 with odd runs: 8-byte units, two per 16-byte chunk.
    EXPECT_EQ(labels(DataType::kFloat64, {3, 5}, 1, {2, 3}, Layout::kPacked, Layout::kPacked),
              (V{"u8x2 r0+2 typed", "u8x2 r0+2 typed"}));
    // Transposed output: no packed row, one element per thread (sub-word: atomic stores).
    const SplitCase transposed = make_case(DataType::kUint8, {3, 4}, 1, {4}, Layout::kPacked, Layout::kPacked, rng);
    SplitDesc desc;
    desc.input = transposed.input;
    desc.outputs = {make_desc(DataType::kUint8, {3, 4}, Dims{1, 3}, TensorRole::kOutput)};
    desc.axis = 1;
    auto plan = plan_split_device(desc);
    ASSERT_TRUE(plan.is_ok());
    EXPECT_NE(plan->dispatches[0].label.find("u1x1 r2+0"), std::string::npos) << plan->dispatches[0].label;
}

// The per-output copies are independent, so only the backend's end-of-plan barrier follows the last one.
TEST(SplitPlan, CopiesAreNotSeparatedByBarriers) {
    std::mt19937 rng(3);
    const SplitCase c = make_case(DataType::kFloat32, {2, 9, 4}, 1, {2, 3, 4}, Layout::kPacked, Layout::kPacked, rng);
    SplitDesc desc;
    desc.input = c.input;
    desc.outputs = c.outputs;
    desc.axis = 1;
    auto plan = plan_split_device(desc);
    ASSERT_TRUE(plan.is_ok()) << plan.status().message();
    ASSERT_EQ(plan->dispatches.size(), 3u);
    for (const KernelDispatch& dispatch : plan->dispatches) EXPECT_FALSE(dispatch.barrier_after) << dispatch.label;
}

// SPLIT runs its copies in 256-thread groups (kSplitCopyOptions): 1024 threads of 16 bytes per output are 4
// groups, not 16. The GPU cases above run those kernels on lavapipe; the test options keep 64.
TEST(SplitPlan, LaunchesGroupsOf256Threads) {
    SplitDesc desc;
    desc.input = make_desc(DataType::kFloat32, {2, 4096}, std::nullopt, TensorRole::kInput);
    desc.outputs = {make_desc(DataType::kFloat32, {2, 2048}, std::nullopt, TensorRole::kOutput),
                    make_desc(DataType::kFloat32, {2, 2048}, std::nullopt, TensorRole::kOutput)};
    desc.axis = 1;
    auto plan = plan_split_device(desc);
    ASSERT_TRUE(plan.is_ok()) << plan.status().message();
    for (const KernelDispatch& dispatch : plan->dispatches) {
        EXPECT_EQ(dispatch.group_count[0] * dispatch.group_count[1], 4u) << dispatch.label;
        EXPECT_NE(dispatch.label.find("u16x1"), std::string::npos) << dispatch.label;
    }
    shaders::StridedCopyKernelSpec odd;
    odd.threads_per_group = 48;
    EXPECT_FALSE(shaders::build_strided_copy_kernel(odd).is_ok());
}

TEST(SplitPlan, RefusesBuffersOver4GiB) {
    SplitDesc desc;
    desc.input = make_desc(DataType::kFloat64, {2, 1u << 29}, std::nullopt, TensorRole::kInput);  // 8 GiB
    desc.outputs = {make_desc(DataType::kFloat64, {1, 1u << 29}, std::nullopt, TensorRole::kOutput),
                    make_desc(DataType::kFloat64, {1, 1u << 29}, std::nullopt, TensorRole::kOutput)};
    desc.axis = 0;
    auto plan = plan_split_device(desc);
    ASSERT_FALSE(plan.is_ok());
    EXPECT_EQ(plan.status().code(), ErrorCode::kUnsupported);
    EXPECT_NE(plan.status().message().find("4 GiB"), std::string::npos) << plan.status().message();
}

// Every (unit, lanes) pair with representative rank splits and view counts: vkd3d 1.2 must translate each blob
// and spirv-val accept it.
TEST(StridedCopyBlobs, EveryVariantValidates) {
    using shaders::StridedCopyKernelSpec;
    std::vector<StridedCopyKernelSpec> specs;
    const std::pair<uint32_t, uint32_t> ranks[] = {{0, 1}, {0, 2}, {1, 1}, {2, 0}, {8, 0}, {0, 8}, {3, 5}, {1, 6}};
    for (auto [unit, lanes] : shaders::strided_copy_unit_lane_pairs()) {
        for (auto [outer, row] : ranks) {
            if (lanes > 1 && row == 0) continue;
            specs.push_back({unit, lanes, outer, row});
        }
        specs.push_back({unit, lanes, 1, 2, 3, 2, 9});  // several views
        specs.push_back({unit, lanes, 0, 1, 9, 9, 29});
        if (unit * lanes == 16) {  // typed uint4 aliases for the 16-byte accesses
            specs.push_back({unit, lanes, 1, 2, 1, 1, 29, unit == 16, true});
            specs.push_back({unit, lanes, 2, 3, 3, 2, 9, unit == 16, true});
        }
    }
    // Decimated rows: every stride and sub-16-byte unit, phases 0 and the largest, several views.
    for (auto [unit, lanes] : shaders::strided_copy_unit_lane_pairs()) {
        if (unit == 16 || unit * lanes != 16) continue;
        for (uint32_t decimation : {2u, 3u, 4u})
            for (uint32_t phase : {0u, 16 - unit}) {
                specs.push_back({unit, lanes, 1, 2, 1, 1, 29, true, true, 256, decimation, phase});
                specs.push_back({unit, lanes, 2, 1, 3, 2, 9, true, false, 64, decimation, phase});
            }
    }
    EXPECT_FALSE(shaders::build_strided_copy_kernel({4, 4, 0, 1, 1, 1, 29, false, true, 64, 2, 0}).is_ok());  // untyped
    EXPECT_FALSE(shaders::build_strided_copy_kernel({4, 4, 0, 1, 1, 1, 29, true, true, 64, 5, 0}).is_ok());   // stride 5
    EXPECT_FALSE(shaders::build_strided_copy_kernel({4, 4, 0, 1, 1, 1, 29, true, true, 64, 2, 2}).is_ok());   // phase
    EXPECT_FALSE(shaders::build_strided_copy_kernel({1, 4, 0, 1, 1, 1, 29, true, false, 64, 2, 0}).is_ok());  // 4-byte chunks
    // Typed aliases need 16-byte accesses.
    EXPECT_FALSE(shaders::build_strided_copy_kernel({4, 1, 0, 1, 1, 1, 29, true, false}).is_ok());
    EXPECT_FALSE(shaders::build_strided_copy_kernel({1, 4, 0, 1, 1, 1, 29, false, true}).is_ok());
    for (const StridedCopyKernelSpec& spec : specs) {
        const std::string name = "strided_copy_u" + std::to_string(spec.unit_bytes) + "x" + std::to_string(spec.lanes) +
                                 "_r" + std::to_string(spec.outer_rank) + "+" + std::to_string(spec.row_rank) + "_v" +
                                 std::to_string(spec.input_views) + "." + std::to_string(spec.output_views) +
                                 (spec.typed_input ? "_ti" : "") + (spec.typed_output ? "_to" : "") +
                                 (spec.decimation ? "_d" + std::to_string(spec.decimation) + "p" +
                                                        std::to_string(spec.phase_bytes) : "");
        auto blob = shaders::build_strided_copy_kernel(spec);
        ASSERT_TRUE(blob.is_ok()) << name << ": " << blob.status().message();
        const auto validation = shaders::testing::validate_with_vkd3d(*blob, name);
        if (!validation.tools_found) GTEST_SKIP() << validation.log;
        EXPECT_TRUE(validation.ok) << name << ": " << validation.log;
    }
}

}  // namespace
}  // namespace dmltool::ops::split
