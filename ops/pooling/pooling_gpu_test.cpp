// The pooling family on the GPU backend (lavapipe in CI) against the CPU reference: randomized descs of every kind
// (types of every table row the kernel covers, 4-D and 5-D, strides, dilations, asymmetric padding, IncludePadding,
// indices, per-channel quantization, strided inputs and outputs), and planted bugs: the same cases with one root
// constant of the real plan changed (padding off by one, the wrong divisor, a wrong window or stride) must fail.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <set>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "tests/testing/plan_replacing_op.h"
#include "ops/pooling/kernel.h"
#include "ops/pooling/pooling.h"
#include "tests/testing/gpu_testing.h"
#include "shaders/testing/validate_blob.h"
#include "tests/testing/op_testing.h"

namespace dmltool::ops::pooling {
namespace {

using dmltool::testing::builtin_op;
using dmltool::testing::DifferentialCase;
using dmltool::testing::run_differential;
using nlohmann::json;

// The operator with a bug planted in its GPU plan's root constants; everything else is the real operator's.
dmltool::testing::PlanReplacingOp PlantedOp(const Op& real, std::function<void(std::vector<uint32_t>&)> plant) {
    return {real, [plant = std::move(plant)](const Op& op, const OpDesc& desc,
                                             const SemanticsOptions& semantics) -> Result<DevicePlan> {
                DMLTOOL_ASSIGN_OR_RETURN(DevicePlan plan, op.plan_device(desc, semantics));
                for (KernelDispatch& d : plan.dispatches) plant(d.root_constants);
                return plan;
            }};
}

struct Geometry {
    std::vector<uint32_t> window, strides, dilations, start, end;
};

uint32_t pooled(uint32_t in, uint32_t w, uint32_t s, uint32_t d, uint32_t a, uint32_t b) {
    return (in + a + b - ((w - 1) * d + 1)) / s + 1;
}

// A random geometry whose windows all reach the input: paddings below the window, dilation only with inputs
// large enough; sizes grown until the dilated window fits.
Geometry random_geometry(std::mt19937& rng, uint32_t spatial, bool dilations, std::vector<uint32_t>& sizes) {
    Geometry g;
    for (uint32_t i = 0; i < spatial; ++i) {
        const uint32_t w = 1 + rng() % 3, d = dilations && rng() % 3 == 0 ? 2 : 1;
        g.window.push_back(w);
        g.strides.push_back(1 + rng() % 2);
        g.dilations.push_back(d);
        g.start.push_back(w > 1 ? rng() % w : 0);
        g.end.push_back(w > 1 ? rng() % w : 0);
        uint32_t& in = sizes[2 + i];
        in = std::max<uint32_t>(in, (w - 1) * d + 2);  // >= 2 with dilation: a padded first tap has a neighbour
    }
    return g;
}

json tensor_json(DataType type, const std::vector<uint32_t>& sizes, bool strided) {
    if (!strided) return dmltool::testing::tensor_json(type, Dims(sizes.begin(), sizes.end()));
    // A gap of one element after every row and one row after every plane.
    Dims strides(sizes.size());
    uint64_t step = 1;
    for (size_t d = sizes.size(); d-- > 0;) {
        strides[d] = uint32_t(step);
        step *= sizes[d] + (d + 2 >= sizes.size() ? 1 : 0);
    }
    return dmltool::testing::tensor_json(type, Dims(sizes.begin(), sizes.end()), strides);
}

// One random case of `kind` (seeded), with the desc and inputs in slot order.
DifferentialCase random_case(PoolingKind kind, DataType type, uint64_t seed) {
    std::mt19937 rng{uint32_t(seed)};
    const uint32_t rank = rng() % 3 == 0 ? 5 : 4, spatial = rank - 2;
    std::vector<uint32_t> sizes(rank);
    sizes[0] = 1 + rng() % 2;
    sizes[1] = 1 + rng() % 3;
    for (uint32_t i = 0; i < spatial; ++i) sizes[2 + i] = 1 + rng() % (rank == 5 ? 5 : 9);
    const Geometry g = random_geometry(rng, spatial, has_dilations(kind), sizes);
    std::vector<uint32_t> out{sizes[0], sizes[1]};
    for (uint32_t i = 0; i < spatial; ++i)
        out.push_back(pooled(sizes[2 + i], g.window[i], g.strides[i], g.dilations[i], g.start[i], g.end[i]));
    const bool strided_in = rng() % 3 == 0, strided_out = rng() % 4 == 0;
    DataType out_type = type;
    if (is_quantized(kind)) out_type = rng() % 2 ? DataType::kInt8 : DataType::kUint8;
    json desc = {{"InputTensor", tensor_json(type, sizes, strided_in)}};
    DifferentialCase c;
    c.name = "pooling_gpu/" + std::to_string(int(kind)) + "/" + std::string(data_type_name(type)) + "/" +
             std::to_string(seed);
    c.seed = seed;
    const double lo = type == DataType::kUint8 ? 0 : type == DataType::kInt8 ? -128 : -1000;
    const double hi = type == DataType::kUint8 ? 255 : type == DataType::kInt8 ? 127 : 1000;
    c.inputs.push_back(dmltool::testing::random_tensor(type, Dims(sizes.begin(), sizes.end()), seed, lo, hi));
    if (is_quantized(kind)) {
        const bool per_channel = rng() % 2;
        const Dims quant{1, per_channel ? sizes[1] : 1u, 1, 1};
        desc["InputScaleTensor"] = dmltool::testing::tensor_json(DataType::kFloat32, quant);
        desc["InputZeroPointTensor"] = dmltool::testing::tensor_json(type, quant);
        desc["OutputScaleTensor"] = dmltool::testing::tensor_json(DataType::kFloat32, quant);
        desc["OutputZeroPointTensor"] = dmltool::testing::tensor_json(out_type, quant);
        const auto zp = [&](DataType t) { return t == DataType::kInt8 ? std::pair{-10.0, 10.0} : std::pair{110.0, 140.0}; };
        c.inputs.push_back(dmltool::testing::random_tensor(DataType::kFloat32, quant, seed + 1, 0.01, 0.05));
        c.inputs.push_back(dmltool::testing::random_tensor(type, quant, seed + 2, zp(type).first, zp(type).second));
        c.inputs.push_back(dmltool::testing::random_tensor(DataType::kFloat32, quant, seed + 3, 0.01, 0.05));
        c.inputs.push_back(dmltool::testing::random_tensor(out_type, quant, seed + 4, zp(out_type).first, zp(out_type).second));
    }
    desc["OutputTensor"] = tensor_json(out_type, out, strided_out);
    if (is_max(kind) && rng() % 2) desc["OutputIndicesTensor"] = tensor_json(DataType::kUint32, out, rng() % 2);
    desc["DimensionCount"] = spatial;
    desc["Strides"] = g.strides;
    desc["WindowSize"] = g.window;
    desc["StartPadding"] = g.start;
    desc["EndPadding"] = g.end;
    if (has_dilations(kind)) desc["Dilations"] = g.dilations;
    if (!is_max(kind)) desc["IncludePadding"] = bool(rng() % 2);
    c.desc_json = desc.dump();
    static const char* const kOpTypes[] = {"DML_OPERATOR_MAX_POOLING2", "DML_OPERATOR_AVERAGE_POOLING",
                                           "DML_OPERATOR_AVERAGE_POOLING1",
                                           "DML_OPERATOR_QUANTIZED_LINEAR_AVERAGE_POOLING"};
    c.op_type = kOpTypes[int(kind)];
    return c;
}

// The inputs re-made with the parsed desc's tensor descs (strides, total sizes): the backend uploads an input's
// physical image from its own desc. Logical values are unchanged.
DifferentialCase with_desc_layouts(const Op& op, DifferentialCase c) {
    auto desc = dmltool::testing::parse_desc(op, c.desc_json);
    if (!desc.is_ok()) return c;
    size_t i = 0;
    for (const TensorSlot& slot : op.tensors(**desc)) {
        if (slot.role != TensorRole::kInput) continue;
        if (i < c.inputs.size() && slot.desc && c.inputs[i].element_count()) {
            HostTensor t(*slot.desc);
            std::copy(c.inputs[i].bytes().begin(), c.inputs[i].bytes().end(), t.bytes().begin());
            c.inputs[i] = std::move(t);
        }
        ++i;
    }
    return c;
}

const Op& op_of(PoolingKind kind) {
    static const char* const kNames[] = {"MAX_POOLING2", "AVERAGE_POOLING", "AVERAGE_POOLING1",
                                         "QUANTIZED_LINEAR_AVERAGE_POOLING"};
    return builtin_op(kNames[int(kind)]);
}

TEST(PoolingGpu, RandomCasesOfEveryKindAndType) {
    SKIP_WITHOUT_GPU();
    const std::pair<PoolingKind, std::vector<DataType>> kinds[] = {
        {PoolingKind::kMaxPooling2,
         {DataType::kFloat32, DataType::kFloat16, DataType::kInt8, DataType::kUint8, DataType::kInt16,
          DataType::kUint16, DataType::kInt32, DataType::kUint32}},
        {PoolingKind::kAveragePooling, {DataType::kFloat32, DataType::kFloat16}},
        {PoolingKind::kAveragePooling1, {DataType::kFloat32, DataType::kFloat16}},
        {PoolingKind::kQuantizedLinearAveragePooling, {DataType::kInt8, DataType::kUint8}},
    };
    uint64_t seed = 7000;
    for (const auto& [kind, types] : kinds)
        for (DataType type : types)
            for (int i = 0; i < 4; ++i, ++seed) {
                const auto result =
                    run_differential(op_of(kind), with_desc_layouts(op_of(kind), random_case(kind, type, seed)));
                EXPECT_TRUE(result.passed) << result.message;
            }
}

// Every kernel variant the random cases build (and the ones with UINT64 indices and without zero points) is
// accepted by vkd3d's translator and spirv-val. Needs no GPU.
TEST(PoolingGpu, KernelsPassVkd3dAndSpirvVal) {
    std::set<const std::vector<uint8_t>*> seen;
    std::string missing_tools;
    const auto check = [&](PoolingKind kind, const std::string& desc_json) {
        const Op& op = op_of(kind);
        auto desc = dmltool::testing::parse_desc(op, desc_json);
        ASSERT_TRUE(desc.is_ok()) << desc.status().message();
        auto plan = op.plan_device(**desc, {});
        ASSERT_TRUE(plan.is_ok()) << plan.status().message();
        for (const KernelDispatch& d : plan->dispatches) {
            if (!seen.insert(d.dxbc.get()).second) continue;
            const auto validation = shaders::testing::validate_with_vkd3d(*d.dxbc, d.label);
            if (!validation.tools_found) {
                missing_tools = validation.log;
                return;
            }
            EXPECT_TRUE(validation.ok) << d.label << ": " << validation.log;
        }
    };
    uint64_t seed = 9000;
    for (PoolingKind kind : {PoolingKind::kMaxPooling2, PoolingKind::kAveragePooling, PoolingKind::kAveragePooling1,
                             PoolingKind::kQuantizedLinearAveragePooling})
        for (DataType type : {DataType::kFloat32, DataType::kFloat16, DataType::kInt8, DataType::kUint8,
                              DataType::kInt16, DataType::kUint16, DataType::kInt32, DataType::kUint32}) {
            if (!op_of(kind).feature_levels().back().tensors[0].types.contains(type)) continue;
            for (int i = 0; i < 6; ++i) check(kind, random_case(kind, type, seed++).desc_json);
        }
    json max = json::parse(random_case(PoolingKind::kMaxPooling2, DataType::kUint8, 1).desc_json);
    max["OutputIndicesTensor"] = max["OutputTensor"];
    max["OutputIndicesTensor"]["DataType"] = "UINT64";
    check(PoolingKind::kMaxPooling2, max.dump());
    json ql = json::parse(random_case(PoolingKind::kQuantizedLinearAveragePooling, DataType::kInt8, 2).desc_json);
    ql.erase("InputZeroPointTensor");
    ql.erase("OutputZeroPointTensor");
    check(PoolingKind::kQuantizedLinearAveragePooling, ql.dump());
    if (!missing_tools.empty()) GTEST_SKIP() << missing_tools;
    EXPECT_GE(seen.size(), 20u);
}

// A desc where every planted bug shows: padding on both sides of both dimensions, stride 1, a 3x3 window, and
// IncludePadding as given; one channel of a 6x7 input.
DifferentialCase planted_case(PoolingKind kind, bool include_padding) {
    json desc = {{"InputTensor", dmltool::testing::tensor_json(DataType::kFloat32, {1, 2, 6, 7})},
                 {"OutputTensor", dmltool::testing::tensor_json(DataType::kFloat32, {1, 2, 6, 7})},
                 {"DimensionCount", 2u},
                 {"Strides", {1u, 1u}},
                 {"WindowSize", {3u, 3u}},
                 {"StartPadding", {1u, 1u}},
                 {"EndPadding", {1u, 1u}}};
    if (has_dilations(kind)) desc["Dilations"] = {1u, 1u};
    if (!is_max(kind)) desc["IncludePadding"] = include_padding;
    DifferentialCase c;
    c.name = "pooling_gpu/planted/" + std::string(op_of(kind).name());
    c.op_type = "DML_OPERATOR_" + std::string(op_of(kind).name());
    c.desc_json = desc.dump();
    c.seed = 99;
    c.inputs.push_back(dmltool::testing::random_tensor(DataType::kFloat32, {1, 2, 6, 7}, 99, -100, 100));
    return c;
}

TEST(PoolingGpu, PlantedBugsFail) {
    SKIP_WITHOUT_GPU();
    struct Planted {
        const char* bug;
        PoolingKind kind;
        bool include_padding;
        std::function<void(std::vector<uint32_t>&)> plant;
    };
    const Planted planted[] = {
        {"padding off by one (max)", PoolingKind::kMaxPooling2, false, [](auto& c) { c[kPadW] += 1; }},
        {"padding off by one (average)", PoolingKind::kAveragePooling, true, [](auto& c) { c[kPadH] -= 1; }},
        {"padding excluded from the divisor with IncludePadding", PoolingKind::kAveragePooling, true,
         [](auto& c) { c[kIncludeCount] = 0; }},
        {"padding counted in the divisor without IncludePadding", PoolingKind::kAveragePooling1, false,
         [](auto& c) { c[kIncludeCount] = 9; }},
        {"max over a window one column short", PoolingKind::kMaxPooling2, false, [](auto& c) { c[kWinW] -= 1; }},
        {"max over a window one row too tall", PoolingKind::kMaxPooling2, false, [](auto& c) { c[kWinH] += 1; }},
        {"dilation 2 instead of 1", PoolingKind::kAveragePooling1, false, [](auto& c) { c[kDilW] = 2; }},
        {"window start from the wrong stride", PoolingKind::kMaxPooling2, false, [](auto& c) { c[kStrH] = 2; }},
    };
    for (const Planted& p : planted) {
        // The real plan passes the case; the planted one must not.
        const DifferentialCase c = planted_case(p.kind, p.include_padding);
        const auto real = run_differential(op_of(p.kind), c);
        EXPECT_TRUE(real.passed) << p.bug << ": the real kernel fails: " << real.message;
        const auto planted_op = PlantedOp(op_of(p.kind), p.plant);
        DifferentialCase bad = c;
        bad.name += "/planted";
        EXPECT_FALSE(run_differential(planted_op, bad).passed) << p.bug << ": not caught";
    }
}

}  // namespace
}  // namespace dmltool::ops::pooling
