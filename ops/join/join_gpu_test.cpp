// JOIN on the GPU backend (lavapipe in CI) against the CPU reference, bit-exact: every data type, 1 to 8
// dimensions, every axis, uneven inputs, packed / padded / permuted / broadcast inputs and packed / padded /
// permuted outputs (random bits: NaN payloads, -0.0 and denormals must survive).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "ops/split/layout_test_support.h"
#include "tests/testing/gpu_testing.h"
#include "tests/testing/op_testing.h"

namespace dmltool::ops::join {
namespace {

using namespace dmltool::testing::layouts;
using dmltool::testing::DifferentialCase;
using dmltool::testing::run_differential;
using nlohmann::json;

const Op& join_op() { return dmltool::testing::builtin_op("JOIN"); }

DifferentialCase make_case(DataType type, const Dims& base, uint32_t axis, const std::vector<uint32_t>& parts,
                           Layout input_layout, Layout output_layout, const std::string& name, uint64_t seed) {
    std::mt19937 rng{uint32_t(seed)};
    json inputs = json::array();
    DifferentialCase d;
    Dims out = base;
    out[axis] = 0;
    for (size_t i = 0; i < parts.size(); ++i) {
        Dims in = base;
        in[axis] = parts[i];
        out[axis] += parts[i];
        const TensorDesc desc = make_desc(type, in, make_strides(in, input_layout, rng), TensorRole::kInput);
        inputs.push_back(dmltool::testing::tensor_json(desc));
        d.inputs.push_back(random_bits_tensor(desc, seed * 31 + i));
    }
    const TensorDesc output = make_desc(type, out, make_strides(out, output_layout, rng), TensorRole::kOutput);
    d.name = name;
    d.op_type = "DML_OPERATOR_JOIN";
    d.desc_json = json({{"InputTensors", inputs}, {"OutputTensor", dmltool::testing::tensor_json(output)},
                        {"Axis", axis}}).dump();
    d.seed = seed;
    return d;
}

TEST(JoinGpu, RandomLayoutsEveryTypeAndRank) {
    SKIP_WITHOUT_GPU();
    const Layout input_layouts[] = {Layout::kPacked, Layout::kPadded, Layout::kPermuted, Layout::kBroadcast};
    const Layout output_layouts[] = {Layout::kPacked, Layout::kPadded, Layout::kPermuted};
    uint64_t seed = 3000;
    for (DataType type : all_movement_types()) {
        for (uint32_t rank = 1; rank <= 8; ++rank, ++seed) {
            std::mt19937 rng{uint32_t(seed)};
            Dims base(rank);
            uint64_t count = 1;
            for (uint32_t& s : base) {
                s = 1 + rng() % (count > 200 ? 2 : 5);
                count *= s;
            }
            const uint32_t axis = rng() % rank;
            std::vector<uint32_t> parts(1 + rng() % 4);
            for (uint32_t& p : parts) p = 1 + rng() % 4;
            const Layout in = input_layouts[rng() % 4];
            const Layout out = rank % 2 ? Layout::kPacked : output_layouts[rng() % 3];
            const std::string name = "join_gpu/" + std::string(data_type_name(type)) + "/rank" + std::to_string(rank) +
                                     "/" + layout_name(in) + "_" + layout_name(out);
            const auto result = run_differential(join_op(), make_case(type, base, axis, parts, in, out, name, seed));
            EXPECT_TRUE(result.passed) << result.message;
        }
    }
}

// Sub-word types joined along the innermost axis at odd offsets: neighbouring inputs share output words.
TEST(JoinGpu, SharedOutputWords) {
    SKIP_WITHOUT_GPU();
    uint64_t seed = 4000;
    for (DataType type : {DataType::kInt8, DataType::kUint8, DataType::kFloat16, DataType::kInt16}) {
        const auto result = run_differential(
            join_op(), make_case(type, {3, 5, 1}, 2, {1, 3, 2, 5, 1}, Layout::kPacked, Layout::kPacked,
                                 "join_gpu/shared_words/" + std::string(data_type_name(type)), seed++));
        EXPECT_TRUE(result.passed) << result.message;
    }
}

}  // namespace
}  // namespace dmltool::ops::join
