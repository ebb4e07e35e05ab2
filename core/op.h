// The contract every operator folder under ops/ fulfils. An Op is stateless: it parses and validates its
// DML desc from JSON, lists the desc's tensors, declares its feature-level table, computes the CPU reference
// and states its accuracy contract (tolerances) and its work (bytes, ops) for throughput reports.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/device_plan.h"
#include "core/dml_desc.h"
#include "core/feature_level.h"
#include "core/json_reader.h"
#include "core/semantics.h"
#include "core/status.h"
#include "core/tensor.h"
#include "core/thread_pool.h"

namespace dmltool {

class CaseRng;         // core/case_generator.h
struct GeneratedCase;  // core/case_generator.h

// Base of every operator's parsed desc (e.g. DepthToSpace1Desc).
class OpDesc {
public:
    virtual ~OpDesc() = default;
};

// One tensor member of a desc. Optional members that the case omits are listed with desc == nullptr so that
// slot positions are fixed per operator.
struct TensorSlot {
    std::string name;        // "InputTensor", "OutputTensors[1]"
    std::string_view field;  // desc member: "OutputTensors"; the key of the feature-level table
    TensorRole role;
    const TensorDesc* desc;  // points into the OpDesc
};

// The accuracy contract for one output. An element passes when its ULP distance <= ulp OR its absolute
// difference <= abs; `bitwise` demands identical bits (data movement: -0.0 and NaN payloads must survive).
// `error_bound`: the operator computes in floating point and its reference states, per element, the exact
// value and an error scale (ExactOutput); an element passes when |got - exact| <= 1.01 * unit_roundoff *
// scale + absolute_floor + half an ulp of the output type (integer types: < 1 + the same; docs/semantics.md and
// tolerances, compare_to_exact). ulp/abs then
// only judge comparisons that have no exact values (two device outputs against each other, unit tests).
struct Tolerance {
    bool bitwise = false;
    uint64_t ulp = 0;
    double abs = 0;
    std::string reason;        // one line: why this tolerance is right
    bool error_bound = false;
    double unit_roundoff = 0;  // of the arithmetic a correct implementation may use: float32 = 2^-24
    // Only for deviation models (core/deviations.h): a larger unit roundoff of the operator's own arithmetic (its
    // ExactOutput::arithmetic_scale), e.g. 2^-11 for a blend in half precision; 0: unit_roundoff throughout.
    double arithmetic_unit_roundoff = 0;
    // Only for deviation models: inputs of this magnitude may overflow that narrower arithmetic's intermediate
    // differences (ExactOutput::largest_input), so NaN and infinities are accepted there too; 0: never.
    double arithmetic_overflow = 0;
    // Only for deviation models: the narrower arithmetic's smallest normal value (half: 2^-14), where it may flush
    // subnormal results to zero; scales ExactOutput::absolute_floor (a multiple of float32's 2^-126). 0: float32's.
    double arithmetic_smallest_normal = 0;
    // A float32 result's conversion to a narrower float output (FLOAT16) may round toward zero as well as to nearest:
    // Direct3D's data conversion rules ("round-to-zero is used during conversion to another float format"; HLSL's
    // f32tof16 "follows D3D rules for floating point conversion"). An element whose value lies on the zero side of
    // the exact one may then be up to a whole ulp of the output type away (plus the computation's bound), not half.
    bool narrowing_toward_zero = false;
};

// Whether `bits` (one element of an output's type) is also a right value of output element `element`. Callers pass
// element `element` of the whole logical output (dense), so a right value may depend on the element's neighbours
// (ops/element_wise: HARDMAX's lanes, a one-hot lane is right or wrong as a whole).
using AcceptsElement = std::function<bool(uint64_t element, const std::byte* bits)>;

// What a reference knows about one floating-point output beyond its rounded values: per element the exact
// result (of the reference's definition, in double) and the error scale M that a correct implementation's
// rounding error is proportional to; absolute_floor covers underflow (flushed denormals): a multiple of float32's
// smallest normal value, 2^-126.
struct ExactOutput {
    std::vector<double> exact;
    std::vector<double> scale;
    double absolute_floor = 0;
    // The M of an implementation that computes in a narrower arithmetic throughout, its coordinates included
    // (empty: `scale`). Tolerance::arithmetic_unit_roundoff applies to it.
    std::vector<double> arithmetic_scale;
    // Per element (empty: none): NaN and infinities are also accepted, where the operator's legitimate evaluation
    // orders differ in IEEE special values (a neighbour that is not finite, or a difference that overflows).
    std::vector<uint8_t> nonfinite_allowed;
    // Per element (empty: none): the largest finite |input| the element's computation reads, for
    // Tolerance::arithmetic_overflow.
    std::vector<double> largest_input;
    // Bit-exact outputs with more than one right answer (nearest-neighbour ties, which the documentation does not
    // break): an element also passes when both compared values are right ones. Empty: only the reference's own.
    AcceptsElement also_accepts;
};

// A named model of how one implementation departs from the documented contract (docs/semantics.md: DirectML deviations):
// small, tested code in the operator's folder that a deviation registry (core/deviations.h) refers to by name.
// The runner evaluates a model only for a backend whose registry lists it, and only to explain an output that
// already broke the contract: it never changes what the reference or dmltool's kernels are held to.
struct DeviationModel {
    enum class Kind {
        kSemantics,   // the reference with other semantics (e.g. another nearest rule); the output must match it
        kErrorBound,  // the contract's bound with a narrower arithmetic's unit roundoff (ExactOutput::arithmetic_scale)
        kRejectsDesc, // the implementation refuses valid descs of this shape (creation fails): no output at all
    };
    std::string name;  // "resample-nearest-floor-halfpixel"
    Kind kind = Kind::kSemantics;
    std::function<bool(const OpDesc&)> applies;              // the descs the model speaks about
    std::function<void(SemanticsOptions&)> adjust_semantics;  // kSemantics
    double unit_roundoff = 0;                                 // kErrorBound
    double overflow_magnitude = 0;                            // kErrorBound: Tolerance::arithmetic_overflow
    double smallest_normal = 0;                               // kErrorBound: Tolerance::arithmetic_smallest_normal
};

// Logical bytes read + written, and arithmetic operations (MAC = 2), for throughput reports.
struct WorkEstimate {
    uint64_t bytes = 0;
    uint64_t ops = 0;
};

struct ReferenceContext {
    ThreadPool& pool;
    const SemanticsOptions& semantics;
    // When not null (one entry per output), an operator whose default tolerance is an error bound fills its
    // outputs' exact values and error scales here. Others leave their entries empty.
    std::vector<ExactOutput>* exact_outputs = nullptr;
    // With exact_outputs: also the data of error-bound deviation models (ExactOutput::arithmetic_scale and
    // largest_input). Costly (a wider neighbourhood per element), so only a deviation model's check asks for it.
    bool narrow_arithmetic = false;
};

class Op {
public:
    virtual ~Op() = default;

    // DML_OPERATOR_ suffix, e.g. "DEPTH_TO_SPACE1".
    virtual std::string_view name() const = 0;
    // Reads the desc object (JSON member names = C struct members) and checks every operator rule of spec §10
    // that does not depend on the feature level. Errors are kInvalidInput with the member's JSON path.
    virtual Result<std::unique_ptr<OpDesc>> parse(JsonObjectReader& desc) const = 0;
    // Fills in the output tensor descs a case leaves to the operator (docs/case-format.md: Derived output sizes): an output
    // member that is omitted, or given without "Sizes", gets the sizes the operator determines from the inputs and
    // parameters (and the default DataType when it has none). Works on the desc's JSON before parse(), so that
    // `dmltool list --json` shows the result. Given sizes are never changed (parse() validates them). Errors as
    // parse()'s, `path` being the desc's JSON path.
    virtual Status derive_outputs(nlohmann::json& desc, const std::string& path) const {
        (void)desc;
        (void)path;
        return Status::ok();
    }
    // All tensor members in a fixed order: inputs first, then outputs.
    virtual std::vector<TensorSlot> tensors(const OpDesc& desc) const = 0;
    virtual const FeatureLevelTable& feature_levels() const = 0;
    // inputs[i] / outputs[i] follow the order of tensors() within each role; absent optional inputs are null.
    // tensors() leaves absent optional outputs out (the runner refuses an output without a desc as a bug).
    // Outputs arrive allocated (logical, zero-filled) and must be fully written.
    virtual Status run_reference(const OpDesc& desc, std::span<const HostTensor* const> inputs,
                                 std::span<HostTensor* const> outputs, const ReferenceContext& context) const = 0;
    virtual Tolerance default_tolerance(const OpDesc& desc, size_t output_index) const = 0;
    // Rules on the values of small inputs whose values are rules, not data (quantization scales, zero points):
    // checked by `validate` and by `run` before the reference runs, so both report the same message.
    // inputs[i] as for run_reference (logical, absent optional inputs null).
    virtual Status check_input_values(const OpDesc& desc, std::span<const HostTensor* const> inputs) const {
        (void)desc;
        (void)inputs;
        return Status::ok();
    }
    virtual WorkEstimate work(const OpDesc& desc) const = 0;
    // The GPU kernels for this desc (see core/device_plan.h). Must follow exactly the semantics of
    // run_reference, including `semantics`. kUnsupported when the op has no kernel for this desc.
    virtual Result<DevicePlan> plan_device(const OpDesc& desc, const SemanticsOptions& semantics) const {
        (void)desc;
        (void)semantics;
        return unsupported(std::string(name()) + ": no GPU kernel for this desc");
    }
    // Autotuning (docs/benchmarks.md: Autotuning): named alternatives to plan_device's heuristic choice of kernel geometry for
    // this desc, which a device may time to pick the fastest. Every variant must compute exactly what plan_device's
    // plan computes (the GPU tests run each against the reference, and the tuner checks each variant's outputs
    // against the heuristic plan's bit for bit before timing it). Empty: nothing to tune. Names are stable
    // (they are the tuning cache's values) and never empty.
    virtual std::vector<std::string> device_plan_variants(const OpDesc& desc, const SemanticsOptions& semantics) const {
        (void)desc;
        (void)semantics;
        return {};
    }
    // The plan of one of device_plan_variants' names; kUnsupported for a name this desc does not offer.
    virtual Result<DevicePlan> plan_device_variant(const OpDesc& desc, const SemanticsOptions& semantics,
                                                   std::string_view variant) const {
        (void)desc;
        (void)semantics;
        return unsupported(std::string(name()) + ": no plan variant '" + std::string(variant) + "'");
    }
    // The DirectML desc of this desc, member for member in DirectML's order (core/dml_desc.h), for the DirectML
    // backend: tensors point into `desc`, so it lives as long as `desc`. kUnsupported when the operator has none.
    virtual Result<DmlDesc> dml_desc(const OpDesc& desc) const {
        (void)desc;
        return unsupported("the DirectML backend has no DML desc for operator " + std::string(name()));
    }
    // The deviation models this operator offers to registries (core/deviations.h); names unique per operator.
    virtual std::vector<DeviationModel> deviation_models() const { return {}; }
    // `dmltool generate` (property-based testing, core/case_generator.h): fills `out` with one random desc that
    // parse() accepts at some row of feature_levels(), and one source per present input. Outputs may be left to
    // derive_outputs. kUnsupported when the operator has no generator.
    virtual Status generate_case(CaseRng& rng, GeneratedCase& out) const {
        (void)rng;
        (void)out;
        return unsupported(std::string(name()) + ": no case generator");
    }
};

// For derive_outputs: whether desc[key] is absent (or null) or a tensor desc object without "Sizes".
bool output_sizes_omitted(const nlohmann::json& desc, std::string_view key);
// For derive_outputs: sets desc[key]'s Sizes, and its DataType to `default_type` unless given, creating the member
// when absent; other members given stay.
void set_derived_output(nlohmann::json& desc, std::string_view key, DataType default_type,
                        const std::vector<uint64_t>& sizes);
nlohmann::json derived_tensor_desc(DataType type, const std::vector<uint64_t>& sizes);

// Derives the minimum feature level of a parsed desc from the op's table.
Result<FeatureLevel> min_feature_level(const Op& op, const OpDesc& desc);

}  // namespace dmltool
