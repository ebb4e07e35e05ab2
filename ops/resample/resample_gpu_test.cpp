// RESAMPLE on the GPU backend (lavapipe in CI) against the CPU reference: both modes, every data type of the
// feature-level table, ranks 1-4, random scales and output sizes (crop / clamp), packed / padded / permuted /
// broadcast inputs and padded / permuted outputs, all three nearest rules; which path a layout takes; the
// linear blend's accuracy over many random outputs (max ULP error per data type, printed); and every kernel
// variant of a covering set through vkd3d-compiler + spirv-val.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "core/compare.h"
#include "core/thread_pool.h"
#include "ops/resample/desc.h"
#include "ops/resample/gpu_test_values.h"
#include "ops/resample/kernel.h"
#include "ops/resample/kernel_internal.h"
#include "ops/split/layout_test_support.h"
#include "shaders/testing/validate_blob.h"
#include "tests/testing/gpu_testing.h"
#include "tests/testing/op_testing.h"

namespace dmltool::ops::resample {
namespace {

using dmltool::testing::DifferentialCase;
using dmltool::testing::run_differential;
using nlohmann::json;
using testing::tensor_json;

const Op& resample_op() { return dmltool::testing::builtin_op("RESAMPLE"); }

enum class Layout { kPacked, kPadded, kPermuted, kBroadcast, kOversized };

std::optional<Dims> make_strides(const Dims& sizes, Layout layout, std::mt19937& rng) {
    const size_t rank = sizes.size();
    Dims strides(rank, 1);
    switch (layout) {
        case Layout::kPacked:
        case Layout::kOversized:
            return std::nullopt;
        case Layout::kPadded: {
            uint32_t next = 1;
            for (size_t d = rank; d-- > 0;) {
                strides[d] = next;
                next = next * sizes[d] + (rng() % 4);
            }
            return strides;
        }
        case Layout::kPermuted: {
            std::vector<size_t> order(rank);
            for (size_t d = 0; d < rank; ++d) order[d] = d;
            std::shuffle(order.begin(), order.end(), rng);
            uint32_t next = 1;
            for (size_t i = rank; i-- > 0;) {
                strides[order[i]] = next;
                next *= sizes[order[i]];
            }
            return strides;
        }
        case Layout::kBroadcast: {
            strides = packed_strides(sizes);
            bool any = false;
            for (size_t d = 0; d < rank; ++d)
                if (sizes[d] > 1 && (rng() % 2 == 0 || (!any && d + 1 == rank))) {
                    strides[d] = 0;
                    any = true;
                }
            return strides;
        }
    }
    return std::nullopt;
}

TensorDesc make_desc(DataType type, const Dims& sizes, Layout layout, TensorRole role, std::mt19937& rng) {
    TensorDesc desc;
    desc.data_type = type;
    desc.sizes = sizes;
    desc.strides = make_strides(sizes, layout, rng);
    const uint64_t needed = *calc_buffer_tensor_size(type, sizes, desc.strides);
    const bool explicit_total = layout != Layout::kPacked;
    desc.total_size_in_bytes = needed + (layout == Layout::kOversized ? 4 + rng() % 40 : 0);
    const Status valid = validate_tensor_desc(desc, role, explicit_total);
    EXPECT_TRUE(valid.is_ok()) << valid.message();
    return desc;
}

// Random logical input in `desc`'s layout; aliased (broadcast) elements are made equal, as the device sees them.
HostTensor random_input(const TensorDesc& desc, uint64_t seed) {
    double lo, hi;
    value_range(desc.data_type, lo, hi);
    const HostTensor values = dmltool::testing::random_tensor(desc.data_type, desc.sizes, seed, lo, hi);
    HostTensor tensor(desc);
    std::copy(values.bytes().begin(), values.bytes().end(), tensor.bytes().begin());
    return from_physical(desc, to_physical(tensor));
}

struct Case {
    TensorDesc input;
    TensorDesc output;
    InterpolationMode mode = InterpolationMode::kLinear;
    std::vector<float> scales;
    NearestRule rule = NearestRule::kLiteral;
};

std::string desc_json(const Case& c) {
    json j = {{"InputTensor", tensor_json(c.input)},
              {"OutputTensor", tensor_json(c.output)},
              {"InterpolationMode", c.mode == InterpolationMode::kLinear ? "LINEAR" : "NEAREST_NEIGHBOR"},
              {"Scales", c.scales}};
    return j.dump();
}

DifferentialCase to_differential(const Case& c, const std::string& name, uint64_t seed) {
    DifferentialCase d;
    d.name = name;
    d.op_type = "DML_OPERATOR_RESAMPLE";
    d.desc_json = desc_json(c);
    d.inputs.push_back(random_input(c.input, seed));
    d.seed = seed;
    d.semantics.resample_nearest_rule = c.rule;
    return d;
}

// Random sizes / scales for `rank` dimensions, about `max_outputs` outputs at most.
Case random_case(DataType type, InterpolationMode mode, uint32_t rank, Layout in_layout, Layout out_layout,
                 std::mt19937& rng, uint32_t max_outputs = 1500) {
    static const float kScales[] = {1.0f, 2.0f, 0.5f, 3.0f, 1.5f, 0.75f, 2.5f, 0.4f, 1.7f, 0.37f, 4.0f, 1.3f};
    Case c;
    c.mode = mode;
    Dims in(rank), out(rank);
    for (;;) {
        c.scales.clear();
        uint64_t count = 1;
        for (uint32_t d = 0; d < rank; ++d) {
            const float s = kScales[rng() % std::size(kScales)];
            in[d] = 1 + rng() % 9;
            const uint32_t nominal = std::max<uint32_t>(1, uint32_t(std::floor(in[d] * s)));
            const uint32_t r = rng() % 8;  // mostly the nominal size, sometimes cropped or extended
            out[d] = r == 0 ? nominal + 1 + rng() % 3 : r == 1 && nominal > 1 ? nominal - 1 : nominal;
            c.scales.push_back(s);
            count *= out[d];
        }
        if (count <= max_outputs) break;
    }
    c.input = make_desc(type, in, in_layout, TensorRole::kInput, rng);
    c.output = make_desc(type, out, out_layout == Layout::kBroadcast ? Layout::kPadded : out_layout,
                         TensorRole::kOutput, rng);
    return c;
}

constexpr DataType kTypes[] = {DataType::kFloat32, DataType::kFloat16, DataType::kInt8, DataType::kUint8};
constexpr Layout kLayouts[] = {Layout::kPacked, Layout::kPadded, Layout::kPermuted, Layout::kBroadcast,
                               Layout::kOversized};

TEST(ResampleGpu, RandomCasesEveryTypeRankAndLayout) {
    SKIP_WITHOUT_GPU();
    uint64_t seed = 1000;
    for (InterpolationMode mode : {InterpolationMode::kNearestNeighbor, InterpolationMode::kLinear})
        for (DataType type : kTypes)
            for (uint32_t rank = 1; rank <= 4; ++rank)
                for (Layout in_layout : kLayouts) {
                    ++seed;
                    std::mt19937 rng{uint32_t(seed)};
                    const Layout out_layout = kLayouts[rng() % std::size(kLayouts)];
                    const Case c = random_case(type, mode, rank, in_layout, out_layout, rng);
                    const std::string name = std::string("resample_") +
                                             (mode == InterpolationMode::kLinear ? "linear_" : "nearest_") +
                                             std::string(data_type_name(type)) + "_r" + std::to_string(rank) +
                                             "_l" + std::to_string(int(in_layout)) + "_" + std::to_string(seed);
                    const auto result = run_differential(resample_op(), to_differential(c, name, seed));
                    EXPECT_TRUE(result.passed) << result.message;
                }
}

// run_differential's backend always runs with the default semantics (only its reference takes
// DifferentialCase::semantics), so each rule gets a backend of its own here.
// All four are created together, as the static's initializer: destroyed before the exit handlers the Vulkan
// driver registered meanwhile (tests/testing/gpu_testing.cpp: test_gpu_backend says why that order matters).
gpu::GpuBackend* backend_with_rule(NearestRule rule) {
    static std::map<NearestRule, std::string> failures;
    static const std::map<NearestRule, std::unique_ptr<gpu::GpuBackend>> backends = [] {
        std::map<NearestRule, std::unique_ptr<gpu::GpuBackend>> created;
        for (NearestRule r : {NearestRule::kLiteral, NearestRule::kHalfUp, NearestRule::kHalfDown, NearestRule::kFloor}) {
            auto backend = gpu::GpuBackend::create({}, SemanticsOptions{.resample_nearest_rule = r});
            if (backend.is_ok()) created.emplace(r, std::move(backend).value());
            else failures.emplace(r, backend.status().message());
        }
        return created;
    }();
    const auto it = backends.find(rule);
    EXPECT_TRUE(it != backends.end()) << failures[rule];
    return it != backends.end() ? it->second.get() : nullptr;
}

TEST(ResampleGpu, NearestRules) {
    SKIP_WITHOUT_GPU();
    const Op& op = resample_op();
    uint64_t seed = 5000;
    for (NearestRule rule : {NearestRule::kLiteral, NearestRule::kHalfUp, NearestRule::kHalfDown, NearestRule::kFloor}) {
        gpu::GpuBackend* backend = backend_with_rule(rule);
        ASSERT_NE(backend, nullptr);
        for (DataType type : kTypes)
            for (int repeat = 0; repeat < 3; ++repeat) {
                ++seed;
                std::mt19937 rng{uint32_t(seed)};
                Case c = random_case(type, InterpolationMode::kNearestNeighbor, 1 + repeat + rng() % 2,
                                     Layout::kPacked, kLayouts[rng() % std::size(kLayouts)], rng);
                c.rule = rule;
                const DifferentialCase d = to_differential(
                    c, "resample_rule_" + std::string(nearest_rule_name(rule)) + "_" + std::to_string(seed), seed);
                auto desc = dmltool::testing::parse_desc(op, d.desc_json);
                ASSERT_TRUE(desc.is_ok()) << desc.status().message();
                auto reference = dmltool::testing::run_reference(op, **desc, {&d.inputs[0]}, d.semantics);
                ASSERT_TRUE(reference.is_ok()) << reference.status().message();
                auto got = backend->execute(op, **desc, {&d.inputs[0]}, nullptr);
                ASSERT_TRUE(got.is_ok()) << got.status().message();
                const CompareResult compared =
                    compare_tensors((*reference)[0], (*got)[0], op.default_tolerance(**desc, 0));
                // As in run_differential: a constant expectation is the random case's weakness, not the kernel's.
                const bool passed = compared.verdict == Verdict::kPassed ||
                                    (compared.verdict == Verdict::kMistrusted &&
                                     compared.reason.rfind("expected output is constant", 0) == 0);
                EXPECT_TRUE(passed)
                    << d.name << " (seed " << seed << ", " << d.desc_json << "): " << compared.reason
                    << (compared.mismatches.empty() ? "" : "\n  " + format_mismatch(compared.mismatches[0]));
            }
    }
}

// One case on the GPU backend of its nearest rule, planned by `planner` (the op's own planner when
// empty), against the reference's bytes; returns the first dispatch's label for the path checks.
using GpuPlanner = std::function<Result<DevicePlan>(const ResampleDesc&, NearestRule)>;
std::string check_on_gpu(const Case& c, const std::string& name, uint64_t seed, const GpuPlanner& planner = {}) {
    const Op& op = resample_op();
    gpu::GpuBackend* backend = backend_with_rule(c.rule);
    if (backend == nullptr) return "";
    const DifferentialCase d = to_differential(c, name, seed);
    auto desc = dmltool::testing::parse_desc(op, d.desc_json);
    EXPECT_TRUE(desc.is_ok()) << desc.status().message();
    if (!desc.is_ok()) return "";
    const auto& resample = static_cast<const ResampleDesc&>(**desc);
    const dmltool::testing::layouts::ReplannedOp replanned(
        op, [&](const OpDesc&) { return planner ? planner(resample, c.rule)
                                                : op.plan_device(resample, SemanticsOptions{.resample_nearest_rule = c.rule}); });
    auto plan = replanned.plan_device(resample, {});
    EXPECT_TRUE(plan.is_ok()) << name << ": " << plan.status().message();
    if (!plan.is_ok()) return "";
    const std::string label = plan->dispatches[0].label;
    auto reference = dmltool::testing::run_reference(op, resample, {&d.inputs[0]}, d.semantics);
    EXPECT_TRUE(reference.is_ok()) << reference.status().message();
    auto got = backend->execute(replanned, resample, {&d.inputs[0]}, nullptr);
    EXPECT_TRUE(got.is_ok()) << name << ": " << got.status().message();
    if (!reference.is_ok() || !got.is_ok()) return label;
    const CompareResult compared = compare_tensors((*reference)[0], (*got)[0], op.default_tolerance(resample, 0));
    EXPECT_EQ(compared.verdict, Verdict::kPassed)
        << name << " (" << label << "): " << compared.reason
        << (compared.mismatches.empty() ? "" : "\n  " + format_mismatch(compared.mismatches[0]));
    return label;
}

constexpr NearestRule kRules[] = {NearestRule::kLiteral, NearestRule::kHalfUp, NearestRule::kHalfDown, NearestRule::kFloor};

// Nearest upsampling of H and W by an integer factor on rows of whole 16-byte vectors takes the vector interleave
// (its piece gather at factors 2 and 4, one load and factor^2 stores per vector otherwise) when the rule's table is
// o / B, which the host proves before taking it: every nearest rule, factors 2 to 4, packed and 16-byte-aligned
// padded rows, 8/16/32-bit types. Where both kernel shapes apply, both tuning variants run too.
TEST(ResampleGpu, NearestUpsampleVectorPath) {
    SKIP_WITHOUT_GPU();
    const Op& op = resample_op();
    uint64_t seed = 7500;
    for (NearestRule rule : kRules) {
        gpu::GpuBackend* backend = backend_with_rule(rule);
        ASSERT_NE(backend, nullptr);
        for (DataType type : kTypes)
            for (uint32_t factor : {2u, 3u, 4u}) {
                ++seed;
                const uint32_t pad = factor == 3 ? uint32_t(16 / element_size(type)) : 0;  // one vector per row
                const Dims in = {2, 3, 5, 16}, out = {2, 3, 5 * factor, 16 * factor};
                auto strides = [&](const Dims& s) {
                    const uint32_t row = s[3] + pad;
                    return Dims{s[1] * s[2] * row, s[2] * row, row, 1};
                };
                auto described = [&](const Dims& sizes, TensorRole role) {
                    TensorDesc desc;
                    desc.data_type = type;
                    desc.sizes = sizes;
                    desc.strides = strides(sizes);
                    desc.total_size_in_bytes = *calc_buffer_tensor_size(type, sizes, desc.strides);
                    EXPECT_TRUE(validate_tensor_desc(desc, role, true).is_ok());
                    return desc;
                };
                Case c;
                c.mode = InterpolationMode::kNearestNeighbor;
                c.scales = {1, 1, float(factor), float(factor)};
                c.rule = rule;
                c.input = described(in, TensorRole::kInput);
                c.output = described(out, TensorRole::kOutput);
                const std::string name =
                    "resample_upsample_" + std::string(nearest_rule_name(rule)) + "_" + std::to_string(seed);
                const std::string label = check_on_gpu(c, name, seed);
                // The literal rule reads o / B only for B = 2 ((o + 1) / 3 - 0.5 floors to 0 at o = 3), the floor
                // rule never (o = B: floor(1 + 0.5 / B - 0.5) = 0): the other factors must be refused by the host's
                // proof and still come out right on the general path.
                const bool vector_path =
                    rule != NearestRule::kFloor && (rule != NearestRule::kLiteral || factor == 2);
                // Factors 2 and 4 (elements of at most 16 / B bytes): the interleave's piece gather (coalesced stores).
                const bool pieces = (factor == 2 || factor == 4) && element_size(type) <= 16 / factor;
                const std::string kernel = pieces ? "piece_gather b" : "vector_interleave b";
                EXPECT_EQ(label.find(kernel + std::to_string(factor)) != std::string::npos, vector_path)
                    << name << ": " << label;
                // The tuning variants (both kernel shapes) where both apply, each against the reference.
                auto desc = dmltool::testing::parse_desc(op, desc_json(c));
                ASSERT_TRUE(desc.is_ok()) << desc.status().message();
                const auto variants = op.device_plan_variants(**desc, SemanticsOptions{.resample_nearest_rule = rule});
                const std::vector<std::string> expected = vector_path && pieces
                                                              ? std::vector<std::string>{"upsample/vectors", "upsample/pieces"}
                                                              : std::vector<std::string>{};
                EXPECT_EQ(variants, expected) << name;
                for (const std::string& variant : variants) {
                    const std::string variant_label =
                        check_on_gpu(c, name + "/" + variant, seed, [&](const ResampleDesc& r, NearestRule n) {
                            return op.plan_device_variant(r, SemanticsOptions{.resample_nearest_rule = n}, variant);
                        });
                    EXPECT_NE(variant_label.find(variant == "upsample/pieces" ? "piece_gather" : "vector_interleave"),
                              std::string::npos)
                        << name << " " << variant << ": " << variant_label;
                }
                EXPECT_FALSE(op.plan_device_variant(**desc, {}, "upsample/none").is_ok());
            }
    }
}

// Nearest downsampling by an integer factor: every rule's table is affine (index = first + step * o) for factor 2,
// which the host proves before taking the strided-copy path; factors 3 and 4 take it only where their tables are
// affine too. Every type, packed, padded and permuted layouts, odd widths (no 16-byte rows), ranks 2 and 4;
// the GPU must give the reference's bytes.
TEST(ResampleGpu, NearestDownsampleStridedCopyPath) {
    SKIP_WITHOUT_GPU();
    uint64_t seed = 8500;
    for (NearestRule rule : kRules)
        for (DataType type : kTypes)
            for (uint32_t factor : {2u, 3u, 4u})
                for (Layout layout : {Layout::kPacked, Layout::kPadded, Layout::kPermuted}) {
                    ++seed;
                    std::mt19937 rng{uint32_t(seed)};
                    const bool rank4 = seed % 2 == 0;
                    const uint32_t oh = 1 + rng() % 5, ow = 1 + rng() % 13;
                    const Dims out = rank4 ? Dims{2, 3, oh, ow} : Dims{oh, ow};
                    Dims in = out;
                    in[in.size() - 2] = oh * factor + rng() % factor;  // a remainder row/column is never read
                    in[in.size() - 1] = ow * factor + rng() % factor;
                    Case c;
                    c.mode = InterpolationMode::kNearestNeighbor;
                    c.scales = rank4 ? std::vector<float>{1, 1, 1.0f / float(factor), 1.0f / float(factor)}
                                     : std::vector<float>{1.0f / float(factor), 1.0f / float(factor)};
                    c.rule = rule;
                    c.input = make_desc(type, in, layout, TensorRole::kInput, rng);
                    c.output = make_desc(type, out, layout, TensorRole::kOutput, rng);
                    const std::string label = check_on_gpu(
                        c, "resample_downsample_" + std::string(nearest_rule_name(rule)) + "_" + std::to_string(seed), seed);
                    if (factor == 2 && oh > 1 && ow > 1) {
                        EXPECT_NE(label.find("nearest_strided"), std::string::npos) << seed << ": " << label;
                    }
                }
}

// The strided copy's decimated-row loads (shaders/strided_copy.h): output rows of whole 16-byte chunks, inputs whose
// row strides are 16-byte multiples (or not: then the per-element gather), every rule (the first column read is 0
// or 1: phases 0 and one element), factors 2 to 4, every type, packed and padded layouts, one view and 1 KiB
// views (tensors of a few KiB span several). The label must name the path where the layout allows it.
TEST(ResampleGpu, NearestDownsampleDecimatedRows) {
    SKIP_WITHOUT_GPU();
    uint64_t seed = 8700;
    size_t decimated = 0;
    for (NearestRule rule : kRules)
        for (DataType type : kTypes)
            for (uint32_t factor : {2u, 3u, 4u})
                for (Layout layout : {Layout::kPacked, Layout::kPadded})
                    for (uint32_t window_log2 : {shaders::kMaxViewBytesLog2, 10u}) {
                        ++seed;
                        std::mt19937 rng{uint32_t(seed)};
                        const uint32_t esize = uint32_t(element_size(type));
                        // Small windows: at most 8 KiB of input, 8 views (a real tensor has at most 8).
                        const bool windowed = window_log2 < shaders::kMaxViewBytesLog2;
                        const uint32_t oh = 1 + uint32_t(rng() % (windowed ? 2 : 4));
                        const uint32_t ow = 16 * (1 + uint32_t(rng() % (windowed ? 1 : 2)));
                        const bool remainder = rng() % 3 == 0;  // an unread last column: rows lose 16-byte alignment
                        const Dims out = {windowed ? 1u : 2u, windowed ? 2u : 3u, oh, ow};
                        const Dims in = {2, 3, oh * factor + uint32_t(rng() % factor), ow * factor + (remainder ? 1u : 0u)};
                        Case c;
                        c.mode = InterpolationMode::kNearestNeighbor;
                        c.scales = {1, 1, 1.0f / float(factor), 1.0f / float(factor)};
                        c.rule = rule;
                        c.input = make_desc(type, in, layout, TensorRole::kInput, rng);
                        c.output = make_desc(type, out, Layout::kPacked, TensorRole::kOutput, rng);
                        const Dims strides = c.input.effective_strides();
                        bool aligned = strides[3] == 1;
                        // The copy's strides: rows step `factor` input rows; size-1 output dimensions drop out.
                        for (size_t d = 0; d < 3; ++d)
                            aligned = aligned && (out[d] == 1 || (d == 2 ? factor : 1) * strides[d] * esize % 16 == 0);
                        const std::string name = "resample_decimated_" + std::string(nearest_rule_name(rule)) + "_" +
                                                 std::string(data_type_name(type)) + "_x" + std::to_string(factor) +
                                                 "_w" + std::to_string(window_log2) + "_" + std::to_string(seed);
                        const std::string label = check_on_gpu(
                            c, name, seed, [&](const ResampleDesc& desc, NearestRule r) -> Result<DevicePlan> {
                                DMLTOOL_ASSIGN_OR_RETURN(std::optional<DevicePlan> plan,
                                                         plan_nearest_strided(desc, {.resample_nearest_rule = r}, window_log2));
                                if (!plan) return invalid_input("no strided-copy plan");
                                return std::move(*plan);
                            });
                        const bool has_path = label.find(" dec" + std::to_string(factor) + "p") != std::string::npos;
                        // Affine tables always hold for factor 2; 3 and 4 depend on the rule and size.
                        if (factor == 2 || has_path) {
                            EXPECT_EQ(has_path, aligned) << name << ": " << label;
                        }
                        decimated += has_path;
                    }
    EXPECT_GE(decimated, 40u);  // the path is taken, not only allowed
}

TEST(ResampleGpu, NchwFastPathAndOddWidths) {
    SKIP_WITHOUT_GPU();
    struct Shape {
        Dims in, out;
        std::vector<float> scales;
    };
    const Shape shapes[] = {
        {{2, 3, 9, 16}, {2, 3, 18, 32}, {1, 1, 2, 2}},
        {{1, 4, 7, 5}, {1, 4, 17, 13}, {1, 1, 2.5f, 2.5f}},
        {{1, 2, 13, 11}, {1, 2, 5, 3}, {1, 1, 0.4f, 0.3f}},
        {{3, 2, 6, 6}, {3, 2, 9, 9}, {1, 1, 1.5f, 1.5f}},
    };
    uint64_t seed = 7000;
    for (InterpolationMode mode : {InterpolationMode::kNearestNeighbor, InterpolationMode::kLinear})
        for (DataType type : kTypes)
            for (const Shape& shape : shapes) {
                ++seed;
                std::mt19937 rng{uint32_t(seed)};
                Case c;
                c.mode = mode;
                c.scales = shape.scales;
                c.input = make_desc(type, shape.in, Layout::kPacked, TensorRole::kInput, rng);
                c.output = make_desc(type, shape.out, Layout::kPacked, TensorRole::kOutput, rng);
                const std::string name = "resample_nchw_" + std::string(data_type_name(type)) + "_" +
                                         std::to_string(seed);
                const auto result = run_differential(resample_op(), to_differential(c, name, seed));
                EXPECT_TRUE(result.passed) << result.message;
            }
}

ResampleDesc parse_case(const Case& c) {
    auto parsed = dmltool::testing::parse_desc(resample_op(), desc_json(c));
    EXPECT_TRUE(parsed.is_ok()) << parsed.status().message();
    return static_cast<const ResampleDesc&>(**parsed);
}

TEST(ResampleGpu, PathSelection) {
    std::mt19937 rng(1);
    auto config_of = [&](DataType type, Dims in, Dims out, std::vector<float> scales, Layout out_layout,
                         InterpolationMode mode = InterpolationMode::kLinear) {
        Case c;
        c.mode = mode;
        c.scales = std::move(scales);
        c.input = make_desc(type, in, Layout::kPacked, TensorRole::kInput, rng);
        c.output = make_desc(type, out, out_layout, TensorRole::kOutput, rng);
        auto config = resample_kernel_config(parse_case(c), {});
        EXPECT_TRUE(config.is_ok()) << config.status().message();
        return *config;
    };
    // Packed NCHW upsampling of H and W: N and C merge, 4 corners, 16 bytes per thread.
    KernelConfig k = config_of(DataType::kFloat16, {2, 3, 8, 8}, {2, 3, 16, 16}, {1, 1, 2, 2}, Layout::kPacked);
    EXPECT_EQ(k.rank, 3u);
    EXPECT_EQ(k.kinds[0], DimKind::kIdentity);
    EXPECT_EQ(k.kinds[1], DimKind::kBlend);
    EXPECT_EQ(k.kinds[2], DimKind::kBlend);
    EXPECT_EQ(k.path, StorePath::kRows);
    EXPECT_EQ(k.group, 8u);
    k = config_of(DataType::kFloat32, {1, 1, 5, 5}, {1, 1, 10, 10}, {1, 1, 2, 2}, Layout::kPacked,
                  InterpolationMode::kNearestNeighbor);
    EXPECT_EQ(k.rank, 2u);  // size-1 N and C fold away
    EXPECT_EQ(k.kinds[0], DimKind::kGather);
    EXPECT_EQ(k.path, StorePath::kRows);
    EXPECT_EQ(k.group, 1u);  // 40-byte rows: 4-byte aligned only
    // Odd FLOAT16 rows: words straddle rows, so each thread owns one word of the flat output.
    k = config_of(DataType::kFloat16, {1, 2, 3, 3}, {1, 2, 6, 7}, {1, 1, 2, 2.5f}, Layout::kPacked);
    EXPECT_EQ(k.path, StorePath::kFlatWords);
    // Permuted output: one element per thread with atomic sub-word stores.
    k = config_of(DataType::kInt8, {2, 3, 3}, {2, 6, 7}, {1, 2, 2.5f}, Layout::kPermuted);
    EXPECT_EQ(k.path, StorePath::kElements);
    // Linear with scale 1 and a crop is a gather of column o (weights exactly 1 and 0): no blend.
    k = config_of(DataType::kFloat32, {4, 9}, {8, 5}, {2, 1}, Layout::kPacked);
    EXPECT_EQ(k.kinds[0], DimKind::kBlend);
    EXPECT_EQ(k.kinds[1], DimKind::kIdentity);
}

// The row-window variant (one aligned run of input words per input row and chunk, elements picked by the
// chunk table's selectors): which shapes take it, and how many words a window holds.
TEST(ResampleGpu, WindowPathSelection) {
    std::mt19937 rng(2);
    auto config_of = [&](DataType type, Dims in, Dims out, std::vector<float> scales, InterpolationMode mode,
                         Layout in_layout = Layout::kPacked) {
        Case c;
        c.mode = mode;
        c.scales = std::move(scales);
        c.input = make_desc(type, in, in_layout, TensorRole::kInput, rng);
        c.output = make_desc(type, out, Layout::kPacked, TensorRole::kOutput, rng);
        auto config = resample_kernel_config(parse_case(c), {});
        EXPECT_TRUE(config.is_ok()) << config.status().message();
        return *config;
    };
    const auto nearest = InterpolationMode::kNearestNeighbor;
    const auto linear = InterpolationMode::kLinear;
    // 2x nearest: 16 output bytes read 8 contiguous, aligned input bytes.
    for (DataType type : kTypes) {
        KernelConfig k = config_of(type, {2, 4, 16, 32}, {2, 4, 32, 64}, {1, 1, 2, 2}, nearest);
        EXPECT_EQ(k.path, StorePath::kRows) << data_type_name(type);
        EXPECT_EQ(k.window_words, 2u) << data_type_name(type);
        // 2x linear: x0 and x1 of a chunk straddle its neighbours' words.
        k = config_of(type, {2, 4, 16, 32}, {2, 4, 32, 64}, {1, 1, 2, 2}, linear);
        EXPECT_EQ(k.path, StorePath::kRows) << data_type_name(type);
        EXPECT_EQ(k.window_words, 4u) << data_type_name(type);
    }
    // Downsampling by 4 spreads 16 UINT8 outputs over 64 input bytes: no window.
    EXPECT_EQ(config_of(DataType::kUint8, {1, 2, 8, 256}, {1, 2, 2, 64}, {1, 1, 0.25f, 0.25f}, nearest).window_words,
              0u);
    // Rows of 17 UINT8 input elements: row bases are not 4-byte aligned, no window.
    EXPECT_EQ(config_of(DataType::kUint8, {1, 2, 4, 17}, {1, 2, 8, 16}, {1, 1, 2, 1}, nearest).window_words, 0u);
    // Scale 1 in W with an upsampled H (identity last dimension): a window of the contiguous row.
    EXPECT_EQ(config_of(DataType::kInt8, {1, 2, 4, 32}, {1, 2, 8, 32}, {1, 1, 2, 1}, linear).window_words, 4u);
}

// Differential tests of the window variant: random NCHW-like shapes whose rows are 16- or 4-byte aligned,
// every type, both modes, scales that up- and downsample (window or fallback, both checked against the CPU
// reference); the test asserts that most cases took a window and that every window size occurred.
TEST(ResampleGpu, WindowRandomCases) {
    SKIP_WITHOUT_GPU();
    static const float kScales[] = {1.0f, 2.0f, 3.0f, 4.0f, 0.5f, 1.5f, 2.5f, 0.75f, 1.25f, 8.0f};
    static const uint32_t kWidths[] = {4, 8, 12, 16, 20, 32, 36, 48, 64};
    uint64_t seed = 11000;
    uint32_t windowed = 0, total = 0;
    std::map<uint32_t, uint32_t> by_size;
    for (InterpolationMode mode : {InterpolationMode::kNearestNeighbor, InterpolationMode::kLinear})
        for (DataType type : kTypes)
            for (int repeat = 0; repeat < 12; ++repeat) {
                ++seed;
                std::mt19937 rng{uint32_t(seed)};
                Case c;
                c.mode = mode;
                const float sh = kScales[rng() % std::size(kScales)];
                const float sw = kScales[rng() % std::size(kScales)];
                c.scales = {1, 1, sh, sw};
                const uint32_t w_in = kWidths[rng() % std::size(kWidths)];
                const uint32_t h_in = 1 + rng() % 6;
                const uint32_t w_out = std::max<uint32_t>(1, uint32_t(std::floor(w_in * sw)));
                const uint32_t h_out = std::max<uint32_t>(1, uint32_t(std::floor(h_in * sh)) + (rng() % 4 == 0));
                const Dims in = {uint32_t(1 + rng() % 2), uint32_t(1 + rng() % 3), h_in, w_in};
                const Dims out = {in[0], in[1], h_out, w_out};
                c.input = make_desc(type, in, repeat % 4 == 3 ? Layout::kOversized : Layout::kPacked,
                                    TensorRole::kInput, rng);
                c.output = make_desc(type, out, Layout::kPacked, TensorRole::kOutput, rng);
                auto config = resample_kernel_config(parse_case(c), {});
                ASSERT_TRUE(config.is_ok()) << config.status().message();
                ++total;
                if (config->window_words > 0) {
                    ++windowed;
                    ++by_size[config->window_words];
                }
                const std::string name = std::string("resample_window_") +
                                         (mode == InterpolationMode::kLinear ? "linear_" : "nearest_") +
                                         std::string(data_type_name(type)) + "_w" +
                                         std::to_string(config->window_words) + "_" + std::to_string(seed);
                const auto result = run_differential(resample_op(), to_differential(c, name, seed));
                EXPECT_TRUE(result.passed) << result.message;
            }
    std::printf("[ resample ] window variant taken by %u of %u cases (1 word: %u, 2: %u, 4: %u)\n", windowed,
                total, by_size[1], by_size[2], by_size[4]);
    EXPECT_GE(windowed * 2, total);
    EXPECT_GT(by_size[1], 0u);
    EXPECT_GT(by_size[2], 0u);
    EXPECT_GT(by_size[4], 0u);
}

// The device output judged against the reference's exact values under the op's error bound.
CompareResult judge_with_bound(const Op& op, const OpDesc& desc, const HostTensor& input, const HostTensor& got) {
    ThreadPool pool(2);
    SemanticsOptions semantics;
    HostTensor reference(static_cast<const ResampleDesc&>(desc).output);
    std::vector<ExactOutput> exact(1);
    const HostTensor* inputs[] = {&input};
    HostTensor* outputs[] = {&reference};
    const Status ran = op.run_reference(desc, inputs, outputs, ReferenceContext{pool, semantics, &exact});
    EXPECT_TRUE(ran.is_ok()) << ran.message();
    return compare_to_exact(exact[0], got, op.default_tolerance(desc, 0));
}

// The linear blend's worst error over many random outputs, printed per data type (ulps of the rounded
// reference, and the largest error / bound): inputs of both signs make results much smaller than their corner
// terms, which the error bound allows (docs/semantics.md); every output must be within it, and
// 8-bit outputs within ±1 of the reference's.
TEST(ResampleGpu, LinearAccuracyOverManyOutputs) {
    SKIP_WITHOUT_GPU();
    gpu::GpuBackend* backend = dmltool::testing::test_gpu_backend(nullptr);
    const Op& op = resample_op();
    const Dims shapes[][2] = {
        {{2, 3, 23, 29}, {2, 3, 57, 71}},  // 2.5x in H and W: 4 corners
        {{3, 5, 11, 13}, {5, 8, 19, 9}},   // all four dimensions blended: 16 corners
        {{64, 70}, {111, 53}},
        {{2, 4, 24, 32}, {2, 4, 48, 64}},  // 2x in H and W: the row-window variant (16-byte rows)
        {{1, 3, 20, 48}, {1, 3, 30, 72}},  // 1.5x: windows of 4 words
    };
    const std::vector<float> scales[] = {{1, 1, 2.5f, 2.5f}, {1.7f, 1.6f, 1.75f, 0.7f}, {1.73f, 0.77f},
                                         {1, 1, 2, 2}, {1, 1, 1.5f, 1.5f}};
    uint64_t seed = 9000;
    for (DataType type : kTypes) {
        uint64_t worst_ulp = 0;
        double worst_abs = 0, worst_ratio = 0;
        uint64_t outputs = 0;
        for (size_t s = 0; s < std::size(shapes); ++s)
            for (int repeat = 0; repeat < 2; ++repeat) {
                ++seed;
                std::mt19937 rng{uint32_t(seed)};
                Case c;
                c.scales = scales[s];
                c.input = make_desc(type, shapes[s][0], Layout::kPacked, TensorRole::kInput, rng);
                c.output = make_desc(type, shapes[s][1], Layout::kPacked, TensorRole::kOutput, rng);
                const DifferentialCase d =
                    to_differential(c, "resample_accuracy_" + std::string(data_type_name(type)) + "_" +
                                           std::to_string(seed), seed);
                auto desc = dmltool::testing::parse_desc(op, d.desc_json);
                ASSERT_TRUE(desc.is_ok()) << desc.status().message();
                auto reference = dmltool::testing::run_reference(op, **desc, {&d.inputs[0]});
                ASSERT_TRUE(reference.is_ok()) << reference.status().message();
                auto got = backend->execute(op, **desc, {&d.inputs[0]}, nullptr);
                ASSERT_TRUE(got.is_ok()) << got.status().message();
                const Tolerance tolerance = op.default_tolerance(**desc, 0);
                Tolerance exact = tolerance;  // measure the raw distance, judge with the contract
                exact.ulp = 0;
                exact.abs = 0;
                const CompareResult measured = compare_tensors((*reference)[0], (*got)[0], exact);
                worst_ulp = std::max(worst_ulp, measured.max_ulp_error);
                worst_abs = std::max(worst_abs, measured.max_abs_error);
                outputs += measured.element_count;
                const CompareResult judged = judge_with_bound(op, **desc, d.inputs[0], (*got)[0]);
                worst_ratio = std::max(worst_ratio, judged.max_bound_ratio);
                if (judged.verdict != Verdict::kPassed) {
                    const auto repro = run_differential(op, d);  // writes the case to ./failures
                    ADD_FAILURE() << judged.reason << "\n" << repro.message;
                }
            }
        std::printf("[ resample ] LINEAR %-7s max error over %llu outputs: %llu ulp (|diff| %g), error/bound %.3g\n",
                    std::string(data_type_name(type)).c_str(), (unsigned long long)outputs,
                    (unsigned long long)worst_ulp, worst_abs, worst_ratio);
        if (type == DataType::kInt8 || type == DataType::kUint8) {
            EXPECT_LE(worst_ulp, 1u) << data_type_name(type);
        }
    }
}

// The short-weight variant (power-of-two scales: every weight a multiple of 1/16): which shapes take it.
TEST(ResampleGpu, ShortWeightPathSelection) {
    std::mt19937 rng(4);
    auto config_of = [&](DataType type, Dims in, Dims out, std::vector<float> scales,
                         InterpolationMode mode = InterpolationMode::kLinear) {
        Case c;
        c.mode = mode;
        c.scales = std::move(scales);
        c.input = make_desc(type, in, Layout::kPacked, TensorRole::kInput, rng);
        c.output = make_desc(type, out, Layout::kPacked, TensorRole::kOutput, rng);
        auto config = resample_kernel_config(parse_case(c), {});
        EXPECT_TRUE(config.is_ok()) << config.status().message();
        return *config;
    };
    for (DataType type : kTypes) {
        const std::string name(data_type_name(type));
        KernelConfig k = config_of(type, {2, 4, 16, 32}, {2, 4, 32, 64}, {1, 1, 2, 2});  // {1/4, 3/4}
        EXPECT_TRUE(k.short_weights) << name;
        EXPECT_EQ(k.window_words, 4u) << name;
        EXPECT_TRUE(config_of(type, {1, 2, 8, 16}, {1, 2, 32, 64}, {1, 1, 4, 4}).short_weights) << name;  // eighths
        EXPECT_TRUE(config_of(type, {1, 1, 4, 16}, {1, 1, 32, 128}, {1, 1, 8, 8}).short_weights) << name;  // 16ths
        EXPECT_TRUE(config_of(type, {2, 3, 4, 16}, {2, 6, 8, 32}, {1, 2, 2, 2}).short_weights) << name;  // 3 blends
        EXPECT_TRUE(config_of(type, {2, 4, 16, 32}, {2, 4, 16, 64}, {1, 1, 1, 2}).short_weights) << name;  // W only
        // Weights that are not multiples of 1/16: the generic (per-lane tap) blend.
        EXPECT_FALSE(config_of(type, {2, 4, 16, 32}, {2, 4, 40, 80}, {1, 1, 2.5f, 2.5f}).short_weights) << name;
        EXPECT_FALSE(config_of(type, {2, 4, 16, 32}, {2, 4, 48, 64}, {1, 1, 3, 2}).short_weights) << name;
        EXPECT_FALSE(config_of(type, {1, 1, 4, 16}, {1, 1, 64, 256}, {1, 1, 16, 16}).short_weights) << name;  // 32nds
        // Four blended dimensions, nearest, or no blend in the last dimension: never.
        EXPECT_FALSE(config_of(type, {2, 2, 4, 16}, {4, 4, 8, 32}, {2, 2, 2, 2}).short_weights) << name;
        EXPECT_FALSE(
            config_of(type, {2, 4, 16, 32}, {2, 4, 32, 64}, {1, 1, 2, 2}, InterpolationMode::kNearestNeighbor)
                .short_weights)
            << name;
        EXPECT_FALSE(config_of(type, {1, 2, 4, 32}, {1, 2, 8, 32}, {1, 1, 2, 1}).short_weights) << name;
    }
}

// Differential tests of the short-weight variant: random shapes with power-of-two scales (1/4 .. 1/16 weights,
// 1 to 3 blended dimensions, crops and clamped edges), every type, against the CPU reference.
TEST(ResampleGpu, ShortWeightRandomCases) {
    SKIP_WITHOUT_GPU();
    static const float kScales[] = {1.0f, 2.0f, 4.0f, 8.0f, 0.5f};
    static const float kLastScales[] = {2.0f, 4.0f, 8.0f};
    static const uint32_t kWidths[] = {4, 8, 12, 16, 20, 32, 36, 48};
    uint64_t seed = 13000;
    uint32_t short_cases = 0, total = 0;
    for (DataType type : kTypes)
        for (int repeat = 0; repeat < 16; ++repeat) {
            ++seed;
            std::mt19937 rng{uint32_t(seed)};
            Case c;
            const float sc = repeat % 4 == 1 ? 2.0f : 1.0f;  // a third blended dimension
            const float sh = kScales[rng() % std::size(kScales)];
            const float sw = kLastScales[rng() % std::size(kLastScales)];
            c.scales = {1, sc, sh, sw};
            const uint32_t w_in = kWidths[rng() % std::size(kWidths)];
            const uint32_t h_in = 1 + rng() % 6;
            const uint32_t c_in = 1 + rng() % 3;
            const Dims in = {uint32_t(1 + rng() % 2), c_in, h_in, w_in};
            const uint32_t h_nominal = std::max<uint32_t>(1, uint32_t(std::floor(h_in * sh)));
            const Dims out = {in[0], uint32_t(std::floor(c_in * sc)),
                              uint32_t(h_nominal + (rng() % 4 == 0 ? 1 + rng() % 2 : 0)),  // sometimes clamped past the end
                              uint32_t(std::floor(w_in * sw)) - (rng() % 4 == 0 ? 4u : 0u)};  // sometimes cropped
            c.input = make_desc(type, in, repeat % 4 == 3 ? Layout::kOversized : Layout::kPacked, TensorRole::kInput,
                                rng);
            c.output = make_desc(type, out, Layout::kPacked, TensorRole::kOutput, rng);
            auto config = resample_kernel_config(parse_case(c), {});
            ASSERT_TRUE(config.is_ok()) << config.status().message();
            ++total;
            short_cases += config->short_weights;
            const std::string name = "resample_short_" + std::string(data_type_name(type)) + "_s" +
                                     std::to_string(int(config->short_weights)) + "_" + std::to_string(seed);
            const auto result = run_differential(resample_op(), to_differential(c, name, seed));
            EXPECT_TRUE(result.passed) << result.message;
        }
    std::printf("[ resample ] short-weight variant taken by %u of %u cases\n", short_cases, total);
    EXPECT_GE(short_cases * 4, total * 3);
}

// The short-weight variant's worst error over many random mixed-sign outputs (printed per data type), judged
// with the error bound; the 8-bit blend is exact: 0 expected. (The 2x shape takes linear_fast.cpp's kernel.)
TEST(ResampleGpu, ShortWeightAccuracyOverManyOutputs) {
    SKIP_WITHOUT_GPU();
    gpu::GpuBackend* backend = dmltool::testing::test_gpu_backend(nullptr);
    const Op& op = resample_op();
    struct Shape {
        Dims in, out;
        std::vector<float> scales;
    };
    const Shape shapes[] = {
        {{2, 4, 24, 32}, {2, 4, 48, 64}, {1, 1, 2, 2}},      // 2x: {1/4, 3/4}, 4 corners
        {{1, 3, 12, 32}, {1, 3, 48, 128}, {1, 1, 4, 4}},     // 4x: odd eighths
        {{1, 2, 6, 16}, {1, 2, 48, 128}, {1, 1, 8, 8}},      // 8x: odd sixteenths
        {{2, 5, 8, 16}, {2, 10, 16, 32}, {1, 2, 2, 2}},      // 3 blended dimensions: 8 corners
        {{3, 7, 16, 32}, {3, 7, 8, 128}, {1, 1, 0.5f, 4}},   // 1/2 in H, 4x in W
        {{4, 2, 9, 48}, {4, 2, 9, 96}, {1, 1, 1, 2}},        // the last dimension alone
    };
    uint64_t seed = 15000;
    for (DataType type : kTypes) {
        uint64_t worst_ulp = 0;
        double worst_abs = 0, worst_ratio = 0;
        uint64_t outputs = 0;
        for (const Shape& shape : shapes)
            for (int repeat = 0; repeat < 3; ++repeat) {
                ++seed;
                std::mt19937 rng{uint32_t(seed)};
                Case c;
                c.scales = shape.scales;
                c.input = make_desc(type, shape.in, Layout::kPacked, TensorRole::kInput, rng);
                c.output = make_desc(type, shape.out, Layout::kPacked, TensorRole::kOutput, rng);
                const DifferentialCase d = to_differential(
                    c, "resample_short_accuracy_" + std::string(data_type_name(type)) + "_" + std::to_string(seed),
                    seed);
                auto desc = dmltool::testing::parse_desc(op, d.desc_json);
                ASSERT_TRUE(desc.is_ok()) << desc.status().message();
                auto config = resample_kernel_config(static_cast<const ResampleDesc&>(**desc), {});
                ASSERT_TRUE(config.is_ok()) << config.status().message();
                EXPECT_TRUE(config->short_weights) << d.name;
                auto reference = dmltool::testing::run_reference(op, **desc, {&d.inputs[0]});
                ASSERT_TRUE(reference.is_ok()) << reference.status().message();
                auto got = backend->execute(op, **desc, {&d.inputs[0]}, nullptr);
                ASSERT_TRUE(got.is_ok()) << got.status().message();
                const Tolerance tolerance = op.default_tolerance(**desc, 0);
                Tolerance exact = tolerance;
                exact.ulp = 0;
                exact.abs = 0;
                const CompareResult measured = compare_tensors((*reference)[0], (*got)[0], exact);
                worst_ulp = std::max(worst_ulp, measured.max_ulp_error);
                worst_abs = std::max(worst_abs, measured.max_abs_error);
                outputs += measured.element_count;
                const CompareResult judged = judge_with_bound(op, **desc, d.inputs[0], (*got)[0]);
                worst_ratio = std::max(worst_ratio, judged.max_bound_ratio);
                if (judged.verdict != Verdict::kPassed) {
                    const auto repro = run_differential(op, d);
                    ADD_FAILURE() << judged.reason << "\n" << repro.message;
                }
            }
        std::printf("[ resample ] LINEAR short weights %-7s max error over %llu outputs: %llu ulp (|diff| %g), "
                    "error/bound %.3g\n",
                    std::string(data_type_name(type)).c_str(), (unsigned long long)outputs,
                    (unsigned long long)worst_ulp, worst_abs, worst_ratio);
        if (type == DataType::kInt8 || type == DataType::kUint8) {
            EXPECT_EQ(worst_abs, 0.0) << data_type_name(type);
        }
    }
}

// inf inputs propagate like the reference's double sum (inf, or NaN where a zero weight meets inf).
TEST(ResampleGpu, LinearNonFiniteInputs) {
    SKIP_WITHOUT_GPU();
    for (DataType type : {DataType::kFloat32, DataType::kFloat16}) {
        std::mt19937 rng(3);
        Case c;
        c.scales = {2.5f, 1.5f};
        c.input = make_desc(type, {4, 5}, Layout::kPacked, TensorRole::kInput, rng);
        c.output = make_desc(type, {10, 7}, Layout::kPacked, TensorRole::kOutput, rng);
        DifferentialCase d = to_differential(c, "resample_inf_" + std::string(data_type_name(type)), 3);
        d.inputs[0].set_from_double(6, INFINITY);
        d.inputs[0].set_from_double(13, -INFINITY);
        const auto result = run_differential(resample_op(), d);
        EXPECT_TRUE(result.passed) << result.message;
        // The short-weight variant (2x in both dimensions, 16-byte rows).
        Case s;
        s.scales = {2, 2};
        s.input = make_desc(type, {6, 8}, Layout::kPacked, TensorRole::kInput, rng);
        s.output = make_desc(type, {12, 16}, Layout::kPacked, TensorRole::kOutput, rng);
        auto config = resample_kernel_config(parse_case(s), {});
        ASSERT_TRUE(config.is_ok()) << config.status().message();
        EXPECT_TRUE(config->short_weights);
        DifferentialCase ds = to_differential(s, "resample_inf_short_" + std::string(data_type_name(type)), 4);
        ds.inputs[0].set_from_double(9, INFINITY);
        ds.inputs[0].set_from_double(10, -INFINITY);
        ds.inputs[0].set_from_double(30, INFINITY);
        ds.inputs[0].set_from_double(47, NAN);
        const auto short_result = run_differential(resample_op(), ds);
        EXPECT_TRUE(short_result.passed) << short_result.message;
        // Scale-1 dimensions are copies (spec §6.5): an infinity in one batch/channel plane, or in one column of a
        // Scale-1 last dimension, stays out of its neighbours' blends. General kernel, x2 fast path, last dim 1.
        struct Shape {
            Dims in, out;
            std::vector<float> scales;
        };
        for (const Shape& shape : {Shape{{2, 3, 4, 5}, {2, 3, 10, 7}, {1, 1, 2.5f, 1.5f}},
                                   Shape{{1, 2, 4, 8}, {1, 2, 8, 16}, {1, 1, 2, 2}},
                                   Shape{{1, 2, 8, 16}, {1, 2, 4, 8}, {1, 1, 0.5f, 0.5f}},
                                   Shape{{4, 5}, {10, 5}, {2.5f, 1}}}) {
            Case k;
            k.scales = shape.scales;
            k.input = make_desc(type, shape.in, Layout::kPacked, TensorRole::kInput, rng);
            k.output = make_desc(type, shape.out, Layout::kPacked, TensorRole::kOutput, rng);
            DifferentialCase dk = to_differential(k, "resample_inf_copies_" + std::string(data_type_name(type)) + "_" +
                                                         format_dims(shape.in), 5);
            const uint64_t plane = shape.in.size() == 4 ? shape.in[2] * shape.in[3] : 0;
            dk.inputs[0].set_from_double(plane ? plane + 3 : 1, INFINITY);       // second plane / second column
            dk.inputs[0].set_from_double(plane ? 2 * plane - 1 : 11, -INFINITY);
            const auto copies = run_differential(resample_op(), dk);
            EXPECT_TRUE(copies.passed) << format_dims(shape.in) << ": " << copies.message;
        }
    }
}

TEST(ResampleGpu, EveryKernelVariantValidates) {
    for (const KernelConfig& config : representative_kernel_configs()) {
        std::string name = "resample_" + std::string(data_type_name(config.type)) + "_p" +
                           std::to_string(int(config.path)) + "x" + std::to_string(config.group) + "_k";
        for (uint32_t d = 0; d < config.rank; ++d) name += std::to_string(int(config.kinds[d]));
        name += "_v" + std::to_string(config.input_views) + "." + std::to_string(config.output_views);
        name += "_w" + std::to_string(config.window_words) + (config.short_weights ? "s" : "");
        auto blob = build_resample_kernel(config);
        ASSERT_TRUE(blob.is_ok()) << name << ": " << blob.status().message();
        const auto validation = shaders::testing::validate_with_vkd3d(*blob, name);
        if (!validation.tools_found) GTEST_SKIP() << validation.log;
        EXPECT_TRUE(validation.ok) << name << ": " << validation.log;
    }
}

}  // namespace
}  // namespace dmltool::ops::resample
