// Random valid cases for property-based testing (`dmltool generate`, docs/generated-cases.md). Each operator
// writes its random desc in ops/<op>/generate.cpp (Op::generate_case); the pieces every operator shares live here:
// a seeded random stream, picks from the operator's own feature-level table, random physical layouts (strides with
// gaps, permuted dimension orders, broadcast, padded TotalTensorSizeInBytes) and random tensor sources that mix in
// the special values of the data type (+-0, NaN, +-inf, denormals, type min/max).
//
// Cases carry no `expected`: the CPU reference is the oracle, and `run --backend gpu|directml|all` compares the
// devices with it. Tags name the features a case covers ("strided", "broadcast", "special-values", ...), which the
// coverage test (tests/unit/generate_test.cpp) checks against the case's content where it can.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/feature_level.h"
#include "core/op.h"
#include "core/tensor.h"

namespace dmltool {

// A deterministic random stream: element k is core/tensor_source.h's random_bits (SplitMix64) of the seed and k,
// so the same seed gives the same case on every platform and compiler (no <random> distributions, whose results
// the standard leaves to the implementation).
class CaseRng {
public:
    explicit CaseRng(uint64_t seed) : seed_(seed) {}
    uint64_t next();
    uint64_t below(uint64_t n);                // [0, n); n >= 1
    int64_t between(int64_t lo, int64_t hi);  // [lo, hi]
    bool percent(unsigned p);                  // true with probability p/100
    double unit();                             // [0, 1)
    template <typename T>
    const T& pick(const std::vector<T>& items) {
        return items[below(items.size())];
    }

private:
    uint64_t seed_;
    uint64_t index_ = 0;
};

// What an operator's generator returns: the desc (outputs may be left to derive_outputs), one source per present
// input slot, a short shape text for the case name and the feature tags.
struct GeneratedCase {
    nlohmann::json desc = nlohmann::json::object();
    nlohmann::json inputs = nlohmann::json::object();
    std::string shape;
    std::vector<std::string> tags;
    void tag(const std::string& t);  // adds once
};

// The feature-level table, read from the operator's code: a row (the most permissive one, the last, half the time,
// so that types and ranks only it allows are common; otherwise any row, so that lower rows' limits appear too),
// and the support of one desc field in it.
const FeatureLevelRow& pick_row(CaseRng& rng, const FeatureLevelTable& table);
const TensorSupport& support_of(const FeatureLevelRow& row, std::string_view field);
DataType pick_type(CaseRng& rng, const TensorSupport& support);
uint32_t pick_rank(CaseRng& rng, const TensorSupport& support);
// Every type / rank any row allows for `field` (the coverage test's expectation).
std::vector<DataType> all_types(const FeatureLevelTable& table, std::string_view field);
std::vector<uint32_t> all_ranks(const FeatureLevelTable& table, std::string_view field);

// Random sizes of `rank` dimensions, each in [1, max_dim], with at most `max_elements` elements in all.
Dims random_sizes(CaseRng& rng, uint32_t rank, uint32_t max_dim, uint64_t max_elements);
std::string dims_text(const Dims& dims);  // "2x3x4"

nlohmann::json tensor_json(DataType type, const Dims& sizes);
// Gives a tensor desc JSON (DataType, Sizes) a random physical layout and tags what it chose: packed (most often),
// explicit strides with gaps between rows ("strided"), a permuted dimension order ("permuted"), stride 0 on some
// dimensions of size > 1 (inputs only, "broadcast") and a TotalTensorSizeInBytes beyond the required one
// ("padded-total"). `percent` is the chance of anything but packed.
// `allow_broadcast` false: never stride 0 (see ops/resample/generate.cpp for why linear resampling needs that).
void randomize_layout(CaseRng& rng, nlohmann::json& tensor, TensorRole role, GeneratedCase& c, unsigned percent = 50,
                      bool allow_broadcast = true);

// A random source for a tensor desc JSON: {"random"} with an explicit seed and range, {"values"} mixing in the
// type's special values ("special-values"), {"sequence"} or {"constant"} ("constant-input"). Values are chosen per
// physical buffer location, so a broadcast input's explicit data is consistent. `allow_constant`: false where a
// constant input would make the device's output constant while the reference's rounding is not, which the
// zero-trust rule calls MISTRUSTED (RESAMPLE linear); data movement's constant outputs are proven by the runner.
nlohmann::json random_source(CaseRng& rng, const nlohmann::json& tensor, GeneratedCase& c, bool allow_constant = true);
// {"values"} of the type's special values and random bit patterns (`special_percent` of the locations special).
nlohmann::json special_values_source(CaseRng& rng, const nlohmann::json& tensor, unsigned special_percent);
// The type's special values as JSON (floats: +-0, "nan", "+-inf", smallest and largest denormal, smallest normal,
// largest finite, +-1; integers: min, min+1, -1, 0, 1, max-1, max).
std::vector<nlohmann::json> special_values(DataType type);

// For the generate command: makes the outputs the desc leaves to derive_outputs explicit (op.derive_outputs) and
// gives some a random non-aliasing layout ("strided-output"); others stay derived ("derived-output").
Status finish_outputs(const Op& op, CaseRng& rng, GeneratedCase& c);

// Case `index` of the stream for (op, seed): a complete case object named "gen/<op>/s<seed>/<index>/<shape>", with
// tags "generated" and the features it covers. The same (op, seed, index) gives the same case on every platform;
// each index has its own random stream, so a case can be regenerated alone. `attempt` > 0 draws again from a stream
// of its own (the generate command's redraw of a case whose reference output cannot discriminate); attempt 0 is the
// case's first stream.
Result<nlohmann::json> generate_case_json(const Op& op, uint64_t seed, uint64_t index, uint64_t attempt = 0);
std::string lowercase_op_name(const Op& op);  // "resample": the case-name prefix and `generate`'s file stem

}  // namespace dmltool
