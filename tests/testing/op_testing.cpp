#include "tests/testing/op_testing.h"

#include <nlohmann/json.hpp>

#include "core/thread_pool.h"

namespace dmltool::testing {

HostTensor make_tensor(DataType type, Dims sizes, const std::vector<double>& values) {
    return make_tensor_with(type, std::move(sizes), [&](uint64_t i) { return values.at(i); });
}

std::vector<double> values_of(const HostTensor& tensor) {
    std::vector<double> out(tensor.element_count());
    for (uint64_t i = 0; i < out.size(); ++i) out[i] = tensor.get_as_double(i);
    return out;
}

Result<std::unique_ptr<OpDesc>> parse_desc(const Op& op, std::string_view desc_json) {
    const nlohmann::json json = nlohmann::json::parse(desc_json);
    JsonObjectReader reader(json, "/operator/desc");
    DMLTOOL_ASSIGN_OR_RETURN(auto desc, op.parse(reader));
    DMLTOOL_RETURN_IF_ERROR(reader.finish());
    return desc;
}

Result<std::vector<HostTensor>> run_reference(const Op& op, const OpDesc& desc,
                                              const std::vector<const HostTensor*>& inputs,
                                              const SemanticsOptions& semantics) {
    std::vector<HostTensor> outputs;
    for (const TensorSlot& slot : op.tensors(desc))
        if (slot.role == TensorRole::kOutput) outputs.emplace_back(*slot.desc);
    std::vector<HostTensor*> output_ptrs;
    for (auto& t : outputs) output_ptrs.push_back(&t);
    ThreadPool pool(2);
    ReferenceContext context{pool, semantics};
    DMLTOOL_RETURN_IF_ERROR(op.run_reference(desc, inputs, output_ptrs, context));
    return outputs;
}

}  // namespace dmltool::testing
