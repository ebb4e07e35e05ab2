#include "core/semantics.h"

namespace dmltool {

std::string_view nearest_rule_name(NearestRule rule) {
    switch (rule) {
        case NearestRule::kLiteral: return "literal";
        case NearestRule::kHalfUp: return "half-up";
        case NearestRule::kHalfDown: return "half-down";
        case NearestRule::kFloor: return "floor";
    }
    return "?";
}

std::optional<NearestRule> parse_nearest_rule(std::string_view text) {
    if (text == "literal" || text == "A") return NearestRule::kLiteral;
    if (text == "half-up" || text == "B") return NearestRule::kHalfUp;
    if (text == "half-down" || text == "C") return NearestRule::kHalfDown;
    if (text == "floor") return NearestRule::kFloor;
    return std::nullopt;
}

}  // namespace dmltool
