// OpRegistry maps DML operator names to their Op implementations. Built in main (and in tests) from
// ops/op_list.inc by make_builtin_registry(); there is no global registry.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/op.h"

namespace dmltool {

class OpRegistry {
public:
    void add(std::unique_ptr<Op> op);
    // Accepts "DML_OPERATOR_SPLIT" and "SPLIT". Null when unknown.
    const Op* find(std::string_view name) const;
    // "unknown operator 'SPLTI' (did you mean 'SPLIT'?); known: ..." for error messages.
    std::string unknown_operator_message(std::string_view name) const;
    const std::vector<std::unique_ptr<Op>>& ops() const { return ops_; }

private:
    std::vector<std::unique_ptr<Op>> ops_;
};

// Defined in ops/registry.cpp from ops/op_list.inc.
OpRegistry make_builtin_registry();

}  // namespace dmltool
