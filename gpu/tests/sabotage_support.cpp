#include "gpu/tests/sabotage_support.h"

#include <memory>

#include "shaders/elements.h"
#include "shaders/kernels.h"

namespace dmltool::sabotage {
namespace {

struct FlatTensor {
    uint32_t element_bytes = 0;
    uint32_t count = 0;
};

FlatTensor flat(const TensorDesc& desc) {
    return {uint32_t(element_size(desc.data_type)), uint32_t(desc.element_count())};
}

BufferBinding binding(BufferBinding::Source source, size_t index) {
    return {source, uint32_t(index), 0, 0};
}

// to[i] = from[offset + i * stride] for i < count (stride 0 repeats from[offset]).
Result<KernelDispatch> gather(BufferBinding from, BufferBinding to, FlatTensor t, uint32_t offset, uint32_t stride) {
    DMLTOOL_ASSIGN_OR_RETURN(auto blob,
                             shaders::build_strided_gather_kernel({.element_bytes = t.element_bytes, .rank = 1}));
    const shaders::DispatchGrid grid = shaders::plan_dispatch(shaders::strided_gather_threads(t.element_bytes, t.count),
                                                              shaders::kDefaultThreadsPerGroup);
    KernelDispatch d;
    d.dxbc = std::make_shared<const std::vector<uint8_t>>(std::move(blob));
    d.label = "sabotage/gather";
    d.root_constants = {t.count, grid.threads_per_row, offset, t.count, stride};
    d.srvs = {from};
    d.uavs = {to};
    d.group_count = {grid.groups_x, grid.groups_y, 1};
    return d;
}

}  // namespace

const char* sabotage_name(Sabotage how) {
    switch (how) {
        case Sabotage::kNone: return "none";
        case Sabotage::kDropDispatches: return "drop_dispatches";
        case Sabotage::kWriteZeros: return "write_zeros";
        case Sabotage::kShiftByOne: return "shift_by_one";
        case Sabotage::kCopyInput: return "copy_input";
    }
    return "?";
}

Result<DevicePlan> sabotaged_plan(const Op& real, Sabotage how, const OpDesc& desc, const SemanticsOptions& semantics) {
    DMLTOOL_ASSIGN_OR_RETURN(DevicePlan plan, real.plan_device(desc, semantics));
    // The sabotaged plan runs as sabotaged or not at all: not its unsabotaged integer-conversion twin.
    plan.fallback.reset();
    std::vector<FlatTensor> outputs;
    FlatTensor first_input;
    for (const TensorSlot& slot : real.tensors(desc)) {
        if (slot.role == TensorRole::kOutput) {
            if (slot.desc->strides) return internal_error(slot.name + ": sabotage needs packed outputs (no Strides)");
            outputs.push_back(flat(*slot.desc));
        } else if (first_input.count == 0 && slot.desc) {
            first_input = flat(*slot.desc);
        }
    }
    using Source = BufferBinding::Source;
    switch (how) {
        case Sabotage::kNone: break;
        case Sabotage::kDropDispatches: plan.dispatches.clear(); break;
        case Sabotage::kWriteZeros: {
            plan.dispatches.clear();
            const size_t zeros = plan.auxiliary_buffers.size();
            plan.auxiliary_buffers.emplace_back(16, std::byte{0});
            for (size_t k = 0; k < outputs.size(); ++k) {
                DMLTOOL_ASSIGN_OR_RETURN(auto d, gather(binding(Source::kAuxiliary, zeros), binding(Source::kOutput, k),
                                                        outputs[k], 0, 0));
                plan.dispatches.push_back(std::move(d));
            }
            break;
        }
        case Sabotage::kShiftByOne:
            for (size_t k = 0; k < outputs.size(); ++k) {
                // Through a scratch copy with one spare zero element, so output[count - 1] reads 0.
                const size_t scratch = plan.auxiliary_buffers.size();
                plan.auxiliary_buffers.emplace_back((uint64_t{outputs[k].count} + 1) * outputs[k].element_bytes + 4,
                                                    std::byte{0});
                DMLTOOL_ASSIGN_OR_RETURN(auto save, gather(binding(Source::kOutput, k),
                                                           binding(Source::kAuxiliary, scratch), outputs[k], 0, 1));
                DMLTOOL_ASSIGN_OR_RETURN(auto shift, gather(binding(Source::kAuxiliary, scratch),
                                                            binding(Source::kOutput, k), outputs[k], 1, 1));
                plan.dispatches.push_back(std::move(save));
                plan.dispatches.push_back(std::move(shift));
            }
            break;
        case Sabotage::kCopyInput: {
            if (first_input.element_bytes != outputs.at(0).element_bytes || first_input.count < outputs[0].count)
                return internal_error("copy_input sabotage: input 0 is smaller or of another element size");
            plan.dispatches.clear();
            DMLTOOL_ASSIGN_OR_RETURN(auto d, gather(binding(Source::kInput, 0), binding(Source::kOutput, 0), outputs[0],
                                                    0, 1));
            plan.dispatches.push_back(std::move(d));
            break;
        }
    }
    return plan;
}

}  // namespace dmltool::sabotage
