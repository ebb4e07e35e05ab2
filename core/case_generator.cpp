#include "core/case_generator.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/tensor_source.h"

namespace dmltool {

using json = nlohmann::json;

uint64_t CaseRng::next() { return random_bits(seed_, index_++); }

uint64_t CaseRng::below(uint64_t n) { return n <= 1 ? 0 : next() % n; }

int64_t CaseRng::between(int64_t lo, int64_t hi) {
    return hi <= lo ? lo : lo + int64_t(below(uint64_t(hi - lo) + 1));
}

bool CaseRng::percent(unsigned p) { return below(100) < p; }

double CaseRng::unit() { return double(next() >> 11) * 0x1.0p-53; }

void GeneratedCase::tag(const std::string& t) {
    if (std::find(tags.begin(), tags.end(), t) == tags.end()) tags.push_back(t);
}

const FeatureLevelRow& pick_row(CaseRng& rng, const FeatureLevelTable& table) {
    if (rng.percent(50)) return table.back();
    return table[rng.below(table.size())];
}

const TensorSupport& support_of(const FeatureLevelRow& row, std::string_view field) {
    for (const TensorSupport& s : row.tensors)
        if (s.field == field) return s;
    // A generator asking for a field its own table lacks is a programming error, caught by the first test run.
    static const TensorSupport none{};
    return none;
}

DataType pick_type(CaseRng& rng, const TensorSupport& support) {
    std::vector<DataType> types;
    for (DataType t : kAllTensorDataTypes)
        if (support.types.contains(t)) types.push_back(t);
    return types.empty() ? DataType::kUnknown : rng.pick(types);
}

uint32_t pick_rank(CaseRng& rng, const TensorSupport& support) {
    return uint32_t(rng.between(support.ranks.min, std::min<uint32_t>(support.ranks.max, kMaxDimensionCount)));
}

std::vector<DataType> all_types(const FeatureLevelTable& table, std::string_view field) {
    std::vector<DataType> out;
    for (DataType t : kAllTensorDataTypes)
        for (const FeatureLevelRow& row : table)
            if (support_of(row, field).types.contains(t)) {
                out.push_back(t);
                break;
            }
    return out;
}

std::vector<uint32_t> all_ranks(const FeatureLevelTable& table, std::string_view field) {
    std::vector<uint32_t> out;
    for (uint32_t r = 1; r <= kMaxDimensionCount; ++r)
        for (const FeatureLevelRow& row : table)
            if (support_of(row, field).ranks.contains(r) && support_of(row, field).field == field) {
                out.push_back(r);
                break;
            }
    return out;
}

Dims random_sizes(CaseRng& rng, uint32_t rank, uint32_t max_dim, uint64_t max_elements) {
    Dims sizes(rank, 1);
    uint64_t count = 1;
    // Random order of growth, so that no dimension is always the small one once the budget runs out.
    for (uint32_t k = 0; k < rank; ++k) {
        const uint32_t d = uint32_t(rng.below(rank));
        const uint64_t room = max_elements / (count / sizes[d]);
        const uint32_t limit = uint32_t(std::min<uint64_t>(max_dim, room));
        count /= sizes[d];
        sizes[d] = uint32_t(rng.between(1, std::max<uint32_t>(limit, 1)));
        count *= sizes[d];
    }
    return sizes;
}

std::string dims_text(const Dims& dims) {
    std::string out;
    for (size_t i = 0; i < dims.size(); ++i) out += (i ? "x" : "") + std::to_string(dims[i]);
    return out;
}

json tensor_json(DataType type, const Dims& sizes) {
    return json{{"DataType", std::string(data_type_name(type))}, {"Sizes", sizes}};
}

namespace {

DataType type_of(const json& tensor) { return *parse_data_type(tensor.at("DataType").get<std::string>()); }

Dims sizes_of(const json& tensor) { return tensor.at("Sizes").get<Dims>(); }

Dims strides_of(const json& tensor) {
    return tensor.contains("Strides") ? tensor["Strides"].get<Dims>() : packed_strides(sizes_of(tensor));
}

// Float values as JSON: exact doubles, NaN and infinities as the strings the case format reads.
json float_json(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    return v;
}

// Element `bits` reinterpreted as a value of `type` (floats: any bit pattern, integers: the low bits, sign-extended).
json value_from_bits(DataType type, uint64_t bits) {
    switch (type) {
        case DataType::kFloat16: return float_json(half_to_float(uint16_t(bits)));
        case DataType::kFloat32: {
            float f;
            const uint32_t b = uint32_t(bits);
            std::memcpy(&f, &b, sizeof f);
            return float_json(f);
        }
        case DataType::kFloat64: {
            double d;
            std::memcpy(&d, &bits, sizeof d);
            return float_json(d);
        }
        case DataType::kUint64: return bits;
        case DataType::kInt64: return int64_t(bits);
        default: break;
    }
    const unsigned width = unsigned(element_size_in_bits(type));
    const uint64_t low = bits & ((uint64_t(1) << width) - 1);
    if (!is_signed_integer(type)) return low;
    const int64_t sign = int64_t(1) << (width - 1);
    return int64_t(low ^ uint64_t(sign)) - sign;
}

}  // namespace

std::vector<json> special_values(DataType type) {
    switch (type) {
        case DataType::kFloat16:
            return {0.0, -0.0, "nan", "inf", "-inf", 0x1p-24, -0x1p-24, 0x1.ff8p-15, 0x1p-14, 65504.0, -65504.0, 1.0, -1.0};
        case DataType::kFloat32:
            return {0.0,        -0.0,           "nan",   "inf",    "-inf",
                    0x1p-149,   -0x1p-149,      0x1.fffffcp-127, 0x1p-126, double(std::numeric_limits<float>::max()),
                    -double(std::numeric_limits<float>::max()), 1.0, -1.0};
        case DataType::kFloat64:
            return {0.0,      -0.0,  "nan", "inf", "-inf", 0x1p-1074, -0x1p-1074, 0x0.fffffffffffffp-1022, 0x1p-1022,
                    std::numeric_limits<double>::max(), std::numeric_limits<double>::lowest(), 1.0, -1.0};
        default: break;
    }
    const int64_t lo = integer_min(type);
    const uint64_t hi = integer_max(type);
    std::vector<json> out;
    if (is_signed_integer(type)) out = {lo, lo + 1, int64_t(-1)};
    out.insert(out.end(), {json(0), json(1), json(hi - 1), json(hi)});
    return out;
}

void randomize_layout(CaseRng& rng, json& tensor, TensorRole role, GeneratedCase& c, unsigned percent,
                      bool allow_broadcast) {
    if (!rng.percent(percent)) return;
    const Dims sizes = sizes_of(tensor);
    const uint32_t rank = uint32_t(sizes.size());
    // Innermost first: the identity order is row-major; a shuffled one is e.g. channels-last.
    std::vector<uint32_t> order(rank);
    for (uint32_t d = 0; d < rank; ++d) order[d] = rank - 1 - d;
    bool permuted = false;
    if (rng.percent(35))
        for (uint32_t i = rank; i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
    Dims strides(rank, 0);
    uint64_t extent = rng.percent(20) ? 2 : 1;  // the innermost dimension's stride: sometimes every other element
    bool gaps = extent > 1;
    for (uint32_t k = 0; k < rank; ++k) {
        const uint32_t d = order[k];
        strides[d] = uint32_t(extent);
        const uint64_t gap = rng.percent(40) ? rng.between(1, 3) : 0;
        gaps = gaps || (gap && k + 1 < rank);
        extent = extent * sizes[d] + gap;
    }
    // Only dimensions that hold more than one element make the order or the gaps observable.
    std::vector<uint32_t> big;
    for (uint32_t k = 0; k < rank; ++k)
        if (sizes[order[k]] > 1) big.push_back(order[k]);
    permuted = !std::is_sorted(big.rbegin(), big.rend());
    // Broadcast keeps one dimension of size > 1 whole: a fully broadcast input is a constant one, and a linear
    // blend of equal values may be bit-constant on a device while the reference's exact values differ in their
    // last bits, which the zero-trust rule calls MISTRUSTED (constant sources cover constant inputs instead).
    bool broadcast = false;
    if (role == TensorRole::kInput && allow_broadcast && big.size() > 1 && rng.percent(35)) {
        const uint32_t whole = big[rng.below(big.size())];
        for (uint32_t d : big)
            if (d != whole && (!broadcast || rng.percent(30))) {
                strides[d] = 0;
                broadcast = true;
            }
    }
    const bool output = role == TensorRole::kOutput;
    if (gaps) c.tag(output ? "strided-output" : "strided");
    if (permuted) c.tag(output ? "permuted-output" : "permuted");
    if (broadcast) c.tag("broadcast");
    tensor["Strides"] = strides;
    if (rng.percent(35)) {
        const uint64_t required = *calc_buffer_tensor_size(type_of(tensor), sizes, strides);
        tensor["TotalTensorSizeInBytes"] = required + 4 * rng.between(1, 16);
        c.tag("padded-total");
    }
}

json special_values_source(CaseRng& rng, const json& tensor, unsigned special_percent) {
    const DataType type = type_of(tensor);
    const Dims sizes = sizes_of(tensor), strides = strides_of(tensor);
    const std::vector<json> specials = special_values(type);
    const uint64_t seed = rng.next();
    const uint64_t count = *checked_element_count(sizes);
    json values = json::array();
    std::vector<uint32_t> coordinates(sizes.size());
    for (uint64_t i = 0; i < count; ++i) {
        unravel_index(i, sizes, coordinates.data());
        uint64_t offset = 0;
        for (size_t d = 0; d < sizes.size(); ++d) offset += uint64_t(coordinates[d]) * strides[d];
        // A function of the buffer location: elements a broadcast shares get the same value.
        const uint64_t bits = random_bits(seed, 2 * offset), choice = random_bits(seed, 2 * offset + 1);
        values.push_back(choice % 100 < special_percent ? specials[bits % specials.size()] : value_from_bits(type, bits));
    }
    return json{{"values", std::move(values)}};
}

json random_source(CaseRng& rng, const json& tensor, GeneratedCase& c, bool allow_constant) {
    const DataType type = type_of(tensor);
    const uint64_t style = rng.below(100);
    if (style < 45) {
        json range;
        if (is_float(type)) {
            static const std::vector<std::pair<double, double>> ranges = {
                {-1, 1}, {-100, 100}, {0, 1}, {-1e-3, 1e-3}, {-1e4, 1e4}, {-2, 0}};
            const auto& r = rng.pick(ranges);
            range = {{"min", r.first}, {"max", r.second}};
        } else if (element_size_in_bits(type) <= 16 || rng.percent(40)) {
            range = {{"min", integer_min(type)}, {"max", integer_max(type)}};
        } else {
            range = is_signed_integer(type) ? json{{"min", -1000}, {"max", 1000}} : json{{"min", 0}, {"max", 2000}};
        }
        range["seed"] = rng.next() >> 12;  // below 2^53: exact in every JSON reader
        return json{{"random", range}};
    }
    if (style < 70) {
        c.tag("special-values");
        return special_values_source(rng, tensor, unsigned(rng.between(10, 50)));
    }
    if (style < 80) return special_values_source(rng, tensor, 0);  // random bit patterns: every exponent
    if (style < 95 || !allow_constant) {
        if (is_float(type))
            return json{{"sequence", {{"start", -double(rng.between(0, 8))}, {"step", rng.pick(std::vector<double>{0.25, 0.5, 1, -0.5})}}}};
        const bool is_signed = is_signed_integer(type);
        return json{{"sequence", {{"start", rng.between(is_signed ? -5 : 0, 5)},
                                  {"step", rng.between(is_signed ? -1 : 1, 3)}}}};
    }
    c.tag("constant-input");
    const std::vector<json> specials = special_values(type);
    return json{{"constant", rng.percent(50) ? rng.pick(specials) : value_from_bits(type, rng.next())}};
}

Status finish_outputs(const Op& op, CaseRng& rng, GeneratedCase& c) {
    json derived = c.desc;
    DMLTOOL_RETURN_IF_ERROR(op.derive_outputs(derived, "/operator/desc"));
    if (derived == c.desc) return Status::ok();  // the generator gave every output explicitly
    if (rng.percent(40)) {
        c.tag("derived-output");
        return Status::ok();
    }
    c.desc = std::move(derived);
    for (const char* key : {"OutputTensor", "OutputTensors"}) {
        if (!c.desc.contains(key)) continue;
        json& member = c.desc[key];
        if (member.is_array())
            for (json& t : member) randomize_layout(rng, t, TensorRole::kOutput, c, 40);
        else
            randomize_layout(rng, member, TensorRole::kOutput, c, 40);
    }
    return Status::ok();
}

std::string lowercase_op_name(const Op& op) {
    std::string name(op.name());
    for (char& ch : name) ch = char(std::tolower(static_cast<unsigned char>(ch)));
    return name;
}

Result<json> generate_case_json(const Op& op, uint64_t seed, uint64_t index, uint64_t attempt) {
    // The stream of one case: the seed, the operator and the index mixed through SplitMix64 (and a redraw's attempt).
    uint64_t op_hash = 0xcbf29ce484222325ull;  // FNV-1a of the name: each operator has its own streams
    for (char ch : op.name()) op_hash = (op_hash ^ uint8_t(ch)) * 0x100000001b3ull;
    uint64_t stream = random_bits(random_bits(seed, op_hash), index);
    if (attempt > 0) stream = random_bits(stream, attempt);
    CaseRng rng(stream);
    GeneratedCase c;
    DMLTOOL_RETURN_IF_ERROR(op.generate_case(rng, c));
    DMLTOOL_RETURN_IF_ERROR(finish_outputs(op, rng, c));
    c.tags.insert(c.tags.begin(), "generated");
    const std::string name = lowercase_op_name(op);
    return json{{"name", "gen/" + name + "/s" + std::to_string(seed) + "/" + std::to_string(index) + "/" + c.shape},
                {"operator", {{"type", "DML_OPERATOR_" + std::string(op.name())}, {"desc", std::move(c.desc)}}},
                {"inputs", std::move(c.inputs)},
                {"tags", std::move(c.tags)}};
}

}  // namespace dmltool
