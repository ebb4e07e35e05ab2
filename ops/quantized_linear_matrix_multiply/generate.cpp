// Random QUANTIZED_LINEAR_MATRIX_MULTIPLY cases for `dmltool generate` (core/case_generator.h): every type
// combination, 2 to 4 dimensions as the row allows, scales and zero points per tensor or per row (A, Output) /
// per column (B), zero points present or absent, strided layouts, output scales that keep most outputs in range
// (sometimes saturating).
#include <cmath>

#include "core/case_generator.h"
#include "ops/quantized_linear_matrix_multiply/qlmm.h"

namespace dmltool::ops::quantized_linear_matrix_multiply {

using nlohmann::json;

namespace {

// Sizes of a quantization tensor of `rank` dimensions: per tensor (all 1) or `count` values on the row axis
// (rank - 2) or the column axis (rank - 1).
Dims quant_sizes(uint32_t rank, uint64_t count, bool column) {
    Dims d(rank, 1);
    if (count > 1) d[rank - (column ? 1 : 2)] = uint32_t(count);
    return d;
}

double random_float32(CaseRng& rng, double lo, double hi) { return double(float(lo + (hi - lo) * rng.unit())); }

}  // namespace

Status generate_case(const FeatureLevelTable& table, CaseRng& rng, GeneratedCase& c) {
    const FeatureLevelRow& row = pick_row(rng, table);
    const TensorSupport& main = support_of(row, "ATensor");
    const TensorSupport& quant = support_of(row, "AScaleTensor");
    const uint32_t rank = pick_rank(rng, main);
    const DataType a_type = pick_type(rng, main), b_type = pick_type(rng, support_of(row, "BTensor"));
    const DataType y_type = pick_type(rng, support_of(row, "OutputTensor"));
    const uint32_t m = uint32_t(rng.between(1, 12)), n = uint32_t(rng.between(1, 12)), k = uint32_t(rng.between(1, 64));
    Dims batch;
    for (uint32_t i = 0; i + 2 < rank; ++i) batch.push_back(uint32_t(rng.between(1, 3)));
    const auto with = [&](uint32_t r, uint32_t col) {
        Dims d = batch;
        d.push_back(r);
        d.push_back(col);
        return d;
    };
    json& d = c.desc;
    d["ATensor"] = tensor_json(a_type, with(m, k));
    d["BTensor"] = tensor_json(b_type, with(k, n));
    d["OutputTensor"] = tensor_json(y_type, with(m, n));
    randomize_layout(rng, d["ATensor"], TensorRole::kInput, c, 30);
    randomize_layout(rng, d["BTensor"], TensorRole::kInput, c, 30);
    c.inputs["ATensor"] = random_source(rng, d["ATensor"], c, false);
    c.inputs["BTensor"] = random_source(rng, d["BTensor"], c, false);
    // One DimensionCount for every scale and zero point (the page's constraint); per-row / per-column needs 2+.
    uint32_t q = pick_rank(rng, quant);
    const bool per_row = m > 1 && q >= 2 && rng.percent(40), per_column = n > 1 && q >= 2 && rng.percent(40);
    if (per_row) c.tag("per-row");
    if (per_column) c.tag("per-column");
    const auto scale = [&](const char* member, bool many, uint64_t count, bool column, double lo, double hi) {
        d[member] = tensor_json(DataType::kFloat32, quant_sizes(q, many ? count : 1, column));
        c.inputs[member] = many ? json{{"random", {{"seed", rng.next() >> 12}, {"min", lo}, {"max", hi}}}}
                                : json{{"values", {random_float32(rng, lo, hi)}}};
    };
    const auto zero_point = [&](const char* member, DataType type, bool many, uint64_t count, bool column) {
        if (!rng.percent(70)) return;
        d[member] = tensor_json(type, quant_sizes(q, many ? count : 1, column));
        const int64_t lo = integer_min(type), hi = int64_t(integer_max(type));
        c.inputs[member] = many ? json{{"random", {{"seed", rng.next() >> 12}, {"min", lo}, {"max", hi}}}}
                                : json{{"values", {rng.between(lo + (hi - lo) / 4, hi - (hi - lo) / 4)}}};
    };
    scale("AScaleTensor", per_row, m, false, 0.002, 0.05);
    zero_point("AZeroPointTensor", a_type, per_row, m, false);
    scale("BScaleTensor", per_column, n, true, 0.002, 0.05);
    zero_point("BZeroPointTensor", b_type, per_column, n, true);
    // Output scale: the accumulator's spread (about sqrt(K) * 74^2 for uniform 8-bit operands) over roughly the
    // output's range; "saturating" cases divide it by up to 100.
    double output_scale = 0.026 * 0.026 * std::sqrt(double(k)) * 74 * 74 / 60 * (0.3 + 2.7 * rng.unit());
    if (rng.percent(15)) {
        output_scale /= double(rng.between(10, 100));
        c.tag("saturating");
    }
    const bool output_rows = per_row && rng.percent(50);
    scale("OutputScaleTensor", output_rows, m, false, output_scale * 0.5, output_scale * 1.5);
    zero_point("OutputZeroPointTensor", y_type, output_rows, m, false);
    c.shape = std::string(data_type_name(a_type)) + "x" + std::string(data_type_name(b_type)) + "_" +
              dims_text(with(m, n)) + "_k" + std::to_string(k);
    return Status::ok();
}

}  // namespace dmltool::ops::quantized_linear_matrix_multiply
