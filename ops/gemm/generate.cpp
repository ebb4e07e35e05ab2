// Random GEMM cases for `dmltool generate` (core/case_generator.h): both types, 2 to 4 dimensions (as the feature
// level allows), both transforms, C present (sometimes broadcast along rows or columns) or absent, random Alpha and
// Beta, strided/padded layouts.
#include "core/case_generator.h"
#include "ops/gemm/gemm.h"

namespace dmltool::ops::gemm {

Status generate_case(const FeatureLevelTable& table, CaseRng& rng, GeneratedCase& c) {
    const TensorSupport& support = support_of(pick_row(rng, table), "ATensor");
    const DataType type = pick_type(rng, support);
    const uint32_t rank = pick_rank(rng, support);
    const uint32_t m = uint32_t(rng.between(1, 12)), n = uint32_t(rng.between(1, 12)), k = uint32_t(rng.between(1, 40));
    Dims batch;
    for (uint32_t i = 0; i + 2 < rank; ++i) batch.push_back(uint32_t(rng.between(1, 3)));
    const bool ta = rng.percent(50), tb = rng.percent(50);
    const auto with = [&](uint32_t r, uint32_t col) {
        Dims d = batch;
        d.push_back(r);
        d.push_back(col);
        return d;
    };
    c.desc["ATensor"] = tensor_json(type, ta ? with(k, m) : with(m, k));
    c.desc["BTensor"] = tensor_json(type, tb ? with(n, k) : with(k, n));
    randomize_layout(rng, c.desc["ATensor"], TensorRole::kInput, c, 30);
    randomize_layout(rng, c.desc["BTensor"], TensorRole::kInput, c, 30);
    c.inputs["ATensor"] = random_source(rng, c.desc["ATensor"], c, false);
    c.inputs["BTensor"] = random_source(rng, c.desc["BTensor"], c, false);
    if (rng.percent(70)) {
        // C has the output's sizes (DirectML's rule); it broadcasts through a stride of 0 along the rows or the
        // columns (an ONNX Gemm bias), or through randomize_layout's broadcasts.
        const Dims cs = with(m, n);
        c.desc["CTensor"] = tensor_json(type, cs);
        if (rng.percent(40)) {
            Dims strides = packed_strides(cs);
            strides[rank - (rng.percent(50) ? 2 : 1)] = 0;
            c.desc["CTensor"]["Strides"] = strides;
            c.tag("broadcast");
        } else {
            randomize_layout(rng, c.desc["CTensor"], TensorRole::kInput, c, 30);
        }
        c.inputs["CTensor"] = random_source(rng, c.desc["CTensor"], c, false);
    }
    c.desc["OutputTensor"] = tensor_json(type, with(m, n));
    c.desc["TransA"] = ta ? "DML_MATRIX_TRANSFORM_TRANSPOSE" : "DML_MATRIX_TRANSFORM_NONE";
    c.desc["TransB"] = tb ? "DML_MATRIX_TRANSFORM_TRANSPOSE" : "DML_MATRIX_TRANSFORM_NONE";
    c.desc["Alpha"] = rng.percent(50) ? 1.0 : double(rng.between(-8, 8)) / 4.0;
    c.desc["Beta"] = rng.percent(50) ? 1.0 : double(rng.between(-8, 8)) / 4.0;
    if (ta) c.tag("trans-a");
    if (tb) c.tag("trans-b");
    c.shape = std::string(data_type_name(type)) + "_" + dims_text(with(m, n)) + "_k" + std::to_string(k);
    return Status::ok();
}

}  // namespace dmltool::ops::gemm
