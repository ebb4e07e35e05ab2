// Numbers of the shared kernels and element helpers on a real device (lavapipe in CI), each checked element
// by element against a plain C++ loop.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <random>

#include "gpu/tests/gpu_test_support.h"
#include "shaders/elements.h"
#include "shaders/kernels.h"

namespace dmltool::gpu {
namespace {

using shaders::DispatchGrid;
using shaders::imm;
using shaders::kDefaultThreadsPerGroup;
using shaders::Operand;
using shaders::ProgramBuilder;
using testing::as_bytes;
using testing::from_bytes;
using testing::KernelRun;

std::vector<std::byte> random_bytes(size_t count, uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<std::byte> out(count);
    for (std::byte& b : out) b = static_cast<std::byte>(rng() & 0xff);
    return out;
}

TEST(Kernels, Copy16MovesSixteenBytesPerThread) {
    DMLTOOL_GPU_CONTEXT_OR_SKIP(context);
    auto dxbc = shaders::build_copy16_kernel();
    ASSERT_TRUE(dxbc.is_ok()) << dxbc.status().message();
    const uint32_t vectors = 1000;  // not a multiple of the group size: the tail threads must do nothing
    const DispatchGrid grid = shaders::plan_dispatch(vectors, kDefaultThreadsPerGroup);
    const std::vector<std::byte> input = random_bytes(vectors * 16, 1);
    KernelRun run{{vectors, grid.threads_per_row}, {input}, {vectors * 16 + 64}, grid.groups_x, grid.groups_y};
    auto out = testing::run_kernel(*context, *dxbc, "copy16", run);
    ASSERT_TRUE(out.is_ok()) << out.status().message();
    const std::vector<std::byte>& got = (*out)[0];
    EXPECT_TRUE(std::equal(input.begin(), input.end(), got.begin()));
    for (size_t i = input.size(); i < got.size(); ++i) ASSERT_EQ(got[i], std::byte{0xcd}) << "wrote past the end at " << i;
}

// Gather cases over sizes {2,3,5,7} (210 elements: the last output word is partial for 1/2-byte types).
struct GatherCase {
    const char* name;
    std::array<uint32_t, 4> strides;
    uint32_t offset;
};
constexpr std::array<uint32_t, 4> kGatherSizes = {2, 3, 5, 7};
constexpr GatherCase kGatherCases[] = {
    {"contiguous", {105, 35, 7, 1}, 0},
    {"transpose", {1, 2, 6, 30}, 0},
    {"broadcast_and_offset", {35, 0, 7, 1}, 13},  // stride 0: dimension 1 repeats
    {"all_broadcast", {0, 0, 0, 0}, 3},
};

class StridedGather : public ::testing::TestWithParam<std::tuple<uint32_t, bool>> {};

TEST_P(StridedGather, MatchesCppLoop) {
    const auto [element_bytes, sizes_in_buffer] = GetParam();
    DMLTOOL_GPU_CONTEXT_OR_SKIP(context);
    auto dxbc = shaders::build_strided_gather_kernel(
        {.element_bytes = element_bytes, .rank = 4, .sizes_in_buffer = sizes_in_buffer});
    ASSERT_TRUE(dxbc.is_ok()) << dxbc.status().message();
    const uint32_t count = std::accumulate(kGatherSizes.begin(), kGatherSizes.end(), 1u, std::multiplies<>());
    for (const GatherCase& c : kGatherCases) {
        SCOPED_TRACE(c.name);
        uint32_t max_index = c.offset;
        for (int d = 0; d < 4; ++d) max_index += (kGatherSizes[d] - 1) * c.strides[d];
        // Raw views cover whole 32-bit words: tensor buffers are allocated rounded up to 4 bytes.
        const std::vector<std::byte> input = random_bytes(((max_index + 1) * element_bytes + 3) / 4 * 4, element_bytes * 7);
        const uint64_t threads = shaders::strided_gather_threads(element_bytes, count);
        const DispatchGrid grid = shaders::plan_dispatch(threads, kDefaultThreadsPerGroup);
        KernelRun run;
        run.root_constants = {count, grid.threads_per_row, c.offset};
        std::vector<uint32_t> table(kGatherSizes.begin(), kGatherSizes.end());
        table.insert(table.end(), c.strides.begin(), c.strides.end());
        if (sizes_in_buffer) {
            run.inputs = {input, as_bytes(table)};
        } else {
            run.root_constants.insert(run.root_constants.end(), table.begin(), table.end());
            run.inputs = {input};
        }
        const uint64_t output_bytes = (uint64_t{count} * element_bytes + 3) / 4 * 4;
        run.output_bytes = {output_bytes};
        run.groups_x = grid.groups_x;
        run.groups_y = grid.groups_y;
        auto out = testing::run_kernel(*context, *dxbc, "gather", run);
        ASSERT_TRUE(out.is_ok()) << out.status().message();
        const std::vector<std::byte>& got = (*out)[0];
        for (uint32_t i = 0; i < count; ++i) {
            uint32_t rest = i, source = c.offset;
            for (int d = 3; d >= 0; --d) {
                source += (rest % kGatherSizes[d]) * c.strides[d];
                rest /= kGatherSizes[d];
            }
            ASSERT_EQ(std::memcmp(&got[i * element_bytes], &input[source * element_bytes], element_bytes), 0)
                << "element " << i << " (source element " << source << ")";
        }
        for (uint64_t i = uint64_t{count} * element_bytes; i < output_bytes; ++i) {
            EXPECT_EQ(got[i], std::byte{0}) << "padding byte " << i << " of the last output word";
        }
    }
}

INSTANTIATE_TEST_SUITE_P(ElementSizes, StridedGather,
                         ::testing::Combine(::testing::Values(1u, 2u, 4u, 8u), ::testing::Bool()),
                         [](const auto& info) {
                             return std::to_string(std::get<0>(info.param)) + "_bytes_" +
                                    (std::get<1>(info.param) ? "table_in_srv" : "table_in_root_constants");
                         });

// Neighbouring threads store neighbouring 8/16-bit elements of the same words through a permutation:
// the atomic clear/set path must not lose any of them.
TEST(Elements, AtomicSubwordScatterDoesNotRace) {
    DMLTOOL_GPU_CONTEXT_OR_SKIP(context);
    const uint32_t n = 1000;  // coprime with 7
    for (uint32_t element_bytes : {1u, 2u}) {
        ProgramBuilder b;
        const shaders::TensorViews in = shaders::TensorViews::single(b.srv_raw(0));
        const shaders::TensorViews out = shaders::TensorViews::single(b.uav_raw(0));
        Operand i = shaders::linear_thread_index(b, b.root_constant(1));
        Operand t = b.temp();
        b.ult(t.x(), i, b.root_constant(0));
        b.if_nz(t.x());
        b.imad(t.y(), i, imm(7), imm(3));
        b.udiv(shaders::null_operand(), t.y(), t.y(), b.root_constant(0));  // (7 i + 3) mod n
        shaders::load_element(b, in, element_bytes, i, t.z());
        shaders::store_element_atomic(b, out, element_bytes, t.y(), t.z());
        b.endif();
        auto dxbc = b.build_dxbc();
        ASSERT_TRUE(dxbc.is_ok()) << dxbc.status().message();
        const DispatchGrid grid = shaders::plan_dispatch(n, kDefaultThreadsPerGroup);
        const std::vector<std::byte> input = random_bytes(n * element_bytes, 99);
        auto result = testing::run_kernel(*context, *dxbc, "scatter",
                                          {{n, grid.threads_per_row}, {input}, {n * element_bytes}, grid.groups_x, 1});
        ASSERT_TRUE(result.is_ok()) << result.status().message();
        const std::vector<std::byte>& got = (*result)[0];
        for (uint32_t k = 0; k < n; ++k) {
            const uint32_t target = (7 * k + 3) % n;
            ASSERT_EQ(std::memcmp(&got[target * element_bytes], &input[k * element_bytes], element_bytes), 0)
                << element_bytes << "-byte element " << k << " -> " << target;
        }
    }
}

// ---- float16: every half through half_to_float, and float_to_half against an independent C++ RNE.

uint16_t reference_float_to_half(float value) {
    uint32_t x;
    std::memcpy(&x, &value, 4);
    const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000);
    x &= 0x7fffffff;
    if (x > 0x7f800000) return sign | 0x7e00;
    if (x >= 0x477ff000) return sign | 0x7c00;  // >= 65520 rounds to infinity
    const int exponent = static_cast<int>(x >> 23) - 127;
    const uint32_t mantissa = (x & 0x7fffff) | (exponent > -127 ? 0x800000u : 0u);
    // Keep `kept` bits; round the dropped ones to nearest, ties to even.
    auto round_shift = [](uint32_t m, int shift) -> uint32_t {
        if (shift >= 32) return 0;
        const uint32_t kept = m >> shift;
        const uint32_t dropped = m & ((1u << shift) - 1);
        const uint32_t half = 1u << (shift - 1);
        return kept + ((dropped > half || (dropped == half && (kept & 1))) ? 1 : 0);
    };
    if (exponent < -14) return sign | static_cast<uint16_t>(round_shift(mantissa, -1 - exponent));  // subnormal
    const uint32_t rounded = round_shift(mantissa, 13);  // 11 bits incl. the implicit one, may carry to 12
    return sign | static_cast<uint16_t>(((exponent + 15) << 10) + rounded - 0x400);
}

float reference_half_to_float(uint16_t h) {
    const int exponent = (h >> 10) & 0x1f;
    const int mantissa = h & 0x3ff;
    const double sign = (h & 0x8000) ? -1.0 : 1.0;
    if (exponent == 31) return mantissa ? std::nanf("") : static_cast<float>(sign * INFINITY);
    if (exponent == 0) return static_cast<float>(sign * std::ldexp(mantissa, -24));
    return static_cast<float>(sign * std::ldexp(1024 + mantissa, exponent - 25));
}

uint32_t bits_of(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

TEST(Elements, HalfFloatConversionsAreExact) {
    DMLTOOL_GPU_CONTEXT_OR_SKIP(context);
    // Inputs: word i < 65536 is half i; then floats: every half's value, and the midpoints to the next half
    // with one ulp either side (the ties-to-even cases), plus extremes.
    std::vector<float> floats;
    for (uint32_t h = 0; h < 0x7c00; ++h) {
        for (uint32_t sign : {0u, 0x8000u}) {
            const float value = reference_half_to_float(static_cast<uint16_t>(h | sign));
            const float next = reference_half_to_float(static_cast<uint16_t>((h + 1) | sign));
            const float mid = static_cast<float>((static_cast<double>(value) + next) / 2);
            floats.push_back(value);
            floats.push_back(mid);
            floats.push_back(std::nextafter(mid, 0.0f));
            floats.push_back(std::nextafter(mid, 2 * mid));
        }
    }
    for (float f : {1e-30f, -1e-40f, 65519.99f, 65520.0f, 1e10f, INFINITY, -INFINITY, NAN, -NAN}) floats.push_back(f);
    const uint32_t halves = 65536;
    const uint32_t count = static_cast<uint32_t>(floats.size());

    ProgramBuilder b;
    const shaders::Resource float_input = b.srv_raw(0);
    Operand i = shaders::linear_thread_index(b, b.root_constant(1));
    Operand t = b.temp();
    b.ishl(t.y(), i, imm(2));
    b.ult(t.x(), i, imm(halves));
    b.if_nz(t.x());
    shaders::half_to_float(b, t.z(), i);
    b.store_raw(b.uav_raw(0), t.y(), t.z());
    b.endif();
    b.ult(t.x(), i, b.root_constant(0));
    b.if_nz(t.x());
    b.ld_raw(t.z(), t.y(), float_input);
    shaders::float_to_half(b, t.w(), t.z());
    b.store_raw(b.uav_raw(1), t.y(), t.w());
    b.endif();
    auto dxbc = b.build_dxbc();
    ASSERT_TRUE(dxbc.is_ok()) << dxbc.status().message();
    const DispatchGrid grid = shaders::plan_dispatch(std::max(count, halves), kDefaultThreadsPerGroup);
    auto out = testing::run_kernel(*context, *dxbc, "half_conversions",
                                   {{count, grid.threads_per_row}, {as_bytes(floats)},
                                    {halves * 4ull, count * 4ull}, grid.groups_x, grid.groups_y});
    ASSERT_TRUE(out.is_ok()) << out.status().message();
    const auto to_float = from_bytes<uint32_t>((*out)[0]);
    const auto to_half = from_bytes<uint32_t>((*out)[1]);
    for (uint32_t h = 0; h < halves; ++h) {
        const float expected = reference_half_to_float(static_cast<uint16_t>(h));
        if (std::isnan(expected)) {
            EXPECT_EQ(to_float[h], ((h & 0x8000u) << 16) | 0x7f800000u | ((h & 0x3ffu) << 13)) << "half " << h;
        } else {
            ASSERT_EQ(to_float[h], bits_of(expected)) << "half 0x" << std::hex << h;
        }
    }
    for (uint32_t k = 0; k < count; ++k) {
        const uint16_t expected = reference_float_to_half(floats[k]);
        ASSERT_EQ(to_half[k], expected) << "float " << floats[k] << " (0x" << std::hex << bits_of(floats[k]) << ")";
    }
    // The native f16tof32 / f32tof16 opcodes are judged on the device by gpu/half_opcode_probe.h.
}

// A tensor split over several views: the kernel picks the view from the byte address. Exercised with 4 KiB
// windows so the 512 MiB binding logic is tested without 512 MiB buffers.
TEST(Kernels, Copy16AcrossSeveralViews) {
    DMLTOOL_GPU_CONTEXT_OR_SKIP(context);
    const uint32_t window_log2 = 12;
    const uint64_t bytes = 2 * 4096 + 1024;
    auto dxbc = shaders::build_copy16_kernel({.views = 3, .window_log2 = window_log2});
    ASSERT_TRUE(dxbc.is_ok());
    auto kernel = ComputeKernel::create(*context, *dxbc, {.root_constants = 2, .srvs = 3, .uavs = 3}, "copy16x3");
    auto src = GpuBuffer::create(*context, MemoryKind::kDevice, bytes, "src");
    auto dst = GpuBuffer::create(*context, MemoryKind::kDevice, bytes, "dst");
    ASSERT_TRUE(kernel.is_ok() && src.is_ok() && dst.is_ok());
    const std::vector<std::byte> input = random_bytes(bytes, 5);
    ASSERT_TRUE(upload(*context, *src, 0, input).is_ok());
    auto srvs = split_into_views(*src, 0, bytes, window_log2);
    auto uavs = split_into_views(*dst, 0, bytes, window_log2);
    ASSERT_TRUE(srvs.is_ok() && uavs.is_ok());
    ASSERT_EQ(srvs->size(), 3u);
    const DispatchGrid grid = shaders::plan_dispatch(bytes / 16, kDefaultThreadsPerGroup);
    const uint32_t constants[2] = {static_cast<uint32_t>(bytes / 16), grid.threads_per_row};
    ASSERT_TRUE(kernel->record_dispatch(*context, {constants, *srvs, *uavs, grid.groups_x, grid.groups_y}).is_ok());
    ASSERT_TRUE(context->submit_and_wait().is_ok());
    auto got = download(*context, *dst, 0, bytes);
    ASSERT_TRUE(got.is_ok());
    EXPECT_TRUE(*got == input);
}

// The real thing: a 640 MiB tensor bound as two 512 MiB-window views and copied (about 2-5 s on lavapipe).
TEST(Kernels, Copy16OfTensorLargerThanOneView) {
    DMLTOOL_GPU_CONTEXT_OR_SKIP(context);
    const uint64_t bytes = 640ull << 20;
    auto dxbc = shaders::build_copy16_kernel({.views = 2});
    ASSERT_TRUE(dxbc.is_ok());
    auto kernel = ComputeKernel::create(*context, *dxbc, {.root_constants = 2, .srvs = 2, .uavs = 2}, "copy16x2");
    auto src = GpuBuffer::create(*context, MemoryKind::kDevice, bytes, "src");
    auto dst = GpuBuffer::create(*context, MemoryKind::kDevice, bytes, "dst");
    if (!src.is_ok() || !dst.is_ok()) GTEST_SKIP() << "cannot allocate 2 x 640 MiB on this device";
    ASSERT_TRUE(kernel.is_ok());
    std::vector<uint32_t> words(bytes / 4);
    for (size_t i = 0; i < words.size(); ++i) words[i] = static_cast<uint32_t>(i * 2654435761u) ^ 0x5a5a5a5au;
    ASSERT_TRUE(upload(*context, *src, 0, as_bytes(words)).is_ok());
    auto srvs = split_into_views(*src, 0, bytes);
    auto uavs = split_into_views(*dst, 0, bytes);
    ASSERT_TRUE(srvs.is_ok() && uavs.is_ok());
    ASSERT_EQ(srvs->size(), 2u);
    const DispatchGrid grid = shaders::plan_dispatch(bytes / 16, kDefaultThreadsPerGroup);
    const uint32_t constants[2] = {static_cast<uint32_t>(bytes / 16), grid.threads_per_row};
    auto seconds = context->time_gpu(1, [&] {
        return kernel->record_dispatch(*context, {constants, *srvs, *uavs, grid.groups_x, grid.groups_y});
    });
    ASSERT_TRUE(seconds.is_ok()) << seconds.status().message();
    std::printf("640 MiB copy across 2 views: %.1f ms GPU (%.2f GB/s read+write)\n", *seconds * 1e3,
                2.0 * bytes / *seconds / 1e9);
    auto got = download(*context, *dst, 0, bytes);
    ASSERT_TRUE(got.is_ok());
    const auto got_words = from_bytes<uint32_t>(*got);
    for (size_t i = 0; i < words.size(); ++i) ASSERT_EQ(got_words[i], words[i]) << "word " << i;
}

}  // namespace
}  // namespace dmltool::gpu
