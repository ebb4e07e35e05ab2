#include <memory>
#include <vector>

#include "core/op_registry.h"

// DMLTOOL_OP(name): one operator, ops::name::make_op(). DMLTOOL_OP_FAMILY(name): a table of operators (one per
// row), ops::name::make_ops(), each its own registry entry.
#define DMLTOOL_OP(name)                      \
    namespace dmltool::ops::name {            \
    std::unique_ptr<::dmltool::Op> make_op(); \
    }
#define DMLTOOL_OP_FAMILY(name)                            \
    namespace dmltool::ops::name {                         \
    std::vector<std::unique_ptr<::dmltool::Op>> make_ops(); \
    }
#include "ops/op_list.inc"
#undef DMLTOOL_OP
#undef DMLTOOL_OP_FAMILY

namespace dmltool {

OpRegistry make_builtin_registry() {
    OpRegistry registry;
#define DMLTOOL_OP(name) registry.add(ops::name::make_op());
#define DMLTOOL_OP_FAMILY(name) \
    for (auto& op : ops::name::make_ops()) registry.add(std::move(op));
#include "ops/op_list.inc"
#undef DMLTOOL_OP
#undef DMLTOOL_OP_FAMILY
    return registry;
}

}  // namespace dmltool
