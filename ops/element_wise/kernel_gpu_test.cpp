// The element-wise emitter (kernel.h) on the GPU backend (lavapipe in CI) against a plain C++ oracle per body:
// every body on its data types, on the vector path (packed rows, broadcast inputs, row-broadcast inputs) and the
// one-element path (odd sizes, permuted inputs, padded outputs), with ScaleBias and a fused activation; tensors
// split over several views; every blob through vkd3d-compiler + spirv-val. Exactly rounded functions must match bit
// for bit (the oracle computes in the kernel's float32 / wrapping integer arithmetic); transcendental ones within
// the ulps their math:: building block states, against double precision.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "gpu/half_opcode_probe.h"
#include "ops/element_wise/kernel.h"
#include "ops/element_wise/kernel_bodies.h"
#include "ops/element_wise/kernel_problem_testing.h"
#include "ops/element_wise/reference_trig.h"
#include "shaders/testing/validate_blob.h"
#include "tests/testing/gpu_testing.h"

namespace dmltool::ops::element_wise {
namespace {

using problem_testing::KernelProblemOp;
using problem_testing::ProblemDesc;

TensorDesc make_desc(DataType type, const Dims& sizes, const Dims& strides) {
    TensorDesc desc;
    desc.data_type = type;
    desc.sizes = sizes;
    desc.strides = strides;
    EXPECT_TRUE(validate_tensor_desc(desc, TensorRole::kInput, false).is_ok());
    return desc;
}

Dims packed(const Dims& sizes) { return packed_strides(sizes); }

// ---- the oracle
enum class Check { kExact, kUlps };
struct BodyTest {
    std::string body;
    uint32_t inputs = 1;
    std::vector<DataType> types;            // one run per type (the inputs' type unless `input_types` says)
    std::optional<DataType> output_type;    // default: the type under test
    std::vector<double> parameters;         // converted to the type's domain (float bits or integers)
    double lo = -4, hi = 4;
    std::function<double(const std::vector<double>& x, const std::vector<double>& p)> f;
    Check check = Check::kExact;
    double ulps = 0;                        // kUlps: float32 ulps against the double result
    std::vector<DataType> input_types;      // explicit per-input types (quantization); then `types` = output types
    double absolute = 0;                    // kUlps: also passes within this absolute error (near zeros of sin)
};

// float32 as an ordered integer, for ulp distances.
int64_t ordered(float v) {
    const int32_t bits = std::bit_cast<int32_t>(v);
    return bits < 0 ? int64_t(INT32_MIN) - bits : bits;
}

float f32(double v) { return float(v); }

// The kernel's integer result of an exact integer function: the low bits of the type.
double wrap(double v, DataType type) {
    const int64_t i = int64_t(v);
    const uint32_t bits = uint32_t(element_size_in_bits(type));
    const uint64_t low = bits == 64 ? uint64_t(i) : uint64_t(i) & ((uint64_t{1} << bits) - 1);
    if (is_signed_integer(type) && bits < 64 && (low >> (bits - 1))) return double(int64_t(low) - (int64_t{1} << bits));
    return double(low);
}

// Attribute words as the desc adapter makes them: enums as integers, values in the tensors' domain (a value an
// unsigned type cannot hold is clamped to it, as a valid desc's scalar union would be).
std::vector<uint32_t> parameter_words(const std::string& body, const std::vector<double>& values, DataType domain) {
    std::vector<uint32_t> words;
    const bool enumeration = body == "round" || body == "is_infinity";
    for (double v : values) {
        if (is_float(domain) && !enumeration) {
            words.push_back(std::bit_cast<uint32_t>(float(v)));
        } else {
            if (is_integer(domain) && !is_signed_integer(domain)) v = std::max(v, 0.0);
            words.push_back(uint32_t(int32_t(int64_t(v))));
        }
    }
    return words;
}

struct Layout {
    std::string name;
    Dims sizes;
    std::vector<Dims> input_strides;  // per input (the last one repeats)
    std::optional<Dims> output_strides;
    bool vectorize = true;
    uint32_t expected_lanes = 4;
};

std::vector<Layout> layouts() {
    return {
        {"packed", {2, 3, 8, 16}, {packed({2, 3, 8, 16})}, std::nullopt, true, 4},
        // Input 1 repeats over dimension 0 (vector loads) or along the row (one load per thread).
        {"broadcast", {4, 6, 20}, {{120, 20, 1}, {0, 20, 1}, {6, 1, 0}}, std::nullopt, true, 4},
        // Odd sizes, a permuted and a broadcast input, a padded output: one element per thread.
        {"strided", {3, 5, 7}, {{1, 3, 15}, {0, 7, 1}, {35, 1, 5}}, Dims{48, 8, 1}, true, 1},
        {"packed_scalar", {5, 9, 11}, {packed({5, 9, 11})}, std::nullopt, false, 1},
        // Rows of 32: narrow types take 2 or 4 groups of 4 per thread; input 1's rows (overlapping, 4 elements apart)
        // are aligned for one group only (a load per group), input 2 is constant along the row (shared by the groups).
        {"grouped", {3, 5, 32}, {packed({3, 5, 32}), {0, 4, 1}, {5, 1, 0}}, std::nullopt, true, 4},
    };
}

// Runs `test` on `layout` with `type`; returns failures as text.
void run_case(const BodyTest& test, DataType type, const Layout& layout, uint64_t seed,
              std::optional<std::pair<float, float>> scale_bias = std::nullopt,
              std::optional<KernelFunction> activation = std::nullopt,
              std::function<double(double)> activation_f = nullptr, uint32_t window_log2 = shaders::kMaxViewBytesLog2,
              bool native_half = false) {
    const DataType output_type = test.output_type.value_or(type);
    SCOPED_TRACE(test.body + " " + std::string(data_type_name(type)) + " " + layout.name + (native_half ? " native_half" : ""));
    auto desc = std::make_unique<ProblemDesc>();
    desc->options.window_log2 = window_log2;
    desc->options.vectorize = layout.vectorize;
    desc->options.native_half = native_half;
    ElementWiseProblem& problem = desc->problem;
    problem.function = {test.body, parameter_words(test.body, test.parameters, type)};
    problem.sizes = layout.sizes;
    problem.scale_bias = scale_bias;
    problem.fused_activation = activation;
    std::vector<HostTensor> inputs;
    for (uint32_t i = 0; i < test.inputs; ++i) {
        // input_types: explicit per input, kUnknown standing for the type under test.
        const DataType input_type = test.input_types.empty() || test.input_types[i] == DataType::kUnknown ? type : test.input_types[i];
        const Dims& strides = layout.input_strides[std::min<size_t>(i, layout.input_strides.size() - 1)];
        desc->inputs.push_back(make_desc(input_type, layout.sizes, strides));
        double lo = test.lo, hi = test.hi;
        if (is_integer(input_type)) {
            lo = std::max(lo, double(integer_min(input_type)));
            hi = std::min(hi, double(integer_max(input_type)));
        }
        // Through the physical layout and back: broadcast elements then hold the value the device reads.
        HostTensor logical = testing::random_tensor(input_type, layout.sizes, seed * 31 + i, lo, hi);
        inputs.push_back(from_physical(desc->inputs.back(), to_physical(logical)));
        problem.inputs.push_back({input_type, strides, desc->inputs.back().total_size_in_bytes, i});
    }
    desc->output = make_desc(output_type, layout.sizes, layout.output_strides.value_or(packed(layout.sizes)));
    problem.output = {output_type, desc->output.effective_strides(), desc->output.total_size_in_bytes, 0};

    auto path = element_wise_path(problem, desc->options);
    ASSERT_TRUE(path.is_ok()) << path.status().message();
    EXPECT_EQ(path->lanes, layout.expected_lanes);
    uint32_t widest = uint32_t(element_size(output_type));
    bool any_half = output_type == DataType::kFloat16;
    for (const KernelTensor& input : problem.inputs) {
        if (input.type == DataType::kUnknown) continue;
        widest = std::max(widest, uint32_t(element_size(input.type)));
        any_half |= input.type == DataType::kFloat16;
    }
    if (layout.name == "grouped" || layout.name == "packed") EXPECT_EQ(path->groups, 4 / widest);
    EXPECT_EQ(path->native_half, native_half && any_half);

    static KernelProblemOp op;
    static std::set<size_t> validated;  // blob hashes
    auto plan = op.plan_device(*desc, {});
    ASSERT_TRUE(plan.is_ok()) << plan.status().message();
    for (const KernelDispatch& dispatch : plan->dispatches) {
        const std::string_view blob(reinterpret_cast<const char*>(dispatch.dxbc->data()), dispatch.dxbc->size());
        if (!validated.insert(std::hash<std::string_view>{}(blob)).second) continue;
        const auto validation = shaders::testing::validate_with_vkd3d(*dispatch.dxbc, dispatch.label);
        if (validation.tools_found) {
            EXPECT_TRUE(validation.ok) << dispatch.label << "\n" << validation.log;
        }
    }
    std::vector<const HostTensor*> input_pointers;
    for (const HostTensor& t : inputs) input_pointers.push_back(&t);
    auto outputs = testing::test_gpu_backend(nullptr)->execute(op, *desc, input_pointers, nullptr);
    ASSERT_TRUE(outputs.is_ok()) << outputs.status().message();
    const HostTensor& got = (*outputs)[0];

    int failures = 0;
    std::vector<double> x(test.inputs);
    for (uint64_t e = 0; e < got.element_count() && failures < 5; ++e) {
        for (uint32_t i = 0; i < test.inputs; ++i) x[i] = inputs[i].get_as_double(e);
        if (scale_bias && is_float(inputs[0].data_type())) x[0] = double(f32(f32(f32(x[0]) * scale_bias->first) + scale_bias->second));
        // The oracle sees the attribute values the kernel does: float32, or clamped to an unsigned type.
        std::vector<double> parameters = test.parameters;
        for (double& p : parameters) p = is_integer(type) && !is_signed_integer(type) ? std::max(p, 0.0) : double(f32(p));
        // BIT_COUNT counts the element's own bits, not those of its sign extension.
        if (test.body == "bit_count" && x[0] < 0) x[0] += std::ldexp(1.0, int(element_size_in_bits(type)));
        double r = test.f(x, parameters);
        if (activation_f) r = activation_f(double(f32(r)));
        bool ok = true;
        std::string expected_text;
        if (is_float(output_type)) {
            const float g = output_type == DataType::kFloat16 ? half_to_float(got.get<uint16_t>(e)) : got.get<float>(e);
            const float want = f32(r);
            if (std::isnan(want) || std::isnan(g)) {
                ok = std::isnan(want) == std::isnan(g);
            } else if (output_type == DataType::kFloat16) {
                const uint16_t want_half = float_to_half(want), got_half = got.get<uint16_t>(e);
                auto ordered_half = [](uint16_t h) { return h & 0x8000 ? -int32_t(h & 0x7fff) : int32_t(h); };
                const int32_t distance = std::abs(ordered_half(want_half) - ordered_half(got_half));
                // Within one half ulp (the float32 result may round to either neighbour), or the absolute allowance.
                ok = test.check == Check::kExact ? want_half == got_half : distance <= 1;
                if (!ok && test.absolute > 0) ok = std::abs(double(g) - r) <= test.absolute + std::ldexp(1.0, -25);
            } else {
                const int64_t distance = std::llabs(ordered(want) - ordered(g));
                ok = test.check == Check::kExact ? distance == 0 : distance <= int64_t(test.ulps);
                if (!ok && test.absolute > 0) ok = std::abs(double(g) - r) <= test.absolute;
                if (!ok && test.check == Check::kUlps && std::abs(r) < 1e-30) {
                    ok = std::abs(g) < 1e-30;  // underflow: flushed or not
                }
            }
            expected_text = std::to_string(want) + " got " + std::to_string(g) + " (" +
                            std::to_string(std::llabs(ordered(want) - ordered(g))) + " float32 ulps apart)";
        } else {
            const double want = std::isnan(r) ? r : wrap(r, output_type);
            ok = std::isnan(r) || want == got.get_as_double(e);  // NaN: the oracle leaves it open (x mod 0)
            expected_text = std::to_string(want) + " got " + std::to_string(got.get_as_double(e));
        }
        if (!ok) {
            ++failures;
            std::string args;
            for (double v : x) args += std::to_string(v) + " ";
            ADD_FAILURE() << "element " << e << " inputs " << args << ": expected " << expected_text;
        }
    }
}

double truth(double v) { return v != 0 ? 1 : 0; }

// A BodyTest with every member given (keeps the table's rows short and -Wmissing-field-initializers quiet).
BodyTest make(std::string body, uint32_t inputs, std::vector<DataType> types, std::optional<DataType> output_type,
              std::vector<double> parameters, double lo, double hi,
              std::function<double(const std::vector<double>&, const std::vector<double>&)> f,
              Check check = Check::kExact, double ulps = 0, std::vector<DataType> input_types = {}, double absolute = 0) {
    return BodyTest{std::move(body), inputs, std::move(types), output_type, std::move(parameters), lo, hi, std::move(f),
                    check, ulps, std::move(input_types), absolute};
}

std::vector<BodyTest> body_tests() {
    const std::vector<DataType> floats = {DataType::kFloat32, DataType::kFloat16};
    const std::vector<DataType> all = {DataType::kFloat32, DataType::kFloat16, DataType::kInt32, DataType::kUint8,
                                       DataType::kInt8, DataType::kUint16, DataType::kInt16, DataType::kUint32};
    const std::vector<DataType> ints = {DataType::kInt32, DataType::kUint8, DataType::kInt8, DataType::kUint16,
                                        DataType::kInt16, DataType::kUint32};
    using V = std::vector<double>;
    auto f1 = [](double (*fn)(double)) { return [fn](const V& x, const V&) { return fn(x[0]); }; };
    // Float exact functions are computed in float32 like the kernel.
    auto ff1 = [](std::function<float(float)> fn) { return [fn](const V& x, const V&) { return double(fn(f32(x[0]))); }; };
    auto ff2 = [](std::function<float(float, float)> fn) {
        return [fn](const V& x, const V&) { return double(fn(f32(x[0]), f32(x[1]))); };
    };
    auto cmp = [](std::function<bool(double, double)> fn) { return [fn](const V& x, const V&) { return fn(x[0], x[1]) ? 1.0 : 0.0; }; };
    std::vector<BodyTest> t;
    t.push_back(make("identity", 1, all, {}, {}, -100, 100, [](const V& x, const V&) { return x[0]; }));
    t.push_back(make("abs", 1, all, {}, {}, -100, 100, [](const V& x, const V&) { return std::abs(x[0]); }));
    t.push_back(make("negate", 1, all, {}, {}, -100, 100, [](const V& x, const V&) { return -x[0]; }));
    t.push_back(make("relu", 1, all, {}, {}, -100, 100, [](const V& x, const V&) { return std::max(x[0], 0.0); }));
    t.push_back(make("clip", 1, all, {}, {-20, 30}, -100, 100, [](const V& x, const V& p) { return std::min(std::max(x[0], p[0]), p[1]); }));
    // Min > Max: the documented max(Min, min(x, Max)) is Min (integers; floats clamp in the other order).
    t.push_back(make("clip", 1, ints, {}, {30, -20}, -100, 100, [](const V& x, const V& p) { return std::max(p[0], std::min(x[0], p[1])); }));
    t.push_back(make("sign", 1, all, {}, {}, -100, 100, [](const V& x, const V&) { return double((x[0] > 0) - (x[0] < 0)); }));
    t.push_back(make("threshold", 1, floats, {}, {0.5}, -4, 4, [](const V& x, const V& p) { return std::max(x[0], p[0]); }));
    t.push_back(make("ceil", 1, floats, {}, {}, -40, 40, f1(std::ceil)));
    t.push_back(make("floor", 1, floats, {}, {}, -40, 40, f1(std::floor)));
    t.push_back(make("round", 1, floats, {}, {0}, -40, 40, [](const V& x, const V&) { return std::nearbyint(x[0]); }));
    t.push_back(make("round", 1, floats, {}, {1}, -40, 40, f1(std::trunc)));
    t.push_back(make("round", 1, floats, {}, {2}, -40, 40, f1(std::round)));
    t.push_back(make("recip", 1, floats, {}, {}, 0.1, 40, ff1([](float v) { return 1.0f / v; })));
    t.push_back(make("sqrt", 1, floats, {}, {}, 0, 100, ff1([](float v) { return std::sqrt(v); })));
    t.push_back(make("add", 2, all, {}, {}, -100, 100, ff2([](float a, float b) { return a + b; })));
    t.push_back(make("subtract", 2, all, {}, {}, -100, 100, ff2([](float a, float b) { return a - b; })));
    t.push_back(make("multiply", 2, all, {}, {}, -100, 100, ff2([](float a, float b) { return a * b; })));
    t.push_back(make("divide", 2, floats, {}, {}, 0.5, 100, ff2([](float a, float b) { return a / b; })));
    // Integers truncate; a zero divisor gives 0 (the reference's value); INT32_MIN / -1 wraps.
    const auto integer_quotient = [](const V& x, const V&) {
        return x[1] == 0 ? 0.0 : double(int64_t(x[0]) / int64_t(x[1]));
    };
    t.push_back(make("divide", 2, ints, {}, {}, -100, 100, integer_quotient));
    t.push_back(make("divide", 2, {DataType::kInt32, DataType::kUint32}, {}, {}, -5e9, 5e9, integer_quotient));
    t.push_back(make("min", 2, all, {}, {}, -100, 100, [](const V& x, const V&) { return std::min(x[0], x[1]); }));
    t.push_back(make("max", 2, all, {}, {}, -100, 100, [](const V& x, const V&) { return std::max(x[0], x[1]); }));
    t.push_back(make("mean", 2, floats, {}, {}, -100, 100, ff2([](float a, float b) { return (a + b) * 0.5f; })));
    t.push_back(make("difference_square", 2, floats, {}, {}, -100, 100, ff2([](float a, float b) { return (a - b) * (a - b); })));
    for (DataType out : {DataType::kUint8}) {
        t.push_back(make("logical_equals", 2, all, out, {}, -3, 3, cmp([](double a, double b) { return a == b; })));
        t.push_back(make("logical_less_than", 2, all, out, {}, -3, 3, cmp([](double a, double b) { return a < b; })));
        t.push_back(make("logical_greater_than", 2, all, out, {}, -3, 3, cmp([](double a, double b) { return a > b; })));
        t.push_back(make("logical_less_than_or_equal", 2, all, out, {}, -3, 3, cmp([](double a, double b) { return a <= b; })));
        t.push_back(make("logical_greater_than_or_equal", 2, all, out, {}, -3, 3, cmp([](double a, double b) { return a >= b; })));
        t.push_back(make("logical_and", 2, {DataType::kUint8, DataType::kFloat32}, out, {}, 0, 2, cmp([](double a, double b) { return truth(a) && truth(b); })));
        t.push_back(make("logical_or", 2, {DataType::kUint8}, out, {}, 0, 2, cmp([](double a, double b) { return truth(a) || truth(b); })));
        t.push_back(make("logical_xor", 2, {DataType::kUint8}, out, {}, 0, 2, cmp([](double a, double b) { return truth(a) != truth(b); })));
        t.push_back(make("logical_not", 1, {DataType::kUint8}, out, {}, 0, 2, [](const V& x, const V&) { return 1 - truth(x[0]); }));
        t.push_back(make("is_nan", 1, {DataType::kFloat32}, out, {}, -3, 3, [](const V& x, const V&) { return std::isnan(x[0]) ? 1.0 : 0.0; }));
    }
    auto bits = [](double v, DataType type) { return uint64_t(int64_t(v)) & ((uint64_t{1} << element_size_in_bits(type)) - 1); };
    (void)bits;
    t.push_back(make("bit_and", 2, ints, {}, {}, -1e9, 1e9, [](const V& x, const V&) { return double(int64_t(x[0]) & int64_t(x[1])); }));
    t.push_back(make("bit_or", 2, ints, {}, {}, -1e9, 1e9, [](const V& x, const V&) { return double(int64_t(x[0]) | int64_t(x[1])); }));
    t.push_back(make("bit_xor", 2, ints, {}, {}, -1e9, 1e9, [](const V& x, const V&) { return double(int64_t(x[0]) ^ int64_t(x[1])); }));
    t.push_back(make("bit_not", 1, ints, {}, {}, -1e9, 1e9, [](const V& x, const V&) { return double(~int64_t(x[0])); }));
    t.push_back(make("bit_shift_left", 2, {DataType::kUint32, DataType::kInt16, DataType::kUint8}, {}, {}, 0, 40,
                 [](const V& x, const V&) { return x[1] > 31 ? 0.0 : double(int64_t(x[0]) << int64_t(x[1])); }));
    t.push_back(make("bit_shift_right", 2, {DataType::kUint32, DataType::kInt16}, {}, {}, 0, 40,
                 [](const V& x, const V&) { return double(int64_t(x[0]) >> std::min<int64_t>(int64_t(x[1]), 40)); }));
    t.push_back(make("bit_count", 1, ints, {}, {}, -1e9, 1e9, [](const V& x, const V&) { return double(std::popcount(uint64_t(int64_t(x[0])) & 0xffffffffu)); }));
    // Transcendentals and activations against double precision.
    const Check U = Check::kUlps;
    t.push_back(make("exp", 1, floats, {}, {}, -90, 90, f1(std::exp), U, 2));
    t.push_back(make("log", 1, floats, {}, {}, 1e-6, 1e6, f1(std::log), U, 2));
    t.push_back(make("exp", 1, floats, {}, {}, -8, 8, f1(std::exp), U, 2));
    t.push_back(make("log", 1, floats, {}, {}, 0.5, 2, f1(std::log), U, 2));
    t.push_back(make("tanh", 1, floats, {}, {}, -10, 10, f1(std::tanh), U, 5));
    t.push_back(make("sigmoid", 1, floats, {}, {}, -30, 30, [](const V& x, const V&) { return 1 / (1 + std::exp(-x[0])); }, U, 4));
    t.push_back(make("leaky_relu", 1, floats, {}, {0.25}, -4, 4, [](const V& x, const V& p) { return x[0] >= 0 ? x[0] : double(f32(x[0] * p[0])); }));
    t.push_back(make("linear", 1, floats, {}, {1.5, -0.25}, -4, 4, [](const V& x, const V& p) { return double(f32(f32(x[0] * p[0]) + f32(p[1]))); }));
    t.push_back(make("elu", 1, floats, {}, {0.75}, -6, 4, [](const V& x, const V& p) { return x[0] >= 0 ? x[0] : p[0] * std::expm1(x[0]); }, U, 4));
    t.push_back(make("scaled_elu", 1, floats, {}, {1.67326, 1.0507}, -6, 4, [](const V& x, const V& p) { return p[1] * (x[0] > 0 ? x[0] : p[0] * std::expm1(x[0])); }, U, 5));
    t.push_back(make("celu", 1, floats, {}, {1.5}, -6, 4, [](const V& x, const V& p) { return std::max(0.0, x[0]) + std::min(0.0, p[0] * std::expm1(x[0] / p[0])); }, U, 6));
    t.push_back(make("thresholded_relu", 1, floats, {}, {0.5}, -4, 4, [](const V& x, const V& p) { return x[0] > p[0] ? x[0] : 0.0; }));
    t.push_back(make("hard_sigmoid", 1, floats, {}, {0.2, 0.5}, -6, 6, [](const V& x, const V& p) { return std::clamp(double(f32(f32(x[0] * p[0]) + f32(p[1]))), 0.0, 1.0); }));
    t.push_back(make("hard_swish", 1, floats, {}, {1.0 / 6, 0.5}, -6, 6, [](const V& x, const V& p) { return x[0] * std::clamp(double(f32(f32(x[0] * f32(p[0])) + f32(p[1]))), 0.0, 1.0); }, U, 1));
    t.push_back(make("softsign", 1, floats, {}, {}, -10, 10, [](const V& x, const V&) { return x[0] / (1 + std::abs(x[0])); }, U, 2));
    t.push_back(make("softplus", 1, floats, {}, {2}, -10, 10, [](const V& x, const V& p) { return std::log1p(std::exp(p[0] * x[0])) / p[0]; }, U, 6));
    t.push_back(make("parametric_softplus", 1, floats, {}, {1.5, 0.5}, -10, 10, [](const V& x, const V& p) { return p[0] * std::log1p(std::exp(p[1] * x[0])); }, U, 6));
    t.push_back(make("scaled_tanh", 1, floats, {}, {1.7159, 0.6667}, -10, 10, [](const V& x, const V& p) { return p[0] * std::tanh(double(f32(x[0] * p[1]))); }, U, 6));
    t.push_back(make("shrink", 1, floats, {}, {0.25, 1}, -4, 4, [](const V& x, const V& p) { return x[0] < -p[1] ? double(f32(x[0] + p[0])) : x[0] > p[1] ? double(f32(x[0] - p[0])) : 0.0; }));
    t.push_back(make("swish", 1, floats, {}, {1.5}, -20, 20, [](const V& x, const V& p) { return x[0] / (1 + std::exp(-double(f32(x[0] * p[0])))); }, U, 5));
    t.push_back(make("parameterized_relu", 2, floats, {}, {}, -4, 4, [](const V& x, const V&) { return x[0] >= 0 ? x[0] : double(f32(x[0] * x[1])); }));
    t.push_back(make("if", 3, {DataType::kFloat32, DataType::kInt8, DataType::kFloat16}, {}, {}, -3, 3,
                     [](const V& x, const V&) { return x[0] > 0 ? x[1] : x[2]; }, Check::kExact, 0,
                     {DataType::kUint8, DataType::kUnknown, DataType::kUnknown}));
    // Quantization: `types` are output types, the inputs' types explicit.
    t.push_back(make("quantize_linear", 3, {DataType::kInt8}, {}, {}, -3, 3,
                 [](const V& x, const V&) { return std::clamp(std::nearbyint(double(f32(f32(x[0]) / f32(x[1])))) + x[2], -128.0, 127.0); },
                 Check::kExact, 0, {DataType::kFloat32, DataType::kFloat32, DataType::kInt8}));
    t.push_back(make("dequantize_linear", 3, {DataType::kFloat32}, {}, {}, -3, 3,
                 [](const V& x, const V&) { return double(f32(f32(x[0] - x[2]) * f32(x[1]))); },
                 Check::kExact, 0, {DataType::kUint8, DataType::kFloat32, DataType::kUint8}));
    const std::vector<DataType> float32_only = {DataType::kFloat32};
    const double tiny = std::ldexp(1.0, -26);
    t.push_back(make("sin", 1, floats, {}, {}, -10, 10, f1(reference_sin), U, 3, {}, tiny));
    t.push_back(make("sin", 1, float32_only, {}, {}, -8000, 8000, f1(reference_sin), U, 3, {}, tiny));
    t.push_back(make("cos", 1, floats, {}, {}, -10, 10, f1(reference_cos), U, 3, {}, tiny));
    t.push_back(make("tan", 1, floats, {}, {}, -1.5, 1.5, f1(reference_tan), U, 7, {}, tiny));
    // Beyond |x| = 8192 (Payne-Hanek: Cody-Waite's tan(2.98e7) was 70.8 for -0.757), up to float32's largest.
    for (double range : {1e5, 3e7, 1e12, 1e20, 3.4e38}) {
        t.push_back(make("sin", 1, float32_only, {}, {}, -range, range, f1(reference_sin), U, 3, {}, tiny));
        t.push_back(make("cos", 1, float32_only, {}, {}, -range, range, f1(reference_cos), U, 3, {}, tiny));
        t.push_back(make("tan", 1, float32_only, {}, {}, -range, range, f1(reference_tan), U, 7, {}, tiny));
    }
    t.push_back(make("atan", 1, floats, {}, {}, -10, 10, f1(std::atan), U, 4));
    t.push_back(make("asin", 1, floats, {}, {}, -1, 1, f1(std::asin), U, 6));
    t.push_back(make("acos", 1, floats, {}, {}, -1, 1, f1(std::acos), U, 6));
    t.push_back(make("atan_yx", 2, floats, {}, {}, -4, 4, [](const V& x, const V&) { return std::atan2(x[0], x[1]); }, U, 5));
    t.push_back(make("sinh", 1, floats, {}, {}, -10, 10, f1(std::sinh), U, 5));
    t.push_back(make("sinh", 1, float32_only, {}, {}, -89, 89, f1(std::sinh), U, 6));
    t.push_back(make("cosh", 1, floats, {}, {}, -10, 10, f1(std::cosh), U, 4));
    t.push_back(make("asinh", 1, floats, {}, {}, -100, 100, f1(std::asinh), U, 6));
    t.push_back(make("acosh", 1, floats, {}, {}, 1, 100, f1(std::acosh), U, 6));
    t.push_back(make("atanh", 1, floats, {}, {}, -0.99, 0.99, f1(std::atanh), U, 6));
    t.push_back(make("pow", 2, floats, {}, {}, 0.25, 3, [](const V& x, const V&) { return std::pow(x[0], x[1]); }, U, 10));
    t.push_back(make("constant_pow", 1, floats, {}, {2.5}, 0.1, 10, [](const V& x, const V& p) { return std::pow(x[0], p[0]); }, U, 15));
    // POW from feature level 3.0: integer exponents of float bases (the sign from the exponent's parity), and
    // integer bases with integer exponents, exact with wrap-around (|x|^e <= 10^10: exact in double); a negative
    // exponent truncates 1 / x^-e.
    const auto integer_power = [](const V& x, const V&) {
        if (x[1] < 0) return x[0] == 1 ? 1.0 : x[0] == -1 ? (std::fmod(x[1], 2.0) != 0 ? -1.0 : 1.0) : 0.0;
        return std::pow(x[0], x[1]);
    };
    t.push_back(make("pow", 2, floats, {}, {}, -3, 3, [](const V& x, const V&) { return std::pow(x[0], x[1]); }, U, 10,
                     {DataType::kUnknown, DataType::kInt32}));
    t.push_back(make("pow", 2, floats, {}, {}, 0.5, 4, [](const V& x, const V&) { return std::pow(x[0], x[1]); }, U, 10,
                     {DataType::kUnknown, DataType::kUint8}));
    t.push_back(make("pow", 2, {DataType::kInt32, DataType::kInt8, DataType::kUint16, DataType::kUint32}, {}, {}, -10, 10,
                     integer_power));
    t.push_back(make("pow", 2, {DataType::kUint8, DataType::kInt16}, {}, {}, -6, 6, integer_power, Check::kExact, 0,
                     {DataType::kUnknown, DataType::kInt8}));
    t.push_back(make("erf", 1, floats, {}, {}, -4.5, 4.5, f1(std::erf), U, 8));
    t.push_back(make("erf", 1, float32_only, {}, {}, -1.2, 1.2, f1(std::erf), U, 8));
    t.push_back(make("gelu", 1, floats, {}, {}, -6, 6, [](const V& x, const V&) { return 0.5 * x[0] * std::erfc(-x[0] / std::sqrt(2.0)); },
                     U, 8, {}, 6 * std::ldexp(1.0, -22)));
    const std::vector<DataType> modulus_types = {DataType::kInt32, DataType::kInt8, DataType::kUint16};
    t.push_back(make("modulus_truncate", 2, modulus_types, {}, {}, -100, 100,
                     [](const V& x, const V&) { return x[1] == 0 ? 0.0 : std::fmod(x[0], x[1]); }));  // b = 0: 0, as the reference
    t.push_back(make("modulus_floor", 2, modulus_types, {}, {}, -100, 100, [](const V& x, const V&) {
                     if (x[1] == 0) return 0.0;
                     const double r = std::fmod(x[0], x[1]);
                     return r != 0 && (r < 0) != (x[1] < 0) ? r + x[1] : r;
                 }));
    t.push_back(make("is_infinity", 1, {DataType::kFloat32}, DataType::kUint8, {0}, -3, 3, [](const V& x, const V&) { return std::isinf(x[0]) ? 1.0 : 0.0; }));
    // (A - Az) As + (B - Bz) Bs, requantized.
    t.push_back(make("quantized_linear_add", 8, {DataType::kUint8}, {}, {}, 0, 4,
                 [](const V& x, const V&) {
                     const float a = f32(f32(x[0] - x[2]) * f32(x[1])), b = f32(f32(x[3] - x[5]) * f32(x[4]));
                     return std::clamp(std::nearbyint(double(f32(f32(a + b) / f32(x[6])))) + x[7], 0.0, 255.0);
                 },
                 Check::kExact, 0,
                 {DataType::kUint8, DataType::kFloat32, DataType::kUint8, DataType::kUint8, DataType::kFloat32,
                  DataType::kUint8, DataType::kFloat32, DataType::kUint8}));
    return t;
}

// Bodies run in chunks: one ctest process per chunk rather than per body (each process opens the device once; per
// body, ctest spent 91 s of process time on what takes 16 s in one process).
constexpr size_t kBodiesPerChunk = 12;

bool device_has_exact_half_opcodes() {
    static const bool exact = [] {
        auto probe = gpu::probe_half_opcodes(testing::test_gpu_backend(nullptr)->context());
        return probe.is_ok() && probe->exact();
    }();
    return exact;
}

class ElementWiseKernelGpu : public ::testing::TestWithParam<size_t> {};

TEST_P(ElementWiseKernelGpu, BodiesMatchOracleOnEveryPath) {
    SKIP_WITHOUT_GPU();
    static const std::vector<BodyTest> tests = body_tests();
    const std::vector<Layout> all_layouts = layouts();
    const size_t first = GetParam() * kBodiesPerChunk;
    for (size_t index = first; index < std::min(tests.size(), first + kBodiesPerChunk); ++index) {
        const BodyTest& test = tests[index];
        uint64_t seed = 100 * index;
        // Each type on one layout (rotating), so every (type, path) pair is met across the bodies at CI cost.
        for (size_t i = 0; i < test.types.size(); ++i) {
            const DataType type = test.types[i];
            run_case(test, type, all_layouts[(i + index) % all_layouts.size()], ++seed);
            if (i == 0) run_case(test, type, all_layouts[(i + index + 2) % all_layouts.size()], ++seed);
            // FLOAT16 through the conversion opcodes as well, where the device's are exact (kernel_plan.cpp's default).
            if (type == DataType::kFloat16 && device_has_exact_half_opcodes())
                run_case(test, type, all_layouts[(i + index + 1) % all_layouts.size()], ++seed, std::nullopt,
                         std::nullopt, nullptr, shaders::kMaxViewBytesLog2, true);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Bodies, ElementWiseKernelGpu,
                         ::testing::Range<size_t>(0, (body_tests().size() + kBodiesPerChunk - 1) / kBodiesPerChunk),
                         [](const ::testing::TestParamInfo<size_t>& info) {
                             const std::vector<BodyTest> tests = body_tests();
                             const size_t first = info.param * kBodiesPerChunk;
                             const size_t last = std::min(tests.size(), first + kBodiesPerChunk) - 1;
                             return tests[first].body + "_to_" + tests[last].body + "_" + std::to_string(info.param);
                         });

TEST(ElementWiseKernelGpuFeatures, ScaleBiasAndFusedActivation) {
    SKIP_WITHOUT_GPU();
    using V = std::vector<double>;
    const BodyTest identity = make("identity", 1, {DataType::kFloat32}, {}, {}, -4, 4, [](const V& x, const V&) { return x[0]; });
    for (const Layout& layout : layouts()) run_case(identity, DataType::kFloat32, layout, 7, std::pair{1.5f, -0.75f});
    // FLOAT16 in groups, and a first input constant along the row (one register shared by the groups: scaled once).
    std::vector<Layout> half_layouts = layouts();
    half_layouts.push_back({"row_broadcast_first", {3, 5, 32}, {{5, 1, 0}}, std::nullopt, true, 4});
    const BodyTest identity_half = make("identity", 1, {DataType::kFloat16}, {}, {}, -4, 4, [](const V& x, const V&) { return x[0]; });
    for (const Layout& layout : half_layouts) run_case(identity_half, DataType::kFloat16, layout, 8, std::pair{1.5f, -0.75f});
    const BodyTest add = make("add", 2, {DataType::kFloat32}, {}, {}, -4, 4, [](const V& x, const V&) { return double(f32(f32(x[0]) + f32(x[1]))); });
    const KernelFunction relu{"relu", {}};
    for (DataType type : {DataType::kFloat32, DataType::kFloat16})
        for (const Layout& layout : layouts())
            run_case(add, type, layout, 9, std::nullopt, relu, [](double v) { return std::max(v, 0.0); });
}

TEST(ElementWiseKernelGpuFeatures, TensorsSplitOverSeveralViews) {
    SKIP_WITHOUT_GPU();
    using V = std::vector<double>;
    // 256-byte windows: every tensor of these layouts spans several views.
    const BodyTest add = make("add", 2, {}, {}, {}, -100, 100, [](const V& x, const V&) { return double(f32(f32(x[0]) + f32(x[1]))); });
    for (DataType type : {DataType::kFloat32, DataType::kInt8, DataType::kFloat16})
        for (const Layout& layout : layouts()) {
            run_case(add, type, layout, 11, std::nullopt, std::nullopt, nullptr, 8);
            if (type == DataType::kFloat16 && device_has_exact_half_opcodes())
                run_case(add, type, layout, 12, std::nullopt, std::nullopt, nullptr, 8, true);
        }
}

ElementWiseProblem binary_problem(DataType type, const Dims& sizes, const Dims& a, const Dims& b) {
    ElementWiseProblem p;
    p.function = {"add", {}};
    p.sizes = sizes;
    p.inputs = {{type, a, 1 << 20, 0}, {type, b, 1 << 20, 1}};
    p.output = {type, packed(sizes), 1 << 20, 0};
    return p;
}

TEST(ElementWiseKernelPlanner, MergesDimensionsAndPicksThePath) {
    auto path = element_wise_path(binary_problem(DataType::kFloat32, {2, 3, 8, 16}, packed({2, 3, 8, 16}), packed({2, 3, 8, 16})));
    ASSERT_TRUE(path.is_ok()) << path.status().message();
    EXPECT_EQ(path->rank, 1u);
    EXPECT_EQ(path->lanes, 4u);
    EXPECT_EQ(path->input_modes, (std::vector<uint32_t>{1, 1}));
    // A 1x64x1x1 bias over 16x64x32x32: the bias is constant along each row.
    path = element_wise_path(binary_problem(DataType::kFloat16, {16, 64, 32, 32}, packed({16, 64, 32, 32}), {0, 1, 0, 0}));
    ASSERT_TRUE(path.is_ok());
    EXPECT_EQ(path->rank, 3u);  // {16, 64, 1024}
    EXPECT_EQ(path->lanes, 4u);
    EXPECT_EQ(path->input_modes, (std::vector<uint32_t>{1, 2}));
    // Rows of 7: one element per thread.
    path = element_wise_path(binary_problem(DataType::kInt8, {3, 5, 7}, packed({3, 5, 7}), {1, 3, 15}));
    ASSERT_TRUE(path.is_ok());
    EXPECT_EQ(path->lanes, 1u);
    EXPECT_EQ(path->rank, 3u);
}

TEST(ElementWiseKernelPlanner, RefusesWhatItCannotCompute) {
    ElementWiseProblem p = binary_problem(DataType::kFloat32, {4}, {1}, {1});
    p.function.body = "no_such_body";
    EXPECT_EQ(plan_element_wise_problem(p).status().code(), ErrorCode::kInvalidInput);
    p = binary_problem(DataType::kFloat64, {4}, {1}, {1});  // no double arithmetic (INT64 is kernel_int64_gpu_test's)
    EXPECT_EQ(plan_element_wise_problem(p).status().code(), ErrorCode::kUnsupported);
    p = binary_problem(DataType::kFloat32, {4}, {1}, {1});
    p.inputs[1].type = DataType::kFloat16;  // add needs one type throughout
    auto result = plan_element_wise_problem(p);
    EXPECT_EQ(result.status().code(), ErrorCode::kUnsupported);
    EXPECT_NE(result.status().message().find("'add'"), std::string::npos) << result.status().message();
    p = binary_problem(DataType::kFloat32, {4}, {1}, {1});
    p.inputs.pop_back();  // add is binary
    EXPECT_EQ(plan_element_wise_problem(p).status().code(), ErrorCode::kInvalidInput);
    p = binary_problem(DataType::kFloat32, {4}, {1}, {1});
    p.output.total_bytes = uint64_t{5} << 30;  // beyond 32-bit byte addresses
    EXPECT_EQ(plan_element_wise_problem(p).status().code(), ErrorCode::kUnsupported);
}

TEST(ElementWiseKernelGpuFeatures, EveryBodyIsTested) {
    std::set<std::string> tested;
    for (const BodyTest& test : body_tests()) tested.insert(test.body);
    for (std::string_view id : kernel_body_ids()) EXPECT_TRUE(tested.count(std::string(id))) << id << " has no GPU test";
}

}  // namespace
}  // namespace dmltool::ops::element_wise
