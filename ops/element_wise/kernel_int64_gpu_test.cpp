// The 64-bit forms of the element-wise bodies (kernel_bodies_int64.cpp) on the GPU backend (lavapipe in CI): every
// row with one, on INT64 and UINT64 (FLOAT64 encodings for the bit-only rows), through the real rows' descs, bit for
// bit against the family's CPU reference AND against a native uint64_t oracle here. Inputs are grids of edge values
// (0, +-1, INT64_MIN/MAX, UINT64_MAX, the words' edges 0xFFFFFFFF, 2^32, 2^32 + 1, 0xFFFFFFFF00000000, ...), every
// pair of them for binary rows, on the vector path (typed 32-byte loads and stores), a row-broadcast input, scalar
// loads of a gapped input, and the one-element path (a transposed output).
#include <gtest/gtest.h>

#include <bit>
#include <cinttypes>
#include <cstdio>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "ops/element_wise/kernel.h"
#include "ops/element_wise/kernel_bodies.h"
#include "shaders/testing/validate_blob.h"
#include "tests/testing/gpu_testing.h"
#include "tests/testing/op_testing.h"

namespace dmltool::ops::element_wise {
namespace {

using U = uint64_t;
using I = int64_t;

// 16 values: a 16 x 16 grid holds every pair.
const std::vector<U> kEdges = {0,
                               1,
                               2,
                               3,
                               0x7fffffff,
                               0x80000000,
                               0xffffffff,
                               0x100000000,
                               0x100000001,
                               0xffffffff00000000,
                               0x7fffffffffffffff,
                               0x8000000000000000,
                               0x8000000000000001,
                               0xfffffffffffffffe,
                               0xffffffffffffffff,
                               0x123456789abcdef0};
// Divisors (with 0: the reference's 0), shift counts (with those of the width and beyond, and a high word).
const std::vector<U> kDivisors = {1, 0xffffffffffffffff, 2, 3, 7, 0xfffffffffffffffd, 0xffffffff, 0x100000000,
                                  0x100000001, 0x8000000000000000, 0x7fffffffffffffff, 0x8000000000000001, 50, 0,
                                  0xfffffffe00000001, 0x123456789};
const std::vector<U> kCounts = {0, 1, 5, 16, 31, 32, 33, 40, 62, 63, 64, 65, 0x100000000, 0xffffffffffffffff,
                                0x7fffffff, 0x20};

struct Layout {
    std::string name;
    std::vector<Dims> input_strides;  // A, then B (and the condition of IF reads as B, B and A as A)
    Dims output_strides;
    uint64_t input_elements;          // physical elements of A (a gapped A holds more)
    uint32_t expected_lanes;
};
const Dims kSizes = {16, 16};
// A's element (i, j) is value i of its list, B's value j, except where B is row-broadcast (value i, A's value j).
std::vector<Layout> layouts() {
    return {{"packed", {{16, 1}, {16, 1}}, {16, 1}, 256, 4},
            {"row_broadcast", {{16, 1}, {1, 0}}, {16, 1}, 256, 4},
            {"gapped", {{32, 2}, {16, 1}}, {16, 1}, 512, 4},
            {"transposed_output", {{16, 1}, {1, 16}}, {1, 16}, 256, 1}};
}

nlohmann::json tensor_json(DataType type, const Dims& strides) {
    return testing::tensor_json(type, kSizes, strides);
}

using Oracle = std::function<U(U a, U b, U c)>;
struct Row64 {
    std::string op;                // DML_OPERATOR_ suffix
    std::vector<DataType> types;   // one run per type: the tensors' type (comparisons: the inputs')
    uint32_t inputs = 2;
    nlohmann::json extra;          // attributes
    Oracle oracle;                 // the native result (the output type's low bits)
    const std::vector<U>* b_values = &kEdges;
    DataType output = DataType::kUnknown;  // kUnknown: the type under test
};

U mask_of(DataType t) { return element_size(t) == 8 ? ~U{0} : (U{1} << (8 * element_size(t))) - 1; }

// Runs `row` with `type` on `layout`; failures name the element and its values.
void run(const Row64& row, DataType type, const Layout& layout) {
    const std::string name = "ELEMENT_WISE_" + row.op;
    SCOPED_TRACE(name + " " + std::string(data_type_name(type)) + " " + layout.name);
    const Op& op = testing::builtin_op(name);
    const DataType output = row.output == DataType::kUnknown ? type : row.output;
    const bool broadcast = layout.name == "row_broadcast";
    nlohmann::json desc = row.extra;
    std::vector<std::string> members;
    std::vector<DataType> types;
    if (row.op == "IF") {
        members = {"ConditionTensor", "ATensor", "BTensor"};
        types = {DataType::kUint8, type, type};
    } else if (row.inputs == 1) {
        members = {"InputTensor"};
        types = {type};
    } else {
        members = {"ATensor", "BTensor"};
        types = {type, type};
    }
    std::vector<HostTensor> inputs;
    for (size_t k = 0; k < members.size(); ++k) {
        const size_t which = row.op == "IF" ? (k == 0 ? 1 : 0) : k;  // IF: the condition as B, A and B as A
        const Dims& strides = layout.input_strides[which];
        desc[members[k]] = tensor_json(types[k], strides);
        TensorDesc tensor;
        tensor.data_type = types[k];
        tensor.sizes = kSizes;
        tensor.strides = strides;
        EXPECT_TRUE(validate_tensor_desc(tensor, TensorRole::kInput, false).is_ok());
        HostTensor logical(tensor);  // logical elements; a row-broadcast B's values depend on i alone
        for (uint32_t i = 0; i < 16; ++i)
            for (uint32_t j = 0; j < 16; ++j) {
                // A: edge i (j where B is row-broadcast); B: list j (i); IF's A and B differ by a rotation.
                const bool b_side = which == 1;
                const uint32_t index = (b_side != broadcast) ? j : i;
                U v = b_side && row.op != "IF" ? (*row.b_values)[index] : kEdges[(index + 5 * k) % 16];
                if (row.op == "IF" && k == 0) v = index % 3 == 0 ? 0 : index % 3 == 1 ? 1 : 0xff;
                std::memcpy(logical.element_ptr(i * 16 + j), &v, element_size(types[k]));
            }
        inputs.push_back(std::move(logical));
    }
    desc["OutputTensor"] = testing::tensor_json(output, kSizes, layout.output_strides);
    auto parsed = testing::parse_desc(op, desc.dump());
    ASSERT_TRUE(parsed.is_ok()) << parsed.status().message() << "\n" << desc.dump();
    // Every blob through vkd3d-compiler and spirv-val once.
    static std::set<size_t> validated;
    auto plan = op.plan_device(**parsed, {});
    ASSERT_TRUE(plan.is_ok()) << plan.status().message();
    for (const KernelDispatch& dispatch : plan->dispatches) {
        const std::string_view blob(reinterpret_cast<const char*>(dispatch.dxbc->data()), dispatch.dxbc->size());
        if (!validated.insert(std::hash<std::string_view>{}(blob)).second) continue;
        const auto validation = shaders::testing::validate_with_vkd3d(*dispatch.dxbc, dispatch.label);
        if (validation.tools_found) EXPECT_TRUE(validation.ok) << dispatch.label << "\n" << validation.log;
    }
    std::vector<const HostTensor*> pointers;
    for (const HostTensor& t : inputs) pointers.push_back(&t);
    auto expected = testing::run_reference(op, **parsed, pointers);
    ASSERT_TRUE(expected.is_ok()) << expected.status().message();
    auto got = testing::test_gpu_backend(nullptr)->execute(op, **parsed, pointers, nullptr);
    ASSERT_TRUE(got.is_ok()) << got.status().message();
    const HostTensor &want = (*expected)[0], &have = (*got)[0];
    int failures = 0;
    for (uint64_t e = 0; e < want.element_count() && failures < 6; ++e) {
        U w = 0, h = 0, x[3] = {0, 0, 0};
        std::memcpy(&w, want.element_ptr(e), want.element_bytes());
        std::memcpy(&h, have.element_ptr(e), have.element_bytes());
        for (size_t k = 0; k < inputs.size(); ++k) std::memcpy(&x[k], inputs[k].element_ptr(e), inputs[k].element_bytes());
        const U native = row.oracle ? row.oracle(x[0], x[1], x[2]) & mask_of(output) : w;
        if (w == h && native == w) continue;
        ++failures;
        char text[256];
        std::snprintf(text, sizeof text, "element %" PRIu64 " inputs %016" PRIx64 " %016" PRIx64 " %016" PRIx64
                      ": reference %016" PRIx64 ", oracle %016" PRIx64 ", GPU %016" PRIx64, e, x[0], x[1], x[2], w,
                      native, h);
        ADD_FAILURE() << text;
    }
}

std::vector<Row64> rows64() {
    const DataType S = DataType::kInt64, W = DataType::kUint64, D = DataType::kFloat64;
    const std::vector<DataType> both = {S, W};
    std::vector<Row64> t;
    t.push_back({"IDENTITY", {S, W, D}, 1, {}, [](U a, U, U) { return a; }});
    t.push_back({"ABS", {S}, 1, {}, [](U a, U, U) { return I(a) < 0 ? 0 - a : a; }});
    t.push_back({"NEGATE", {S}, 1, {}, [](U a, U, U) { return 0 - a; }});
    t.push_back({"SIGN", {S}, 1, {}, [](U a, U, U) { return U(I(a) > 0 ? 1 : I(a) < 0 ? -1 : 0); }});
    t.push_back({"SIGN", {W}, 1, {}, [](U a, U, U) { return U(a != 0); }});
    t.push_back({"ADD", both, 2, {}, [](U a, U b, U) { return a + b; }});
    t.push_back({"SUBTRACT", both, 2, {}, [](U a, U b, U) { return a - b; }});
    t.push_back({"MULTIPLY", both, 2, {}, [](U a, U b, U) { return a * b; }});
    auto quotient = [](U a, U b, bool s) -> U {
        if (b == 0) return 0;
        if (!s) return a / b;
        if (I(b) == -1) return 0 - a;
        return U(I(a) / I(b));
    };
    auto remainder = [](U a, U b, bool s, bool floor) -> U {
        if (b == 0) return 0;
        if (!s) return a % b;
        if (I(b) == -1) return 0;
        const I r = I(a) % I(b);
        return U(floor && r != 0 && (r < 0) != (I(b) < 0) ? r + I(b) : r);
    };
    t.push_back({"DIVIDE", {S}, 2, {}, [=](U a, U b, U) { return quotient(a, b, true); }, &kDivisors});
    t.push_back({"DIVIDE", {W}, 2, {}, [=](U a, U b, U) { return quotient(a, b, false); }, &kDivisors});
    t.push_back({"MODULUS_TRUNCATE", {S}, 2, {}, [=](U a, U b, U) { return remainder(a, b, true, false); }, &kDivisors});
    t.push_back({"MODULUS_TRUNCATE", {W}, 2, {}, [=](U a, U b, U) { return remainder(a, b, false, false); }, &kDivisors});
    t.push_back({"MODULUS_FLOOR", {S}, 2, {}, [=](U a, U b, U) { return remainder(a, b, true, true); }, &kDivisors});
    t.push_back({"MODULUS_FLOOR", {W}, 2, {}, [=](U a, U b, U) { return remainder(a, b, false, true); }, &kDivisors});
    t.push_back({"MAX", {S}, 2, {}, [](U a, U b, U) { return U(std::max(I(a), I(b))); }});
    t.push_back({"MAX", {W}, 2, {}, [](U a, U b, U) { return std::max(a, b); }});
    t.push_back({"MIN", {S}, 2, {}, [](U a, U b, U) { return U(std::min(I(a), I(b))); }});
    t.push_back({"MIN", {W}, 2, {}, [](U a, U b, U) { return std::min(a, b); }});
    // CLIP's FLOAT Min/Max truncate and saturate to the type (float32 values: -3.5e18 is -3500000048152838144).
    t.push_back({"CLIP", {S}, 1, {{"Min", -3.5e18}, {"Max", 1e19}}, [](U a, U, U) {
                     return U(std::max(I(-3500000048152838144), I(a)));
                 }});
    t.push_back({"CLIP", {W}, 1, {{"Min", 5.0}, {"Max", 4294967296.0}}, [](U a, U, U) {
                     return std::max(U(5), std::min(a, U(4294967296)));
                 }});
    t.push_back({"CLIP1", {S}, 1, {{"MinMaxDataType", "INT64"}, {"Min", -9223372036854775803LL}, {"Max", 9223372032559808513LL}},
                 [](U a, U, U) { return U(std::max(I(-9223372036854775803LL), std::min(I(a), I(9223372032559808513LL)))); }});
    t.push_back({"CLIP1", {W}, 1, {{"MinMaxDataType", "UINT64"}, {"Min", 4294967295ULL}, {"Max", 18446744069414584321ULL}},
                 [](U a, U, U) { return std::max(U(4294967295ULL), std::min(a, U(18446744069414584321ULL))); }});
    const DataType u8 = DataType::kUint8, u32 = DataType::kUint32;
    t.push_back({"LOGICAL_EQUALS", both, 2, {}, [](U a, U b, U) { return U(a == b); }, &kEdges, u8});
    t.push_back({"LOGICAL_LESS_THAN", {S}, 2, {}, [](U a, U b, U) { return U(I(a) < I(b)); }, &kEdges, u32});
    t.push_back({"LOGICAL_LESS_THAN", {W}, 2, {}, [](U a, U b, U) { return U(a < b); }, &kEdges, u8});
    t.push_back({"LOGICAL_GREATER_THAN", {S}, 2, {}, [](U a, U b, U) { return U(I(a) > I(b)); }, &kEdges, u8});
    t.push_back({"LOGICAL_GREATER_THAN", {W}, 2, {}, [](U a, U b, U) { return U(a > b); }, &kEdges, u32});
    t.push_back({"LOGICAL_LESS_THAN_OR_EQUAL", {S}, 2, {}, [](U a, U b, U) { return U(I(a) <= I(b)); }, &kEdges, u8});
    t.push_back({"LOGICAL_LESS_THAN_OR_EQUAL", {W}, 2, {}, [](U a, U b, U) { return U(a <= b); }, &kEdges, u8});
    t.push_back({"LOGICAL_GREATER_THAN_OR_EQUAL", {S}, 2, {}, [](U a, U b, U) { return U(I(a) >= I(b)); }, &kEdges, u32});
    t.push_back({"LOGICAL_GREATER_THAN_OR_EQUAL", {W}, 2, {}, [](U a, U b, U) { return U(a >= b); }, &kEdges, u8});
    t.push_back({"BIT_AND", {S, W, D}, 2, {}, [](U a, U b, U) { return a & b; }});
    t.push_back({"BIT_OR", {W, D}, 2, {}, [](U a, U b, U) { return a | b; }});
    t.push_back({"BIT_XOR", {S, D}, 2, {}, [](U a, U b, U) { return a ^ b; }});
    t.push_back({"BIT_NOT", {W, S, D}, 1, {}, [](U a, U, U) { return ~a; }});
    t.push_back({"BIT_COUNT", {S, W, D}, 1, {}, [](U a, U, U) { return U(std::popcount(a)); }, &kEdges, u8});
    t.push_back({"BIT_SHIFT_LEFT", {W}, 2, {}, [](U a, U b, U) { return b >= 64 ? 0 : a << b; }, &kCounts});
    t.push_back({"BIT_SHIFT_RIGHT", {W}, 2, {}, [](U a, U b, U) { return b >= 64 ? 0 : a >> b; }, &kCounts});
    t.push_back({"IF", {S, W, D}, 3, {}, [](U c, U a, U b) { return c ? a : b; }});
    return t;
}

class ElementWiseKernel64Gpu : public ::testing::TestWithParam<size_t> {};
constexpr size_t kRowsPerChunk = 10;

TEST_P(ElementWiseKernel64Gpu, MatchesReferenceAndOracleBitForBit) {
    SKIP_WITHOUT_GPU();
    static const std::vector<Row64> rows = rows64();
    const std::vector<Layout> all = layouts();
    for (size_t r = GetParam() * kRowsPerChunk; r < std::min(rows.size(), (GetParam() + 1) * kRowsPerChunk); ++r) {
        // Each type on one layout (rotating), the first on a second: every (type, path) pair across the rows.
        for (size_t i = 0; i < rows[r].types.size(); ++i) {
            run(rows[r], rows[r].types[i], all[(r + i) % all.size()]);
            if (i == 0) run(rows[r], rows[r].types[i], all[(r + i + 2) % all.size()]);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Rows, ElementWiseKernel64Gpu,
                         ::testing::Range<size_t>(0, (rows64().size() + kRowsPerChunk - 1) / kRowsPerChunk));

// Every body with a 64-bit form is run above (ids as kernel_body_id makes them), and the paths are the intended ones.
TEST(ElementWiseKernel64Gpu, EveryWideBodyIsTestedOnItsPaths) {
    std::set<std::string> tested;
    for (const Row64& row : rows64()) {
        std::string id = row.op;
        for (char& ch : id) ch = char(std::tolower(static_cast<unsigned char>(ch)));
        if (id == "clip1") id = "clip";
        tested.insert(id);
    }
    for (std::string_view id : kernel_body_ids())
        if (find_kernel_body(id)->emit_wide) EXPECT_TRUE(tested.count(std::string(id))) << id << " has no 64-bit GPU test";
    for (const Layout& layout : layouts()) {
        ElementWiseProblem p;
        p.function = {"add", {}};
        p.sizes = kSizes;
        for (uint32_t k = 0; k < 2; ++k) p.inputs.push_back({DataType::kInt64, layout.input_strides[k], 8 * layout.input_elements, k});
        p.output = {DataType::kInt64, layout.output_strides, 8 * 256, 0};
        auto path = element_wise_path(p);
        ASSERT_TRUE(path.is_ok()) << path.status().message();
        EXPECT_EQ(path->lanes, layout.expected_lanes) << layout.name;
        EXPECT_EQ(path->groups, 1u) << layout.name;
        if (layout.name == "row_broadcast") EXPECT_EQ(path->input_modes, (std::vector<uint32_t>{1, 2}));
        if (layout.name == "gapped") EXPECT_EQ(path->input_modes, (std::vector<uint32_t>{0, 1}));
    }
}

// What stays refused: rows without a 64-bit form, FLOAT64 arithmetic, a FLOAT64 ScaleBias.
TEST(ElementWiseKernel64Gpu, RefusesWhatHasNo64BitForm) {
    ElementWiseProblem p;
    p.function = {"pow", {}};
    p.sizes = {4};
    p.inputs = {{DataType::kInt64, {1}, 32, 0}, {DataType::kInt64, {1}, 32, 1}};
    p.output = {DataType::kInt64, {1}, 32, 0};
    auto plan = plan_element_wise_problem(p);
    EXPECT_EQ(plan.status().code(), ErrorCode::kUnsupported);
    EXPECT_NE(plan.status().message().find("no 64-bit form"), std::string::npos) << plan.status().message();
    p.function = {"add", {}};
    for (KernelTensor* t : {&p.inputs[0], &p.inputs[1], &p.output}) t->type = DataType::kFloat64;
    EXPECT_EQ(plan_element_wise_problem(p).status().code(), ErrorCode::kUnsupported);
    p.function = {"identity", {}};
    p.inputs.pop_back();
    EXPECT_TRUE(plan_element_wise_problem(p).is_ok());
    p.scale_bias = std::pair{2.0f, 0.0f};
    EXPECT_EQ(plan_element_wise_problem(p).status().code(), ErrorCode::kUnsupported);
}

}  // namespace
}  // namespace dmltool::ops::element_wise
