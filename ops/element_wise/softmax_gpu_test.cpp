// The reductions over axes (softmax_kernel.h: SOFTMAX, LOG_SOFTMAX, HARDMAX and their "1" versions) on the GPU
// backend (lavapipe in CI) against the CPU reference with the operators' own tolerances: last-axis lanes of every
// length class (1, odd, chunked, one thread group, looped), FLOAT16, several and non-last axes, strided tensors,
// -inf / NaN / +inf / huge / subnormal inputs, hardmax's tie and NaN rules pinned by hand, the kernel's other paths
// (single elements, small groups, multi-view tensors), the FLOAT16 autotuning variant with the half conversion
// opcodes, and every blob through vkd3d-compiler + spirv-val.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tests/testing/plan_replacing_op.h"
#include "gpu/half_opcode_probe.h"
#include "ops/element_wise/desc.h"
#include "ops/element_wise/softmax_kernel.h"
#include "shaders/testing/validate_blob.h"
#include "tests/testing/gpu_testing.h"
#include "tests/testing/op_testing.h"

namespace dmltool::ops::element_wise {
namespace {

using dmltool::testing::builtin_op;
using dmltool::testing::DifferentialCase;
using dmltool::testing::make_tensor;
using dmltool::testing::random_tensor;
using dmltool::testing::run_differential;
using dmltool::testing::tensor_json;
using nlohmann::json;

// The real operator, its GPU plan made with other kernel options (the paths the default heuristic rarely takes).
dmltool::testing::PlanReplacingOp OptionsOp(const Op& real, SoftmaxKernelOptions options) {
    return {real, [options](const Op&, const OpDesc& desc, const SemanticsOptions&) {
                return plan_softmax(static_cast<const ElementWiseDesc&>(desc), options);
            }};
}

json desc_json(DataType type, const Dims& sizes, std::optional<std::vector<uint32_t>> axes,
               std::optional<Dims> in_strides = std::nullopt, std::optional<Dims> out_strides = std::nullopt) {
    json desc = {{"InputTensor", tensor_json(type, sizes, in_strides)},
                 {"OutputTensor", tensor_json(type, sizes, out_strides)}};
    if (axes) {
        desc["AxisCount"] = axes->size();
        desc["Axes"] = *axes;
    }
    return desc;
}

// The input re-made with the parsed desc's tensor desc (strides, total size): the backend uploads its physical image.
DifferentialCase with_desc_layout(const Op& op, DifferentialCase c) {
    auto desc = dmltool::testing::parse_desc(op, c.desc_json);
    if (!desc.is_ok()) return c;
    for (const TensorSlot& slot : op.tensors(**desc)) {
        if (slot.role != TensorRole::kInput || !slot.desc) continue;
        HostTensor t(*slot.desc);
        std::copy(c.inputs[0].bytes().begin(), c.inputs[0].bytes().end(), t.bytes().begin());
        c.inputs[0] = std::move(t);
        break;
    }
    return c;
}

void expect_passes(const Op& op, const std::string& name, const json& desc, HostTensor input) {
    DifferentialCase c;
    c.name = "softmax_gpu_" + name;
    c.op_type = "DML_OPERATOR_" + std::string(op.name());
    c.desc_json = desc.dump();
    c.inputs.push_back(std::move(input));
    const auto result = run_differential(op, with_desc_layout(op, c));
    EXPECT_TRUE(result.passed) << name << ": " << result.message;
}

const char* const kAxesOps[] = {"ACTIVATION_SOFTMAX1", "ACTIVATION_LOG_SOFTMAX1", "ACTIVATION_HARDMAX1"};
const char* const kRowOps[] = {"ACTIVATION_SOFTMAX", "ACTIVATION_LOG_SOFTMAX", "ACTIVATION_HARDMAX"};
const DataType kTypes[] = {DataType::kFloat32, DataType::kFloat16};

std::string tag(const char* op, DataType type, const std::string& what) {
    return std::string(op) + "_" + std::string(data_type_name(type)) + "_" + what;
}

TEST(SoftmaxGpu, LastAxisLanesOfEveryLength) {
    SKIP_WITHOUT_GPU();
    // 1 and odd lengths (single elements), whole chunks (4 FLOAT32 / 8 FLOAT16), the perf case's 256, a chunked lane
    // with a partial last thread (1000), past one group's registers (5000, 100003: the looped path).
    const uint32_t lengths[] = {1, 3, 7, 8, 12, 40, 256, 257, 1000, 5000, 100003};
    uint64_t seed = 100;
    for (const char* name : kAxesOps)
        for (DataType type : kTypes)
            for (uint32_t length : lengths) {
                const Dims sizes = {length >= 5000 ? 2u : 5u, length};
                expect_passes(builtin_op(name), tag(name, type, std::to_string(length)),
                              desc_json(type, sizes, std::vector<uint32_t>{1}),
                              random_tensor(type, sizes, ++seed, -8, 8));
            }
}

TEST(SoftmaxGpu, RowOperatorsOverTheLastDimension) {
    SKIP_WITHOUT_GPU();
    const Dims shapes[] = {{1, 1, 6, 37}, {1, 1, 1, 1}, {1, 1, 3, 1}, {1, 1, 9, 64}, {4, 24}};
    uint64_t seed = 300;
    for (const char* name : kRowOps)
        for (DataType type : kTypes)
            for (const Dims& sizes : shapes)
                expect_passes(builtin_op(name), tag(name, type, std::to_string(sizes.back())),
                              desc_json(type, sizes, std::nullopt),
                              random_tensor(type, sizes, ++seed, -6, 6));
}

TEST(SoftmaxGpu, SeveralAndNonLastAxesAndStridedTensors) {
    SKIP_WITHOUT_GPU();
    struct Shape {
        Dims sizes;
        std::vector<uint32_t> axes;
        std::optional<Dims> in_strides, out_strides;
    };
    const std::optional<Dims> packed;
    const Shape shapes[] = {
        {{2, 3, 4, 5}, {0, 2}, packed, packed},
        {{2, 3, 4, 5}, {1}, packed, packed},
        {{2, 3, 4, 5}, {1, 3}, packed, packed},
        {{2, 3, 4, 5}, {0, 1, 2, 3}, packed, packed},
        {{2, 3, 4, 8}, {2, 3}, packed, packed},  // merged into one packed lane of 32: chunks
        {{2, 1, 3, 4, 6}, {1, 4}, packed, packed},
        {{2, 1, 3, 4, 6}, {0, 3}, packed, packed},
        {{3, 2, 1}, {2}, packed, packed},
        // a padded input and a transposed output
        {{3, 4, 8}, {2}, Dims{64, 16, 1}, Dims{1, 3, 12}},
        {{3, 4, 8}, {0, 1}, Dims{64, 16, 1}, Dims{1, 3, 12}},
        // a lane of 600 along a non-last axis: several threads of single elements
        {{2, 600, 3}, {1}, packed, packed},
    };
    uint64_t seed = 500;
    for (const char* name : kAxesOps)
        for (DataType type : kTypes)
            for (const Shape& s : shapes) {
                std::string what;
                for (uint32_t a : s.axes) what += std::to_string(a);
                expect_passes(builtin_op(name), tag(name, type, "axes" + what + "_r" + std::to_string(s.sizes.size())),
                              desc_json(type, s.sizes, s.axes, s.in_strides, s.out_strides),
                              random_tensor(type, s.sizes, ++seed, -5, 5));
            }
}

// Rows of 8 (chunked) and, as the first 5 of each, of 5 (single elements): -inf mixed in, all -inf (NaN out), a NaN,
// +inf (NaN out), huge values (exp overflows without subtracting the maximum), values near exp's range, subnormals,
// large negative values (exp underflows without subtracting the maximum), exponentials down to subnormals.
constexpr uint32_t kSpecialRows = 10;
std::vector<double> special_rows(uint32_t length) {
    const double inf = INFINITY, nan = NAN;
    const std::vector<std::vector<double>> rows = {
        {1, -inf, 2, 3, -inf, 0, -1, 0.5},
        {-inf, -inf, -inf, -inf, -inf, -inf, -inf, -inf},
        {1, 2, nan, 3, 4, 5, 6, 7},
        {1, inf, 2, -inf, 3, 0, 1, 2},
        {1e30, 3e38, -3e38, 1e30, -1e30, 0, 3e38, 1},
        {100, 90, 80, 88.5, -100, 95, 70, 99},
        {1.401298464324817e-45, 2.802596928649634e-45, -1e-45, 0, -0.0, 1e-40, 1e-38, 3e-39},
        {-3, -2.5, -2, -7, -20, -100, -40, -2},
        {-1000, -1001, -999.5, -1000.5, -1003, -998, -1000.25, -999},  // e^x underflows without the maximum
        {0, -80, -86, -87.5, -88, -90, -103, -104},  // exponentials near and below float32's smallest normal
    };
    std::vector<double> out;
    for (const auto& row : rows) out.insert(out.end(), row.begin(), row.begin() + length);
    return out;
}

TEST(SoftmaxGpu, InfinitiesNanAndHugeInputs) {
    SKIP_WITHOUT_GPU();
    for (const char* name : kAxesOps)
        for (DataType type : kTypes)
            for (uint32_t length : {8u, 5u}) {
                const Dims sizes = {kSpecialRows, length};
                expect_passes(builtin_op(name), tag(name, type, "special" + std::to_string(length)),
                              desc_json(type, sizes, std::vector<uint32_t>{1}),
                              make_tensor(type, sizes, special_rows(length)));
            }
}

// Hardmax: 1 at the FIRST largest element; NaN elements never win (all NaN: element 0); -0 ties +0; subnormals compare
// exactly (a device flushing them in float compares would tie 1e-45 and 2e-45). Pinned here as well as against the
// reference, on the chunked path (length 8), single elements (length 6) and the looped path (small groups).
TEST(SoftmaxGpu, HardmaxTiesAndNanRules) {
    SKIP_WITHOUT_GPU();
    const double nan = NAN, inf = INFINITY;
    struct Row {
        std::vector<double> x;
        uint32_t want32, want16;  // the winner's index in FLOAT32 and FLOAT16
    };
    const std::vector<Row> rows = {
        {{3, 5, 5, 1, 5, 0, 2, 5}, 1, 1},
        {{nan, 2, 7, nan, 7, 1, 0, 7}, 2, 2},
        {{nan, nan, nan, nan, nan, nan, nan, nan}, 0, 0},
        {{-0.0, 0.0, -1, -2, 0, -0.0, -3, -4}, 0, 0},
        // the two smallest float32 subnormals; FLOAT16: both round to +0, tying element 0
        {{1.401298464324817e-45, 2.802596928649634e-45, 0, -1, 0, 2.802596928649634e-45, -2, -3}, 1, 0},
        {{-inf, -inf, -inf, -inf, -inf, -inf, -inf, -inf}, 0, 0},
        {{-inf, nan, -inf, -5, -5, nan, -inf, -6}, 3, 3},
        {{6e-8, 1.2e-7, 0, 1.2e-7, 0, 0, 0, 0}, 1, 1},
    };
    const Op& op = builtin_op("ACTIVATION_HARDMAX1");
    const SoftmaxKernelOptions looped{.threads_per_group = 4, .max_chunks_per_thread = 1, .vectorize = false};
    const auto looped_op = OptionsOp(op, looped);
    for (DataType type : kTypes)
        for (uint32_t length : {8u, 6u}) {
            std::vector<double> values;
            for (const Row& r : rows) values.insert(values.end(), r.x.begin(), r.x.begin() + length);
            const Dims sizes = {uint32_t(rows.size()), length};
            const HostTensor input = make_tensor(type, sizes, values);
            const json desc = desc_json(type, sizes, std::vector<uint32_t>{1});
            expect_passes(op, tag("HARDMAX1", type, "ties" + std::to_string(length)), desc, input);
            expect_passes(looped_op, tag("HARDMAX1", type, "ties_looped" + std::to_string(length)), desc, input);
            auto parsed = dmltool::testing::parse_desc(op, desc.dump());
            ASSERT_TRUE(parsed.is_ok()) << parsed.status().message();
            const std::vector<const HostTensor*> inputs = {&input};
            auto got = testing::test_gpu_backend(nullptr)->execute(op, **parsed, inputs, nullptr);
            ASSERT_TRUE(got.is_ok()) << got.status().message();
            for (size_t r = 0; r < rows.size(); ++r) {
                const uint32_t want = type == DataType::kFloat32 ? rows[r].want32 : rows[r].want16;
                for (uint32_t j = 0; j < length; ++j)
                    EXPECT_EQ((*got)[0].get_as_double(r * length + j), j == want ? 1.0 : 0.0)
                        << data_type_name(type) << " row " << r << " element " << j;
            }
        }
    // A tie between two threads' chunks of a long lane (elements 300 and 700 of 1000): the first wins.
    for (DataType type : kTypes) {
        const Dims sizes = {2, 1000};
        std::vector<double> values(2000);
        for (size_t i = 0; i < values.size(); ++i) values[i] = double(i % 97) / 8;
        values[300] = values[700] = values[1700] = values[1300] = 100;
        expect_passes(op, tag("HARDMAX1", type, "tie_across_threads"), desc_json(type, sizes, std::vector<uint32_t>{1}),
                      make_tensor(type, sizes, values));
    }
}

// The kernel's other paths on the same problems: single-element chunks everywhere, small groups with one chunk per
// thread (the looped path at modest lengths), and tensors split over several 1 KiB views.
TEST(SoftmaxGpu, SingleElementLoopedAndMultiViewPaths) {
    SKIP_WITHOUT_GPU();
    const SoftmaxKernelOptions variants[] = {
        {.vectorize = false},
        {.threads_per_group = 8, .max_chunks_per_thread = 1},
        {.threads_per_group = 64, .max_chunks_per_thread = 2, .window_log2 = 10},
    };
    uint64_t seed = 900;
    for (const char* name : kAxesOps)
        for (size_t v = 0; v < std::size(variants); ++v) {
            const auto op = OptionsOp(builtin_op(name), variants[v]);
            for (DataType type : kTypes) {
                const std::string what = "variant" + std::to_string(v);
                const Dims last = {6, 200};
                expect_passes(op, tag(name, type, what + "_last"), desc_json(type, last, std::vector<uint32_t>{1}),
                              random_tensor(type, last, ++seed, -8, 8));
                const Dims multi = {4, 30, 5};
                expect_passes(op, tag(name, type, what + "_axes02"), desc_json(type, multi, std::vector<uint32_t>{0, 2}),
                              random_tensor(type, multi, ++seed, -8, 8));
                const Dims special = {kSpecialRows, 8};
                expect_passes(op, tag(name, type, what + "_special"), desc_json(type, special, std::vector<uint32_t>{1}),
                              make_tensor(type, special, special_rows(8)));
            }
        }
}

// Whether this device runs plans with the half conversion opcodes (the backend refuses them where the probe found
// f32tof16 inexact).
bool device_runs_native_half(std::string* why) {
    static const gpu::HalfOpcodeProbe probe = [] {
        auto result = gpu::probe_half_opcodes(testing::test_gpu_backend(nullptr)->context());
        return result.is_ok() ? *result : gpu::HalfOpcodeProbe{};
    }();
    *why = probe.summary();
    return probe.exact();
}

// FLOAT16 lanes offer the tuning variant "softmax/native_half" (FLOAT32 ones nothing); its plans need exact half
// opcodes, pass against the reference on every path, and give the heuristic plan's values (the tuner requires it).
TEST(SoftmaxGpu, NativeHalfVariant) {
    SKIP_WITHOUT_GPU();
    for (const char* name : kAxesOps) {
        const Op& op = builtin_op(name);
        auto f32 = dmltool::testing::parse_desc(op, desc_json(DataType::kFloat32, {4, 256}, std::vector<uint32_t>{1}).dump());
        ASSERT_TRUE(f32.is_ok());
        EXPECT_TRUE(op.device_plan_variants(**f32, {}).empty()) << name;
        const Dims shapes[] = {{4, 256}, {3, 37}, {2, 5000}, {3, 40}};
        uint64_t seed = 1200;
        for (const Dims& sizes : shapes) {
            const json desc = desc_json(DataType::kFloat16, sizes, std::vector<uint32_t>{1});
            auto parsed = dmltool::testing::parse_desc(op, desc.dump());
            ASSERT_TRUE(parsed.is_ok());
            ASSERT_EQ(op.device_plan_variants(**parsed, {}), std::vector<std::string>{"softmax/native_half"}) << name;
            auto plan = op.plan_device_variant(**parsed, {}, "softmax/native_half");
            ASSERT_TRUE(plan.is_ok()) << plan.status().message();
            EXPECT_TRUE(plan->requires_capability(DeviceCapability::kExactHalfOpcodes));
            std::string why;
            if (!device_runs_native_half(&why)) continue;
            const HostTensor input = sizes[1] == 40 ? make_tensor(DataType::kFloat16, sizes, [] {
                std::vector<double> v = special_rows(8);
                v.resize(3 * 40, 1.5);
                return v;
            }()) : random_tensor(DataType::kFloat16, sizes, ++seed, -8, 8);
            const auto native = OptionsOp(op, {.native_half = true});
            expect_passes(native, tag(name, DataType::kFloat16, "native_half_" + std::to_string(sizes[1])), desc, input);
            const std::vector<const HostTensor*> inputs = {&input};
            auto heuristic = testing::test_gpu_backend(nullptr)->execute(op, **parsed, inputs, nullptr);
            auto variant = testing::test_gpu_backend(nullptr)->execute(native, **parsed, inputs, nullptr);
            ASSERT_TRUE(heuristic.is_ok() && variant.is_ok());
            for (uint64_t i = 0; i < input.element_count(); ++i) {
                const double a = (*heuristic)[0].get_as_double(i), b = (*variant)[0].get_as_double(i);
                if (std::isnan(a) && std::isnan(b)) continue;
                ASSERT_EQ(a, b) << name << " " << sizes[1] << " element " << i;
            }
        }
    }
    std::string why;
    if (!device_runs_native_half(&why)) GTEST_SKIP() << "plans checked; not run: " << why;
}

// More than 65535 groups wrap into a 2-D dispatch grid: one lane per group of 4 threads, on the looped path and on
// the exact-fit register path (whose past-the-end lanes read the last lane), 65537 lanes.
TEST(SoftmaxGpu, DispatchGridOfTwoDimensions) {
    SKIP_WITHOUT_GPU();
    const SoftmaxKernelOptions variants[] = {
        {.threads_per_group = 4, .max_chunks_per_thread = 1, .vectorize = false},
        {.threads_per_group = 4, .max_chunks_per_thread = 2, .vectorize = false},
    };
    const Dims sizes = {65537, 8};
    const HostTensor input = random_tensor(DataType::kFloat32, sizes, 1500, -8, 8);
    for (size_t v = 0; v < std::size(variants); ++v) {
        const auto op = OptionsOp(builtin_op("ACTIVATION_SOFTMAX1"), variants[v]);
        const json desc = desc_json(DataType::kFloat32, sizes, std::vector<uint32_t>{1});
        auto parsed = dmltool::testing::parse_desc(op, desc.dump());
        ASSERT_TRUE(parsed.is_ok());
        auto plan = op.plan_device(**parsed, {});
        ASSERT_TRUE(plan.is_ok()) << plan.status().message();
        EXPECT_GT(plan->dispatches[0].group_count[1], 1u) << "variant " << v;
        expect_passes(op, "grid2d_variant" + std::to_string(v), desc, input);
    }
}

SoftmaxProblem problem(SoftmaxKind kind, DataType type, const Dims& sizes, std::vector<bool> reduced) {
    SoftmaxProblem p;
    p.kind = kind;
    p.sizes = sizes;
    p.reduced = std::move(reduced);
    const Dims strides = packed_strides(sizes);
    uint64_t bytes = element_size(type);
    for (uint32_t s : sizes) bytes *= s;
    p.input = {type, strides, bytes, 0};
    p.output = {type, strides, bytes, 0};
    return p;
}

// The perf case (16x64x256x256 over the last axis) takes the register path with 16-byte chunks in groups of 64
// threads; lanes of up to 4096 FLOAT32 elements keep the register path in larger groups; longer lanes loop;
// non-last axes split into outer and lane dimensions, merged where contiguous.
TEST(SoftmaxGpu, PathsTaken) {
    const Dims perf = {16, 64, 256, 256};
    auto p32 = softmax_path(problem(SoftmaxKind::kSoftmax, DataType::kFloat32, perf, {false, false, false, true}));
    ASSERT_TRUE(p32.is_ok()) << p32.status().message();
    EXPECT_EQ(p32->chunk_elements, 4u);
    EXPECT_EQ(p32->threads_per_lane, 16u);
    EXPECT_EQ(p32->chunks_per_thread, 4u);
    EXPECT_FALSE(p32->looped);
    EXPECT_EQ(p32->threads_per_group, 64u);  // 4 lanes a group: the H200's fastest (SoftmaxKernelOptions)
    EXPECT_EQ(p32->outer_rank, 1u);
    // Lanes that need more threads than 64 take as many (up to 256) and keep the register path.
    for (uint32_t length : {2048u, 4096u}) {
        auto wide = softmax_path(problem(SoftmaxKind::kSoftmax, DataType::kFloat32, {8, length}, {false, true}));
        ASSERT_TRUE(wide.is_ok());
        EXPECT_FALSE(wide->looped) << length;
        EXPECT_EQ(wide->threads_per_group, length / 16) << length;
    }
    auto p16 = softmax_path(problem(SoftmaxKind::kSoftmax, DataType::kFloat16, perf, {false, false, false, true}));
    ASSERT_TRUE(p16.is_ok());
    EXPECT_EQ(p16->chunk_elements, 8u);
    EXPECT_EQ(p16->threads_per_lane, 8u);
    EXPECT_FALSE(p16->looped);
    auto longer = softmax_path(problem(SoftmaxKind::kHardmax, DataType::kFloat32, {2, 100003}, {false, true}));
    ASSERT_TRUE(longer.is_ok());
    EXPECT_TRUE(longer->looped);
    EXPECT_EQ(longer->chunk_elements, 1u);
    auto axes = softmax_path(problem(SoftmaxKind::kSoftmax, DataType::kFloat32, {2, 3, 4, 8}, {false, false, true, true}));
    ASSERT_TRUE(axes.is_ok());
    EXPECT_EQ(axes->lane_rank, 1u);
    EXPECT_EQ(axes->chunk_elements, 4u);
    auto middle = softmax_path(problem(SoftmaxKind::kSoftmax, DataType::kFloat32, {2, 3, 4}, {false, true, false}));
    ASSERT_TRUE(middle.is_ok());
    EXPECT_EQ(middle->lane_rank, 1u);
    EXPECT_EQ(middle->outer_rank, 2u);
    EXPECT_EQ(middle->chunk_elements, 1u);
    auto int8 = problem(SoftmaxKind::kSoftmax, DataType::kInt8, {4}, {true});
    EXPECT_EQ(softmax_path(int8).status().code(), ErrorCode::kUnsupported);
}

// Every kernel variant the tests above build is accepted by vkd3d's translator and spirv-val. Needs no GPU.
TEST(SoftmaxGpu, KernelsPassVkd3dAndSpirvVal) {
    std::set<const std::vector<uint8_t>*> seen;
    const SoftmaxKernelOptions variants[] = {{}, {.vectorize = false}, {.threads_per_group = 8, .max_chunks_per_thread = 1},
                                             {.threads_per_group = 64, .max_chunks_per_thread = 2, .window_log2 = 10},
                                             {.native_half = true}, {.vectorize = false, .native_half = true}};
    for (SoftmaxKind kind : {SoftmaxKind::kSoftmax, SoftmaxKind::kLogSoftmax, SoftmaxKind::kHardmax})
        for (DataType type : kTypes)
            for (const SoftmaxKernelOptions& options : variants)
                for (const auto& [sizes, reduced] : std::vector<std::pair<Dims, std::vector<bool>>>{
                         {{5, 1}, {false, true}}, {{5, 7}, {false, true}}, {{5, 256}, {false, true}},
                         {{2, 100003}, {false, true}}, {{2, 3, 4, 5}, {true, false, true, false}}}) {
                    auto plan = plan_softmax_problem(problem(kind, type, sizes, reduced), options);
                    ASSERT_TRUE(plan.is_ok()) << plan.status().message();
                    for (const KernelDispatch& d : plan->dispatches) {
                        if (!seen.insert(d.dxbc.get()).second) continue;
                        const auto v = shaders::testing::validate_with_vkd3d(*d.dxbc, d.label);
                        if (!v.tools_found) GTEST_SKIP() << v.log;
                        EXPECT_TRUE(v.ok) << d.label << "\n" << v.log;
                    }
                }
}

}  // namespace
}  // namespace dmltool::ops::element_wise
