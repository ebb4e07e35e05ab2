// DEPTH_TO_SPACE1 on the GPU backend (lavapipe in CI) against the CPU reference, bit-exact: every data type,
// both orders, block sizes 1 to 5, odd sizes, packed / padded / permuted / broadcast inputs and padded /
// permuted outputs, the kernel path each layout takes, and the multi-view kernels (small windows).
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "ops/depth_to_space1/kernel.h"
#include "ops/split/layout_test_support.h"
#include "shaders/testing/validate_blob.h"
#include "shaders/vector_interleave.h"
#include "tests/testing/gpu_testing.h"

namespace dmltool::ops::depth_to_space1 {
namespace {

using namespace dmltool::testing::layouts;
using dmltool::testing::DifferentialCase;
using dmltool::testing::run_differential;
using nlohmann::json;

const Op& d2s_op() { return dmltool::testing::builtin_op("DEPTH_TO_SPACE1"); }

struct D2sCase {
    TensorDesc input, output;
    uint32_t block;
    DepthSpaceOrder order;
};

D2sCase make_case(DataType type, uint32_t n, uint32_t out_channels, uint32_t h, uint32_t w, uint32_t block,
                  DepthSpaceOrder order, Layout in, Layout out, std::mt19937& rng) {
    const Dims in_sizes = {n, out_channels * block * block, h, w};
    const Dims out_sizes = {n, out_channels, h * block, w * block};
    return {make_desc(type, in_sizes, make_strides(in_sizes, in, rng), TensorRole::kInput),
            make_desc(type, out_sizes, make_strides(out_sizes, out, rng), TensorRole::kOutput), block, order};
}

DifferentialCase to_differential(const D2sCase& c, const std::string& name, uint64_t seed) {
    const json desc = {{"InputTensor", dmltool::testing::tensor_json(c.input)},
                       {"OutputTensor", dmltool::testing::tensor_json(c.output)},
                       {"BlockSize", c.block},
                       {"Order", c.order == DepthSpaceOrder::kDepthColumnRow ? "DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW"
                                                                              : "DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH"}};
    DifferentialCase d;
    d.name = name;
    d.op_type = "DML_OPERATOR_DEPTH_TO_SPACE1";
    d.desc_json = desc.dump();
    d.inputs.push_back(random_bits_tensor(c.input, seed));
    d.seed = seed;
    return d;
}

std::string case_name(const char* group, DataType type, DepthSpaceOrder order, uint32_t block, Layout in, Layout out) {
    return std::string("d2s_gpu/") + group + "/" + std::string(data_type_name(type)) +
           (order == DepthSpaceOrder::kDepthColumnRow ? "/dcr" : "/crd") + "/b" + std::to_string(block) + "/" +
           layout_name(in) + "_" + layout_name(out);
}

TEST(DepthToSpace1Gpu, RandomLayoutsEveryType) {
    SKIP_WITHOUT_GPU();
    const Layout input_layouts[] = {Layout::kPacked, Layout::kPadded, Layout::kPermuted, Layout::kBroadcast};
    const Layout output_layouts[] = {Layout::kPacked, Layout::kPadded, Layout::kPermuted};
    uint64_t seed = 2000;
    for (DataType type : all_movement_types()) {
        for (DepthSpaceOrder order : {DepthSpaceOrder::kDepthColumnRow, DepthSpaceOrder::kColumnRowDepth}) {
            for (int variant = 0; variant < 4; ++variant, ++seed) {
                std::mt19937 rng{uint32_t(seed)};
                const uint32_t block = 1 + rng() % 4;
                const Layout in = variant == 0 ? Layout::kPacked : input_layouts[rng() % 4];
                const Layout out = variant < 2 ? Layout::kPacked : output_layouts[rng() % 3];
                const D2sCase c = make_case(type, 1 + rng() % 2, 1 + rng() % 3, 1 + rng() % 5, 1 + rng() % 5, block,
                                            order, in, out, rng);
                const auto result =
                    run_differential(d2s_op(), to_differential(c, case_name("random", type, order, block, in, out), seed));
                EXPECT_TRUE(result.passed) << result.message;
            }
        }
    }
}

// Larger packed cases: 16-byte output chunks gathered across the block planes (several rows, partial tails).
TEST(DepthToSpace1Gpu, ChunkedPaths) {
    SKIP_WITHOUT_GPU();
    uint64_t seed = 6000;
    for (DataType type : all_movement_types()) {
        for (uint32_t block : {2u, 3u, 5u}) {
            const DepthSpaceOrder order = block == 3 ? DepthSpaceOrder::kColumnRowDepth : DepthSpaceOrder::kDepthColumnRow;
            std::mt19937 rng{uint32_t(++seed)};
            const D2sCase c = make_case(type, 2, 3, 7, block == 2 ? 8 : 5, block, order, Layout::kPacked,
                                        block == 5 ? Layout::kPadded : Layout::kPacked, rng);
            const auto result = run_differential(
                d2s_op(), to_differential(c, case_name("chunked", type, order, block, Layout::kPacked, Layout::kPacked), seed));
            EXPECT_TRUE(result.passed) << result.message;
        }
    }
}

// The vector interleave (rows of whole 16-byte vectors): every element size at B = 2, sub-word ones at
// power-of-two and odd blocks, both orders, several rows per (n, c), packed and 16-byte-aligned padded
// layouts, one and several views. Each case first checks that it really takes the vector path, so the
// comparison covers that kernel.
TEST(DepthToSpace1Gpu, VectorKernel) {
    SKIP_WITHOUT_GPU();
    // 4 KiB windows: 2 to 7 views per tensor here (lavapipe crashes on dozens of bound texel buffers).
    const ReplannedOp windowed(d2s_op(), [](const OpDesc& desc) {
        return plan_depth_to_space1_device(static_cast<const DepthToSpace1Desc&>(desc), {.window_log2 = 12});
    });
    uint64_t seed = 9000;
    for (DataType type : {DataType::kInt8, DataType::kFloat16, DataType::kFloat32, DataType::kFloat64}) {
        for (uint32_t block : {2u, 3u, 4u}) {
            if (element_size(type) >= 4 && block > 2) continue;  // the strided copy's (PathSelection)
            for (DepthSpaceOrder order : {DepthSpaceOrder::kDepthColumnRow, DepthSpaceOrder::kColumnRowDepth}) {
                std::mt19937 rng{uint32_t(++seed)};
                const uint32_t width = block == 3 ? 32 : 16;  // whole vectors for every element size
                D2sCase c = make_case(type, 2, 2, 3, width, block, order, Layout::kPacked, Layout::kPacked, rng);
                if (block == 4) {  // rows padded by one vector on both sides: still aligned, not packed
                    const uint32_t pad = uint32_t(16 / element_size(type));
                    const Dims& in = c.input.sizes;
                    const Dims& out = c.output.sizes;
                    c.input = make_desc(type, in, Dims{in[1] * in[2] * (in[3] + pad), in[2] * (in[3] + pad), in[3] + pad, 1},
                                        TensorRole::kInput);
                    c.output = make_desc(type, out,
                                         Dims{out[1] * out[2] * (out[3] + pad), out[2] * (out[3] + pad), out[3] + pad, 1},
                                         TensorRole::kOutput);
                }
                DepthToSpace1Desc desc;
                desc.input = c.input;
                desc.output = c.output;
                desc.block_size = block;
                desc.order = order;
                auto plan = plan_depth_to_space1_device(desc);
                ASSERT_TRUE(plan.is_ok()) << plan.status().message();
                const bool pieces = block == 4 && element_size(type) <= 2;  // the piece gather (PieceGather)
                EXPECT_NE(plan->dispatches[0].label.find((pieces ? "piece_gather b" : "vector_interleave b") +
                                                         std::to_string(block)),
                          std::string::npos)
                    << plan->dispatches[0].label;
                const std::string name = case_name("vector", type, order, block, Layout::kPacked, Layout::kPacked);
                const auto result = run_differential(d2s_op(), to_differential(c, name, seed));
                EXPECT_TRUE(result.passed) << result.message;
                const auto windowed_result = run_differential(windowed, to_differential(c, name + "/windows", seed));
                EXPECT_TRUE(windowed_result.passed) << windowed_result.message;
            }
        }
    }
}

DepthToSpace1Desc to_desc(const D2sCase& c) {
    DepthToSpace1Desc desc;
    desc.input = c.input;
    desc.output = c.output;
    desc.block_size = c.block;
    desc.order = c.order;
    return desc;
}

D2sCase with_aligned_row_padding(D2sCase c, DataType type) {
    // Rows padded by one vector: still 16-byte aligned, not packed.
    const uint32_t pad = uint32_t(16 / element_size(type));
    auto padded = [&](const TensorDesc& t, TensorRole role) {
        const Dims& d = t.sizes;
        return make_desc(type, d, Dims{d[1] * d[2] * (d[3] + pad), d[2] * (d[3] + pad), d[3] + pad, 1}, role);
    };
    c.input = padded(c.input, TensorRole::kInput);
    c.output = padded(c.output, TensorRole::kOutput);
    return c;
}

// The piece gather (per thread two output vectors half a row apart, each from a word or two of each source
// row): every element size it takes at B = 4 and 2 (forced; the planner's own choice for sub-word elements at
// B = 4), both orders, rows of one
// and of three input vectors (output rows of 2 or 4 and 6 or 12 vectors: threads at odd offsets), packed
// and aligned-padded layouts, one and several views (raw word loads through the window selection). Each
// case checks its path first. Rows that are not whole vectors and unaligned layouts must fall back.
TEST(DepthToSpace1Gpu, PieceGather) {
    SKIP_WITHOUT_GPU();
    auto forced = [](shaders::StridedCopyOptions options) {
        return ReplannedOp(d2s_op(), [options](const OpDesc& desc) {
            return plan_depth_to_space1_device(static_cast<const DepthToSpace1Desc&>(desc), options,
                                               D2sKernel::kPieces);
        });
    };
    const ReplannedOp pieces = forced({}), windowed = forced({.window_log2 = 12});
    uint64_t seed = 9500;
    for (DataType type : {DataType::kInt8, DataType::kUint16, DataType::kFloat16, DataType::kFloat32,
                          DataType::kUint64}) {
        const uint32_t vector = uint32_t(16 / element_size(type));
        for (uint32_t block : {2u, 4u}) {
            if (element_size(type) > 16 / block) continue;  // a piece smaller than an element
            for (DepthSpaceOrder order : {DepthSpaceOrder::kDepthColumnRow, DepthSpaceOrder::kColumnRowDepth}) {
                for (uint32_t row_vectors : {1u, 3u}) {
                    std::mt19937 rng{uint32_t(++seed)};
                    D2sCase c = make_case(type, 2, 3, 2, row_vectors * vector, block, order, Layout::kPacked,
                                          Layout::kPacked, rng);
                    if (row_vectors == 3) c = with_aligned_row_padding(c, type);
                    auto plan = plan_depth_to_space1_device(to_desc(c), {}, D2sKernel::kPieces);
                    ASSERT_TRUE(plan.is_ok()) << plan.status().message();
                    EXPECT_NE(plan->dispatches[0].label.find("piece_gather b" + std::to_string(block)), std::string::npos)
                        << plan->dispatches[0].label;
                    const std::string name = case_name("pieces", type, order, block, Layout::kPacked, Layout::kPacked) +
                                             "/rows" + std::to_string(row_vectors);
                    const auto result = run_differential(pieces, to_differential(c, name, seed));
                    EXPECT_TRUE(result.passed) << result.message;
                    const auto windowed_result = run_differential(windowed, to_differential(c, name + "/windows", seed));
                    EXPECT_TRUE(windowed_result.passed) << windowed_result.message;
                }
            }
        }
    }
    // Fallbacks: a row of V + 1 elements (a tail), and a row offset by one element (unaligned).
    for (DataType type : {DataType::kInt8, DataType::kFloat16}) {
        const uint32_t vector = uint32_t(16 / element_size(type));
        std::mt19937 rng{uint32_t(++seed)};
        D2sCase tail = make_case(type, 1, 2, 3, vector + 1, 4, DepthSpaceOrder::kColumnRowDepth, Layout::kPacked,
                                 Layout::kPacked, rng);
        D2sCase unaligned = make_case(type, 1, 2, 3, vector, 4, DepthSpaceOrder::kDepthColumnRow, Layout::kPacked,
                                      Layout::kPacked, rng);
        const Dims& in = unaligned.input.sizes;
        unaligned.input = make_desc(type, in, Dims{in[1] * in[2] * (in[3] + 1), in[2] * (in[3] + 1), in[3] + 1, 1},
                                    TensorRole::kInput);
        for (const D2sCase* c : {&tail, &unaligned}) {
            auto plan = plan_depth_to_space1_device(to_desc(*c), {}, D2sKernel::kPieces);
            ASSERT_TRUE(plan.is_ok()) << plan.status().message();
            EXPECT_NE(plan->dispatches[0].label.find("strided_copy"), std::string::npos) << plan->dispatches[0].label;
            const std::string name = case_name(c == &tail ? "pieces_tail" : "pieces_unaligned", type, c->order, 4,
                                               Layout::kPacked, Layout::kPacked);
            const auto result = run_differential(d2s_op(), to_differential(*c, name, seed));
            EXPECT_TRUE(result.passed) << result.message;
        }
    }
}

// The autotuning variants (Op::device_plan_variants): every kernel shape that applies to the desc, each run
// against the reference and each really that shape; none where only the strided copy applies.
TEST(DepthToSpace1Gpu, TuningVariants) {
    SKIP_WITHOUT_GPU();
    const Op& op = d2s_op();
    const std::vector<std::string> all = {"d2s/strided_copy", "d2s/vectors", "d2s/pieces"};
    const std::vector<std::string> no_pieces = {"d2s/strided_copy", "d2s/vectors"};
    struct Expectation {
        DataType type;
        uint32_t block, width;
        std::vector<std::string> variants;
    };
    const Expectation expectations[] = {
        {DataType::kInt8, 2, 16, all},          // the planner's vector interleave
        {DataType::kInt8, 4, 16, all},          // the planner's piece gather
        {DataType::kFloat32, 4, 8, all},        // the planner's strided copy; a piece is one element
        {DataType::kFloat16, 2, 24, all},       // rows of three vectors
        {DataType::kFloat64, 4, 4, no_pieces},  // a piece (4 bytes) smaller than an element
        {DataType::kInt8, 3, 32, no_pieces},    // the piece gather takes B = 2 and 4 only
        {DataType::kInt8, 2, 5, {}},            // rows not whole vectors: the strided copy alone
    };
    uint64_t seed = 9800;
    for (const Expectation& e : expectations) {
        for (DepthSpaceOrder order : {DepthSpaceOrder::kDepthColumnRow, DepthSpaceOrder::kColumnRowDepth}) {
            std::mt19937 rng{uint32_t(++seed)};
            const D2sCase c = make_case(e.type, 2, 2, 3, e.width, e.block, order, Layout::kPacked, Layout::kPacked, rng);
            const DepthToSpace1Desc desc = to_desc(c);
            const std::string name = case_name("tuning", e.type, order, e.block, Layout::kPacked, Layout::kPacked) +
                                     "/w" + std::to_string(e.width);
            EXPECT_EQ(op.device_plan_variants(desc, {}), e.variants) << name;
            for (size_t i = 0; i < all.size(); ++i) {
                const std::string& variant = all[i];
                auto plan = op.plan_device_variant(desc, {}, variant);
                const bool offered = std::find(e.variants.begin(), e.variants.end(), variant) != e.variants.end();
                ASSERT_EQ(plan.is_ok(), offered) << name << " " << variant << ": " << plan.status().message();
                if (!offered) continue;
                const char* shape = i == 0 ? "/strided_copy" : i == 1 ? "/vector_interleave b" : "/piece_gather b";
                EXPECT_NE(plan->dispatches[0].label.find(shape), std::string::npos) << name << " " << variant;
                const ReplannedOp replanned(op, [&op, variant](const OpDesc& d) {
                    return op.plan_device_variant(d, {}, variant);
                });
                const auto result = run_differential(replanned, to_differential(c, name + "/" + variant, seed));
                EXPECT_TRUE(result.passed) << result.message;
            }
        }
    }
}

// Every element size and block with and without a shared source, one and several views: vkd3d 1.2 must
// translate each blob and spirv-val accept it.
TEST(VectorInterleaveBlobs, EveryVariantValidates) {
    // Builds the blob and has vkd3d translate it. Returns why it could not (the validators are missing: the test
    // skips), empty otherwise; a blob that fails to build or validate fails the test.
    const auto validate = [](const shaders::VectorInterleaveSpec& spec, const std::string& name) -> std::string {
        auto blob = shaders::build_vector_interleave_kernel(spec);
        EXPECT_TRUE(blob.is_ok()) << name << ": " << blob.status().message();
        if (!blob.is_ok()) return {};
        const auto validation = shaders::testing::validate_with_vkd3d(*blob, name);
        if (!validation.tools_found) return validation.log;
        EXPECT_TRUE(validation.ok) << name << ": " << validation.log;
        return {};
    };
    for (uint32_t bytes : {1u, 2u, 4u, 8u}) {
        for (uint32_t block = 2; block <= shaders::kMaxInterleaveBlock; block += block < 5 ? 1 : 11) {
            for (bool shared : {false, true}) {
                const shaders::VectorInterleaveSpec spec{bytes, block, shared, shared ? 3u : 1u, shared ? 1u : 2u,
                                                         shared ? 29u : 12u};
                const std::string name = "interleave_e" + std::to_string(bytes) + "_b" + std::to_string(block) +
                                         (shared ? "_shared" : "");
                if (const std::string missing = validate(spec, name); !missing.empty()) GTEST_SKIP() << missing;
            }
        }
    }
    // The piece gather: every (element size, B) it takes, shared source or not, one and several views.
    for (uint32_t block : {2u, 4u}) {
        for (uint32_t bytes = 1; bytes <= 16 / block; bytes *= 2) {
            for (bool shared : {false, true}) {
                const shaders::VectorInterleaveSpec spec{bytes, block, shared, shared ? 1u : 3u, shared ? 2u : 1u,
                                                         shared ? 12u : 29u, true};
                const std::string name = "pieces_e" + std::to_string(bytes) + "_b" + std::to_string(block) +
                                         (shared ? "_shared" : "");
                if (const std::string missing = validate(spec, name); !missing.empty()) GTEST_SKIP() << missing;
            }
        }
    }
    EXPECT_FALSE(shaders::build_vector_interleave_kernel({8, 4, false, 1, 1, 29, true}).is_ok());
    EXPECT_FALSE(shaders::build_vector_interleave_kernel({1, 3, false, 1, 1, 29, true}).is_ok());
    EXPECT_FALSE(shaders::build_vector_interleave_kernel({4, 1}).is_ok());
    EXPECT_FALSE(shaders::build_vector_interleave_kernel({4, 17}).is_ok());
    EXPECT_FALSE(shaders::build_vector_interleave_kernel({3, 2}).is_ok());
}

TEST(DepthToSpace1Gpu, MultiViewKernels) {
    SKIP_WITHOUT_GPU();
    const ReplannedOp windowed(d2s_op(), [](const OpDesc& desc) {
        return plan_depth_to_space1_device(static_cast<const DepthToSpace1Desc&>(desc), {.window_log2 = 9});
    });
    uint64_t seed = 8000;
    for (DataType type : {DataType::kUint8, DataType::kInt16, DataType::kFloat32, DataType::kFloat64}) {
        for (Layout out : {Layout::kPacked, Layout::kPermuted}) {
            std::mt19937 rng{uint32_t(++seed)};
            const D2sCase c = make_case(type, 2, 3, 6, 7, 2, DepthSpaceOrder::kColumnRowDepth, Layout::kPadded, out, rng);
            const auto result = run_differential(
                windowed, to_differential(c, case_name("multiview", type, c.order, 2, Layout::kPadded, out), seed));
            EXPECT_TRUE(result.passed) << result.message;
        }
    }
}

TEST(DepthToSpace1Plan, PathSelection) {
    std::mt19937 rng(1);
    auto label = [&](DataType type, uint32_t block, Layout out) {
        const D2sCase c = make_case(type, 1, 4, 6, 8, block, DepthSpaceOrder::kDepthColumnRow, Layout::kPacked, out, rng);
        DepthToSpace1Desc desc;
        desc.input = c.input;
        desc.output = c.output;
        desc.block_size = block;
        desc.order = c.order;
        auto plan = plan_depth_to_space1_device(desc);
        EXPECT_TRUE(plan.is_ok()) << plan.status().message();
        if (!plan.is_ok() || plan->dispatches.size() != 1) return std::string();
        const std::string& l = plan->dispatches[0].label;
        const size_t strided = l.find("strided_copy ");
        return strided == std::string::npos ? l.substr(l.rfind('/') + 1) : l.substr(strided + 13);
    };
    // Rows of whole 16-byte vectors (W = 8: two float32 vectors, four float64 ones): the vector kernel.
    EXPECT_EQ(label(DataType::kFloat32, 2, Layout::kPacked), "vector_interleave b2");
    // Beyond B = 2, 4/8-byte elements take the strided copy (whose per-element gather beats the interleave's
    // scattered stores there); sub-word ones keep the interleave.
    EXPECT_EQ(label(DataType::kUint64, 3, Layout::kPacked), "u8x2 r0+4 typed");
    EXPECT_EQ(label(DataType::kFloat32, 4, Layout::kPacked), "u4x4 r0+4 typed");
    // B = 4 with sub-word elements: the piece gather (coalesced stores); B = 2 keeps the interleave.
    EXPECT_EQ(label(DataType::kFloat16, 4, Layout::kPacked), "piece_gather b4");
    EXPECT_EQ(label(DataType::kUint8, 4, Layout::kPacked), "u1x16 r0+4 typed");  // W = 8: half a vector
    EXPECT_EQ(label(DataType::kFloat16, 2, Layout::kPacked), "vector_interleave b2");
    // Rows of 8 int8 elements are half a vector. Packed output: one row of 4 dimensions (N = 1 dropped, C' and H
    // merged), 16-byte chunks gathered element by element.
    EXPECT_EQ(label(DataType::kInt8, 2, Layout::kPacked), "u1x16 r0+4 typed");
    // Odd blocks as well.
    EXPECT_EQ(label(DataType::kFloat16, 5, Layout::kPacked), "vector_interleave b5");
    // Block 1 is the identity: one contiguous run, a 16-byte vector copy.
    EXPECT_EQ(label(DataType::kFloat16, 1, Layout::kPacked), "u16x1 r0+1 typed");
}

}  // namespace
}  // namespace dmltool::ops::depth_to_space1
