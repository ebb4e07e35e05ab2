// CPU reference of DML_RESAMPLE v1 (spec §6.4-6.7). Per-dimension index/weight tables come from
// coordinates.h; row by row along the last dimension, the reference gathers (nearest) or blends the 2^rank corners
// (linear) of every output element. The tests check it against a per-element form of both (resample_test.cpp).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <vector>

#include "ops/resample/coordinates.h"
#include "ops/resample/desc.h"

namespace dmltool::ops::resample {
namespace {

// Round half to even of |v| <= 2^51 in the default rounding mode: adding and subtracting 1.5 * 2^52 leaves no
// fraction bits (the build has -ffp-contract=off and no fast-math, so the two additions stay). std::nearbyint
// gives the same value (the tests compare against it) but is a slow library call.
double round_half_even(double v) {
    constexpr double kShift = 6755399441055744.0;  // 1.5 * 2^52
    return (v + kShift) - kShift;
}

// Converts the double blend to the output type with a single rounding: for the 8-bit types the value is clamped
// to the type's range (first to +-2^20 so that the rounding trick is exact; NaN cannot occur: the inputs are
// integers and the weights finite).
template <DataType kType>
void store_row(std::byte* output, uint64_t first, const double* sums, uint64_t count) {
    for (uint64_t o = 0; o < count; ++o) {
        const double value = sums[o];
        if constexpr (kType == DataType::kFloat32) {
            const float f = float(value);  // round to nearest even
            std::memcpy(output + (first + o) * 4, &f, 4);
        } else if constexpr (kType == DataType::kFloat16) {
            const uint16_t h = double_to_half(value);
            std::memcpy(output + (first + o) * 2, &h, 2);
        } else {
            constexpr double lowest = kType == DataType::kInt8 ? -128.0 : 0.0;
            constexpr double highest = kType == DataType::kInt8 ? 127.0 : 255.0;
            const double rounded = std::clamp(round_half_even(std::clamp(value, -0x1p20, 0x1p20)), lowest, highest);
            output[first + o] = kType == DataType::kInt8 ? std::byte(uint8_t(int8_t(rounded))) : std::byte(uint8_t(rounded));
        }
    }
}

void store(DataType type, std::byte* output, uint64_t first, const double* sums, uint64_t count) {
    switch (type) {
        case DataType::kFloat32: store_row<DataType::kFloat32>(output, first, sums, count); break;
        case DataType::kFloat16: store_row<DataType::kFloat16>(output, first, sums, count); break;
        case DataType::kInt8: store_row<DataType::kInt8>(output, first, sums, count); break;
        case DataType::kUint8: store_row<DataType::kUint8>(output, first, sums, count); break;
        default: break;  // excluded by the feature-level table; run_resample_reference refuses it up front
    }
}

// The output as rows along the last dimension: row r's leading coordinates (all but the last), unravelled.
void leading_coordinates(uint64_t row, const Dims& out_sizes, uint32_t* coord) {
    for (uint32_t d = out_sizes.size() - 1; d-- > 0;) {
        coord[d] = uint32_t(row % out_sizes[d]);
        row /= out_sizes[d];
    }
}

// out_row[o] = in_row[columns[o]]. Restrict-qualified: a byte store may otherwise alias the column table, and the
// compiler would reload it after every element.
template <typename Element>
void gather_row(Element* __restrict out_row, const Element* __restrict in_row, const uint32_t* __restrict columns,
                uint64_t count) {
    for (uint64_t o = 0; o < count; ++o) out_row[o] = in_row[columns[o]];
}

// Gathers whole elements (bytes unchanged, so NaN payloads survive): `Element` is an unsigned integer of the
// element's size. The index math of the leading dimensions runs once per output row.
template <typename Element>
void gather_rows(const ResampleDesc& desc, const std::vector<std::vector<uint32_t>>& index, const HostTensor& input,
                 HostTensor& output, ThreadPool& pool) {
    const uint32_t rank = desc.input.rank(), last = rank - 1;
    const Dims in_strides = packed_strides(desc.input.sizes);
    const uint64_t out_width = desc.output.sizes[last];
    const uint64_t rows = output.element_count() / out_width;
    const auto* in = reinterpret_cast<const Element*>(input.bytes().data());
    auto* out = reinterpret_cast<Element*>(output.bytes().data());
    const uint32_t* columns = index[last].data();
    pool.parallel_for(rows, [&](uint64_t begin, uint64_t end) {
        uint32_t coord[kMaxDimensionCount];
        uint64_t previous_source = ~uint64_t{0};
        for (uint64_t row = begin; row < end; ++row) {
            leading_coordinates(row, desc.output.sizes, coord);
            uint64_t source = 0;
            for (uint32_t d = 0; d < last; ++d) source += uint64_t(index[d][coord[d]]) * in_strides[d];
            // An output row is a function of its source row alone (the column table is shared): upsampling repeats
            // the previous row, which is copied instead of gathered again.
            if (source == previous_source)
                std::memcpy(out + row * out_width, out + (row - 1) * out_width, out_width * sizeof(Element));
            else
                gather_row(out + row * out_width, in + source, columns, out_width);
            previous_source = source;
        }
    }, std::max<uint64_t>(1, 4096 / out_width));
}

Status run_nearest(const ResampleDesc& desc, const HostTensor& input, HostTensor& output,
                   const ReferenceContext& context) {
    const uint32_t rank = desc.input.rank();
    std::vector<std::vector<uint32_t>> index(rank);
    for (uint32_t d = 0; d < rank; ++d) {
        const float inv = inverse_scale(desc.scales[d]);
        for (uint32_t o = 0; o < desc.output.sizes[d]; ++o)
            index[d].push_back(nearest_index(o, desc.input.sizes[d], inv, context.semantics.resample_nearest_rule));
    }
    if (output.element_count() == 0) return Status::ok();
    switch (input.element_bytes()) {
        case 1: gather_rows<uint8_t>(desc, index, input, output, context.pool); break;
        case 2: gather_rows<uint16_t>(desc, index, input, output, context.pool); break;
        case 4: gather_rows<uint32_t>(desc, index, input, output, context.pool); break;
        default: return internal_error("RESAMPLE reference: unexpected element size");
    }
    return Status::ok();
}

// The error scale M of one output element (README: Semantics and tolerances). A correct float32
// implementation's result differs from the reference's exact blend by at most 1.01 * 2^-24 * M (+ underflow
// and output rounding): (2r + 2^r - 1) * m covers the roundings of the weights, products and sums (m = sum of
// |weight * value| over the corners), and (2 + 8 * (|q_d| + 1)) * P_d covers, per interpolated axis d, the
// subtraction and product of an `a + w * (b - a)` blend (2) and float32 coordinate arithmetic of a different
// order than the reference's (8 * (|q_d| + 1) ulps of the coordinate q_d = (o + 0.5) / scale, times P_d, the
// largest difference between neighbours along d among the input elements the blend may touch).
class ErrorScale {
public:
    ErrorScale(const ResampleDesc& desc, const HostTensor& input) : desc_(desc), input_(input) {
        strides_ = packed_strides(desc.input.sizes);
        for (uint32_t d = 0; d < desc.input.rank(); ++d) interpolated_ += desc.scales[d] != 1.0f;
    }
    uint32_t interpolated_axes() const { return interpolated_; }
    // Underflow: a GPU may flush float32 denormals in every operation (and on reading inputs).
    double absolute_floor() const { return double((1u << interpolated_) + 2 * interpolated_ + 2) * 0x1p-126; }

    double operator()(const uint32_t* coord, const std::vector<std::vector<LinearTap>>& taps, double m) const {
        const uint32_t rank = desc_.input.rank();
        uint32_t lo[kMaxDimensionCount], hi[kMaxDimensionCount];
        double q[kMaxDimensionCount];
        for (uint32_t d = 0; d < rank; ++d) {
            const LinearTap& tap = taps[d][coord[d]];
            lo[d] = hi[d] = tap.x0;
            q[d] = 0;
            if (desc_.scales[d] == 1.0f) continue;  // exact coordinate o in any evaluation order: weight 1 on x0
            q[d] = (double(coord[d]) + 0.5) / double(desc_.scales[d]);
            const double delta = kUnitRoundoff * 8.0 * (q[d] + 1.0);
            hi[d] = tap.x1;
            // Within delta of a cell boundary another implementation may blend the neighbouring cell.
            if (double(tap.w1) <= delta && lo[d] > 0) --lo[d];
            if (double(tap.w1) >= 1.0 - delta && hi[d] + 1 < desc_.input.sizes[d]) ++hi[d];
        }
        double slope[kMaxDimensionCount] = {};
        uint32_t at[kMaxDimensionCount];
        for (uint32_t d = 0; d < rank; ++d) at[d] = lo[d];
        for (;;) {
            uint64_t source = 0;
            for (uint32_t d = 0; d < rank; ++d) source += uint64_t(at[d]) * strides_[d];
            const double here = input_.get_as_double(source);
            for (uint32_t d = 0; d < rank; ++d)
                if (at[d] < hi[d])
                    slope[d] = std::max(slope[d], std::fabs(input_.get_as_double(source + strides_[d]) - here));
            uint32_t d = rank;
            while (d > 0 && at[d - 1] == hi[d - 1]) at[d - 1] = lo[d - 1], --d;
            if (d == 0) break;
            ++at[d - 1];
        }
        const uint32_t r = interpolated_;
        double scale = double(2 * r + (1u << r) - 1) * m;
        for (uint32_t d = 0; d < rank; ++d)
            if (desc_.scales[d] != 1.0f) scale += (2.0 + 8.0 * (q[d] + 1.0)) * slope[d];
        return scale;
    }

    static constexpr double kUnitRoundoff = 0x1p-24;  // float32, the arithmetic a correct implementation may use

private:
    const ResampleDesc& desc_;
    const HostTensor& input_;
    Dims strides_;
    uint32_t interpolated_ = 0;
};

// The per-element form with the error-bound data (used when the runner asks for exact outputs: a check, not a
// timed run): each output element sums its corners in the same order as run_linear, plus |term| for M.
Status run_linear_with_error_scale(const ResampleDesc& desc, const HostTensor& input, HostTensor& output,
                  const ReferenceContext& context) {
    const uint32_t rank = desc.input.rank();
    std::vector<std::vector<LinearTap>> taps(rank);
    for (uint32_t d = 0; d < rank; ++d) {
        const float inv = inverse_scale(desc.scales[d]);
        for (uint32_t o = 0; o < desc.output.sizes[d]; ++o) taps[d].push_back(linear_tap(o, desc.input.sizes[d], inv));
    }
    const Dims in_strides = packed_strides(desc.input.sizes);
    const uint32_t corners = 1u << rank;
    ExactOutput* exact = context.exact_outputs ? &context.exact_outputs->at(0) : nullptr;
    const ErrorScale error_scale(desc, input);
    if (exact) {
        exact->exact.assign(output.element_count(), 0.0);
        exact->scale.assign(output.element_count(), 0.0);
        exact->absolute_floor = error_scale.absolute_floor();
    }
    context.pool.parallel_for(output.element_count(), [&](uint64_t begin, uint64_t end) {
        uint32_t coord[kMaxDimensionCount];
        for (uint64_t i = begin; i < end; ++i) {
            unravel_index(i, desc.output.sizes, coord);
            // The corners of the interpolated dimensions in a fixed order — dimension 0 is the most significant
            // bit — so the double sum is reproducible. A dimension with Scale 1 is a copy (spec §6.5): only its
            // lower tap (weight 1), so an infinity in the neighbouring plane cannot leak in as 0 * inf = NaN.
            double sum = 0.0, magnitude = 0.0;
            for (uint32_t corner = 0; corner < corners; ++corner) {
                double weight = 1.0;
                uint64_t source = 0;
                bool copied_dimension_upper = false;
                for (uint32_t d = 0; d < rank; ++d) {
                    const LinearTap& tap = taps[d][coord[d]];
                    const bool upper = (corner >> (rank - 1 - d)) & 1u;
                    copied_dimension_upper |= upper && desc.scales[d] == 1.0f;
                    source += uint64_t(upper ? tap.x1 : tap.x0) * in_strides[d];
                    weight *= double(upper ? tap.w1 : tap.w0);
                }
                if (copied_dimension_upper) continue;
                const double term = input.get_as_double(source) * weight;
                sum += term;
                magnitude += std::fabs(term);
            }
            store(desc.output.data_type, output.bytes().data(), i, &sum, 1);
            if (exact) {
                exact->exact[i] = sum;
                exact->scale[i] = error_scale(coord, taps, magnitude);
            }
        }
    });
    return Status::ok();
}

// Every corner of output element i over the interpolated dimensions (a Scale-1 dimension is a copy: its lower tap
// only, as in run_linear_with_error_scale), in a fixed order — dimension 0 is the most significant bit — so the
// double sum is reproducible:
//   sum = 0; for corner: sum += x[corner] * (((1.0 * w_0) * w_1) * ... * w_last)
// Computed row by row: the leading dimensions' corners (offset and weight product) once per output row, then for
// each of them, in corner order, both last-dimension taps of every output of the row. A corner whose weight is
// exactly 0 adds exactly +-0 (which leaves every sum unchanged, a +0 sum included) unless its input value is
// infinite or NaN, so such corners are skipped only when every input value is finite.
Status run_linear(const ResampleDesc& desc, const HostTensor& input, HostTensor& output,
                  const ReferenceContext& context) {
    if (context.exact_outputs) return run_linear_with_error_scale(desc, input, output, context);
    const uint32_t rank = desc.input.rank(), last = rank - 1;
    std::vector<std::vector<LinearTap>> taps(rank);
    for (uint32_t d = 0; d < rank; ++d) {
        const float inv = inverse_scale(desc.scales[d]);
        for (uint32_t o = 0; o < desc.output.sizes[d]; ++o) taps[d].push_back(linear_tap(o, desc.input.sizes[d], inv));
    }
    if (output.element_count() == 0) return Status::ok();
    // The input as float (exact for all four types: get_as_double's values).
    std::vector<float> values(input.element_count());
    std::atomic<bool> all_finite = true;
    context.pool.parallel_for(values.size(), [&](uint64_t begin, uint64_t end) {
        bool finite = true;
        for (uint64_t i = begin; i < end; ++i) {
            values[i] = float(input.get_as_double(i));
            finite &= std::isfinite(values[i]);
        }
        if (!finite) all_finite = false;
    }, 1u << 16);
    const Dims in_strides = packed_strides(desc.input.sizes);
    const uint64_t out_width = desc.output.sizes[last];
    const uint64_t rows = output.element_count() / out_width;
    const uint32_t prefixes = 1u << last;
    const std::vector<LinearTap>& columns = taps[last];
    const bool last_is_copy = desc.scales[last] == 1.0f;
    const DataType type = output.data_type();
    context.pool.parallel_for(rows, [&](uint64_t begin, uint64_t end) {
        uint32_t coord[kMaxDimensionCount];
        std::vector<double> sums(out_width);
        for (uint64_t row = begin; row < end; ++row) {
            leading_coordinates(row, desc.output.sizes, coord);
            std::fill(sums.begin(), sums.end(), 0.0);
            for (uint32_t prefix = 0; prefix < prefixes; ++prefix) {
                double weight = 1.0;
                uint64_t source = 0;
                bool copied_dimension_upper = false;
                for (uint32_t d = 0; d < last; ++d) {
                    const LinearTap& tap = taps[d][coord[d]];
                    const bool upper = (prefix >> (last - 1 - d)) & 1u;
                    copied_dimension_upper |= upper && desc.scales[d] == 1.0f;
                    source += uint64_t(upper ? tap.x1 : tap.x0) * in_strides[d];
                    weight *= double(upper ? tap.w1 : tap.w0);
                }
                if (copied_dimension_upper || (weight == 0.0 && all_finite)) continue;
                const float* in_row = values.data() + source;
                for (uint64_t o = 0; o < out_width; ++o) {
                    const LinearTap& tap = columns[o];
                    sums[o] += double(in_row[tap.x0]) * (weight * double(tap.w0));
                    if (!last_is_copy) sums[o] += double(in_row[tap.x1]) * (weight * double(tap.w1));
                }
            }
            store(type, output.bytes().data(), row * out_width, sums.data(), out_width);
        }
    }, std::max<uint64_t>(1, 1024 / out_width));
    return Status::ok();
}

}  // namespace

Status run_resample_reference(const ResampleDesc& desc, const HostTensor& input, HostTensor& output,
                              const ReferenceContext& context) {
    const DataType type = desc.input.data_type;
    if (type != DataType::kFloat32 && type != DataType::kFloat16 && type != DataType::kInt8 &&
        type != DataType::kUint8)
        return internal_error("RESAMPLE reference: data type " + std::string(data_type_name(type)) +
                              " is not in the feature-level table");
    if (desc.input.rank() > 4)
        return internal_error("RESAMPLE reference: more than 4 dimensions is not in the feature-level table");
    if (input.desc().sizes != desc.input.sizes || output.desc().sizes != desc.output.sizes ||
        input.data_type() != type || output.data_type() != type)
        return internal_error("RESAMPLE reference: tensors do not match the desc");
    if (desc.mode == InterpolationMode::kNearestNeighbor) return run_nearest(desc, input, output, context);
    return run_linear(desc, input, output, context);
}

}  // namespace dmltool::ops::resample
