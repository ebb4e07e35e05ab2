// The reference's 64-bit integer rows compute in integers: CLIP of INT64/UINT64 values beyond 2^53 is exact (through
// a double it rounded: 2^60 + 1 became 2^60), its FLOAT Min and Max truncated and saturated at the types' ends, and
// in the documented order max(Min, min(x, Max)).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ops/element_wise/engine.h"
#include "tests/testing/op_testing.h"

namespace dmltool::ops::element_wise {
namespace {

std::vector<uint64_t> clip(DataType type, double min, double max, const std::vector<uint64_t>& values) {
    static const std::unique_ptr<Op> clip_op = make_family_op(*find_function("ELEMENT_WISE_CLIP"));
    const Op& op = *clip_op;
    const Dims sizes = {uint32_t(values.size())};
    nlohmann::json desc = {{"InputTensor", testing::tensor_json(type, sizes)},
                           {"OutputTensor", testing::tensor_json(type, sizes)}, {"Min", min}, {"Max", max}};
    auto parsed = testing::parse_desc(op, desc.dump());
    EXPECT_TRUE(parsed.is_ok()) << parsed.status().message();
    if (!parsed.is_ok()) return {};
    TensorDesc tensor;
    tensor.data_type = type;
    tensor.sizes = sizes;
    EXPECT_TRUE(validate_tensor_desc(tensor, TensorRole::kInput, false).is_ok());
    HostTensor input(tensor);
    for (size_t i = 0; i < values.size(); ++i) input.set<uint64_t>(i, values[i]);
    auto outputs = testing::run_reference(op, **parsed, {&input});
    EXPECT_TRUE(outputs.is_ok()) << outputs.status().message();
    if (!outputs.is_ok()) return {};
    std::vector<uint64_t> out;
    for (size_t i = 0; i < values.size(); ++i) out.push_back((*outputs)[0].get<uint64_t>(i));
    return out;
}

TEST(ElementWiseReference64, ClipOfInt64IsExactAndSaturatesItsBounds) {
    const uint64_t big = (uint64_t{1} << 60) + 1, min64 = uint64_t{1} << 63, max64 = min64 - 1;
    // Bounds beyond the type: INT64_MIN and INT64_MAX themselves pass.
    EXPECT_EQ(clip(DataType::kInt64, -1e19, 1e19, {big, min64, max64, 0 - big}),
              (std::vector<uint64_t>{big, min64, max64, 0 - big}));
    // Min truncates toward zero (-2.5 -> -2), Max 2^62 exactly.
    EXPECT_EQ(clip(DataType::kInt64, -2.5, 0x1p62, {big, uint64_t(-3), max64, min64 + 1}),
              (std::vector<uint64_t>{big, uint64_t(-2), uint64_t{1} << 62, uint64_t(-2)}));
    // UINT64: unsigned order, Max beyond 2^64 is UINT64_MAX; Min above Max gives Min.
    EXPECT_EQ(clip(DataType::kUint64, 3, 1e20, {~uint64_t{0}, big, 1, min64 + 1}),
              (std::vector<uint64_t>{~uint64_t{0}, big, 3, min64 + 1}));
    EXPECT_EQ(clip(DataType::kUint64, 0x1p40, 5, {0, ~uint64_t{0}}), (std::vector<uint64_t>{uint64_t{1} << 40, uint64_t{1} << 40}));
}

}  // namespace
}  // namespace dmltool::ops::element_wise
