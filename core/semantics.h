// Choices where DirectML's documentation leaves the exact behaviour open (spec §6.6, §12). They are explicit
// options of the CPU reference — and of the GPU kernels, which must follow the same rule — so a user can
// test each hypothesis instead of the tool hard-coding one.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace dmltool {

// DML_RESAMPLE nearest-neighbour index rule, with x_in = (o + 0.5) / scale - 0.5 (half-pixel centres). A, B and C
// are readings of the documentation ("the input element nearest to the pixel centre"); B is the default because
// DirectML 1.15.4 follows it for FLOAT32 and FLOAT16 (docs/semantics.md).
enum class NearestRule {
    kLiteral,   // model A: floor((o + 1) / scale - 0.5)  — the RESAMPLE2 remark read literally
    kHalfUp,    // model B (default): floor((o + 0.5) / scale) = round half up of x_in
    kHalfDown,  // model C: ceil((o + 0.5) / scale - 1)   = round half down of x_in (ONNX round_prefer_floor)
    kFloor,     // floor((o + 0.5) / scale - 0.5) = floor of x_in: not "nearest", but what DirectML 1.15.4 does for
                // INT8/UINT8 (a departure from its documentation, kept as a deviation model)
};

std::string_view nearest_rule_name(NearestRule rule);  // "literal", "half-up", "half-down", "floor"
std::optional<NearestRule> parse_nearest_rule(std::string_view text);

struct SemanticsOptions {
    NearestRule resample_nearest_rule = NearestRule::kHalfUp;
    // ELEMENT_WISE_POW's ScaleBias: the documentation applies it to "the input" (InputTensor; dmltool's contract);
    // DirectML 1.15.4 applies it to the ExponentTensor's elements as well. Only its deviation model sets this.
    bool pow_scale_bias_on_exponent = false;
    // The element-wise family's semantics deviation model in force: one of the names ops/element_wise/engine.h
    // lists (kModel*), set only by that model's registry entry; empty: the documented contract. A name rather than
    // one flag per model so that the family's next model is a change in its own folder, not in this header, which
    // every operator includes.
    std::string element_wise_model;
};

}  // namespace dmltool
