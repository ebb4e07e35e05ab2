// PLACEHOLDER until the depth_to_space1 operator lands (being written now): refuses every case.
#include <memory>

#include "core/op.h"

namespace dmltool::ops::depth_to_space1 {
namespace {
class PlaceholderOp final : public Op {
public:
    std::string_view name() const override { return "depth_to_space1"; }
    Result<std::unique_ptr<OpDesc>> parse(JsonObjectReader&) const override { return internal_error("not implemented"); }
    std::vector<TensorSlot> tensors(const OpDesc&) const override { return {}; }
    const FeatureLevelTable& feature_levels() const override { static const FeatureLevelTable t; return t; }
    Status run_reference(const OpDesc&, std::span<const HostTensor* const>, std::span<HostTensor* const>,
                         const ReferenceContext&) const override { return internal_error("not implemented"); }
    Tolerance default_tolerance(const OpDesc&, size_t) const override { return {}; }
    WorkEstimate work(const OpDesc&) const override { return {}; }
};
}  // namespace
std::unique_ptr<Op> make_op() { return std::make_unique<PlaceholderOp>(); }
}  // namespace dmltool::ops::depth_to_space1
