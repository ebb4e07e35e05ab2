// DML_OPERATOR_GEMM: Output = FusedActivation(Alpha * TransA(A) x TransB(B) + Beta * C), BatchCount * ChannelCount
// independent matrix products of 4-D {BatchCount, ChannelCount, rows, columns} tensors.
//
// Feature levels (the DML_GEMM_OPERATOR_DESC page's tensor-support tables; all four tensors alike):
//   1_0: 4 dims;      FLOAT32, FLOAT16
//   4_0: 2 to 4 dims; FLOAT32, FLOAT16 (leading batch dimensions of a 2-D / 3-D tensor are 1)
// Rules: A, B, C and Output have the same DataType and DimensionCount; A is {.., M, K} ({.., K, M} with TransA
// TRANSPOSE), B {.., K, N} ({.., N, K} with TransB TRANSPOSE), Output {.., M, N}; the batch dimensions of A, B and
// Output are equal; C (optional, 0 when absent) has Output's Sizes (it broadcasts through Strides of 0).
// FusedActivation is not implemented: a desc that names one is refused as UNSUPPORTED (never silently dropped).
//
// Accuracy contract (docs/operators-join-gemm-qlmm.md, GEMM): the reference computes each output exactly (double) and states the
// forward error bound of any float32 evaluation: |got - exact| <= u * ((K + 3) * |Alpha| * sum_k |a_k * b_k| +
// 2 * |Beta * c|) (u = 2^-24) plus underflow and the output's half ulp — the classic dot-product bound gamma_K for
// the K products and K - 1 additions in any order (FMA or not, tiled or not), one rounding each for Alpha's
// product, Beta's product and their sum, and one spare for applying Alpha to the operands instead.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "core/op.h"
#include "ops/gemm/gemm.h"

namespace dmltool::ops::gemm {

GemmGeometry gemm_geometry(const GemmDesc& d, bool physical) {
    GemmGeometry g;
    const uint32_t r = d.output.rank();
    const auto strides4 = [&](const TensorDesc& t) {
        const Dims s = physical ? t.effective_strides() : packed_strides(t.sizes);
        std::array<uint64_t, 4> out{0, 0, 0, 0};
        for (uint32_t i = 0; i < r; ++i) out[4 - r + i] = t.sizes[i] == 1 && i + 2 < r ? 0 : s[i];
        return out;
    };
    std::array<uint64_t, 4> sizes{1, 1, 1, 1};
    for (uint32_t i = 0; i < r; ++i) sizes[4 - r + i] = d.output.sizes[i];
    g.batch0 = sizes[0];
    g.batch1 = sizes[1];
    g.m = sizes[2];
    g.n = sizes[3];
    g.k = d.a.sizes[r - (d.trans_a == MatrixTransform::kTranspose ? 2 : 1)];
    g.a_strides = strides4(d.a);
    if (d.trans_a == MatrixTransform::kTranspose) std::swap(g.a_strides[2], g.a_strides[3]);
    g.b_strides = strides4(d.b);
    if (d.trans_b == MatrixTransform::kTranspose) std::swap(g.b_strides[2], g.b_strides[3]);
    if (d.c) {
        const Dims s = physical ? d.c->effective_strides() : packed_strides(d.c->sizes);
        for (uint32_t i = 0; i < r; ++i) g.c_strides[4 - r + i] = d.c->sizes[i] == 1 ? 0 : s[i];
    }
    g.output_strides = strides4(d.output);
    return g;
}

namespace {

constexpr DataTypeSet kFloatTypes{DataType::kFloat32, DataType::kFloat16};
constexpr EnumName kTransformNames[] = {{"NONE", 0}, {"TRANSPOSE", 1}};

Status validate(const GemmDesc& d, const std::string& path) {
    const auto type_name = [](DataType t) { return std::string(data_type_name(t)); };
    if (!kFloatTypes.contains(d.a.data_type))
        return invalid_input(path + "/ATensor/DataType: expected one of " + kFloatTypes.to_string() + ", found " +
                             type_name(d.a.data_type));
    const uint32_t r = d.a.rank();
    if (r < 2 || r > 4)
        return invalid_input(path + "/ATensor/Sizes: expected 2 to 4 dimensions ({BatchCount, ChannelCount, M, K} "
                             "or fewer leading ones), found " + format_dims(d.a.sizes));
    struct Member {
        const char* name;
        const TensorDesc* t;
    };
    const Member others[] = {{"BTensor", &d.b}, {"CTensor", d.c ? &*d.c : nullptr}, {"OutputTensor", &d.output}};
    for (const Member& m : others) {
        if (!m.t) continue;
        if (m.t->data_type != d.a.data_type)
            return invalid_input(path + "/" + m.name + "/DataType: expected " + type_name(d.a.data_type) +
                                 " (the ATensor's data type), found " + type_name(m.t->data_type));
        if (m.t->rank() != r)
            return invalid_input(path + "/" + m.name + "/Sizes: expected " + std::to_string(r) +
                                 " dimensions (the ATensor's DimensionCount), found " + format_dims(m.t->sizes));
    }
    const bool ta = d.trans_a == MatrixTransform::kTranspose, tb = d.trans_b == MatrixTransform::kTranspose;
    const uint64_t m = d.a.sizes[r - (ta ? 1 : 2)], k = d.a.sizes[r - (ta ? 2 : 1)];
    const uint64_t b_k = d.b.sizes[r - (tb ? 1 : 2)], n = d.b.sizes[r - (tb ? 2 : 1)];
    if (b_k != k)
        return invalid_input(path + "/BTensor/Sizes/" + std::to_string(r - (tb ? 1 : 2)) + ": expected " +
                             std::to_string(k) + " (K: ATensor " + format_dims(d.a.sizes) +
                             (ta ? " with TransA TRANSPOSE is {.., K, M}" : " is {.., M, K}") + "), found " +
                             std::to_string(b_k));
    for (uint32_t i = 0; i + 2 < r; ++i)
        if (d.b.sizes[i] != d.a.sizes[i])
            return invalid_input(path + "/BTensor/Sizes/" + std::to_string(i) + ": expected " +
                                 std::to_string(d.a.sizes[i]) + " (ATensor's batch dimension), found " +
                                 std::to_string(d.b.sizes[i]));
    Dims expected(d.a.sizes.begin(), d.a.sizes.end());
    expected[r - 2] = uint32_t(m);
    expected[r - 1] = uint32_t(n);
    if (d.output.sizes != expected)
        return invalid_input(path + "/OutputTensor/Sizes: expected " + format_dims(expected) +
                             " (ATensor's batch dimensions, M, N), found " + format_dims(d.output.sizes));
    if (d.c && d.c->sizes != expected)
        return invalid_input(path + "/CTensor/Sizes: expected " + format_dims(expected) +
                             " (OutputTensor's Sizes; a C that broadcasts does so with Strides of 0), found " +
                             format_dims(d.c->sizes));
    if (!std::isfinite(d.alpha)) return invalid_input(path + "/Alpha: expected a finite value");
    if (!std::isfinite(d.beta)) return invalid_input(path + "/Beta: expected a finite value");
    return Status::ok();
}

class GemmOp final : public Op {
public:
    std::string_view name() const override { return "GEMM"; }

    Result<std::unique_ptr<OpDesc>> parse(JsonObjectReader& reader) const override {
        auto d = std::make_unique<GemmDesc>();
        const TensorRole in = TensorRole::kInput;
        DMLTOOL_ASSIGN_OR_RETURN(d->a, reader.required_tensor("ATensor", in));
        DMLTOOL_ASSIGN_OR_RETURN(d->b, reader.required_tensor("BTensor", in));
        DMLTOOL_ASSIGN_OR_RETURN(d->c, reader.optional_tensor("CTensor", in));
        DMLTOOL_ASSIGN_OR_RETURN(d->output, reader.required_tensor("OutputTensor", TensorRole::kOutput));
        DMLTOOL_ASSIGN_OR_RETURN(uint32_t ta, reader.required_enum("TransA", "DML_MATRIX_TRANSFORM_", kTransformNames));
        DMLTOOL_ASSIGN_OR_RETURN(uint32_t tb, reader.required_enum("TransB", "DML_MATRIX_TRANSFORM_", kTransformNames));
        d->trans_a = MatrixTransform(ta);
        d->trans_b = MatrixTransform(tb);
        DMLTOOL_ASSIGN_OR_RETURN(d->alpha, reader.required_float("Alpha"));
        DMLTOOL_ASSIGN_OR_RETURN(d->beta, reader.required_float("Beta"));
        Status error;
        const nlohmann::json* activation = reader.optional_object("FusedActivation", error);
        DMLTOOL_RETURN_IF_ERROR(error);
        if (activation)
            return unsupported(reader.path() + "/FusedActivation: dmltool's GEMM does not implement fused activations "
                               "yet (give null or leave it out; the case is not run rather than run without it)");
        DMLTOOL_RETURN_IF_ERROR(validate(*d, reader.path()));
        return std::unique_ptr<OpDesc>(std::move(d));
    }

    // OutputTensor omitted (or without Sizes): A's batch dimensions, M (A's rows, its columns with TransA) and N
    // (B's columns, its rows with TransB), of A's DataType. parse() checks the rest.
    Status derive_outputs(nlohmann::json& desc, const std::string& path) const override {
        if (!output_sizes_omitted(desc, "OutputTensor")) return Status::ok();
        JsonObjectReader reader(desc, path);
        DMLTOOL_ASSIGN_OR_RETURN(TensorDesc a, reader.required_tensor("ATensor", TensorRole::kInput));
        DMLTOOL_ASSIGN_OR_RETURN(TensorDesc b, reader.required_tensor("BTensor", TensorRole::kInput));
        DMLTOOL_ASSIGN_OR_RETURN(uint32_t ta, reader.required_enum("TransA", "DML_MATRIX_TRANSFORM_", kTransformNames));
        DMLTOOL_ASSIGN_OR_RETURN(uint32_t tb, reader.required_enum("TransB", "DML_MATRIX_TRANSFORM_", kTransformNames));
        const uint32_t r = a.rank();
        if (r < 2 || r > 4)
            return invalid_input(path + "/ATensor/Sizes: expected 2 to 4 dimensions ({BatchCount, ChannelCount, M, K} "
                                 "or fewer leading ones), found " + format_dims(a.sizes));
        if (b.rank() != r)
            return invalid_input(path + "/BTensor/Sizes: expected " + std::to_string(r) +
                                 " dimensions (the ATensor's DimensionCount), found " + format_dims(b.sizes));
        std::vector<uint64_t> sizes(a.sizes.begin(), a.sizes.end());
        sizes[r - 2] = a.sizes[r - (ta ? 1 : 2)];
        sizes[r - 1] = b.sizes[r - (tb ? 2 : 1)];
        set_derived_output(desc, "OutputTensor", a.data_type, sizes);
        return Status::ok();
    }

    std::vector<TensorSlot> tensors(const OpDesc& base) const override {
        const auto& d = static_cast<const GemmDesc&>(base);
        const TensorRole in = TensorRole::kInput;
        return {{"ATensor", "ATensor", in, &d.a},
                {"BTensor", "BTensor", in, &d.b},
                {"CTensor", "CTensor", in, d.c ? &*d.c : nullptr},
                {"OutputTensor", "OutputTensor", TensorRole::kOutput, &d.output}};
    }

    // DML_GEMM_OPERATOR_DESC: ATensor, BTensor, CTensor, OutputTensor, TransA, TransB, Alpha, Beta, FusedActivation.
    Result<DmlDesc> dml_desc(const OpDesc& base) const override {
        const auto& d = static_cast<const GemmDesc&>(base);
        DmlDesc dml{"GEMM", {}};
        dml.input("ATensor", &d.a)
            .input("BTensor", &d.b)
            .input("CTensor", d.c ? &*d.c : nullptr)
            .output("OutputTensor", &d.output)
            .uint("TransA", uint32_t(d.trans_a))
            .uint("TransB", uint32_t(d.trans_b))
            .float32("Alpha", d.alpha)
            .float32("Beta", d.beta)
            .operator_desc("FusedActivation", nullptr);
        return dml;
    }

    const FeatureLevelTable& feature_levels() const override {
        static const FeatureLevelTable table = {
            {fl(1, 0),
             {{"ATensor", {4, 4}, kFloatTypes},
              {"BTensor", {4, 4}, kFloatTypes},
              {"CTensor", {4, 4}, kFloatTypes},
              {"OutputTensor", {4, 4}, kFloatTypes}}},
            {fl(4, 0),
             {{"ATensor", {2, 4}, kFloatTypes},
              {"BTensor", {2, 4}, kFloatTypes},
              {"CTensor", {2, 4}, kFloatTypes},
              {"OutputTensor", {2, 4}, kFloatTypes}}},
        };
        return table;
    }

    // The naive triple loop per output element, in double: exact products of float32/float16 values summed in
    // double (whose rounding is ~2^-53, negligible against the float32 bound), then Alpha and Beta * C.
    Status run_reference(const OpDesc& base, std::span<const HostTensor* const> inputs,
                         std::span<HostTensor* const> outputs, const ReferenceContext& context) const override {
        const auto& d = static_cast<const GemmDesc&>(base);
        if (inputs.size() != 3 || !inputs[0] || !inputs[1] || outputs.size() != 1 || !outputs[0])
            return internal_error("GEMM reference: expected A, B, optional C and 1 output");
        const HostTensor &a = *inputs[0], &b = *inputs[1];
        const HostTensor* c = inputs[2];
        HostTensor& out = *outputs[0];
        const GemmGeometry g = gemm_geometry(d, false);
        ExactOutput* exact = context.exact_outputs ? &context.exact_outputs->at(0) : nullptr;
        const uint64_t count = out.element_count();
        if (exact) {
            exact->exact.assign(count, 0.0);
            exact->scale.assign(count, 0.0);
            exact->nonfinite_allowed.assign(count, 0);
            exact->absolute_floor = double(g.k + 3) * std::max(1.0, std::fabs(double(d.alpha))) * 0x1p-126;  // flushed products
        }
        const double alpha = d.alpha, beta = d.beta;
        const bool half_output = d.output.data_type == DataType::kFloat16;
        context.pool.parallel_for(count, [&](uint64_t begin, uint64_t end) {
            for (uint64_t o = begin; o < end; ++o) {
                const uint64_t col = o % g.n, row = (o / g.n) % g.m;
                const uint64_t b1 = (o / (g.n * g.m)) % g.batch1, b0 = o / (g.n * g.m * g.batch1);
                const uint64_t a_base = b0 * g.a_strides[0] + b1 * g.a_strides[1] + row * g.a_strides[2];
                const uint64_t b_base = b0 * g.b_strides[0] + b1 * g.b_strides[1] + col * g.b_strides[3];
                double sum = 0, magnitude = 0;
                for (uint64_t k = 0; k < g.k; ++k) {
                    const double p = a.get_as_double(a_base + k * g.a_strides[3]) *
                                     b.get_as_double(b_base + k * g.b_strides[2]);
                    sum += p;
                    magnitude += std::fabs(p);
                }
                double cv = 0;
                if (c)
                    cv = beta * c->get_as_double(b0 * g.c_strides[0] + b1 * g.c_strides[1] + row * g.c_strides[2] +
                                                 col * g.c_strides[3]);
                const double value = alpha * sum + cv;
                out.set_from_double(o, value);
                if (exact) {
                    exact->exact[o] = value;
                    exact->scale[o] = double(g.k + 3) * std::fabs(alpha) * magnitude + 2 * std::fabs(cv);
                    // Products and partial sums of a float32 evaluation may overflow where the double sum does not (even
                    // when Alpha is 0: inf * 0 = NaN); a value at
                    // or beyond the output type's rounding boundary (float16: 65520) is rightly an infinity.
                    const double reach = std::fabs(value) + 1.01 * 0x1p-24 * exact->scale[o];
                    exact->nonfinite_allowed[o] = magnitude > 0x1p127 || std::fabs(alpha) * magnitude + std::fabs(cv) > 0x1p127 ||
                                                  (half_output && reach >= 65520.0);
                }
            }
        }, 64);
        return Status::ok();
    }

    Tolerance default_tolerance(const OpDesc& base, size_t) const override {
        const auto& d = static_cast<const GemmDesc&>(base);
        Tolerance t{.ulp = 64,
                    .reason = "float32 dot products of length K in any order (FMA, tiles): within the forward error "
                              "bound u * ((K + 3) * |Alpha| * sum |a*b| + 2 * |Beta*c|)",
                    .error_bound = true,
                    .unit_roundoff = 0x1p-24};
        // A FLOAT16 output may be the float32 result rounded toward zero (Direct3D's conversion rule, core/op.h):
        // DirectML 1.15.4's FLOAT16 GEMM under Wine gave up to 1.75x the round-to-nearest bound on 10-13 elements
        // of each 4-D case, all within the bound once toward-zero rounding is allowed (2026-11-29, cases/gemm.json).
        t.narrowing_toward_zero = d.output.data_type == DataType::kFloat16;
        return t;
    }

    WorkEstimate work(const OpDesc& base) const override {
        const auto& d = static_cast<const GemmDesc&>(base);
        const GemmGeometry g = gemm_geometry(d, false);
        const auto bytes = [](const TensorDesc& t) { return t.element_count() * element_size(t.data_type); };
        WorkEstimate w;
        w.bytes = bytes(d.a) + bytes(d.b) + (d.c ? bytes(*d.c) : 0) + bytes(d.output);
        // One multiply-add (2 ops) per (output, k), plus Alpha and Beta * C per output; saturated, as outputs
        // (< 2^32) times K (< 2^32) can pass 2^64.
        const long double ops = (long double)d.output.element_count() * (2.0L * g.k + (d.c ? 3 : 1));
        w.ops = ops >= 0x1p64L ? UINT64_MAX : uint64_t(ops);
        return w;
    }

    Result<DevicePlan> plan_device(const OpDesc& desc, const SemanticsOptions&) const override {
        return plan_gemm_device(static_cast<const GemmDesc&>(desc));
    }

    Status generate_case(CaseRng& rng, GeneratedCase& out) const override {
        return gemm::generate_case(feature_levels(), rng, out);
    }
};

}  // namespace

std::unique_ptr<Op> make_op() { return std::make_unique<GemmOp>(); }

}  // namespace dmltool::ops::gemm
