#include "tests/testing/op_testing.h"

#include <gtest/gtest.h>

#include <cstring>
#include <nlohmann/json.hpp>

#include "core/thread_pool.h"

namespace dmltool::testing {

nlohmann::json tensor_json(DataType type, const Dims& sizes, const std::optional<Dims>& strides) {
    nlohmann::json j = {{"DataType", std::string(data_type_name(type))}, {"Sizes", sizes}};
    if (strides) j["Strides"] = *strides;
    return j;
}

nlohmann::json tensor_json(const TensorDesc& desc) {
    nlohmann::json j = tensor_json(desc.data_type, desc.sizes, desc.strides);
    j["TotalTensorSizeInBytes"] = desc.total_size_in_bytes;
    return j;
}

TensorDesc packed_desc(DataType type, Dims sizes) {
    TensorDesc desc;
    desc.data_type = type;
    desc.sizes = std::move(sizes);
    EXPECT_TRUE(validate_tensor_desc(desc, TensorRole::kInput, false).is_ok());
    return desc;
}

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

HostTensor random_bits_tensor(DataType type, const Dims& sizes, std::mt19937_64& rng) {
    TensorDesc desc;
    desc.data_type = type;
    desc.sizes = sizes;
    EXPECT_TRUE(validate_tensor_desc(desc, TensorRole::kInput, false).is_ok());
    HostTensor tensor(desc);
    for (std::byte& b : tensor.bytes()) b = std::byte(rng());
    std::vector<uint64_t> specials;
    if (type == DataType::kFloat16) specials = {0x8000, 0x7c01, 0xfe37, 0x7e00, 0xfc00, 0x0001};
    if (type == DataType::kFloat32) specials = {0x80000000, 0x7f800001, 0xffc01234, 0x7fc00000, 0xff800000, 0x1};
    if (type == DataType::kFloat64)
        specials = {0x8000000000000000, 0x7ff0000000000001, 0xfff8000000abcdef, 0x7ff8000000000000, 0x1};
    for (uint64_t special : specials) {
        const uint64_t index = rng() % tensor.element_count();
        std::memcpy(tensor.element_ptr(index), &special, tensor.element_bytes());  // little-endian host
    }
    return tensor;
}

int64_t first_difference(const HostTensor& a, const HostTensor& b) {
    if (a.bytes().size() != b.bytes().size()) return 0;
    for (uint64_t i = 0; i < a.element_count(); ++i)
        if (std::memcmp(a.element_ptr(i), b.element_ptr(i), a.element_bytes()) != 0) return int64_t(i);
    return -1;
}

std::string rejection(const Op& op, std::string_view desc_json) {
    auto parsed = parse_desc(op, desc_json);
    if (parsed.is_ok()) return "";
    EXPECT_EQ(parsed.status().code(), ErrorCode::kInvalidInput);
    return parsed.status().message();
}

}  // namespace dmltool::testing
