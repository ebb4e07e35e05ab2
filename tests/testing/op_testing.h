// Helpers shared by every ops/*/*_test.cpp: build logical tensors from values, parse a desc from JSON text,
// and run an operator's reference on them.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "core/op.h"
#include "core/tensor.h"

namespace dmltool::testing {

// A packed logical tensor of `type` and `sizes` holding `values` (converted with set_from_double).
HostTensor make_tensor(DataType type, Dims sizes, const std::vector<double>& values);
// Same, with every element computed by fn(index).
template <typename Fn>
HostTensor make_tensor_with(DataType type, Dims sizes, Fn&& fn) {
    TensorDesc desc;
    desc.data_type = type;
    desc.sizes = std::move(sizes);
    (void)validate_tensor_desc(desc, TensorRole::kInput, false);
    HostTensor tensor(desc);
    for (uint64_t i = 0; i < tensor.element_count(); ++i) tensor.set_from_double(i, fn(i));
    return tensor;
}
std::vector<double> values_of(const HostTensor& tensor);

// Parses `desc_json` (the "desc" object of a case) with `op`. The status carries the op's error message.
Result<std::unique_ptr<OpDesc>> parse_desc(const Op& op, std::string_view desc_json);

// Allocates the outputs the desc declares and runs the reference with a small thread pool.
// `inputs` follow the op's input slot order (nullptr for absent optional inputs).
Result<std::vector<HostTensor>> run_reference(const Op& op, const OpDesc& desc,
                                              const std::vector<const HostTensor*>& inputs,
                                              const SemanticsOptions& semantics = {});

}  // namespace dmltool::testing
