// The element-wise kernels' fast paths (kernel.cpp, kernel_math.cpp) on the GPU backend (lavapipe in CI):
//  - FLOAT16 through the f16tof32 / f32tof16 opcodes (where the device's probe found them exact) and through the
//    integer conversions: every one of the 65536 halves through IDENTITY, bit for bit (a NaN as any NaN);
//  - several groups of 4 elements per thread for narrow types: planned where the rows hold them, not elsewhere;
//  - tanh, erf and GELU at their branch points (tanh 0.5625, erf 0.875, the clamps 4, GELU's 4 sqrt 2 and 9; also
//    0.875 sqrt 2, GELU's branch point before its one-polynomial form),
//    at zeros, subnormals, infinities and NaN: within the ulps kernel_bodies.h states, and through the real rows
//    (plan_element_wise, the family's error bound) on FLOAT32 and FLOAT16.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <string>
#include <vector>

#include "gpu/half_opcode_probe.h"
#include "ops/element_wise/family_testing.h"
#include "ops/element_wise/kernel.h"
#include "ops/element_wise/kernel_problem_testing.h"
#include "tests/testing/gpu_testing.h"
#include "tests/testing/op_testing.h"

namespace dmltool::ops::element_wise {
namespace {

using nlohmann::json;

bool device_has_exact_half_opcodes() {
    static const bool exact = [] {
        auto probe = gpu::probe_half_opcodes(dmltool::testing::test_gpu_backend(nullptr)->context());
        return probe.is_ok() && probe->exact();
    }();
    return exact;
}

using problem_testing::ProblemDesc;
using ProblemOp = problem_testing::KernelProblemOp;

TensorDesc packed_desc(DataType type, const Dims& sizes) {
    TensorDesc desc;
    desc.data_type = type;
    desc.sizes = sizes;
    EXPECT_TRUE(validate_tensor_desc(desc, TensorRole::kInput, false).is_ok());  // computes total_size_in_bytes
    return desc;
}

// body(input) on the GPU, input and output of `type` and packed.
HostTensor run_unary(const std::string& body, const HostTensor& input, DataType output_type, ElementWiseKernelOptions options) {
    ProblemDesc desc;
    desc.options = options;
    desc.inputs = {packed_desc(input.data_type(), input.desc().sizes)};
    desc.output = packed_desc(output_type, input.desc().sizes);
    desc.problem.function = {body, {}};
    desc.problem.sizes = input.desc().sizes;
    desc.problem.inputs = {{input.data_type(), packed_strides(input.desc().sizes), desc.inputs[0].total_size_in_bytes, 0}};
    desc.problem.output = {output_type, packed_strides(input.desc().sizes), desc.output.total_size_in_bytes, 0};
    static ProblemOp op;
    auto outputs = dmltool::testing::test_gpu_backend(nullptr)->execute(op, desc, {&input}, nullptr);
    EXPECT_TRUE(outputs.is_ok()) << outputs.status().message();
    return outputs.is_ok() ? (*outputs)[0] : HostTensor(desc.output);
}

std::vector<ElementWiseKernelOptions> half_variants() {
    std::vector<ElementWiseKernelOptions> variants;
    for (bool native : {false, true}) {
        if (native && !device_has_exact_half_opcodes()) continue;
        for (uint32_t groups : {1u, 4u}) {
            ElementWiseKernelOptions o;
            o.native_half = native;
            o.max_groups = groups;
            variants.push_back(o);
        }
    }
    return variants;
}

TEST(ElementWiseFastPaths, EveryHalfThroughIdentityBitForBit) {
    SKIP_WITHOUT_GPU();
    HostTensor halves(packed_desc(DataType::kFloat16, {65536}));
    for (uint32_t h = 0; h < 65536; ++h) halves.set<uint16_t>(h, uint16_t(h));
    for (const ElementWiseKernelOptions& options : half_variants()) {
        SCOPED_TRACE(std::string(options.native_half ? "native" : "integer") + " conversions, groups <= " +
                     std::to_string(options.max_groups));
        const HostTensor got = run_unary("identity", halves, DataType::kFloat16, options);
        int failures = 0;
        for (uint32_t h = 0; h < 65536 && failures < 5; ++h) {
            const uint16_t g = got.get<uint16_t>(h);
            const bool nan = (h & 0x7fff) > 0x7c00;
            // NaN: any NaN (NVIDIA's f32tof16 writes 0x7fff for every one); everything else exactly, subnormals too.
            if (nan ? (g & 0x7fff) > 0x7c00 : g == h) continue;
            ++failures;
            ADD_FAILURE() << "half 0x" << std::hex << h << " came back as 0x" << g;
        }
    }
}

// Where the probe finds the opcodes inexact, the backend runs the plan's integer-conversion twin instead of refusing
// the plan (kUnsupported, as it still does for a native-half plan without a twin: resample's tuning variants).
TEST(ElementWiseFastPaths, InexactHalfOpcodesRunTheIntegerTwin) {
    SKIP_WITHOUT_GPU();
    gpu::GpuBackend* backend = dmltool::testing::test_gpu_backend(nullptr);
    gpu::HalfOpcodeProbe inexact;
    inexact.conversions = 1;
    inexact.mismatches = 1;
    inexact.first_mismatch = "f32tof16 made inexact by the test";
    backend->set_half_opcode_probe_for_testing(inexact);
    HostTensor halves(packed_desc(DataType::kFloat16, {65536}));
    for (uint32_t h = 0; h < 65536; ++h) halves.set<uint16_t>(h, uint16_t(h));
    ElementWiseKernelOptions native;
    native.native_half = true;
    const HostTensor got = run_unary("identity", halves, DataType::kFloat16, native);
    int failures = 0;
    for (uint32_t h = 0; h < 65536 && failures < 5; ++h) {
        const uint16_t g = got.get<uint16_t>(h);
        // The integer conversion keeps a NaN's sign and sets the quiet bit.
        if ((h & 0x7fff) > 0x7c00 ? (g & 0x7fff) > 0x7c00 : g == h) continue;
        ++failures;
        ADD_FAILURE() << "half 0x" << std::hex << h << " came back as 0x" << g;
    }
    backend->set_half_opcode_probe_for_testing(std::nullopt);
}

// The planner: narrow types get 2 or 4 groups where the rows hold them; the native-half plan carries its twin.
ElementWiseProblem packed_problem(const std::string& body, std::vector<DataType> inputs, DataType output, const Dims& sizes) {
    ElementWiseProblem p;
    p.function = {body, {}};
    p.sizes = sizes;
    for (uint32_t i = 0; i < inputs.size(); ++i) p.inputs.push_back({inputs[i], packed_strides(sizes), 1 << 20, i});
    p.output = {output, packed_strides(sizes), 1 << 20, 0};
    return p;
}

TEST(ElementWiseFastPaths, GroupsPerThreadFollowTheNarrowestRows) {
    const DataType f16 = DataType::kFloat16, f32 = DataType::kFloat32, i8 = DataType::kInt8, u8 = DataType::kUint8;
    struct Expect {
        ElementWiseProblem problem;
        uint32_t groups;
    };
    const std::vector<Expect> expectations = {
        {packed_problem("tanh", {f16}, f16, {16, 64, 256, 256}), 2},
        {packed_problem("add", {i8, i8}, i8, {16, 64, 256, 256}), 4},
        {packed_problem("tanh", {f32}, f32, {16, 64, 256, 256}), 1},
        {packed_problem("dequantize_linear", {u8, f32, u8}, f32, {4, 64}), 1},  // a FLOAT32 output: 16 bytes already
        {packed_problem("add", {i8, i8}, i8, {3, 5, 8}), 2},                 // rows of 120: 8 | 120, 16 does not
        {packed_problem("tanh", {f16}, f16, {3, 12}), 1},                        // rows of 36: 4 only
    };
    for (const Expect& e : expectations) {
        auto path = element_wise_path(e.problem);
        ASSERT_TRUE(path.is_ok()) << path.status().message();
        EXPECT_EQ(path->lanes, 4u) << e.problem.function.body;
        EXPECT_EQ(path->groups, e.groups) << e.problem.function.body << " " << e.problem.sizes.size();
    }
    ElementWiseKernelOptions one_group;
    one_group.max_groups = 1;
    EXPECT_EQ(element_wise_path(expectations[0].problem, one_group)->groups, 1u);
    // Native half: only where a FLOAT16 tensor is, and the plan carries the integer-conversion twin.
    ElementWiseKernelOptions native;
    native.native_half = true;
    auto plan = plan_element_wise_problem(expectations[0].problem, native);
    ASSERT_TRUE(plan.is_ok()) << plan.status().message();
    EXPECT_TRUE(plan->requires_capability(DeviceCapability::kExactHalfOpcodes));
    EXPECT_NE(plan->dispatches[0].label.find("native_half"), std::string::npos) << plan->dispatches[0].label;
    ASSERT_TRUE(plan->fallback);
    EXPECT_FALSE(plan->fallback->requires_capability(DeviceCapability::kExactHalfOpcodes));
    EXPECT_EQ(plan->fallback->dispatches[0].label.find("native_half"), std::string::npos);
    EXPECT_NE(*plan->fallback->dispatches[0].dxbc, *plan->dispatches[0].dxbc);
    plan = plan_element_wise_problem(expectations[2].problem, native);  // FLOAT32: nothing to convert
    ASSERT_TRUE(plan.is_ok());
    EXPECT_FALSE(plan->requires_capability(DeviceCapability::kExactHalfOpcodes));
    EXPECT_FALSE(plan->fallback);
}

// ---- tanh, erf, GELU at their branch points and special values

std::vector<float> special_inputs() {
    std::vector<float> v = {0.0f, -0.0f, 1e-40f, -1e-40f, 1e-30f, 1e-5f, -1e-5f, 0.25f, 1.0f, -2.5f, 3.92f,
                            1e30f, -1e30f, INFINITY, -INFINITY, NAN, -NAN};
    const float sqrt2 = 1.41421356f;
    // The branch points and clamps, with their neighbours.
    for (float point : {0.5625f, 0.875f, 0.875f * sqrt2, 4.0f, 4.0f * sqrt2, 9.0f}) {
        for (float p : {point, std::nextafter(point, 0.0f), std::nextafter(point, 100.0f)}) {
            v.push_back(p);
            v.push_back(-p);
        }
    }
    for (int i = 0; i <= 480; ++i) v.push_back(-12.0f + 0.05f * float(i));
    while (v.size() % 16) v.push_back(0.5f);
    return v;
}

double gelu_exact(double x) { return 0.5 * x * std::erfc(-x / std::sqrt(2.0)); }

int64_t ordered(float v) {
    const int32_t bits = std::bit_cast<int32_t>(v);
    return bits < 0 ? int64_t(INT32_MIN) - bits : bits;
}

TEST(ElementWiseFastPaths, TanhErfGeluAtBranchPointsAndSpecialValues) {
    SKIP_WITHOUT_GPU();
    const std::vector<float> x = special_inputs();
    HostTensor input(packed_desc(DataType::kFloat32, {uint32_t(x.size())}));
    for (size_t i = 0; i < x.size(); ++i) input.set<float>(i, x[i]);
    struct Function {
        std::string body;
        double (*exact)(double);
        int64_t ulps;
        double absolute;  // also accepted within this absolute error
    };
    const std::vector<Function> functions = {{"tanh", [](double v) { return std::tanh(v); }, 2, 0},
                                             {"erf", [](double v) { return std::erf(v); }, 5, 0},
                                             {"gelu", gelu_exact, 8, 6 * std::ldexp(1.0, -22)}};
    for (const Function& f : functions) {
        SCOPED_TRACE(f.body);
        const HostTensor got = run_unary(f.body, input, DataType::kFloat32, {});
        int failures = 0;
        for (size_t i = 0; i < x.size() && failures < 5; ++i) {
            const float g = got.get<float>(i);
            const double want = f.exact(double(x[i]));
            bool ok;
            if (std::isnan(x[i]) || std::isnan(want)) ok = std::isnan(g) || (f.body == "gelu" && x[i] == -INFINITY);
            else if (std::fabs(want) < 0x1p-126) ok = std::fabs(g) < 0x1p-126 || std::fabs(g - want) <= f.absolute;
            else ok = std::llabs(ordered(g) - ordered(float(want))) <= f.ulps || std::fabs(g - want) <= f.absolute;
            // The sign of zero: tanh and erf are odd. Saturated: exactly +-1 (SCALED_TANH's bound wants Alpha exactly
            // at infinite inputs), GELU exactly x or -0.
            if (ok && x[i] == 0 && f.body != "gelu") ok = std::signbit(g) == std::signbit(x[i]);
            if (ok && std::fabs(x[i]) >= 10 && !std::isnan(want)) ok = f.body == "gelu" ? g == (x[i] > 0 ? x[i] : 0.0f) : g == float(want);
            if (ok) continue;
            ++failures;
            ADD_FAILURE() << f.body << "(" << x[i] << ") = " << g << ", expected " << want;
        }
    }
}

// The rows themselves (plan_element_wise: native half where the probe allows, several groups) judged by the
// family's error bound, FLOAT32 and FLOAT16.
TEST(ElementWiseFastPaths, RowsPassTheFamilyBoundAtSpecialValues) {
    SKIP_WITHOUT_GPU();
    const OpRegistry registry = make_builtin_registry();
    const std::vector<float> x = special_inputs();
    for (const char* name : {"ELEMENT_WISE_TANH", "ELEMENT_WISE_ERF", "ACTIVATION_GELU", "ELEMENT_WISE_IDENTITY",
                             "ACTIVATION_TANH"}) {
        for (DataType type : {DataType::kFloat32, DataType::kFloat16}) {
            SCOPED_TRACE(std::string(name) + " " + std::string(data_type_name(type)));
            const Op* op = registry.find(name);
            ASSERT_NE(op, nullptr);
            const json t = dmltool::testing::tensor_json(type, {uint32_t(x.size())});
            auto desc = dmltool::testing::parse_desc(*op, json{{"InputTensor", t}, {"OutputTensor", t}}.dump());
            ASSERT_TRUE(desc.is_ok()) << desc.status().message();
            HostTensor input(packed_desc(type, {uint32_t(x.size())}));
            for (size_t i = 0; i < x.size(); ++i) input.set_from_double(i, double(x[i]));
            auto got = dmltool::testing::test_gpu_backend(nullptr)->execute(*op, **desc, {&input}, nullptr);
            ASSERT_TRUE(got.is_ok()) << got.status().message();
            const testing::Judged judged = testing::reference_of(*op, **desc, {&input});
            const CompareResult r = testing::judge(judged, (*got)[0]);
            EXPECT_NE(r.verdict, Verdict::kFailed) << (r.mismatches.empty() ? "" : format_mismatch(r.mismatches[0]));
        }
    }
}

}  // namespace
}  // namespace dmltool::ops::element_wise
