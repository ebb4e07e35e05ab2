// Tests of QUANTIZED_LINEAR_CONVOLUTION: the spec §9.4 vectors, rounding and saturation, the optional
// tensors, every validation message, the feature-level table, and a brute-force cross-check against an
// independent formulation (padded-input materialisation + im2col dot products + hand-written half-even).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/op.h"
#include "ops/quantized_linear_convolution/quantized_linear_convolution.h"
#include "tests/testing/op_testing.h"

namespace dmltool::ops::quantized_linear_convolution {
namespace {

using nlohmann::json;
using testing::make_tensor;
using testing::values_of;

// A convolution problem with plain values; both the desc JSON and the oracle are built from it.
struct Problem {
    DataType x_type = DataType::kUint8, w_type = DataType::kUint8, y_type = DataType::kUint8;
    uint32_t batch = 1, channels = 1, out_channels = 1, groups = 1;
    std::vector<uint32_t> in_spatial{1, 1}, kernel{1, 1}, strides{1, 1}, dilations{1, 1}, start{0, 0}, end{0, 0};
    std::vector<double> x, w;  // row-major over {N,C,spatial...} and {M,C/G,kernel...}
    float xs = 1, ys = 1;
    std::vector<float> ws{1};  // 1 value (per-tensor) or M (per-channel)
    std::optional<double> xz, yz;
    std::optional<std::vector<double>> wz;    // 1 or M values
    std::optional<std::vector<double>> bias;  // M values
    uint32_t filter_quant_rank = 0;           // rank of FilterScale/FilterZeroPoint; 0 = the tensors' rank

    uint32_t rank() const { return uint32_t(in_spatial.size()) + 2; }
};

// Output extent by counting window positions (deliberately not the closed formula of the op).
uint32_t count_positions(uint32_t in, uint32_t k, uint32_t stride, uint32_t dilation, uint32_t start, uint32_t end) {
    const int64_t padded = int64_t(in) + start + end, extent = int64_t(k - 1) * dilation + 1;
    uint32_t count = 0;
    for (int64_t p = 0; p + extent <= padded; p += stride) ++count;
    return count;
}

Dims input_sizes(const Problem& p) {
    Dims s{p.batch, p.channels};
    s.insert(s.end(), p.in_spatial.begin(), p.in_spatial.end());
    return s;
}
Dims filter_sizes(const Problem& p) {
    Dims s{p.out_channels, p.channels / p.groups};
    s.insert(s.end(), p.kernel.begin(), p.kernel.end());
    return s;
}
Dims output_sizes(const Problem& p) {
    Dims s{p.batch, p.out_channels};
    for (size_t i = 0; i < p.in_spatial.size(); ++i)
        s.push_back(count_positions(p.in_spatial[i], p.kernel[i], p.strides[i], p.dilations[i], p.start[i], p.end[i]));
    return s;
}
Dims ones(uint32_t rank) { return Dims(rank, 1); }
// {1,M,1,...} of `rank` dims, or {M} when rank is 1; all ones for a single value.
Dims channel_sizes(uint32_t rank, uint32_t count) {
    if (count == 1) return ones(rank);
    if (rank == 1) return {count};
    Dims s = ones(rank);
    s[1] = count;
    return s;
}
uint32_t filter_quant_rank(const Problem& p) { return p.filter_quant_rank ? p.filter_quant_rank : p.rank(); }

json tensor(DataType type, const Dims& sizes) {
    return {{"DataType", std::string(data_type_name(type))}, {"Sizes", sizes}};
}

json desc_json(const Problem& p) {
    const uint32_t r = p.rank();
    json d = {{"InputTensor", tensor(p.x_type, input_sizes(p))},
              {"InputScaleTensor", tensor(DataType::kFloat32, ones(r))},
              {"FilterTensor", tensor(p.w_type, filter_sizes(p))},
              {"FilterScaleTensor", tensor(DataType::kFloat32, channel_sizes(filter_quant_rank(p), uint32_t(p.ws.size())))},
              {"OutputScaleTensor", tensor(DataType::kFloat32, ones(r))},
              {"OutputTensor", tensor(p.y_type, output_sizes(p))},
              {"DimensionCount", r - 2},
              {"Strides", p.strides},
              {"Dilations", p.dilations},
              {"StartPadding", p.start},
              {"EndPadding", p.end},
              {"GroupCount", p.groups}};
    if (p.xz) d["InputZeroPointTensor"] = tensor(p.x_type, ones(r));
    if (p.wz) d["FilterZeroPointTensor"] = tensor(p.w_type, channel_sizes(filter_quant_rank(p), uint32_t(p.wz->size())));
    if (p.bias) d["BiasTensor"] = tensor(DataType::kInt32, channel_sizes(r, p.out_channels));
    if (p.yz) d["OutputZeroPointTensor"] = tensor(p.y_type, ones(r));
    return d;
}

Result<std::unique_ptr<OpDesc>> parse(const json& d) {
    return testing::parse_desc(*make_op(), d.dump());
}

// Parses the problem's desc and runs the reference (through Op::run_reference, or with the given accumulation
// path); the output values, or the first error.
Result<std::vector<double>> run(const Problem& p, std::optional<ReferencePath> path = std::nullopt) {
    const auto op = make_op();
    DMLTOOL_ASSIGN_OR_RETURN(auto desc, parse(desc_json(p)));
    const uint32_t r = p.rank(), qr = filter_quant_rank(p);
    std::array<std::optional<HostTensor>, 9> in;
    in[0] = make_tensor(p.x_type, input_sizes(p), p.x);
    in[1] = make_tensor(DataType::kFloat32, ones(r), {p.xs});
    if (p.xz) in[2] = make_tensor(p.x_type, ones(r), {*p.xz});
    in[3] = make_tensor(p.w_type, filter_sizes(p), p.w);
    in[4] = make_tensor(DataType::kFloat32, channel_sizes(qr, uint32_t(p.ws.size())),
                        std::vector<double>(p.ws.begin(), p.ws.end()));
    if (p.wz) in[5] = make_tensor(p.w_type, channel_sizes(qr, uint32_t(p.wz->size())), *p.wz);
    if (p.bias) in[6] = make_tensor(DataType::kInt32, channel_sizes(r, p.out_channels), *p.bias);
    in[7] = make_tensor(DataType::kFloat32, ones(r), {p.ys});
    if (p.yz) in[8] = make_tensor(p.y_type, ones(r), {*p.yz});
    std::vector<const HostTensor*> pointers;
    for (const auto& t : in) pointers.push_back(t ? &*t : nullptr);
    if (path) {
        const auto& conv = static_cast<const QuantizedLinearConvolutionDesc&>(*desc);
        HostTensor output(conv.output);
        HostTensor* output_pointer = &output;
        ThreadPool pool(2);
        const SemanticsOptions semantics;
        DMLTOOL_RETURN_IF_ERROR(run_reference_path(conv, pointers, {&output_pointer, 1}, {pool, semantics}, *path));
        return values_of(output);
    }
    DMLTOOL_ASSIGN_OR_RETURN(auto outputs, testing::run_reference(*op, *desc, pointers));
    return values_of(outputs.at(0));
}

std::vector<double> run_ok(const Problem& p) {
    auto result = run(p);
    EXPECT_TRUE(result.is_ok()) << result.status().message();
    return result.is_ok() ? result.value() : std::vector<double>{};
}

// Round half to even written out by hand (independent of std::nearbyint).
double round_half_even(double v) {
    const double f = std::floor(v), frac = v - f;
    if (frac > 0.5) return f + 1;
    if (frac < 0.5) return f;
    return std::fmod(f, 2.0) == 0 ? f : f + 1;
}

// Unravels `index` over `sizes` into `coords`, last dimension fastest.
void unravel(uint64_t index, const std::vector<uint32_t>& sizes, std::vector<uint32_t>& coords) {
    coords.assign(sizes.size(), 0);
    for (size_t d = sizes.size(); d-- > 0;) {
        coords[d] = uint32_t(index % sizes[d]);
        index /= sizes[d];
    }
}
uint64_t product(const std::vector<uint32_t>& v) {
    uint64_t p = 1;
    for (uint32_t x : v) p *= x;
    return p;
}

// The independent formulation: materialise the zero-point-padded input, gather each window into an im2col
// column, and dot it with each filter row of the group. Returns the accumulators (bias included), exact in
// double: every term and partial sum is an integer far below 2^53.
std::vector<double> oracle_accumulators(const Problem& p) {
    const size_t spatial = p.in_spatial.size();
    const uint32_t cg = p.channels / p.groups, mg = p.out_channels / p.groups;
    const double xz = p.xz.value_or(0);
    std::vector<uint32_t> padded(spatial), out(spatial);
    for (size_t i = 0; i < spatial; ++i) {
        padded[i] = p.in_spatial[i] + p.start[i] + p.end[i];
        out[i] = count_positions(p.in_spatial[i], p.kernel[i], p.strides[i], p.dilations[i], p.start[i], p.end[i]);
    }
    const uint64_t padded_count = product(padded), in_count = product(p.in_spatial);
    std::vector<double> x_padded(uint64_t(p.batch) * p.channels * padded_count, xz);
    std::vector<uint32_t> coords;
    for (uint64_t nc = 0; nc < uint64_t(p.batch) * p.channels; ++nc)
        for (uint64_t i = 0; i < in_count; ++i) {
            unravel(i, p.in_spatial, coords);
            uint64_t offset = 0;
            for (size_t d = 0; d < spatial; ++d) offset = offset * padded[d] + coords[d] + p.start[d];
            x_padded[nc * padded_count + offset] = p.x[nc * in_count + i];
        }
    const uint64_t taps = product(p.kernel), column_length = cg * taps, out_count = product(out);
    std::vector<double> accumulators(uint64_t(p.batch) * p.out_channels * out_count);
    std::vector<uint32_t> out_coords, k_coords;
    std::vector<double> column(column_length);
    for (uint32_t n = 0; n < p.batch; ++n)
        for (uint32_t g = 0; g < p.groups; ++g)
            for (uint64_t o = 0; o < out_count; ++o) {
                unravel(o, out, out_coords);
                for (uint32_t c = 0; c < cg; ++c)
                    for (uint64_t t = 0; t < taps; ++t) {
                        unravel(t, p.kernel, k_coords);
                        uint64_t offset = 0;
                        for (size_t d = 0; d < spatial; ++d)
                            offset = offset * padded[d] + out_coords[d] * p.strides[d] + k_coords[d] * p.dilations[d];
                        column[c * taps + t] = x_padded[(uint64_t(n) * p.channels + g * cg + c) * padded_count + offset] - xz;
                    }
                for (uint32_t j = 0; j < mg; ++j) {
                    const uint32_t m = g * mg + j;
                    const double wz = p.wz ? (*p.wz)[p.wz->size() == 1 ? 0 : m] : 0;
                    double acc = 0;
                    for (uint64_t i = 0; i < column_length; ++i) acc += column[i] * (p.w[m * column_length + i] - wz);
                    if (p.bias) acc += (*p.bias)[m];
                    accumulators[(uint64_t(n) * p.out_channels + m) * out_count + o] = acc;
                }
            }
    return accumulators;
}

double filter_scale_of(const Problem& p, uint64_t m) { return p.ws[p.ws.size() == 1 ? 0 : m]; }

std::vector<double> oracle(const Problem& p) {
    std::vector<double> y = oracle_accumulators(p);
    const uint64_t per_channel = y.size() / p.batch / p.out_channels;
    for (uint64_t i = 0; i < y.size(); ++i) {
        const double multiplier = double(p.xs) * filter_scale_of(p, (i / per_channel) % p.out_channels) / double(p.ys);
        const double q = round_half_even(y[i] * multiplier) + p.yz.value_or(0);
        y[i] = std::min(std::max(q, double(integer_min(p.y_type))), double(integer_max(p.y_type)));
    }
    return y;
}

std::vector<double> iota(int first, int count, int step = 1) {
    std::vector<double> v;
    for (int i = 0; i < count; ++i) v.push_back(first + i * step);
    return v;
}

// ---- spec §9.4 vectors -------------------------------------------------------------------------------------

TEST(QuantizedLinearConvolution, OnnxQLinearConvVector) {
    Problem p;  // QLC-ONNX: all UINT8, 1x1 kernel
    p.in_spatial = {7, 7};
    p.x = {255, 174, 162, 25,  203, 168, 58,  15,  59,  237, 95,  129, 0,   64,  56,  242, 153,
           221, 168, 12,  166, 232, 178, 186, 195, 237, 162, 237, 188, 39,  124, 77,  80,  102,
           43,  127, 230, 21,  83,  41,  40,  134, 255, 154, 92,  141, 42,  148, 247};
    p.xs = 0.00369204697f;
    p.xz = 132;
    p.w = {0};
    p.ws = {0.00172794575f};
    p.wz = std::vector<double>{255};
    p.ys = 0.00162681262f;
    p.yz = 123;
    const std::vector<double> expected = {
        0,   81,  93,  230, 52,  87,  197, 240, 196, 18,  160, 126, 255, 191, 199, 13,  102,
        34,  87,  243, 89,  23,  77,  69,  60,  18,  93,  18,  67,  216, 131, 178, 175, 153,
        212, 128, 25,  234, 172, 214, 215, 121, 0,   101, 163, 114, 213, 107, 8};
    EXPECT_EQ(run_ok(p), expected);
    EXPECT_EQ(oracle(p), expected);
}

Problem qlc_a() {
    Problem p;
    p.x_type = p.w_type = p.y_type = DataType::kInt8;
    p.channels = 2;
    p.out_channels = 2;
    p.in_spatial = {4, 4};
    p.x = iota(1, 16);
    for (double v : {-1, -2, -3, -4, 0, 0, 0, 0, 4, 3, 2, 1, 8, 7, 6, 5}) p.x.push_back(v);
    p.xs = 0.5f;
    p.kernel = {2, 2};
    p.w = {1, 0, 0, -1, 2, 2, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0};
    p.ws = {0.25f, 0.5f};
    p.bias = std::vector<double>{10, -4};
    p.ys = 1.0f;
    p.yz = 5;
    p.strides = {2, 2};
    p.start = {1, 1};
    return p;
}

TEST(QuantizedLinearConvolution, PerChannelBiasPaddingStrideVector) {
    const Problem p = qlc_a();
    const std::vector<double> expected = {6, 5, 6, 7, 4, 5, 7, 13};
    EXPECT_EQ(run_ok(p), expected);
    EXPECT_EQ(oracle(p), expected);
}

Problem qlc_b() {
    Problem p = qlc_a();
    p.kernel = {2, 2};
    p.w = {1, 1, 1, 1, 1, -1, -1, 1};
    p.ws = {0.5f, 0.5f};
    p.ys = 0.25f;
    p.yz = 0;
    p.bias.reset();
    p.strides = {1, 1};
    p.dilations = {2, 2};
    p.start = {0, 0};
    p.groups = 2;
    return p;
}

TEST(QuantizedLinearConvolution, DepthwiseDilatedVector) {
    const Problem p = qlc_b();
    const std::vector<double> expected = {24, 28, 40, 44, 0, 0, -2, -2};
    EXPECT_EQ(run_ok(p), expected);
    EXPECT_EQ(oracle(p), expected);
}

// ---- rounding, saturation, optional tensors ----------------------------------------------------------------

// acc * 0.5 lands exactly on k + 0.5: half-to-even gives 0 2 2 -0 -2 4, half-away-from-zero 1 2 3 -1 -2 4.
TEST(QuantizedLinearConvolution, RoundsExactTiesToEven) {
    Problem p;
    p.x_type = p.w_type = p.y_type = DataType::kInt8;
    p.in_spatial = {1, 6};
    p.x = {1, 3, 5, -1, -3, 7};
    p.w = {1};
    p.xs = 0.5f;
    EXPECT_EQ(run_ok(p), (std::vector<double>{0, 2, 2, 0, -2, 4}));
    p.yz = 10;  // the zero point is added after rounding, so ties still go to even
    EXPECT_EQ(run_ok(p), (std::vector<double>{10, 12, 12, 10, 8, 14}));
}

TEST(QuantizedLinearConvolution, SaturatesAtBothEndsOfInt8AndUint8) {
    Problem p;
    p.x_type = p.w_type = p.y_type = DataType::kInt8;
    p.in_spatial = {1, 4};
    p.x = {127, -128, 27, -29};
    p.w = {1};
    p.yz = 100;  // 227 -> 127, -28, 127, 71
    EXPECT_EQ(run_ok(p), (std::vector<double>{127, -28, 127, 71}));
    p.yz = -100;  // 27, -228 -> -128, -73, -129 -> -128
    EXPECT_EQ(run_ok(p), (std::vector<double>{27, -128, -73, -128}));
    p.y_type = DataType::kUint8;
    p.yz = 0;
    p.ys = 0.25f;  // 508 -> 255, -512 -> 0, 108, -116 -> 0
    EXPECT_EQ(run_ok(p), (std::vector<double>{255, 0, 108, 0}));
    p.bias = std::vector<double>{-2000000000};  // the bias alone drives everything to the low end
    EXPECT_EQ(run_ok(p), (std::vector<double>{0, 0, 0, 0}));
}

// Absent zero points and bias mean 0: the same case with explicit zeros gives the same output, and a
// non-zero value changes it (so the tensor is really read).
TEST(QuantizedLinearConvolution, AbsentOptionalTensorsActAsZero) {
    Problem base = qlc_a();
    base.yz.reset();
    base.bias.reset();
    const std::vector<double> expected = run_ok(base);
    ASSERT_FALSE(expected.empty());
    auto with = [&](auto mutate) {
        Problem p = base;
        mutate(p);
        return run_ok(p);
    };
    EXPECT_EQ(with([](Problem& p) { p.xz = 0; }), expected);
    EXPECT_EQ(with([](Problem& p) { p.wz = std::vector<double>{0}; }), expected);
    EXPECT_EQ(with([](Problem& p) { p.wz = std::vector<double>{0, 0}; }), expected);
    EXPECT_EQ(with([](Problem& p) { p.yz = 0; }), expected);
    EXPECT_EQ(with([](Problem& p) { p.bias = std::vector<double>{0, 0}; }), expected);
    EXPECT_NE(with([](Problem& p) { p.xz = 3; }), expected);
    EXPECT_NE(with([](Problem& p) { p.wz = std::vector<double>{1}; }), expected);
    EXPECT_NE(with([](Problem& p) { p.yz = 1; }), expected);
    EXPECT_NE(with([](Problem& p) { p.bias = std::vector<double>{0, 9}; }), expected);
}

// Padding is the real value zero: with the input equal to its zero point everywhere, every output is the
// bias requantized, whether the window covers padding or not.
TEST(QuantizedLinearConvolution, PaddingContributesTheZeroPoint) {
    Problem p;
    p.in_spatial = {3, 3};
    p.kernel = {3, 3};
    p.start = {2, 1};
    p.end = {1, 2};
    p.x = std::vector<double>(9, 77);
    p.xz = 77;
    p.w = iota(1, 9, 7);
    p.wz = std::vector<double>{3};
    p.bias = std::vector<double>{40};
    p.ys = 4;
    p.yz = 100;  // 40 / 4 + 100
    EXPECT_EQ(run_ok(p), std::vector<double>(16, 110));
}

// Per-channel quantization with equal values equals per-tensor; every accepted per-channel layout reads the
// values in channel order.
TEST(QuantizedLinearConvolution, PerChannelLayoutsAgreeWithPerTensor) {
    Problem p = qlc_a();
    p.ws = {0.25f};
    p.wz = std::vector<double>{2};
    const std::vector<double> per_tensor = run_ok(p);
    p.ws = {0.25f, 0.25f};
    p.wz = std::vector<double>{2, 2};
    EXPECT_EQ(run_ok(p), per_tensor);
    p.ws = {0.25f, 0.5f};
    p.wz = std::vector<double>{2, -1};
    const std::vector<double> expected = oracle(p);
    for (uint32_t rank : {1u, 2u, 3u, 4u}) {
        p.filter_quant_rank = rank;
        EXPECT_EQ(run_ok(p), expected) << "rank " << rank;
    }
}

// A 1-D convolution ({N,C,W}) equals the 2-D one with a unit height.
TEST(QuantizedLinearConvolution, OneSpatialDimensionMatchesUnitHeight) {
    std::mt19937 rng(7);
    Problem p;
    p.x_type = DataType::kInt8;
    p.channels = 4;
    p.out_channels = 6;
    p.groups = 2;
    p.in_spatial = {11};
    p.kernel = {3};
    p.strides = {2};
    p.dilations = {2};
    p.start = {3};
    p.end = {1};
    std::uniform_int_distribution<int> value(-128, 127), u8(0, 255);
    for (int i = 0; i < 4 * 11; ++i) p.x.push_back(value(rng));
    for (int i = 0; i < 6 * 2 * 3; ++i) p.w.push_back(u8(rng));
    p.xz = -3;
    p.wz = std::vector<double>{128, 120, 130, 127, 129, 131};
    p.ws = {0.01f};
    p.xs = 0.02f;
    p.ys = 0.5f;
    p.yz = 128;
    p.bias = std::vector<double>{-500, 0, 500, 1000, -1000, 7};
    const std::vector<double> one_d = run_ok(p);
    EXPECT_EQ(one_d, oracle(p));
    Problem q = p;
    q.in_spatial = {1, 11};
    q.kernel = {1, 3};
    q.strides = {1, 2};
    q.dilations = {1, 2};
    q.start = {0, 3};
    q.end = {0, 1};
    EXPECT_EQ(run_ok(q), one_d);
}

// ---- brute-force cross-check -------------------------------------------------------------------------------

// `wide` = one group of 65..140 output channels (more than one 64-channel block of the reference's vector form).
Problem random_problem(std::mt19937& rng, DataType x_type, DataType w_type, DataType y_type, bool wide = false) {
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    auto in_range = [&](DataType t) { return double(pick(int(integer_min(t)), int(integer_max(t)))); };
    auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    Problem p;
    p.x_type = x_type;
    p.w_type = w_type;
    p.y_type = y_type;
    const int spatial = pick(1, 2);
    p.groups = pick(1, 3);
    p.channels = p.groups * pick(1, 3);
    p.out_channels = pick(0, 3) == 0 ? p.channels : p.groups * pick(1, 3);  // depthwise sometimes
    if (wide) {
        p.groups = 1;
        p.channels = pick(1, 3);
        p.out_channels = pick(65, 140);
    }
    p.batch = pick(1, 2);
    p.in_spatial.clear();
    p.kernel.clear();
    p.strides.clear();
    p.dilations.clear();
    p.start.clear();
    p.end.clear();
    for (int i = 0; i < spatial; ++i) {
        p.kernel.push_back(pick(1, 3));
        p.strides.push_back(pick(1, 3));
        p.dilations.push_back(pick(1, 2));
        p.start.push_back(pick(0, 2));
        p.end.push_back(pick(0, 2));
        const uint32_t extent = (p.kernel.back() - 1) * p.dilations.back() + 1;
        const uint32_t padding = p.start.back() + p.end.back();
        p.in_spatial.push_back(std::max<int>(1, int(extent) - int(padding)) + pick(0, 6));
    }
    for (uint64_t i = 0; i < product(input_sizes(p)); ++i) p.x.push_back(in_range(x_type));
    for (uint64_t i = 0; i < product(filter_sizes(p)); ++i) p.w.push_back(in_range(w_type));
    if (pick(0, 1)) p.xz = in_range(x_type);
    const uint32_t quant_count = pick(0, 1) ? p.out_channels : 1;
    p.ws.clear();
    for (uint32_t i = 0; i < quant_count; ++i) p.ws.push_back(float(uniform(0.002, 0.05)));
    if (pick(0, 1)) {
        p.wz.emplace();
        const uint32_t count = pick(0, 1) ? p.out_channels : 1;
        for (uint32_t i = 0; i < count; ++i) p.wz->push_back(in_range(w_type));
    }
    if (pick(0, 1)) {
        p.bias.emplace();
        for (uint32_t i = 0; i < p.out_channels; ++i) p.bias->push_back(pick(-20000, 20000));
    }
    if (pick(0, 2) == 0) p.filter_quant_rank = pick(1, p.rank());
    // Scale the output so that the largest |real value| maps to 60..250 steps: most outputs stay in range and
    // the tails saturate. The zero point sits near the middle of the range most of the time.
    p.xs = float(uniform(0.005, 0.05));
    const std::vector<double> accumulators = oracle_accumulators(p);
    const uint64_t per_channel = accumulators.size() / p.batch / p.out_channels;
    double largest = 1e-3;
    for (uint64_t i = 0; i < accumulators.size(); ++i)
        largest = std::max(largest, std::fabs(accumulators[i]) * p.xs *
                                        filter_scale_of(p, (i / per_channel) % p.out_channels));
    p.ys = float(largest / uniform(60, 250));
    if (pick(0, 1)) {
        const double middle = (double(integer_min(y_type)) + double(integer_max(y_type))) / 2;
        p.yz = std::round(middle + pick(-40, 40));
    } else if (pick(0, 1)) {
        p.yz = in_range(y_type);
    }
    return p;
}

TEST(QuantizedLinearConvolution, MatchesIm2colOracleForEveryTypeCombination) {
    const DataType types[] = {DataType::kInt8, DataType::kUint8};
    uint64_t inside = 0, saturated = 0;
    for (DataType x : types)
        for (DataType w : types)
            for (DataType y : types) {
                const unsigned seed = 1000 + 100 * unsigned(x) + 10 * unsigned(w) + unsigned(y);
                std::mt19937 rng(seed);
                for (int trial = 0; trial < 40; ++trial) {
                    const Problem p = random_problem(rng, x, w, y);
                    const auto got = run(p);
                    ASSERT_TRUE(got.is_ok()) << "seed " << seed << " trial " << trial << ": " << got.status().message();
                    const std::vector<double> want = oracle(p);
                    ASSERT_EQ(got.value(), want) << "seed " << seed << " trial " << trial << "\n"
                                                 << desc_json(p).dump();
                    for (double v : want)
                        (v == double(integer_min(y)) || v == double(integer_max(y)) ? saturated : inside) += 1;
                }
            }
    // The comparison must be meaningful: mostly unsaturated values, with some saturation exercised.
    EXPECT_GT(inside, 2 * saturated);
    EXPECT_GT(saturated, 0u);
}

// Every accumulation path of the reference (the naive loop nest kept as the check, the channel-vector form and its
// AVX2 build) gives the oracle's values on random problems, including channel counts that leave a partial block.
TEST(QuantizedLinearConvolution, EveryReferencePathMatchesTheOracle) {
    std::vector<ReferencePath> paths = {ReferencePath::kNaive, ReferencePath::kChannelVector};
    if (cpu_has_avx2()) paths.push_back(ReferencePath::kChannelVectorAvx2);
    std::mt19937 rng(4242);
    for (int trial = 0; trial < 60; ++trial) {
        const DataType x = trial % 2 ? DataType::kUint8 : DataType::kInt8;
        const DataType w = trial % 3 ? DataType::kInt8 : DataType::kUint8;
        const Problem p = random_problem(rng, x, w, DataType::kUint8, trial % 5 == 0);
        const std::vector<double> want = oracle(p);
        for (ReferencePath path : paths) {
            const auto got = run(p, path);
            ASSERT_TRUE(got.is_ok()) << got.status().message();
            ASSERT_EQ(got.value(), want) << "trial " << trial << " path " << int(path) << "\n" << desc_json(p).dump();
        }
    }
}

// ---- invalid scale values (data, checked at run time) --------------------------------------------------------

TEST(QuantizedLinearConvolution, RejectsZeroOrNonFiniteScaleValues) {
    auto expect_invalid = [](const Problem& p, const std::string& substring) {
        const auto result = run(p);
        ASSERT_FALSE(result.is_ok()) << substring;
        EXPECT_EQ(result.status().code(), ErrorCode::kInvalidInput);
        EXPECT_NE(result.status().message().find(substring), std::string::npos) << result.status().message();
    };
    Problem p = qlc_a();
    p.xs = 0;
    expect_invalid(p, "InputScaleTensor: expected a finite non-zero scale, found 0");
    p = qlc_a();
    p.ys = INFINITY;
    expect_invalid(p, "OutputScaleTensor: expected a finite non-zero scale, found inf");
    p = qlc_a();
    p.ws = {0.25f, NAN};
    expect_invalid(p, "FilterScaleTensor[1]: expected a finite non-zero scale, found nan");
    p.ws = {-0.0f};
    expect_invalid(p, "FilterScaleTensor: expected a finite non-zero scale, found -0");
}

// ---- desc validation -------------------------------------------------------------------------------------------

void expect_parse_error(const json& d, const std::string& substring) {
    const auto result = parse(d);
    ASSERT_FALSE(result.is_ok()) << "accepted; expected an error containing: " << substring;
    EXPECT_EQ(result.status().code(), ErrorCode::kInvalidInput);
    EXPECT_NE(result.status().message().find(substring), std::string::npos) << result.status().message();
}

TEST(QuantizedLinearConvolution, AcceptsTheSpecDescs) {
    for (const Problem& p : {qlc_a(), qlc_b()}) {
        const auto result = parse(desc_json(p));
        EXPECT_TRUE(result.is_ok()) << result.status().message();
    }
    json d = desc_json(qlc_a());
    d.erase("DimensionCount");  // optional
    EXPECT_TRUE(parse(d).is_ok());
}

TEST(QuantizedLinearConvolution, ValidatesRanksAndDimensionCount) {
    const json base = desc_json(qlc_a());
    json d = base;
    d["InputTensor"]["Sizes"] = {1, 2, 4, 4, 1};
    expect_parse_error(d, "/operator/desc/InputTensor/Sizes: expected 3 or 4 dimensions");
    d = base;
    d["FilterTensor"]["Sizes"] = {2, 2, 2};
    expect_parse_error(d, "/operator/desc/FilterTensor/Sizes: expected 4 dimensions (the rank of InputTensor), found {2,2,2}");
    d = base;
    d["OutputTensor"]["Sizes"] = {1, 2, 4};
    expect_parse_error(d, "/operator/desc/OutputTensor/Sizes: expected 4 dimensions");
    d = base;
    d["DimensionCount"] = 1;
    expect_parse_error(d, "/operator/desc/DimensionCount: expected 2");
    for (const char* member : {"Strides", "Dilations", "StartPadding", "EndPadding"}) {
        d = base;
        d[member] = {1, 1, 1};
        expect_parse_error(d, std::string("/operator/desc/") + member + ": expected 2 entries");
        d.erase(member);
        expect_parse_error(d, std::string("/operator/desc/") + member + ": missing required member");
    }
    d = base;
    d.erase("GroupCount");
    expect_parse_error(d, "/operator/desc/GroupCount: missing required member");
    d = base;
    d.erase("FilterScaleTensor");
    expect_parse_error(d, "/operator/desc/FilterScaleTensor: missing required member");
}

TEST(QuantizedLinearConvolution, ValidatesStridesDilationsAndGroups) {
    const json base = desc_json(qlc_a());
    json d = base;
    d["Strides"] = {2, 0};
    expect_parse_error(d, "/operator/desc/Strides/1: expected at least 1, found 0");
    d = base;
    d["Dilations"] = {0, 1};
    expect_parse_error(d, "/operator/desc/Dilations/0: expected at least 1, found 0");
    d = base;
    d["GroupCount"] = 0;
    expect_parse_error(d, "/operator/desc/GroupCount: expected at least 1, found 0");
    d = base;
    d["GroupCount"] = 2;  // Filter.Sizes[1] = 2 with 2 groups needs C = 4
    expect_parse_error(d, "/operator/desc/FilterTensor/Sizes: expected Sizes[1] * GroupCount == 2");
    // C = 4, G = 2, M = 3: the channel split works but M is not a multiple of G.
    Problem p = qlc_b();
    p.channels = 4;
    p.x = std::vector<double>(64, 0);
    p.out_channels = 2;
    d = desc_json(p);
    d["FilterTensor"]["Sizes"] = {3, 2, 2, 2};
    d["OutputTensor"]["Sizes"] = {1, 3, 2, 2};
    expect_parse_error(d, "/operator/desc/FilterTensor/Sizes: expected Sizes[0] (output channels M) to be a multiple of GroupCount 2");
}

TEST(QuantizedLinearConvolution, ValidatesOutputSizes) {
    const json base = desc_json(qlc_a());  // expected output {1,2,2,2}
    json d = base;
    d["OutputTensor"]["Sizes"] = {2, 2, 2, 2};
    expect_parse_error(d, "/operator/desc/OutputTensor/Sizes: expected {1,2,2,2}");
    d["OutputTensor"]["Sizes"] = {1, 3, 2, 2};
    expect_parse_error(d, "/operator/desc/OutputTensor/Sizes: expected {1,2,2,2}");
    d["OutputTensor"]["Sizes"] = {1, 2, 2, 3};
    expect_parse_error(d, "/operator/desc/OutputTensor/Sizes: expected {1,2,2,2}");
    d = base;
    d["EndPadding"] = {0, 1};  // (4 + 1 + 1 - 2) / 2 + 1 = 3 columns
    expect_parse_error(d, "/operator/desc/OutputTensor/Sizes: expected {1,2,2,3}");
    // Dilated kernel (2-1)*5+1 = 6 > 4 + 1 + 0.
    d = base;
    d["Dilations"] = {1, 5};
    expect_parse_error(d, "/operator/desc/FilterTensor/Sizes: expected the dilated kernel ((2 - 1) * Dilations[1] 5 + 1 = 6) "
                          "to fit the padded input (4 + StartPadding 1 + EndPadding 0) in spatial dimension 1");
}

TEST(QuantizedLinearConvolution, ValidatesZeroPointDataTypes) {
    Problem p = qlc_a();
    p.xz = 0;
    p.wz = std::vector<double>{0};
    p.yz = 0;
    const json base = desc_json(p);
    ASSERT_TRUE(parse(base).is_ok());
    const struct {
        const char* member;
        const char* of;
    } cases[] = {{"InputZeroPointTensor", "InputTensor"},
                 {"FilterZeroPointTensor", "FilterTensor"},
                 {"OutputZeroPointTensor", "OutputTensor"}};
    for (const auto& c : cases) {
        json d = base;
        d[c.member]["DataType"] = "UINT8";
        expect_parse_error(d, std::string("/operator/desc/") + c.member + "/DataType: expected INT8 (the data type of " +
                                  c.of + "), found UINT8");
    }
}

// A non-quantized Input/Filter/Output type is reported for that member before any zero-point type check, which
// would otherwise blame the (valid) zero point for not matching it.
TEST(QuantizedLinearConvolution, RejectsNonQuantizedTypesBeforeZeroPointTypes) {
    Problem p = qlc_a();
    p.xz = 0;
    p.wz = std::vector<double>{0};
    p.yz = 0;
    const json base = desc_json(p);
    ASSERT_TRUE(parse(base).is_ok());
    const struct {
        const char* member;
        const char* zero_point;
        const char* type;
    } cases[] = {{"InputTensor", "InputZeroPointTensor", "FLOAT32"},
                 {"FilterTensor", "FilterZeroPointTensor", "INT16"},
                 {"OutputTensor", "OutputZeroPointTensor", "UINT32"},
                 {"InputTensor", "InputZeroPointTensor", "FLOAT16"}};
    for (const auto& c : cases) {
        for (const char* zero_point_type : {"UINT8", "INT8"}) {
            json d = base;
            d[c.member]["DataType"] = c.type;
            d[c.zero_point]["DataType"] = zero_point_type;
            const auto result = parse(d);
            ASSERT_FALSE(result.is_ok()) << c.member << " " << c.type;
            EXPECT_EQ(result.status().code(), ErrorCode::kInvalidInput);
            EXPECT_EQ(result.status().message(), std::string("/operator/desc/") + c.member + ": data type " + c.type +
                                                     " not allowed (expected one of UINT8, INT8)");
        }
        // Also when the zero point is absent, and when the shapes are wrong too (the type is reported first).
        json d = base;
        d.erase(c.zero_point);
        d[c.member]["DataType"] = c.type;
        expect_parse_error(d, std::string("/operator/desc/") + c.member + ": data type " + c.type + " not allowed");
        d["OutputTensor"]["Sizes"] = {1, 2, 5, 5};
        expect_parse_error(d, std::string("/operator/desc/") + c.member + ": data type " + c.type + " not allowed");
    }
}

TEST(QuantizedLinearConvolution, ValidatesScaleZeroPointAndBiasShapes) {
    Problem p = qlc_a();
    p.xz = 0;
    p.wz = std::vector<double>{0, 0};
    p.yz = 0;
    const json base = desc_json(p);
    for (const char* member : {"InputScaleTensor", "InputZeroPointTensor", "OutputScaleTensor", "OutputZeroPointTensor"}) {
        json d = base;
        d[member]["Sizes"] = {1, 2, 1, 1};
        expect_parse_error(d, std::string("/operator/desc/") + member +
                                  "/Sizes: expected exactly 1 element (per-tensor), found {1,2,1,1}");
    }
    for (const char* member : {"FilterScaleTensor", "FilterZeroPointTensor"}) {
        for (const Dims& wrong : {Dims{1, 3, 1, 1}, Dims{2, 1, 1, 1}, Dims{1, 1, 2}, Dims{1, 2, 2, 1}, Dims{3}}) {
            json d = base;
            d[member]["Sizes"] = wrong;
            expect_parse_error(d, std::string("/operator/desc/") + member +
                                      "/Sizes: expected 1 element (per-tensor) or M = 2 elements");
        }
        for (const Dims& right : {Dims{2}, Dims{1, 2}, Dims{1, 2, 1}, Dims{1, 1, 1}, Dims{1}}) {
            json d = base;
            d[member]["Sizes"] = right;
            EXPECT_TRUE(parse(d).is_ok()) << member << " " << format_dims(right);
        }
    }
    for (const Dims& wrong : {Dims{1, 2, 1}, Dims{1, 1, 1, 1}, Dims{2, 1, 1, 1}, Dims{1, 2, 1, 2}}) {
        json d = base;
        d["BiasTensor"]["Sizes"] = wrong;
        expect_parse_error(d, "/operator/desc/BiasTensor/Sizes: expected {1,2,1,1}");
    }
}

// ---- feature levels -------------------------------------------------------------------------------------------

Result<FeatureLevel> level_of(const json& d) {
    const auto op = make_op();
    DMLTOOL_ASSIGN_OR_RETURN(auto desc, parse(d));
    return min_feature_level(*op, *desc);
}

void expect_level(const json& d, FeatureLevel level) {
    const auto result = level_of(d);
    ASSERT_TRUE(result.is_ok()) << result.status().message();
    EXPECT_EQ(result.value().to_string(), level.to_string());
}

TEST(QuantizedLinearConvolution, DerivesFeatureLevelPerRow) {
    Problem p = qlc_a();
    p.xz = 0;
    p.wz = std::vector<double>{0, 0};
    p.yz = 0;
    expect_level(desc_json(p), fl(2, 1));  // everything 4-D

    json d = desc_json(p);
    d["InputScaleTensor"]["Sizes"] = {1};  // low-rank per-tensor scale
    expect_level(d, fl(4, 0));
    d = desc_json(p);
    d["OutputZeroPointTensor"]["Sizes"] = {1, 1};
    expect_level(d, fl(4, 0));
    d = desc_json(p);
    d["FilterScaleTensor"]["Sizes"] = {1, 2, 1};  // 3-D filter scale is fine at 4_0
    expect_level(d, fl(4, 0));
    d["FilterScaleTensor"]["Sizes"] = {1, 2};  // below 3 dims needs 5_2
    expect_level(d, fl(5, 2));
    d["FilterScaleTensor"]["Sizes"] = {2};
    expect_level(d, fl(5, 2));

    Problem q = qlc_a();  // a 1-D convolution: 3-D tensors need 4_0
    q.in_spatial = {4};
    q.kernel = {2};
    q.strides = {2};
    q.dilations = {1};
    q.start = {1};
    q.end = {0};
    expect_level(desc_json(q), fl(4, 0));
    q.filter_quant_rank = 1;
    expect_level(desc_json(q), fl(5, 2));
}

TEST(QuantizedLinearConvolution, FeatureLevelTableRejectsUnsupportedTypesAndRanks) {
    Problem p = qlc_a();
    p.yz.reset();  // a zero point would be rejected by parse() first, for not matching OutputTensor's type
    const json base = desc_json(p);
    const struct {
        const char* member;
        const char* type;
        const char* message;
    } cases[] = {{"InputTensor", "FLOAT32", "InputTensor: data type FLOAT32 not allowed (expected one of UINT8, INT8)"},
                 {"FilterTensor", "INT16", "FilterTensor: data type INT16 not allowed"},
                 {"OutputTensor", "UINT16", "OutputTensor: data type UINT16 not allowed"},
                 {"InputScaleTensor", "FLOAT16", "InputScaleTensor: data type FLOAT16 not allowed (expected one of FLOAT32)"},
                 {"FilterScaleTensor", "FLOAT64", "FilterScaleTensor: data type FLOAT64 not allowed"},
                 {"OutputScaleTensor", "INT8", "OutputScaleTensor: data type INT8 not allowed"},
                 {"BiasTensor", "INT8", "BiasTensor: data type INT8 not allowed (expected one of INT32)"}};
    for (const auto& c : cases) {
        json d = base;
        d[c.member]["DataType"] = c.type;
        const auto result = level_of(d);
        ASSERT_FALSE(result.is_ok()) << c.member;
        EXPECT_NE(result.status().message().find(c.message), std::string::npos) << result.status().message();
    }
    json d = base;
    d["InputScaleTensor"]["Sizes"] = {1, 1, 1, 1, 1};
    const auto result = level_of(d);
    ASSERT_FALSE(result.is_ok());
    EXPECT_NE(result.status().message().find("InputScaleTensor: 5 dimensions not allowed (expected 1 to 4)"),
              std::string::npos)
        << result.status().message();
}

// ---- contract ---------------------------------------------------------------------------------------------------

TEST(QuantizedLinearConvolution, StatesToleranceAndWork) {
    const auto op = make_op();
    const auto desc = parse(desc_json(qlc_a()));
    ASSERT_TRUE(desc.is_ok());
    const Tolerance t = op->default_tolerance(*desc.value(), 0);
    EXPECT_FALSE(t.bitwise);
    EXPECT_EQ(t.abs, 1);
    EXPECT_FALSE(t.reason.empty());
    const WorkEstimate w = op->work(*desc.value());
    EXPECT_EQ(w.ops, 2u * 1 * 2 * (2 * 2) * 2 * (2 * 2));  // 2 * N * M * OH*OW * C/G * KH*KW
    EXPECT_EQ(w.bytes, 32u + 16u + 8u + 8u);              // Input + Filter + Bias (int32) + Output
    const auto slots = op->tensors(*desc.value());
    ASSERT_EQ(slots.size(), 10u);
    EXPECT_EQ(slots[2].name, "InputZeroPointTensor");
    EXPECT_EQ(slots[2].desc, nullptr);  // absent optional input keeps its slot
    EXPECT_EQ(slots[6].name, "BiasTensor");
    EXPECT_NE(slots[6].desc, nullptr);
    EXPECT_EQ(slots[9].role, TensorRole::kOutput);
    EXPECT_EQ(op->name(), "QUANTIZED_LINEAR_CONVOLUTION");
}

}  // namespace
}  // namespace dmltool::ops::quantized_linear_convolution
