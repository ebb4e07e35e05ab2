// Helpers shared by every ops/*/*_test.cpp: build logical tensors from values, parse a desc from JSON text,
// and run an operator's reference on them.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/op.h"
#include "core/tensor.h"

namespace dmltool::testing {

// A tensor desc as a case file writes it: DataType, Sizes, and Strides when given.
nlohmann::json tensor_json(DataType type, const Dims& sizes, const std::optional<Dims>& strides = std::nullopt);
// The same for a TensorDesc, with its TotalTensorSizeInBytes (which may exceed the minimum).
nlohmann::json tensor_json(const TensorDesc& desc);

// A validated packed desc (TotalTensorSizeInBytes filled in); a failed validation fails the calling test.
TensorDesc packed_desc(DataType type, Dims sizes);

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

// Random bits, plus the float patterns a converting copy would destroy: -0.0, NaNs with payloads (quiet and
// signalling), infinities and subnormals. For data-movement operators, which must copy bits exactly.
HostTensor random_bits_tensor(DataType type, const Dims& sizes, std::mt19937_64& rng);

// First element whose bytes differ, or -1 (0 when the sizes differ).
int64_t first_difference(const HostTensor& a, const HostTensor& b);

// The kInvalidInput message of a desc that must be rejected; "" when it was accepted (which fails the
// caller's substring check) — a different error code is reported as a test failure here.
std::string rejection(const Op& op, std::string_view desc_json);

}  // namespace dmltool::testing
