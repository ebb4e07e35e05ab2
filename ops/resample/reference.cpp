// CPU reference of DML_RESAMPLE v1 (spec §6.4-6.7). Per-dimension index/weight tables come from
// coordinates.h; row by row along the last dimension, the reference gathers (nearest) or blends the 2^rank corners
// (linear, timed form in linear_rows.cpp) of every output element; with exact outputs requested, LINEAR runs
// per element and also returns the error-bound data. The tests check both against a per-element form
// (resample_test.cpp, linear_rows_test.cpp).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "ops/resample/coordinates.h"
#include "ops/resample/desc.h"
#include "ops/resample/reference_internal.h"

namespace dmltool::ops::resample {
namespace {

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

// Nearest-neighbour ties (docs/semantics.md): "nearest" names the input element nearest to the
// pixel centre, and the documentation breaks no tie. Where the centre lies halfway between two elements — as
// computed in float32 from the inverse scale, or exactly, (o + 0.5) / scale an integer — model B (half up, the
// default, DirectML's choice) and model C (half down, ONNX's round_prefer_floor, WebNN's "smaller index") are
// both the nearest element, so the contract accepts either: per dimension the indices the two rules pick by
// either computation. Other rules (--nearest-rule literal or floor) are exact: no alternatives. Empty when no
// output element has a tie. The function refers to `input`: valid while the reference's inputs live.
AcceptsElement tie_alternatives(const ResampleDesc& desc, const HostTensor& input, const ReferenceContext& context) {
    const NearestRule rule = context.semantics.resample_nearest_rule;
    if (rule != NearestRule::kHalfUp && rule != NearestRule::kHalfDown) return {};
    const uint32_t rank = desc.input.rank();
    // candidates[d][o]: the distinct input indices output index o of dimension d may read (1 or 2, at most 4).
    auto candidates = std::make_shared<std::vector<std::vector<std::vector<uint32_t>>>>(rank);
    bool any_tie = false;
    for (uint32_t d = 0; d < rank; ++d) {
        const uint32_t n = desc.input.sizes[d];
        const float inv = inverse_scale(desc.scales[d]);
        auto clamp = [n](double v) { return v <= 0 ? 0u : v >= double(n - 1) ? n - 1 : uint32_t(v); };
        for (uint32_t o = 0; o < desc.output.sizes[d]; ++o) {
            const double centre = (double(o) + 0.5) / double(desc.scales[d]);  // exact when an integer
            std::vector<uint32_t> picks{nearest_index(o, n, inv, NearestRule::kHalfUp),
                                        nearest_index(o, n, inv, NearestRule::kHalfDown),
                                        clamp(std::floor(centre)), clamp(std::ceil(centre - 1.0))};
            std::sort(picks.begin(), picks.end());
            picks.erase(std::unique(picks.begin(), picks.end()), picks.end());
            any_tie |= picks.size() > 1;
            (*candidates)[d].push_back(std::move(picks));
        }
    }
    if (!any_tie) return {};
    return [candidates, sizes = desc.output.sizes, strides = packed_strides(desc.input.sizes), rank,
            &input](uint64_t element, const std::byte* bits) {
        uint32_t coord[kMaxDimensionCount], pick[kMaxDimensionCount] = {};
        unravel_index(element, sizes, coord);
        const size_t bytes = input.element_bytes();
        for (;;) {  // every combination of the dimensions' candidates
            uint64_t source = 0;
            for (uint32_t d = 0; d < rank; ++d) source += uint64_t((*candidates)[d][coord[d]][pick[d]]) * strides[d];
            if (std::memcmp(input.element_ptr(source), bits, bytes) == 0) return true;
            uint32_t d = rank;
            while (d > 0 && pick[d - 1] + 1 == (*candidates)[d - 1][coord[d - 1]].size()) pick[d - 1] = 0, --d;
            if (d == 0) return false;
            ++pick[d - 1];
        }
    };
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
    if (context.exact_outputs) context.exact_outputs->at(0).also_accepts = tie_alternatives(desc, input, context);
    switch (input.element_bytes()) {
        case 1: gather_rows<uint8_t>(desc, index, input, output, context.pool); break;
        case 2: gather_rows<uint16_t>(desc, index, input, output, context.pool); break;
        case 4: gather_rows<uint32_t>(desc, index, input, output, context.pool); break;
        default: return internal_error("RESAMPLE reference: unexpected element size");
    }
    return Status::ok();
}

// The error scale M of one output element (docs/semantics.md). A correct float32
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

    // M of one element. `narrow` (when not null) receives the M of an implementation that computes in half
    // precision throughout, coordinates included (a deviation model, core/deviations.h): the same terms, over the
    // wider neighbourhood that its coordinate errors reach. `largest` (when not null) receives the largest finite
    // |input| in that neighbourhood.
    double operator()(const uint32_t* coord, const std::vector<std::vector<LinearTap>>& taps, double m,
                      double* narrow = nullptr, double* largest = nullptr) const {
        if (narrow) *narrow = scale(coord, taps, m, kNarrowUnitRoundoff, largest);
        return scale(coord, taps, m, kUnitRoundoff, nullptr);
    }

    static constexpr double kUnitRoundoff = 0x1p-24;  // float32, the arithmetic a correct implementation may use
    // Half precision: the narrowest floating-point arithmetic a deviation model names.
    static constexpr double kNarrowUnitRoundoff = 0x1p-11;

private:
    // M for coordinates and blend computed with unit roundoff u.
    double scale(const uint32_t* coord, const std::vector<std::vector<LinearTap>>& taps, double m, double u,
                 double* largest) const {
        const uint32_t rank = desc_.input.rank();
        uint32_t lo[kMaxDimensionCount], hi[kMaxDimensionCount];
        double q[kMaxDimensionCount];
        for (uint32_t d = 0; d < rank; ++d) {
            const LinearTap& tap = taps[d][coord[d]];
            lo[d] = hi[d] = tap.x0;
            q[d] = 0;
            if (desc_.scales[d] == 1.0f) continue;  // exact coordinate o in any evaluation order: weight 1 on x0
            q[d] = (double(coord[d]) + 0.5) / double(desc_.scales[d]);
            const double delta = u * 8.0 * (q[d] + 1.0);
            hi[d] = tap.x1;
            // Within delta of a cell boundary another implementation may blend a neighbouring cell (in half
            // precision, delta can span several cells).
            while (double(tap.w1) + double(tap.x0 - lo[d]) <= delta && lo[d] > 0) --lo[d];
            while (1.0 - double(tap.w1) + double(hi[d] - tap.x1) <= delta && hi[d] + 1 < desc_.input.sizes[d])
                ++hi[d];
        }
        double slope[kMaxDimensionCount] = {};
        uint32_t at[kMaxDimensionCount];
        for (uint32_t d = 0; d < rank; ++d) at[d] = lo[d];
        for (;;) {
            uint64_t source = 0;
            for (uint32_t d = 0; d < rank; ++d) source += uint64_t(at[d]) * strides_[d];
            const double here = input_.get_as_double(source);
            if (largest && std::isfinite(here)) *largest = std::max(*largest, std::fabs(here));
            for (uint32_t d = 0; d < rank; ++d)
                if (at[d] < hi[d])
                    slope[d] = std::max(slope[d], std::fabs(input_.get_as_double(source + strides_[d]) - here));
            uint32_t d = rank;
            while (d > 0 && at[d - 1] == hi[d - 1]) at[d - 1] = lo[d - 1], --d;
            if (d == 0) break;
            ++at[d - 1];
        }
        const uint32_t r = interpolated_;
        double blend = double(2 * r + (1u << r) - 1) * m;
        for (uint32_t d = 0; d < rank; ++d)
            if (desc_.scales[d] != 1.0f) blend += (2.0 + 8.0 * (q[d] + 1.0)) * slope[d];
        return blend;
    }


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
    const std::vector<std::vector<LinearTap>> taps = linear_taps(desc);
    const Dims in_strides = packed_strides(desc.input.sizes);
    const uint32_t corners = 1u << rank;
    ExactOutput* exact = context.exact_outputs ? &context.exact_outputs->at(0) : nullptr;
    const ErrorScale error_scale(desc, input);
    if (exact) {
        exact->exact.assign(output.element_count(), 0.0);
        exact->scale.assign(output.element_count(), 0.0);
        exact->nonfinite_allowed.assign(output.element_count(), 0);
        if (context.narrow_arithmetic) {
            exact->arithmetic_scale.assign(output.element_count(), 0.0);
            exact->largest_input.assign(output.element_count(), 0.0);
        }
        exact->absolute_floor = error_scale.absolute_floor();
    }
    context.pool.parallel_for(output.element_count(), [&](uint64_t begin, uint64_t end) {
        uint32_t coord[kMaxDimensionCount];
        for (uint64_t i = begin; i < end; ++i) {
            unravel_index(i, desc.output.sizes, coord);
            // The corners of the interpolated dimensions in a fixed order — dimension 0 is the most significant
            // bit — so the double sum is reproducible. A dimension with Scale 1 is a copy (spec §6.5): only its
            // lower tap (weight 1), so an infinity in the neighbouring plane cannot leak in as 0 * inf = NaN.
            // `weighted`: the blend of the corners whose weight is not 0, the exact value of the contract. Where a
            // corner of weight 0 (or the neighbouring plane of a Scale-1 dimension, which an implementation may
            // blend with weight 0) is not finite, or any corner is so large that a neighbour difference overflows
            // float32, IEEE evaluation orders legitimately differ (0 * inf = NaN; a + w * (b - a) overflowing): the
            // element then also accepts NaN or an infinity (`unbounded`).
            double sum = 0.0, magnitude = 0.0, weighted = 0.0, largest = 0.0;
            bool unbounded = false;
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
                const double value = input.get_as_double(source);
                if (std::isfinite(value)) largest = std::max(largest, std::fabs(value));
                unbounded |= (copied_dimension_upper || weight == 0.0) ? !std::isfinite(value)
                                                                       : std::fabs(value) > 0x1p126;
                if (copied_dimension_upper) continue;
                const double term = value * weight;
                sum += term;
                if (weight == 0.0) continue;
                weighted += term;
                magnitude += std::fabs(term);
            }
            store_blend(desc.output.data_type, output.bytes().data(), i, &sum, 1);
            if (exact) {
                exact->exact[i] = weighted;
                exact->nonfinite_allowed[i] = unbounded;
                if (context.narrow_arithmetic) {
                    exact->scale[i] = error_scale(coord, taps, magnitude, &exact->arithmetic_scale[i], &largest);
                    exact->largest_input[i] = largest;
                } else {
                    exact->scale[i] = error_scale(coord, taps, magnitude);
                }
            }
        }
    });
    return Status::ok();
}


Status run_linear(const ResampleDesc& desc, const HostTensor& input, HostTensor& output,
                  const ReferenceContext& context) {
    if (context.exact_outputs) return run_linear_with_error_scale(desc, input, output, context);
    const std::vector<std::vector<LinearTap>> taps = linear_taps(desc);
    if (output.element_count() == 0) return Status::ok();
    run_linear_rows(desc, taps, input, output, context.pool);
    return Status::ok();
}

}  // namespace

std::vector<std::vector<LinearTap>> linear_taps(const ResampleDesc& desc) {
    std::vector<std::vector<LinearTap>> taps(desc.input.rank());
    for (uint32_t d = 0; d < taps.size(); ++d) {
        const float inv = inverse_scale(desc.scales[d]);
        for (uint32_t o = 0; o < desc.output.sizes[d]; ++o) taps[d].push_back(linear_tap(o, desc.input.sizes[d], inv));
    }
    return taps;
}

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
