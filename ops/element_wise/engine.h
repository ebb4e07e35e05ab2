// The family engine's pieces (ops/element_wise/*.cpp), shared by the ELEMENT_WISE_* table (this folder) and the
// ACTIVATION_* table (ops/activation/): one generic Op per row.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/op.h"
#include "ops/element_wise/desc.h"
#include "ops/element_wise/function_math.h"

namespace dmltool::ops::element_wise {

// The ELEMENT_WISE_* rows (functions.cpp and friends) and the ACTIVATION_* rows (ops/activation/functions.cpp).
const std::vector<FunctionSpec>& element_wise_functions();
}  // namespace dmltool::ops::element_wise

namespace dmltool::ops::activation {
const std::vector<element_wise::FunctionSpec>& activation_functions();
}  // namespace dmltool::ops::activation

namespace dmltool::ops::element_wise {

// A row's spec from the DirectML facts (spec_from_facts.cpp): members, feature levels, constraints, formula.
FunctionSpec spec_from_facts(std::string_view name, std::string_view kernel_body, const FunctionMath* math);

// The row of that DML name suffix in either table ("ACTIVATION_RELU"), or null.
const FunctionSpec* find_function(std::string_view name);

// The generic Op of one row.
std::unique_ptr<Op> make_family_op(const FunctionSpec& function);

// Reads a desc of `function` (parse.cpp). `fused`: reading a FusedActivation's desc (tensors must be absent).
Result<std::unique_ptr<ElementWiseDesc>> parse_desc(const FunctionSpec& function, JsonObjectReader& reader,
                                                   bool fused = false);

// The CPU reference (reference.cpp): inputs/outputs as Op::run_reference gives them.
Status run_reference(const ElementWiseDesc& desc, std::span<const HostTensor* const> inputs, HostTensor& output,
                     const ReferenceContext& context);

// Whether the reference computes in integers (the row has an integer function, and the output and every input
// are integer types): then the verdict is bit-exact.
bool uses_integer_path(const ElementWiseDesc& desc);

// A random valid desc of `function` for `dmltool generate` (generate.cpp); `op` is its Op (parse checks the draw).
Status generate_case(const Op& op, const FunctionSpec& function, CaseRng& rng, GeneratedCase& out);

// The tolerance of a desc's output (reference.cpp).
Tolerance tolerance_of(const ElementWiseDesc& desc);

}  // namespace dmltool::ops::element_wise
