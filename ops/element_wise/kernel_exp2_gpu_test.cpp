// The probed exp2 (DeviceCapability::kAccurateExp2, gpu/transcendental_probe.h) in the element-wise and softmax
// kernels, on the GPU backend (lavapipe in CI):
//  - the plans of the rows whose bodies use the exp instruction require the capability and carry the portable
//    plan as their fallback; rows without exponentials (and POW, SINH, COSH, CELU) do not;
//  - the rows run on this device (the fast plan where its exp passed the probe, the portable one elsewhere) and pass
//    the family's error bound at special values (0, subnormals, infinities, NaN, the branch points, the overflow and
//    underflow edges of e^x) and over a wide range, FLOAT32 and FLOAT16, with ScaleBias;
//  - a device whose exp fails the probe runs the fallback (bit for bit the portable plan's values), a plan without
//    one is refused naming the capability, and forcing the fast plan there (test hook) shows what its exp gives;
//  - the DXBC instructions of each fast body against its portable form.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gpu/transcendental_probe.h"
#include "ops/element_wise/family_testing.h"
#include "ops/element_wise/kernel.h"
#include "ops/element_wise/kernel_bodies.h"
#include "tests/testing/gpu_testing.h"
#include "tests/testing/op_testing.h"
#include "tests/testing/plan_replacing_op.h"

namespace dmltool::ops::element_wise {
namespace {

using nlohmann::json;

// This device's probe, run once (and printed: the record of what the CI device's exp does).
const gpu::Exp2Probe& device_probe() {
    static const gpu::Exp2Probe probe = [] {
        auto result = gpu::probe_exp2(dmltool::testing::test_gpu_backend(nullptr)->context());
        gpu::Exp2Probe p = result.is_ok() ? *result : gpu::Exp2Probe{};
        std::printf("exp2 probe: %s\n", p.summary().c_str());
        return p;
    }();
    return probe;
}

gpu::Exp2Probe forced(bool accurate) {
    gpu::Exp2Probe p;
    p.evaluations = 1;
    p.failures = accurate ? 0 : 1;
    p.first_failure = accurate ? "" : "exp made inaccurate by the test";
    return p;
}

// Special values, the bodies' branch points and the edges of e^x: overflow (88.72), the last normal result
// (-87.34), the last subnormal one (-103.28), and where e^x of any argument is 0 or infinite (+-104); then a range.
std::vector<float> test_inputs() {
    std::vector<float> v = {0.0f, -0.0f, 1e-40f, -1e-40f, 1e-30f, 1e-5f, -1e-5f, 0.25f, 1.0f, -2.5f, 3.92f,
                            1e30f, -1e30f, INFINITY, -INFINITY, NAN, -NAN};
    for (float point : {0.5625f, 0.875f, 1.23743687f, 4.0f, 5.65685425f, 9.0f, 10.0f, 88.7228394f, 87.3365479f,
                        103.278931f, 104.0f, 0.693147182f, 20.0f, 44.0f}) {
        for (float p : {point, std::nextafter(point, 0.0f), std::nextafter(point, 1000.0f)}) {
            v.push_back(p);
            v.push_back(-p);
        }
    }
    for (int i = 0; i <= 400; ++i) v.push_back(-12.0f + 0.06f * float(i));
    for (int i = 0; i <= 200; ++i) v.push_back(-110.0f + 1.1f * float(i) + 0.013f);
    while (v.size() % 16) v.push_back(0.5f);
    return v;
}

struct Row {
    const char* name;
    json attributes;
    bool scale_bias = false;  // the row has ScaleBias: also run with {1.5, -0.25}
    bool softmax = false;     // rows of 16
};

const std::vector<Row>& fast_rows() {
    static const std::vector<Row> rows = {
        {"ELEMENT_WISE_EXP", json::object(), true},
        {"ELEMENT_WISE_TANH", json::object(), true},
        {"ELEMENT_WISE_ERF", json::object(), true},
        {"ACTIVATION_SIGMOID", json::object()},
        {"ACTIVATION_TANH", json::object()},
        {"ACTIVATION_GELU", json::object()},
        {"ACTIVATION_ELU", {{"Alpha", 0.7}}},
        {"ACTIVATION_SCALED_ELU", {{"Alpha", 1.67}, {"Gamma", 1.05}}},
        {"ACTIVATION_SOFTPLUS", {{"Steepness", 2.0}}},
        {"ACTIVATION_PARAMETRIC_SOFTPLUS", {{"Alpha", 0.5}, {"Beta", 1.5}}},
        {"ACTIVATION_SCALED_TANH", {{"Alpha", 1.5}, {"Beta", 0.75}}},
        {"ACTIVATION_SWISH", {{"SigmoidInputScale", 1.25}}},
        {"ACTIVATION_SOFTMAX", json::object(), false, true},
        {"ACTIVATION_LOG_SOFTMAX", json::object(), false, true},
    };
    return rows;
}

struct Prepared {
    const Op* op = nullptr;
    std::unique_ptr<OpDesc> desc;
    HostTensor input;
};

Prepared prepare(const Row& row, DataType type, bool scale_bias) {
    static const OpRegistry registry = make_builtin_registry();
    Prepared p;
    p.op = registry.find(row.name);
    EXPECT_NE(p.op, nullptr) << row.name;
    const std::vector<float> x = test_inputs();
    const Dims sizes = row.softmax ? Dims{uint32_t(x.size() / 16), 16} : Dims{uint32_t(x.size())};
    const json t = dmltool::testing::tensor_json(type, sizes);
    json desc = row.attributes;
    desc["InputTensor"] = t;
    desc["OutputTensor"] = t;
    if (scale_bias) desc["ScaleBias"] = {{"Scale", 1.5}, {"Bias", -0.25}};
    auto parsed = dmltool::testing::parse_desc(*p.op, desc.dump());
    EXPECT_TRUE(parsed.is_ok()) << row.name << ": " << parsed.status().message();
    if (parsed.is_ok()) p.desc = std::move(parsed).value();
    TensorDesc input_desc;
    input_desc.data_type = type;
    input_desc.sizes = sizes;
    EXPECT_TRUE(validate_tensor_desc(input_desc, TensorRole::kInput, false).is_ok());
    p.input = HostTensor(input_desc);
    for (size_t i = 0; i < x.size(); ++i) p.input.set_from_double(i, double(x[i]));
    return p;
}

// Runs `op` (the real row, or a plan-replacing one) on the backend and judges it by the family's bound.
CompareResult run_and_judge(const Op& op, const Prepared& p, HostTensor* output = nullptr) {
    auto got = dmltool::testing::test_gpu_backend(nullptr)->execute(op, *p.desc, {&p.input}, nullptr);
    EXPECT_TRUE(got.is_ok()) << got.status().message();
    if (!got.is_ok()) return {};
    if (output) *output = (*got)[0];
    return testing::judge(testing::reference_of(*p.op, *p.desc, {&p.input}), (*got)[0]);
}

std::string first_mismatch(const CompareResult& r) { return r.mismatches.empty() ? "" : format_mismatch(r.mismatches[0]); }

TEST(ElementWiseExp2, FastRowsRequireTheCapabilityAndCarryThePortablePlan) {
    for (const Row& row : fast_rows()) {
        for (DataType type : {DataType::kFloat32, DataType::kFloat16}) {
            SCOPED_TRACE(std::string(row.name) + " " + std::string(data_type_name(type)));
            const Prepared p = prepare(row, type, false);
            ASSERT_TRUE(p.desc);
            auto plan = p.op->plan_device(*p.desc, {});
            ASSERT_TRUE(plan.is_ok()) << plan.status().message();
            EXPECT_TRUE(plan->requires_capability(DeviceCapability::kAccurateExp2));
            EXPECT_NE(plan->dispatches[0].label.find(" exp2"), std::string::npos) << plan->dispatches[0].label;
            // The chain: every smaller set of capabilities once, most first, down to none (FLOAT16 with the half
            // opcodes too); a plan's label says " exp2" exactly where it requires the instruction.
            const uint32_t half = uint32_t(DeviceCapability::kExactHalfOpcodes), exp2 = uint32_t(DeviceCapability::kAccurateExp2);
            const std::vector<uint32_t> expected = type == DataType::kFloat16 && !row.softmax
                                                       ? std::vector<uint32_t>{half | exp2, exp2, half, 0}
                                                       : std::vector<uint32_t>{exp2, 0};
            std::vector<uint32_t> chain;
            for (const DevicePlan* q = &*plan; q; q = q->fallback.get()) {
                chain.push_back(q->required_capabilities);
                EXPECT_EQ(q->dispatches[0].label.find(" exp2") != std::string::npos,
                          q->requires_capability(DeviceCapability::kAccurateExp2)) << q->dispatches[0].label;
            }
            EXPECT_EQ(chain, expected);
        }
    }
    // Rows that do not use it: no requirement, no extra plan.
    static const OpRegistry registry = make_builtin_registry();
    for (const char* name : {"ELEMENT_WISE_IDENTITY", "ELEMENT_WISE_LOG", "ELEMENT_WISE_SINH", "ACTIVATION_CELU",
                             "ACTIVATION_HARDMAX"}) {
        const Op* op = registry.find(name);
        ASSERT_NE(op, nullptr) << name;
        const json t = dmltool::testing::tensor_json(DataType::kFloat32, {4, 16});
        json desc{{"InputTensor", t}, {"OutputTensor", t}};
        if (std::string(name) == "ACTIVATION_CELU") desc["Alpha"] = 1.0;
        auto parsed = dmltool::testing::parse_desc(*op, desc.dump());
        ASSERT_TRUE(parsed.is_ok()) << name << ": " << parsed.status().message();
        auto plan = op->plan_device(**parsed, {});
        ASSERT_TRUE(plan.is_ok()) << plan.status().message();
        EXPECT_FALSE(plan->requires_capability(DeviceCapability::kAccurateExp2)) << name;
        EXPECT_EQ(plan->dispatches[0].label.find(" exp2"), std::string::npos) << plan->dispatches[0].label;
    }
}

// What this device runs (its own probe decides) passes the bound.
TEST(ElementWiseExp2, RowsPassTheFamilyBoundOnThisDevice) {
    SKIP_WITHOUT_GPU();
    std::printf("this device %s the fast plans (%s)\n", device_probe().accurate() ? "runs" : "does not run",
                device_probe().summary().c_str());
    for (const Row& row : fast_rows())
        for (DataType type : {DataType::kFloat32, DataType::kFloat16})
            for (bool scale_bias : {false, true}) {
                if (scale_bias && !row.scale_bias) continue;
                SCOPED_TRACE(std::string(row.name) + " " + std::string(data_type_name(type)) + (scale_bias ? " ScaleBias" : ""));
                const Prepared p = prepare(row, type, scale_bias);
                ASSERT_TRUE(p.desc);
                const CompareResult r = run_and_judge(*p.op, p);
                EXPECT_NE(r.verdict, Verdict::kFailed) << first_mismatch(r);
            }
}

// The fast plan itself, run whatever the probe found (the hook stands in for a passing probe). Where this device's
// exp passed, the rows must pass the bound. They must also where it failed by little (within 4 ulp: lavapipe's
// exp is 3.03 ulp off at worst, on 8 of the probe's inputs), since each body's budget leaves the bound room beyond
// [FS]'s 3 ulp (EXP: 6 + 1.224|x| of 16 + 2|x|): so lavapipe checks the fast bodies' formulas too. Farther off,
// the test prints what the fast bodies give instead.
TEST(ElementWiseExp2, FastPlansForcedOnThisDevice) {
    SKIP_WITHOUT_GPU();
    gpu::GpuBackend* backend = dmltool::testing::test_gpu_backend(nullptr);
    const bool accurate = device_probe().accurate() || device_probe().max_ulp <= 4;
    backend->set_exp2_probe_for_testing(forced(true));
    for (const Row& row : fast_rows())
        for (DataType type : {DataType::kFloat32, DataType::kFloat16}) {
            SCOPED_TRACE(std::string(row.name) + " " + std::string(data_type_name(type)));
            const Prepared p = prepare(row, type, row.scale_bias);
            ASSERT_TRUE(p.desc);
            const CompareResult r = run_and_judge(*p.op, p);
            if (accurate) EXPECT_NE(r.verdict, Verdict::kFailed) << first_mismatch(r);
            else if (r.verdict == Verdict::kFailed)
                std::printf("forced fast plan on an inaccurate exp: %s %s: %s\n", row.name,
                            std::string(data_type_name(type)).c_str(), first_mismatch(r).c_str());
        }
    backend->set_exp2_probe_for_testing(std::nullopt);
}

// A device whose exp fails the probe runs the fallback: the portable plan's values bit for bit, within the bound;
// without a fallback the plan is refused, naming what the device lacks.
TEST(ElementWiseExp2, InaccurateExpRunsThePortablePlan) {
    SKIP_WITHOUT_GPU();
    gpu::GpuBackend* backend = dmltool::testing::test_gpu_backend(nullptr);
    backend->set_exp2_probe_for_testing(forced(false));
    for (const Row& row : fast_rows())
        for (DataType type : {DataType::kFloat32, DataType::kFloat16}) {
            SCOPED_TRACE(std::string(row.name) + " " + std::string(data_type_name(type)));
            const Prepared p = prepare(row, type, row.scale_bias);
            ASSERT_TRUE(p.desc);
            HostTensor fallback_values, portable_values;
            const CompareResult r = run_and_judge(*p.op, p, &fallback_values);
            EXPECT_NE(r.verdict, Verdict::kFailed) << first_mismatch(r);
            // The portable plan alone: the first of the chain without the exp instruction (with the rest of its chain:
            // FLOAT16's integer-conversion twin where this device's half opcodes are not exact).
            const dmltool::testing::PlanReplacingOp portable(*p.op, [](const Op& real, const OpDesc& desc, const SemanticsOptions& s) -> Result<DevicePlan> {
                DMLTOOL_ASSIGN_OR_RETURN(DevicePlan plan, real.plan_device(desc, s));
                const DevicePlan* q = &plan;
                while (q && q->requires_capability(DeviceCapability::kAccurateExp2)) q = q->fallback.get();
                if (!q) return internal_error("no plan without the exp instruction");
                return DevicePlan(*q);
            });
            run_and_judge(portable, p, &portable_values);
            ASSERT_EQ(fallback_values.bytes().size(), portable_values.bytes().size());
            EXPECT_EQ(std::memcmp(fallback_values.bytes().data(), portable_values.bytes().data(), fallback_values.bytes().size()), 0);
            // Without its fallback: refused.
            const dmltool::testing::PlanReplacingOp alone(*p.op, [](const Op& real, const OpDesc& desc, const SemanticsOptions& s) -> Result<DevicePlan> {
                DMLTOOL_ASSIGN_OR_RETURN(DevicePlan plan, real.plan_device(desc, s));
                plan.fallback.reset();
                return plan;
            });
            auto refused = backend->execute(alone, *p.desc, {&p.input}, nullptr);
            ASSERT_FALSE(refused.is_ok());
            EXPECT_EQ(refused.status().code(), ErrorCode::kUnsupported);
            EXPECT_NE(refused.status().message().find("accurate exp2"), std::string::npos) << refused.status().message();
        }
    backend->set_exp2_probe_for_testing(std::nullopt);
}

// Instructions of each fast body against its portable form (one lane), printed for the record.
TEST(ElementWiseExp2, FastBodiesTakeFewerInstructions) {
    const auto count = [](const KernelBody& body, bool fast, bool* used) {
        shaders::ProgramBuilder b;
        shaders::Operand x = b.temp().x(), out = b.temp().x();
        std::vector<shaders::Operand> parameters;
        for (int i = 0; i < 4; ++i) parameters.push_back(b.root_constant(i));
        BodyContext c(b, 1, parameters, b.root_constant(4), {DataType::kFloat32}, DataType::kFloat32);
        c.allow_hardware_exp2(fast);
        const uint32_t before = b.instruction_count();
        const shaders::Operand in[] = {x};
        body.emit(c, in, out);
        *used = c.used_hardware_exp2();
        return b.instruction_count() - before;
    };
    std::printf("%-22s %9s %5s\n", "body", "portable", "exp2");
    for (std::string_view id : kernel_body_ids()) {
        const KernelBody* body = find_kernel_body(id);
        if (!body->hardware_exp2) continue;
        bool used_portable = false, used_fast = false;
        const uint32_t portable = count(*body, false, &used_portable), fast = count(*body, true, &used_fast);
        std::printf("%-22s %9u %5u\n", std::string(id).c_str(), portable, fast);
        EXPECT_FALSE(used_portable) << id;
        EXPECT_TRUE(used_fast) << id;
        EXPECT_LT(fast, portable) << id;
    }
    // Softmax's e^(x - max) (math::exp_nonpositive).
    uint32_t counts[2];
    for (bool fast : {false, true}) {
        shaders::ProgramBuilder b;
        shaders::Operand x = b.temp().x(), out = b.temp().x();
        BodyContext c(b, 1, {}, b.root_constant(0), {DataType::kFloat32}, DataType::kFloat32);
        c.allow_hardware_exp2(fast);
        math::exp_nonpositive(c, out, x);
        counts[fast] = b.instruction_count();
    }
    std::printf("%-22s %9u %5u\n", "softmax e^(x - max)", counts[0], counts[1]);
    EXPECT_LT(counts[1], counts[0]);
}

}  // namespace
}  // namespace dmltool::ops::element_wise
