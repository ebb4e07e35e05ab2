// Random valid descs of any row for `dmltool generate` (core/case_generator.h): types and ranks from the row's
// feature-level table (respecting its same-type groups), every tensor with the output's Sizes and a random layout
// (broadcast through Strides 0, gaps, permuted orders), optional inputs omitted where the docs allow it, ScaleBias,
// a fused activation for ADD1, attributes in their meaningful ranges, and inputs with special values. Inputs whose
// values are rules rather than data get valid ones: positive quantization scales, nonzero integer divisors, shift
// counts below the width. A draw that parse() refuses (a row rule the draw missed) is drawn again.
#include <algorithm>
#include <cmath>
#include <map>

#include "core/case_generator.h"
#include "ops/element_wise/dml_facts.h"
#include "ops/element_wise/engine.h"

namespace dmltool::ops::element_wise {

namespace {

using nlohmann::json;

// A float attribute value, a multiple of 1/16 (exact in float32 and in JSON).
double sixteenths(CaseRng& rng, double lo, double hi) {
    return double(rng.between(int64_t(lo * 16), int64_t(hi * 16))) / 16.0;
}

// The range of a FLOAT attribute: most take [-2, 2]; these have rules or meaningful ranges.
double float_attribute(CaseRng& rng, std::string_view op, std::string_view name) {
    if (name == "Steepness") return sixteenths(rng, 1, 4);  // >= 1 below feature level 6.4
    if (op == "ACTIVATION_CELU" && name == "Alpha") return sixteenths(rng, 0.25, 2);  // divides x
    if (name == "Exponent") return rng.pick(std::vector<double>{0, 0.5, 1, 1.5, 2, 3, -1, -2.5});
    if (name == "Threshold") return sixteenths(rng, 0, 2);
    if (op == "ACTIVATION_THRESHOLDED_RELU" || op == "ELEMENT_WISE_THRESHOLD") return sixteenths(rng, -1, 1);
    return sixteenths(rng, -2, 2);
}

// Whether the docs let `member` of `op` be omitted at `level` (its support row says OPTIONAL_INPUT there).
bool may_omit(std::string_view op, std::string_view member, FeatureLevel level) {
    bool optional = false;
    for (const dml_facts::SupportFacts& s : dml_facts::rows_of(dml_facts::kSupport, op))
        if (s.member == member && s.level <= level) optional = s.kind == dml_facts::SupportKind::kOptionalInput;
    return optional;
}

json random_range(CaseRng& rng, double lo, double hi) {
    return json{{"random", {{"min", lo}, {"max", hi}, {"seed", rng.next() >> 12}}}};
}

// A source for input `member` whose values are rules (scales, divisors, shift counts), or null for data.
json rule_source(CaseRng& rng, const FunctionSpec& f, std::string_view member, DataType type) {
    const bool scale = member.find("Scale") != std::string_view::npos;
    if (scale) return random_range(rng, 0.015625, 2);
    const bool integer_divisor = is_integer(type) && member == "BTensor" &&
                                 (f.name == "ELEMENT_WISE_DIVIDE" || f.name.substr(0, 21) == "ELEMENT_WISE_MODULUS_");
    if (integer_divisor) {
        if (is_signed_integer(type) && rng.percent(50)) return random_range(rng, -50, -1);
        return random_range(rng, 1, 50);
    }
    if (f.name.substr(0, 22) == "ELEMENT_WISE_BIT_SHIFT" && member == "BTensor")
        return random_range(rng, 0, double(element_size_in_bits(type) - 1));
    if (f.name == "ELEMENT_WISE_POW" && member == "ExponentTensor" && is_integer(type))
        return random_range(rng, 0, 5);
    return nullptr;
}

// The two DML_SCALAR_UNION bounds of CLIP1, Min <= Max, in the type's range.
std::pair<json, json> scalar_bounds(CaseRng& rng, DataType type) {
    if (is_float(type)) return {sixteenths(rng, -4, 0), sixteenths(rng, 0, 4)};
    const int64_t lo = std::max<int64_t>(integer_min(type), -100);
    const int64_t hi = int64_t(std::min<uint64_t>(integer_max(type), 100));
    int64_t a = rng.between(lo, hi), b = rng.between(lo, hi);
    if (a > b) std::swap(a, b);
    return {a, b};
}

// The attributes of `f` into `desc` (JSON), `output_type` for MinMaxDataType.
void random_attributes(CaseRng& rng, const FunctionSpec& f, DataType output_type, uint32_t rank, json& desc) {
    for (const MemberSpec& m : f.members) {
        const std::string key(m.name);
        switch (m.kind) {
            case MemberKind::kFloat: desc[key] = float_attribute(rng, f.name, m.name); break;
            case MemberKind::kUint: desc[key] = rng.between(0, 4); break;
            case MemberKind::kInt: desc[key] = rng.between(-4, 4); break;
            case MemberKind::kBool: desc[key] = rng.percent(50); break;
            case MemberKind::kEnum:
                desc[key] = std::string(m.enum_prefix) + std::string(m.enum_names[rng.below(m.enum_names.size())].name);
                break;
            case MemberKind::kDataType: desc[key] = std::string(data_type_name(output_type)); break;
            case MemberKind::kUintArray: {
                std::vector<uint32_t> axes;
                for (uint32_t d = 0; d < rank; ++d)
                    if (rng.percent(40)) axes.push_back(d);
                if (axes.empty()) axes.push_back(uint32_t(rng.below(rank)));
                for (size_t i = axes.size(); i > 1; --i) std::swap(axes[i - 1], axes[rng.below(i)]);
                desc[key] = axes;
                if (!m.related.empty() && rng.percent(50)) desc[std::string(m.related)] = axes.size();
                break;
            }
            default: break;
        }
    }
    if (f.name == "ELEMENT_WISE_CLIP") {
        auto [lo, hi] = scalar_bounds(rng, DataType::kFloat32);
        desc["Min"] = lo, desc["Max"] = hi;
    }
    if (f.name == "ELEMENT_WISE_CLIP1") {
        auto [lo, hi] = scalar_bounds(rng, output_type);
        desc["Min"] = lo, desc["Max"] = hi;
    }
}

// The number of elements of one lane of a reduction's draw (its Axes, or the last dimension for the v1 rows). A lane
// of one element has a constant result (SOFTMAX 1, LOG_SOFTMAX 0, HARDMAX 1) whatever its input: such a case cannot
// tell a correct kernel from a constant one (seed 20261129: LOG_SOFTMAX #4 MISTRUSTED).
uint64_t lane_size(const FunctionSpec& f, const json& desc) {
    const json& sizes = desc["OutputTensor"]["Sizes"];
    if (!f.member("Axes") || !desc.contains("Axes")) return sizes.empty() ? 1 : sizes.back().get<uint64_t>();
    uint64_t n = 1;
    for (const json& axis : desc["Axes"])
        if (axis.get<size_t>() < sizes.size()) n *= sizes[axis.get<size_t>()].get<uint64_t>();
    return n;
}

// Sets logical element `index` of `values` (a {"values"} source of `tensor`) to `value`, and every element that
// shares its buffer location (a broadcast through Strides 0), so the explicit data stays consistent.
void set_location(json& values, const json& tensor, uint64_t index, double value) {
    Dims sizes;
    for (const json& d : tensor["Sizes"]) sizes.push_back(d.get<uint32_t>());
    std::vector<uint64_t> strides(sizes.size(), 0);
    uint64_t packed = 1;
    for (size_t d = sizes.size(); d-- > 0;) {
        strides[d] = tensor.contains("Strides") ? tensor["Strides"][d].get<uint64_t>() : packed;
        packed *= sizes[d];
    }
    std::vector<uint32_t> coordinates(sizes.size());
    const auto offset = [&](uint64_t i) {
        unravel_index(i, sizes, coordinates.data());
        uint64_t o = 0;
        for (size_t d = 0; d < sizes.size(); ++d) o += uint64_t(coordinates[d]) * strides[d];
        return o;
    };
    const uint64_t target = offset(index);
    for (uint64_t i = 0; i < values.size(); ++i)
        if (offset(i) == target) values[i] = value;
}

// One draw; parse() judges it.
void draw(CaseRng& rng, const FunctionSpec& f, GeneratedCase& c) {
    const FeatureLevelRow& row = pick_row(rng, f.feature_levels);
    // Types member by member, a member of a same-type group taking its group's first type.
    std::map<std::string_view, DataType> types;
    for (const MemberSpec& m : f.members) {
        if (!is_tensor(m.kind)) continue;
        std::optional<DataType> forced;
        for (const auto& group : f.same_type_groups)
            if (std::find(group.begin(), group.end(), m.name) != group.end())
                for (std::string_view other : group)
                    if (types.count(other)) forced = types[other];
        types[m.name] = forced ? *forced : pick_type(rng, support_of(row, m.name));
    }
    if (f.name == "ELEMENT_WISE_QUANTIZE_LINEAR")  // ScaleTensor: FLOAT32 for INT32 inputs, else the input's type
        types["ScaleTensor"] = types["InputTensor"] == DataType::kInt32 ? DataType::kFloat32 : types["InputTensor"];
    const uint32_t rank = pick_rank(rng, support_of(row, "OutputTensor"));
    Dims sizes = random_sizes(rng, rank, rank > 4 ? 4 : 9, 4096);
    if (f.math->lane && !f.member("Axes"))  // the v1 reductions: at most 2 dimensions after leading ones
        for (uint32_t d = 0; d + 2 < rank; ++d) sizes[d] = 1;
    std::vector<std::string_view> full_size;  // members that share the output's Sizes
    for (const auto& group : f.same_sizes_groups)
        if (std::find(group.begin(), group.end(), "OutputTensor") != group.end())
            full_size.insert(full_size.end(), group.begin(), group.end());
    for (const MemberSpec& m : f.members) {
        if (m.kind != MemberKind::kInputTensor) continue;
        if (m.optional && may_omit(f.name, m.name, row.level) && rng.percent(30)) continue;
        const bool whole = std::find(full_size.begin(), full_size.end(), m.name) != full_size.end();
        const std::string key(m.name);
        c.desc[key] = tensor_json(types[m.name], whole ? sizes : Dims(rank, 1));
        randomize_layout(rng, c.desc[key], TensorRole::kInput, c);
        json source = rule_source(rng, f, m.name, types[m.name]);
        // The reductions take no constant input: every lane's result is then constant, and where the values are huge
        // (FLOAT32's largest) the bound admits any value, so the case proves nothing (seed 20261129: LOG_SOFTMAX1 #3
        // MISTRUSTED).
        c.inputs[key] = source.is_null() ? random_source(rng, c.desc[key], c, !f.math->lane) : source;
    }
    // SIN and COS of inputs that are all tiny or huge: every element accepts 1 (COS) or 0 (SIN), since a huge
    // argument's rounding spans periods and its bound is [-1, 1], so the case cannot tell a correct kernel from a
    // constant one (seed 20261129: COS #5, #9 and SIN #1 MISTRUSTED; TAN likewise, seed 20261201 #8). Two moderate
    // elements, the first 2.5 (sin 0.598, cos -0.801, tan -0.747) and the last -1 (sin -0.841, cos 0.540,
    // tan -1.557), make such a case informative.
    if ((f.name == "ELEMENT_WISE_SIN" || f.name == "ELEMENT_WISE_COS" || f.name == "ELEMENT_WISE_TAN") &&
        c.inputs.contains("InputTensor") &&
        c.inputs["InputTensor"].contains("values")) {
        json& values = c.inputs["InputTensor"]["values"];
        if (!values.empty()) {
            set_location(values, c.desc["InputTensor"], values.size() - 1, -1.0);
            set_location(values, c.desc["InputTensor"], 0, 2.5);
        }
    }
    c.desc["OutputTensor"] = tensor_json(types["OutputTensor"], sizes);
    random_attributes(rng, f, types["OutputTensor"], rank, c.desc);
    if (f.has_scale_bias() && is_float(types["OutputTensor"]) && rng.percent(40)) {
        c.desc["ScaleBias"] = {{"Scale", sixteenths(rng, -2, 2)}, {"Bias", sixteenths(rng, -1, 1)}};
        c.tag("scale-bias");
    }
    if (f.has_fused_activation() && is_float(types["OutputTensor"]) && rng.percent(40)) {
        std::vector<const FunctionSpec*> fusable;
        for (const FunctionSpec& a : activation::activation_functions())
            if (a.fusable) fusable.push_back(&a);
        const FunctionSpec& activation = *fusable[rng.below(fusable.size())];
        json activation_desc = json::object();
        random_attributes(rng, activation, types["OutputTensor"], rank, activation_desc);
        c.desc["FusedActivation"] = {{"type", "DML_OPERATOR_" + std::string(activation.name)}, {"desc", activation_desc}};
        c.tag("fused-activation");
    }
    c.shape = std::string(data_type_name(types["OutputTensor"])) + "_" + dims_text(sizes);
}

}  // namespace

Status generate_case(const Op& op, const FunctionSpec& f, CaseRng& rng, GeneratedCase& out) {
    for (int attempt = 0; attempt < 64; ++attempt) {
        GeneratedCase c;
        draw(rng, f, c);
        if (f.math->lane && lane_size(f, c.desc) < 2) continue;  // one-element lanes: a constant result (0 or 1)
        json derived = c.desc;
        if (!op.derive_outputs(derived, "/operator/desc").is_ok()) continue;
        JsonObjectReader reader(derived, "/operator/desc");
        auto parsed = op.parse(reader);
        if (!parsed.is_ok() || !min_feature_level(op, **parsed).is_ok()) continue;
        out = std::move(c);
        return Status::ok();
    }
    return internal_error(std::string(f.name) + ": no valid random desc in 64 draws");
}

}  // namespace dmltool::ops::element_wise
