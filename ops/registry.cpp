#include <memory>

#include "core/op_registry.h"

#define DMLTOOL_OP(name)                      \
    namespace dmltool::ops::name {            \
    std::unique_ptr<::dmltool::Op> make_op(); \
    }
#include "ops/op_list.inc"
#undef DMLTOOL_OP

namespace dmltool {

OpRegistry make_builtin_registry() {
    OpRegistry registry;
#define DMLTOOL_OP(name) registry.add(ops::name::make_op());
#include "ops/op_list.inc"
#undef DMLTOOL_OP
    return registry;
}

}  // namespace dmltool
