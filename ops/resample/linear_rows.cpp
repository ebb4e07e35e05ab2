// The timed form of the RESAMPLE LINEAR CPU reference (run_linear_rows) and the rounding of double blends to the
// output type that both LINEAR forms share (store_blend). Row by row along the last dimension: input rows are
// gathered at the column taps and converted to double once (GatheredRowCache), then the corners are blended in
// the documented order with plain vectorizable double arithmetic (blend_corners_loop). The tests check it
// against the per-element form in reference.cpp byte for byte (linear_rows_test.cpp, resample_test.cpp). The vector
// loops are compiled for SSE2, AVX2 and AVX-512 and picked by SimdLevel (reference_internal.h).
// Over 600 lines on purpose: the three SIMD forms of each loop sit side by side so that a change to one is seen
// against the others.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
// GCC 12's AVX-512 intrinsics initialise their _mm512_undefined_* values from themselves, which its own
// -Wmaybe-uninitialized reports at every use (GCC bug 105593, fixed in 13); the warning is placed in the header.
// (Clang has no such warning group.)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#include <cpuid.h>
#include <type_traits>
#include <vector>

#include "ops/resample/coordinates.h"
#include "ops/resample/desc.h"
#include "ops/resample/reference_internal.h"

// The target of the AVX-512 loops: 64-bit lanes (F), 256-bit forms (VL), byte and word packs (BW), 64-bit
// integer conversions (DQ).
#define DMLTOOL_AVX512_TARGET "avx512f,avx512vl,avx512bw,avx512dq"

namespace dmltool::ops::resample {

SimdLevel cpu_simd_level() {
    static const SimdLevel level = [] {
        if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
            __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq"))
            return SimdLevel::kAvx512;
        return __builtin_cpu_supports("avx2") ? SimdLevel::kAvx2 : SimdLevel::kBaseline;
    }();
    return level;
}

namespace {

// The variant of a loop for `level`: the same source compiled for each instruction set.
template <typename Function>
Function for_level(SimdLevel level, Function baseline, Function avx2, Function avx512) {
    return level == SimdLevel::kAvx512 ? avx512 : level == SimdLevel::kAvx2 ? avx2 : baseline;
}

// std::clamp(v, lowest, highest) for a non-NaN v, as the SSE2 instructions maxsd and minsd: with plain
// comparisons the compiler branches on every element, and a blend's value is unpredictable.
inline double clamp(double v, double lowest, double highest) {
    return _mm_cvtsd_f64(_mm_min_sd(_mm_max_sd(_mm_set_sd(v), _mm_set_sd(lowest)), _mm_set_sd(highest)));
}

// double_to_half's fast path (core/dtype.cpp), written without branches so that the compiler vectorizes it:
// results in the normal half range [2^-14, 65520) round the double's 52-bit fraction to 10 bits, ties to even,
// on the bits (a carry out of the fraction correctly bumps the exponent). Elements outside that range get
// kNotFastHalf, which no fast-path result equals (its magnitude bits would be 0x7fff >= 0x7c00, infinity's).
constexpr uint16_t kNotFastHalf = 0xffff;
[[gnu::always_inline]] inline void fast_halves_loop(uint16_t* __restrict out, const double* __restrict sums,
                                                    uint64_t count) {
    for (uint64_t o = 0; o < count; ++o) {
        const uint64_t bits = std::bit_cast<uint64_t>(sums[o]);
        const uint64_t biased = (bits >> 52) & 0x7ff;  // exponent + 1023
        const uint64_t combined = ((biased - 1008) << 52) | (bits & ((uint64_t(1) << 52) - 1));  // exponent + 15
        const uint64_t rounded = (combined + ((uint64_t(1) << 41) - 1) + ((combined >> 42) & 1)) >> 42;
        const bool fast = biased - 1009 <= 29 && rounded < 0x7c00u;  // exponent in [-14, 15], below infinity
        out[o] = fast ? uint16_t(((bits >> 48) & 0x8000u) | rounded) : kNotFastHalf;
    }
}
void fast_halves_baseline(uint16_t* out, const double* sums, uint64_t count) { fast_halves_loop(out, sums, count); }
[[gnu::target("avx2")]] void fast_halves_avx2(uint16_t* out, const double* sums, uint64_t count) {
    fast_halves_loop(out, sums, count);
}
[[gnu::target(DMLTOOL_AVX512_TARGET)]] void fast_halves_avx512(uint16_t* out, const double* sums, uint64_t count) {
    fast_halves_loop(out, sums, count);
}

// Whether any of `count` halves is kNotFastHalf (a separate loop: the compiler vectorizes this reduction, not one
// folded into the loop above).
bool any_not_fast(const uint16_t* __restrict halves, uint64_t count) {
    uint32_t found = 0;
    for (uint64_t o = 0; o < count; ++o) found |= uint32_t(halves[o] == kNotFastHalf);
    return found != 0;
}

// out[o] = double_to_half(sums[o]): the vectorized fast path, then double_to_half itself for the rest.
void store_halves(uint16_t* out, const double* sums, uint64_t count, SimdLevel level) {
    for_level(level, fast_halves_baseline, fast_halves_avx2, fast_halves_avx512)(out, sums, count);
    if (!any_not_fast(out, count)) return;
    for (uint64_t o = 0; o < count; ++o)
        if (out[o] == kNotFastHalf) out[o] = double_to_half(sums[o]);
}

// The 8-bit stores below: clamp to the type's range, round to a multiple of 2^-10 (to nearest, ties to even), then
// truncate toward zero (the conversion DirectML 1.15.4 and ONNX Runtime apply; docs/semantics.md).
// The 2^-10 step keeps a blend whose value is an integer (a constant region) that integer: the float32 weights
// (1 - w rounded) and the double sum can leave the sum a hair below it, which truncation alone would drop to the
// integer below. Clamping first is the same as clamping last (both steps are monotone, the bounds integers) and
// bounds the value for the rounding trick (NaN cannot occur: the inputs are integers and the weights finite). With
// AVX2, vectors of the same operations (the truncating conversion cvttpd2dq), then narrowing by saturating packs
// (which change nothing in that range); the rest, and everything on a CPU without AVX2, one at a time.
constexpr double kRoundingShift = 6755399441055744.0;  // 1.5 * 2^52: (v + this) - this = v rounded, |v| <= 2^51
constexpr double kGrid = 1024.0;                        // 2^10
template <typename Element>
void store_bytes_scalar(Element* out, const double* sums, uint64_t count) {
    constexpr double lowest = std::is_signed_v<Element> ? -128.0 : 0.0, highest = lowest + 255.0;
    for (uint64_t o = 0; o < count; ++o) {
        const double on_grid = ((clamp(sums[o], lowest, highest) * kGrid + kRoundingShift) - kRoundingShift) / kGrid;
        out[o] = Element(int32_t(on_grid));  // truncates
    }
}
template <typename Element>
[[gnu::target("avx2")]] void store_bytes_avx2(Element* out, const double* sums, uint64_t count) {
    constexpr double lowest = std::is_signed_v<Element> ? -128.0 : 0.0, highest = lowest + 255.0;
    const __m256d low = _mm256_set1_pd(lowest), high = _mm256_set1_pd(highest);
    const __m256d grid = _mm256_set1_pd(kGrid), step = _mm256_set1_pd(1.0 / kGrid);
    constexpr int kNearest = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
    uint64_t o = 0;
    for (; o + 8 <= count; o += 8) {
        __m256d a = _mm256_min_pd(_mm256_max_pd(_mm256_loadu_pd(sums + o), low), high);
        __m256d b = _mm256_min_pd(_mm256_max_pd(_mm256_loadu_pd(sums + o + 4), low), high);
        a = _mm256_mul_pd(_mm256_round_pd(_mm256_mul_pd(a, grid), kNearest), step);
        b = _mm256_mul_pd(_mm256_round_pd(_mm256_mul_pd(b, grid), kNearest), step);
        // cvttpd2dq truncates toward zero, like the scalar int32_t conversion (cvtpd2dq would round).
        const __m128i words = _mm_packs_epi32(_mm256_cvttpd_epi32(a), _mm256_cvttpd_epi32(b));
        const __m128i bytes = std::is_signed_v<Element> ? _mm_packs_epi16(words, words) : _mm_packus_epi16(words, words);
        _mm_storel_epi64(reinterpret_cast<__m128i*>(out + o), bytes);
    }
    store_bytes_scalar(out + o, sums + o, count - o);
}
template <typename Element>
[[gnu::target(DMLTOOL_AVX512_TARGET)]] void store_bytes_avx512(Element* out, const double* sums, uint64_t count) {
    constexpr double lowest = std::is_signed_v<Element> ? -128.0 : 0.0, highest = lowest + 255.0;
    const __m512d low = _mm512_set1_pd(lowest), high = _mm512_set1_pd(highest);
    // roundscale with M = 10: to the nearest multiple of 2^-10, ties to even, exceptions suppressed.
    constexpr int kToGrid = (10 << 4) | _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
    uint64_t o = 0;
    for (; o + 16 <= count; o += 16) {
        const __m512d a =
            _mm512_roundscale_pd(_mm512_min_pd(_mm512_max_pd(_mm512_loadu_pd(sums + o), low), high), kToGrid);
        const __m512d b =
            _mm512_roundscale_pd(_mm512_min_pd(_mm512_max_pd(_mm512_loadu_pd(sums + o + 8), low), high), kToGrid);
        // As in the AVX2 loop: one truncating conversion; the values are in the type's range, so the truncating
        // narrowing to bytes (vpmovdb) is exact.
        const __m256i low_ints = _mm512_cvttpd_epi32(a), high_ints = _mm512_cvttpd_epi32(b);
        const __m512i ints = _mm512_inserti64x4(_mm512_castsi256_si512(low_ints), high_ints, 1);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + o), _mm512_cvtepi32_epi8(ints));
    }
    store_bytes_avx2(out + o, sums + o, count - o);
}

// Converts the double blend to the output type with a single rounding (8-bit: truncation). Typed,
// restrict-qualified output pointers let the compiler vectorize the loops.
template <DataType kType>
void store_row(std::byte* output, uint64_t first, const double* __restrict sums, uint64_t count, SimdLevel level) {
    if constexpr (kType == DataType::kFloat32) {
        float* __restrict out = reinterpret_cast<float*>(output) + first;
        for (uint64_t o = 0; o < count; ++o) out[o] = float(sums[o]);  // round to nearest even
    } else if constexpr (kType == DataType::kFloat16) {
        store_halves(reinterpret_cast<uint16_t*>(output) + first, sums, count, level);
    } else {
        using Element = std::conditional_t<kType == DataType::kInt8, int8_t, uint8_t>;
        Element* out = reinterpret_cast<Element*>(output) + first;
        for_level(level, store_bytes_scalar<Element>, store_bytes_avx2<Element>, store_bytes_avx512<Element>)(
            out, sums, count);
    }
}

void store_blend_impl(DataType type, std::byte* output, uint64_t first, const double* sums, uint64_t count,
                      SimdLevel level) {
    switch (type) {
        case DataType::kFloat32: store_row<DataType::kFloat32>(output, first, sums, count, level); break;
        case DataType::kFloat16: store_row<DataType::kFloat16>(output, first, sums, count, level); break;
        case DataType::kInt8: store_row<DataType::kInt8>(output, first, sums, count, level); break;
        case DataType::kUint8: store_row<DataType::kUint8>(output, first, sums, count, level); break;
        default: break;  // excluded by the feature-level table; run_resample_reference refuses it up front
    }
}

// half_to_float of every bit pattern, built once: the conversion is a branchy library call, and a gathered
// source row converts each element about twice.
const float* half_values() {
    static const std::vector<float> table = [] {
        std::vector<float> values(65536);
        for (uint32_t h = 0; h < values.size(); ++h) values[h] = half_to_float(uint16_t(h));
        return values;
    }();
    return table.data();
}

// The element type of a RESAMPLE tensor of type kType and its exact value as double (get_as_double's value);
// `halves` is half_values(), passed in so that loops do not test the table's initialisation guard per element.
template <DataType kType>
struct Storage;
template <>
struct Storage<DataType::kFloat32> {
    using Element = float;
    static double value(float v, const float*) { return v; }
};
template <>
struct Storage<DataType::kFloat16> {
    using Element = uint16_t;
    static double value(uint16_t bits, const float* halves) { return halves[bits]; }
};
template <>
struct Storage<DataType::kInt8> {
    using Element = int8_t;
    static double value(int8_t v, const float*) { return v; }
};
template <>
struct Storage<DataType::kUint8> {
    using Element = uint8_t;
    static double value(uint8_t v, const float*) { return v; }
};

// The last dimension's taps as flat arrays (weights widened to double), so the blend loop is plain arithmetic on
// consecutive doubles that the compiler vectorizes.
struct ColumnTaps {
    explicit ColumnTaps(const std::vector<LinearTap>& taps) {
        for (const LinearTap& tap : taps) {
            lower_index.push_back(tap.x0);
            upper_index.push_back(tap.x1);
            lower_weight.push_back(double(tap.w0));
            upper_weight.push_back(double(tap.w1));
        }
    }
    std::vector<uint32_t> lower_index, upper_index;
    std::vector<double> lower_weight, upper_weight;
};

// A column-tap sequence (non-decreasing) that is a first run of `first_run` equal taps, then `middle_runs` runs of
// exactly `run_length` taps, then a last run of `last_run` (possibly 0), on consecutive input columns from
// `first_column` on: upsampling by an integer factor r has runs of r (the edges' clamped taps lengthen the first and
// last runs). A row gathered at such taps is each input value repeated, filled without per-output index loads.
struct TapRuns {
    bool valid = false;
    uint32_t first_column = 0;
    uint64_t first_run = 0, run_length = 0, middle_runs = 0, last_run = 0;
};
TapRuns find_tap_runs(const uint32_t* taps, uint64_t count) {
    std::vector<uint64_t> lengths;
    for (uint64_t o = 0; o < count; ++o) {
        if (o > 0 && taps[o] == taps[o - 1]) {
            ++lengths.back();
            continue;
        }
        if (o > 0 && taps[o] != taps[o - 1] + 1) return {};  // a skipped column: not runs
        lengths.push_back(1);
    }
    TapRuns runs;
    if (lengths.empty()) return runs;
    runs.first_column = taps[0];
    runs.first_run = lengths.front();
    if (lengths.size() >= 2) runs.last_run = lengths.back();
    if (lengths.size() >= 3) {
        runs.run_length = lengths[1];
        runs.middle_runs = lengths.size() - 2;
        for (size_t i = 1; i + 1 < lengths.size(); ++i)
            if (lengths[i] != runs.run_length) return {};
    }
    runs.valid = true;
    return runs;
}

// out[2m] = out[2m + 1] = column[m] for m < pairs: the runs of 2 of upsampling by 2. AVX2: two input values per
// step, spread to (c0, c0, c1, c1) by one permutation and stored as 32 bytes.
void fill_pairs_baseline(const double* __restrict column, uint64_t pairs, double* __restrict out) {
    for (uint64_t m = 0; m < pairs; ++m) _mm_storeu_pd(out + 2 * m, _mm_set1_pd(column[m]));
}
[[gnu::target("avx2")]] void fill_pairs_avx2(const double* __restrict column, uint64_t pairs, double* __restrict out) {
    uint64_t m = 0;
    for (; m + 2 <= pairs; m += 2) {
        const __m256d two = _mm256_castpd128_pd256(_mm_loadu_pd(column + m));
        _mm256_storeu_pd(out + 2 * m, _mm256_permute4x64_pd(two, 0x50));  // lanes 0, 0, 1, 1
    }
    fill_pairs_baseline(column + m, pairs - m, out + 2 * m);
}
[[gnu::target(DMLTOOL_AVX512_TARGET)]] void fill_pairs_avx512(const double* __restrict column, uint64_t pairs,
                                                           double* __restrict out) {
    const __m512i spread = _mm512_set_epi64(3, 3, 2, 2, 1, 1, 0, 0);
    uint64_t m = 0;
    for (; m + 4 <= pairs; m += 4) {
        const __m512d four = _mm512_castpd256_pd512(_mm256_loadu_pd(column + m));
        _mm512_storeu_pd(out + 2 * m, _mm512_permutexvar_pd(spread, four));  // lanes 0, 0, 1, 1, 2, 2, 3, 3
    }
    fill_pairs_avx2(column + m, pairs - m, out + 2 * m);
}

// values[o] = span[taps[o] - span_first] for taps described by `runs`: each input value stored run-length times.
void fill_tap_runs(const double* __restrict span, uint64_t span_first, const TapRuns& runs, double* __restrict values,
                   SimdLevel level) {
    const double* column = span + (runs.first_column - span_first);
    uint64_t o = 0;
    for (uint64_t i = 0; i < runs.first_run; ++i) values[o++] = column[0];
    ++column;
    if (runs.run_length == 2) {
        for_level(level, fill_pairs_baseline, fill_pairs_avx2, fill_pairs_avx512)(column, runs.middle_runs, values + o);
        o += 2 * runs.middle_runs;
        column += runs.middle_runs;
    } else {
        for (uint64_t m = 0; m < runs.middle_runs; ++m, ++column)
            for (uint64_t i = 0; i < runs.run_length; ++i) values[o++] = column[0];
    }
    for (uint64_t i = 0; i < runs.last_run; ++i) values[o++] = column[0];
}

// values[i] = Storage<kType>::value(row[i]) for i < count, per instruction set; halves also by F16C.
template <DataType kType>
using ConvertRow = void (*)(const typename Storage<kType>::Element*, double*, uint64_t, const float*);
template <DataType kType>
[[gnu::always_inline]] inline void convert_loop(const typename Storage<kType>::Element* __restrict row,
                                                double* __restrict values, uint64_t count,
                                                const float* __restrict halves) {
    for (uint64_t i = 0; i < count; ++i) values[i] = Storage<kType>::value(row[i], halves);
}
template <DataType kType>
void convert_baseline(const typename Storage<kType>::Element* row, double* values, uint64_t count,
                      const float* halves) {
    convert_loop<kType>(row, values, count, halves);
}
template <DataType kType>
[[gnu::target("avx2")]] void convert_avx2(const typename Storage<kType>::Element* row, double* values,
                                          uint64_t count, const float* halves) {
    convert_loop<kType>(row, values, count, halves);
}
template <DataType kType>
[[gnu::target(DMLTOOL_AVX512_TARGET)]] void convert_avx512(const typename Storage<kType>::Element* row,
                                                           double* values, uint64_t count, const float* halves) {
    convert_loop<kType>(row, values, count, halves);
}
// vcvtph2ps converts 8 halves to floats exactly (every half is a float), instead of 8 table loads.
[[gnu::target("avx2,f16c")]] void convert_halves_f16c(const uint16_t* __restrict row, double* __restrict values,
                                                      uint64_t count, const float* __restrict halves) {
    uint64_t i = 0;
    for (; i + 8 <= count; i += 8) {
        const __m256 floats = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(row + i)));
        _mm256_storeu_pd(values + i, _mm256_cvtps_pd(_mm256_castps256_ps128(floats)));
        _mm256_storeu_pd(values + i + 4, _mm256_cvtps_pd(_mm256_extractf128_ps(floats, 1)));
    }
    convert_loop<DataType::kFloat16>(row + i, values + i, count - i, halves);
}
// Whether this CPU has F16C and it gives half_values() for every half (a NaN for a NaN: which NaN does not
// matter, any NaN corner makes the blend NaN). Checked once rather than assumed.
[[gnu::target("avx2,f16c")]] bool f16c_matches_table_on_cpu() {
    std::vector<uint16_t> every(65536);
    for (uint32_t h = 0; h < every.size(); ++h) every[h] = uint16_t(h);
    std::vector<double> converted(every.size());
    const float* table = half_values();
    convert_halves_f16c(every.data(), converted.data(), every.size(), table);
    for (uint32_t h = 0; h < every.size(); ++h) {
        const double expected = table[h];
        const bool same = std::isnan(expected)
                              ? std::isnan(converted[h])
                              : std::bit_cast<uint64_t>(expected) == std::bit_cast<uint64_t>(converted[h]);
        if (!same) return false;
    }
    return true;
}
template <DataType kType>
ConvertRow<kType> convert_row_for(SimdLevel level) {
    if constexpr (kType == DataType::kFloat16)
        if (level != SimdLevel::kBaseline && halves_convert_by_f16c()) return convert_halves_f16c;
    return for_level<ConvertRow<kType>>(level, convert_baseline<kType>, convert_avx2<kType>, convert_avx512<kType>);
}

// One input row (along the last dimension) gathered at the lower and upper column taps of the output columns
// [first, first + count) and converted to double: lower[o] = x[lower_index[first + o]], likewise upper.
struct GatheredRow {
    static constexpr uint64_t kNone = ~uint64_t{0};
    uint64_t source = kNone;  // offset of the input row's first element; kNone: empty slot
    uint64_t last_use = 0;
    std::vector<double> lower, upper;
};

// The gathered rows of the last few output rows: consecutive output rows mostly blend the same input rows
// (upsampling by 2 uses each input row for four output rows), so each is gathered and converted once. Least
// recently used eviction; a row is used right after get() returns it, before the next get().
template <DataType kType>
class GatheredRowCache {
public:
    using Element = typename Storage<kType>::Element;
    GatheredRowCache(const Element* input, const ColumnTaps& columns, bool gather_upper, size_t slots,
                     uint64_t max_count, SimdLevel level)
        : input_(input), columns_(columns), gather_upper_(gather_upper), slots_(slots), level_(level),
          convert_(convert_row_for<kType>(level)) {
        for (GatheredRow& slot : slots_) {
            slot.lower.resize(max_count);
            if (gather_upper) slot.upper.resize(max_count);
        }
    }
    // Forgets every row: the next rows are gathered for output columns [first, first + count).
    void start_columns(uint64_t first, uint64_t count) {
        first_ = first;
        count_ = count;
        for (GatheredRow& slot : slots_) slot.source = GatheredRow::kNone;
        // The input columns these outputs read (the taps are non-decreasing in the output index). When they are
        // few (upsampling, or downsampling by up to 2), each is converted once and the gathers read doubles;
        // otherwise the gathers convert what they read.
        span_first_ = columns_.lower_index[first];
        const std::vector<uint32_t>& last_taps = gather_upper_ ? columns_.upper_index : columns_.lower_index;
        const uint64_t span = last_taps[first + count - 1] + 1 - span_first_;
        convert_first_ = span <= 2 * count;
        // Runs are filled from the converted row only: a tile that converts while gathering does not need them.
        lower_runs_ = upper_runs_ = TapRuns{};
        if (convert_first_) {
            row_values_.resize(span);
            lower_runs_ = find_tap_runs(columns_.lower_index.data() + first, count);
            if (gather_upper_) upper_runs_ = find_tap_runs(columns_.upper_index.data() + first, count);
        }
    }
    const GatheredRow& get(uint64_t source) {
        ++clock_;
        GatheredRow* victim = &slots_[0];
        for (GatheredRow& slot : slots_) {
            if (slot.source == source) {
                slot.last_use = clock_;
                return slot;
            }
            if (slot.last_use < victim->last_use) victim = &slot;
        }
        if (convert_first_) {
            convert_(input_ + source + span_first_, row_values_.data(), row_values_.size(), halves_);
            const double* values = row_values_.data();
            from_converted(values, lower_runs_, columns_.lower_index, victim->lower.data());
            if (gather_upper_) from_converted(values, upper_runs_, columns_.upper_index, victim->upper.data());
        } else {
            gather(input_ + source, columns_.lower_index.data() + first_, victim->lower.data(), count_, halves_);
            if (gather_upper_)
                gather(input_ + source, columns_.upper_index.data() + first_, victim->upper.data(), count_, halves_);
        }
        victim->source = source;
        victim->last_use = clock_;
        return *victim;
    }

private:
    static void gather(const Element* __restrict row, const uint32_t* __restrict index, double* __restrict values,
                       uint64_t count, const float* __restrict halves) {
        for (uint64_t o = 0; o < count; ++o) values[o] = Storage<kType>::value(row[index[o]], halves);
    }
    // `span` holds the input columns from `span_first` on.
    static void gather(const double* __restrict span, uint64_t span_first, const uint32_t* __restrict index,
                       double* __restrict values, uint64_t count) {
        for (uint64_t o = 0; o < count; ++o) values[o] = span[index[o] - span_first];
    }
    // The converted row (row_values_) at this tile's `index` taps: filled run by run where they form runs.
    void from_converted(const double* values, const TapRuns& runs, const std::vector<uint32_t>& index,
                        double* out) const {
        if (runs.valid) fill_tap_runs(values, span_first_, runs, out, level_);
        else gather(values, span_first_, index.data() + first_, out, count_);
    }

    const Element* input_;
    const float* halves_ = half_values();
    const ColumnTaps& columns_;
    bool gather_upper_;
    std::vector<GatheredRow> slots_;
    SimdLevel level_;
    ConvertRow<kType> convert_;
    uint64_t first_ = 0, count_ = 0, clock_ = 0;
    uint64_t span_first_ = 0;
    bool convert_first_ = false;
    TapRuns lower_runs_, upper_runs_;  // the column taps of this tile as runs, where they are (find_tap_runs)
    std::vector<double> row_values_;  // input columns [span_first_, span_first_ + size) of one row, when converted
};

// One leading corner of an output row: its input row gathered at the column taps, and the weight product of the
// leading dimensions.
struct LeadingCorner {
    const double* lower;
    const double* upper;
    double weight;
};

// Adds one leading corner, or two consecutive ones (kPair), to the sums of `count` outputs: each corner's lower
// last-dimension tap, then its upper one (unless the last dimension is a copy), each as x * (weight * w_last).
// kFirst: the sum starts as 0.0 + term, as `sum = 0; sum += term` does (0.0 + -0.0 = +0.0). Two corners per pass
// keep the running sum in a register between them.
template <bool kFirst, bool kUpper, bool kPair>
[[gnu::always_inline]] inline void blend_corners_loop(double* __restrict sums, LeadingCorner a, LeadingCorner b,
                                                      const double* __restrict lower_weight,
                                                      const double* __restrict upper_weight, uint64_t count) {
    const double* __restrict a_lower = a.lower;
    const double* __restrict a_upper = a.upper;
    const double* __restrict b_lower = b.lower;
    const double* __restrict b_upper = b.upper;
    for (uint64_t o = 0; o < count; ++o) {
        double sum = kFirst ? 0.0 : sums[o];
        sum += a_lower[o] * (a.weight * lower_weight[o]);
        if constexpr (kUpper) sum += a_upper[o] * (a.weight * upper_weight[o]);
        if constexpr (kPair) {
            sum += b_lower[o] * (b.weight * lower_weight[o]);
            if constexpr (kUpper) sum += b_upper[o] * (b.weight * upper_weight[o]);
        }
        sums[o] = sum;
    }
}

// The same loop compiled for the baseline (SSE2), AVX2 and AVX-512: two, four and eight doubles per instruction.
// All are the same IEEE double multiplications and additions in the same order (the build has -ffp-contract=off,
// so no fused multiply-add either way): the results are identical bit for bit.
template <bool kFirst, bool kUpper, bool kPair>
void blend_corners_baseline(double* sums, LeadingCorner a, LeadingCorner b, const double* lower_weight,
                            const double* upper_weight, uint64_t count) {
    blend_corners_loop<kFirst, kUpper, kPair>(sums, a, b, lower_weight, upper_weight, count);
}
template <bool kFirst, bool kUpper, bool kPair>
[[gnu::target("avx2")]] void blend_corners_avx2(double* sums, LeadingCorner a, LeadingCorner b,
                                                const double* lower_weight, const double* upper_weight,
                                                uint64_t count) {
    blend_corners_loop<kFirst, kUpper, kPair>(sums, a, b, lower_weight, upper_weight, count);
}
template <bool kFirst, bool kUpper, bool kPair>
[[gnu::target(DMLTOOL_AVX512_TARGET)]] void blend_corners_avx512(double* sums, LeadingCorner a, LeadingCorner b,
                                                                 const double* lower_weight,
                                                                 const double* upper_weight, uint64_t count) {
    blend_corners_loop<kFirst, kUpper, kPair>(sums, a, b, lower_weight, upper_weight, count);
}

using BlendCorners = void (*)(double*, LeadingCorner, LeadingCorner, const double*, const double*, uint64_t);

// blend_corners_*<first, upper, pair> for `level`.
template <bool kFirst, bool kUpper, bool kPair>
BlendCorners blend_corners_at(SimdLevel level) {
    return for_level<BlendCorners>(level, blend_corners_baseline<kFirst, kUpper, kPair>,
                                   blend_corners_avx2<kFirst, kUpper, kPair>,
                                   blend_corners_avx512<kFirst, kUpper, kPair>);
}
template <bool kUpper>
BlendCorners blend_corners_for(bool first, bool pair, SimdLevel level) {
    if (first) return pair ? blend_corners_at<true, kUpper, true>(level) : blend_corners_at<true, kUpper, false>(level);
    return pair ? blend_corners_at<false, kUpper, true>(level) : blend_corners_at<false, kUpper, false>(level);
}
BlendCorners blend_corners_for(bool first, bool upper, bool pair, SimdLevel level) {
    return upper ? blend_corners_for<true>(first, pair, level) : blend_corners_for<false>(first, pair, level);
}

// Every corner of output element i over the interpolated dimensions (a Scale-1 dimension is a copy: its lower tap
// only, as in run_linear_with_error_scale), in a fixed order — dimension 0 is the most significant bit — so the
// double sum is reproducible:
//   sum = 0; for corner: sum += x[corner] * (((1.0 * w_0) * w_1) * ... * w_last)
// Computed row by row: the leading dimensions' corners (input row and weight product) once per output row, then
// for each of them, in corner order, both last-dimension taps of every output of the row (blend_corners) from
// input rows gathered at the column taps beforehand (GatheredRowCache). Every corner is added, zero weights
// included: a finite x times a zero weight adds +-0, which leaves the sum unchanged (the sum starts at +0 and
// can never become -0), and a non-finite x must turn the sum into NaN as in the per-element form.
template <DataType kType>
void run_linear_rows_of(const ResampleDesc& desc, const std::vector<std::vector<LinearTap>>& taps,
                        const HostTensor& input, HostTensor& output, ThreadPool& pool, SimdLevel level) {
    using Element = typename Storage<kType>::Element;
    const uint32_t rank = desc.input.rank(), last = rank - 1;
    const Dims in_strides = packed_strides(desc.input.sizes);
    const uint64_t out_width = desc.output.sizes[last];
    const uint64_t rows = output.element_count() / out_width;
    const bool last_is_copy = desc.scales[last] == 1.0f;
    const ColumnTaps columns(taps[last]);
    // The leading corners that are blended: those with no upper tap along a copied (Scale-1) dimension.
    std::vector<uint32_t> leading_corners;
    for (uint32_t prefix = 0; prefix < (1u << last); ++prefix) {
        bool copied_dimension_upper = false;
        for (uint32_t d = 0; d < last; ++d)
            copied_dimension_upper |= ((prefix >> (last - 1 - d)) & 1u) && desc.scales[d] == 1.0f;
        if (!copied_dimension_upper) leading_corners.push_back(prefix);
    }
    // Output columns are blended in tiles so that the gathered rows stay in cache however wide a row is.
    constexpr uint64_t kTile = 512;
    const uint64_t tile = std::min(out_width, kTile);
    const auto* in = reinterpret_cast<const Element*>(input.bytes().data());
    const DataType type = output.data_type();
    pool.parallel_for(rows, [&](uint64_t begin, uint64_t end) {
        // Two output rows' worth of input rows: enough for every reuse between neighbouring output rows.
        GatheredRowCache<kType> cache(in, columns, !last_is_copy, 2 * leading_corners.size(), tile, level);
        std::vector<double> sums(tile);
        uint32_t coord[kMaxDimensionCount];
        for (uint64_t first = 0; first < out_width; first += tile) {
            const uint64_t count = std::min(tile, out_width - first);
            cache.start_columns(first, count);
            const double* lower_weight = columns.lower_weight.data() + first;
            const double* upper_weight = columns.upper_weight.data() + first;
            for (uint64_t row = begin; row < end; ++row) {
                leading_coordinates(row, desc.output.sizes, coord);
                // The corners in order, two per pass where two are left.
                for (size_t c = 0; c < leading_corners.size();) {
                    const bool pair = c + 1 < leading_corners.size();
                    LeadingCorner corners[2] = {};
                    for (size_t k = 0; k < (pair ? 2u : 1u); ++k) {
                        const uint32_t prefix = leading_corners[c + k];
                        double weight = 1.0;
                        uint64_t source = 0;
                        for (uint32_t d = 0; d < last; ++d) {
                            const LinearTap& tap = taps[d][coord[d]];
                            const bool upper = (prefix >> (last - 1 - d)) & 1u;
                            source += uint64_t(upper ? tap.x1 : tap.x0) * in_strides[d];
                            weight *= double(upper ? tap.w1 : tap.w0);
                        }
                        // The cache keeps the first corner's row while it gathers the second (least recently
                        // used eviction, at least two slots).
                        const GatheredRow& gathered = cache.get(source);
                        corners[k] = {gathered.lower.data(), gathered.upper.data(), weight};
                    }
                    blend_corners_for(c == 0, !last_is_copy, pair, level)(sums.data(), corners[0], corners[1],
                                                                           lower_weight, upper_weight, count);
                    c += pair ? 2 : 1;
                }
                store_blend_impl(type, output.bytes().data(), row * out_width + first, sums.data(), count, level);
            }
        }
    }, std::max<uint64_t>(1, 4096 / out_width));
}

}  // namespace

bool halves_convert_by_f16c() {
    // CPUID leaf 1, ECX bit 29: F16C (Clang's __builtin_cpu_supports does not know the name).
    const auto has_f16c = [] {
        unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
        return __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & (1u << 29)) != 0;
    };
    static const bool matches = has_f16c() && __builtin_cpu_supports("avx2") && f16c_matches_table_on_cpu();
    return matches;
}

void store_blend(DataType type, std::byte* output, uint64_t first, const double* sums, uint64_t count) {
    store_blend_impl(type, output, first, sums, count, cpu_simd_level());
}

void run_linear_rows(const ResampleDesc& desc, const std::vector<std::vector<LinearTap>>& taps,
                     const HostTensor& input, HostTensor& output, ThreadPool& pool, SimdLevel level) {
    switch (desc.input.data_type) {
        case DataType::kFloat32: run_linear_rows_of<DataType::kFloat32>(desc, taps, input, output, pool, level); break;
        case DataType::kFloat16: run_linear_rows_of<DataType::kFloat16>(desc, taps, input, output, pool, level); break;
        case DataType::kInt8: run_linear_rows_of<DataType::kInt8>(desc, taps, input, output, pool, level); break;
        case DataType::kUint8: run_linear_rows_of<DataType::kUint8>(desc, taps, input, output, pool, level); break;
        default: break;  // excluded by the feature-level table; run_resample_reference refuses it up front
    }
}

}  // namespace dmltool::ops::resample
