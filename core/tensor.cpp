#include "core/tensor.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <limits>

namespace dmltool {

std::optional<uint64_t> checked_mul(uint64_t a, uint64_t b) {
    uint64_t out;
    if (__builtin_mul_overflow(a, b, &out)) return std::nullopt;
    return out;
}

std::optional<uint64_t> checked_add(uint64_t a, uint64_t b) {
    uint64_t out;
    if (__builtin_add_overflow(a, b, &out)) return std::nullopt;
    return out;
}

std::optional<uint64_t> checked_element_count(const Dims& sizes) {
    uint64_t count = 1;
    for (uint32_t size : sizes) {
        auto next = checked_mul(count, size);
        if (!next) return std::nullopt;
        count = *next;
    }
    return count;
}

Dims packed_strides(const Dims& sizes) {
    Dims strides(sizes.size(), 1);
    // Packed strides of a tensor that passed validation fit in 32 bits (element count < 2^32).
    for (size_t d = sizes.size(); d-- > 1;) strides[d - 1] = strides[d] * sizes[d];
    return strides;
}

std::optional<uint64_t> calc_buffer_tensor_size(DataType type, const Dims& sizes, const std::optional<Dims>& strides) {
    const uint64_t bits = element_size_in_bits(type);
    if (bits == 0) return 0;
    std::optional<uint64_t> element_span;
    if (!strides) {
        element_span = checked_element_count(sizes);
    } else {
        uint64_t last_index = 0;
        for (size_t d = 0; d < sizes.size(); ++d) {
            auto term = checked_mul(uint64_t(sizes[d]) - 1, (*strides)[d]);
            if (!term) return std::nullopt;
            auto sum = checked_add(last_index, *term);
            if (!sum) return std::nullopt;
            last_index = *sum;
        }
        element_span = checked_add(last_index, 1);
    }
    if (!element_span) return std::nullopt;
    auto implied_bits = checked_mul(*element_span, bits);
    if (!implied_bits) return std::nullopt;
    const uint64_t bytes = *implied_bits / 8 + (*implied_bits % 8 != 0);
    auto rounded = checked_add(bytes, 3);
    if (!rounded) return std::nullopt;
    return *rounded & ~uint64_t(3);
}

uint64_t TensorDesc::element_count() const { return checked_element_count(sizes).value_or(0); }

Dims TensorDesc::effective_strides() const { return strides ? *strides : packed_strides(sizes); }

bool TensorDesc::is_packed() const { return !strides || *strides == packed_strides(sizes); }

std::string format_dims(const Dims& dims) {
    std::string out = "{";
    for (size_t i = 0; i < dims.size(); ++i) {
        if (i) out += ",";
        out += std::to_string(dims[i]);
    }
    return out + "}";
}

std::string describe(const TensorDesc& desc) {
    std::string out = std::string(data_type_name(desc.data_type)) + " " + format_dims(desc.sizes);
    if (!desc.is_packed()) out += " strides " + format_dims(*desc.strides);
    return out;
}

namespace {

std::string coordinates_text(uint64_t index, const Dims& sizes) {
    std::vector<uint32_t> coordinates(sizes.size());
    unravel_index(index, sizes, coordinates.data());
    std::string out = "[";
    for (size_t d = 0; d < coordinates.size(); ++d) out += (d ? "," : "") + std::to_string(coordinates[d]);
    return out + "]";
}

// Two output elements at one location make the result depend on the device's write order. Strides that nest
// (each dimension's stride at least the extent of the dimensions with smaller strides) cannot alias: every
// packed or padded layout passes that test at once. Other layouts are checked element by element when the
// tensor is small enough to do so cheaply; a larger interleaved layout is accepted unproven.
Status check_outputs_do_not_alias(const TensorDesc& desc) {
    constexpr uint64_t kMaxEnumerated = 1u << 20;
    std::vector<size_t> dims;
    for (size_t d = 0; d < desc.sizes.size(); ++d)
        if (desc.sizes[d] > 1) dims.push_back(d);
    std::sort(dims.begin(), dims.end(), [&](size_t a, size_t b) { return (*desc.strides)[a] < (*desc.strides)[b]; });
    uint64_t extent = 1;  // elements spanned by the dimensions checked so far
    bool nested = true;
    for (size_t d : dims) {
        const uint64_t stride = (*desc.strides)[d];
        if (stride < extent) {
            nested = false;
            break;
        }
        extent = stride * (desc.sizes[d] - 1) + extent;  // < 2^64: sizes and strides are 32-bit, count < 2^32
    }
    const uint64_t count = desc.element_count();
    if (nested || count > kMaxEnumerated) return Status::ok();
    std::vector<std::pair<uint64_t, uint64_t>> offsets;  // (offset, logical index)
    offsets.reserve(count);
    const Dims strides = *desc.strides;
    std::vector<uint32_t> coordinates(desc.sizes.size());
    for (uint64_t i = 0; i < count; ++i) {
        unravel_index(i, desc.sizes, coordinates.data());
        uint64_t offset = 0;
        for (size_t d = 0; d < coordinates.size(); ++d) offset += uint64_t(coordinates[d]) * strides[d];
        offsets.emplace_back(offset, i);
    }
    std::sort(offsets.begin(), offsets.end());
    for (size_t i = 1; i < offsets.size(); ++i)
        if (offsets[i].first == offsets[i - 1].first)
            return invalid_input(".Strides: expected strides that give every output element its own location, found " +
                                 format_dims(strides) + " over Sizes " + format_dims(desc.sizes) + ", where elements " +
                                 coordinates_text(offsets[i - 1].second, desc.sizes) + " and " +
                                 coordinates_text(offsets[i].second, desc.sizes) + " share one");
    return Status::ok();
}

}  // namespace

Status validate_tensor_desc(TensorDesc& desc, TensorRole role, bool total_size_given) {
    if (desc.data_type == DataType::kUnknown) return invalid_input(".DataType: expected a data type, found UNKNOWN");
    if (desc.flags & ~kOwnedByDmlFlag)
        return invalid_input(".Flags: expected NONE or OWNED_BY_DML (0 or 1), found " + std::to_string(desc.flags));
    if (role == TensorRole::kOutput && desc.flags != 0)
        return invalid_input(".Flags: expected NONE on an output tensor (OWNED_BY_DML is for inputs DirectML copies at "
                             "initialization), found OWNED_BY_DML");
    if (desc.sizes.empty() || desc.sizes.size() > kMaxDimensionCount)
        return invalid_input(".Sizes: expected 1 to 8 dimensions, found " + std::to_string(desc.sizes.size()));
    for (size_t d = 0; d < desc.sizes.size(); ++d)
        if (desc.sizes[d] == 0)
            return invalid_input(".Sizes[" + std::to_string(d) + "]: expected a size >= 1, found 0");
    auto count = checked_element_count(desc.sizes);
    if (!count || *count > kMaxElementCount)
        return invalid_input(".Sizes: expected at most 4294967295 elements (DirectML's limit), found " +
                             (count ? std::to_string(*count) : std::string("more than 2^64")) + " in " +
                             format_dims(desc.sizes));
    if (desc.strides) {
        if (desc.strides->size() != desc.sizes.size())
            return invalid_input(".Strides: expected " + std::to_string(desc.sizes.size()) +
                                 " entries (one per dimension), found " + std::to_string(desc.strides->size()));
        if (role == TensorRole::kOutput)
            for (size_t d = 0; d < desc.strides->size(); ++d)
                if ((*desc.strides)[d] == 0 && desc.sizes[d] > 1)
                    return invalid_input(".Strides[" + std::to_string(d) +
                                         "]: expected a non-zero stride on an output tensor (stride 0 would make "
                                         "several elements write the same location), found 0");
        if (role == TensorRole::kOutput) DMLTOOL_RETURN_IF_ERROR(check_outputs_do_not_alias(desc));
    }
    auto required = calc_buffer_tensor_size(desc.data_type, desc.sizes, desc.strides);
    if (!required)
        return invalid_input(".Strides: expected an addressed range of at most 2^64 bits (DMLCalcBufferTensorSize), "
                             "found " + format_dims(*desc.strides) + " over Sizes " + format_dims(desc.sizes) +
                             ", which addresses more");
    if (total_size_given) {
        if (desc.total_size_in_bytes < *required)
            return invalid_input(".TotalTensorSizeInBytes: expected at least " + std::to_string(*required) +
                                 " (DMLCalcBufferTensorSize of " + describe(desc) + "), found " +
                                 std::to_string(desc.total_size_in_bytes));
    } else {
        desc.total_size_in_bytes = *required;
    }
    const uint32_t alignment = desc.guaranteed_base_offset_alignment;
    if (alignment != 0 && (!std::has_single_bit(alignment) || alignment < element_size(desc.data_type)))
        return invalid_input(".GuaranteedBaseOffsetAlignment: expected 0 or a power of two >= the element size (" +
                             std::to_string(element_size(desc.data_type)) + "), found " + std::to_string(alignment));
    return Status::ok();
}

void unravel_index(uint64_t index, const Dims& sizes, uint32_t* coordinates) {
    for (size_t d = sizes.size(); d-- > 0;) {
        coordinates[d] = uint32_t(index % sizes[d]);
        index /= sizes[d];
    }
}

HostTensor::HostTensor(TensorDesc desc) : desc_(std::move(desc)) {
    element_count_ = desc_.element_count();
    bytes_.assign(element_count_ * element_bytes(), std::byte{0});
}

double HostTensor::get_as_double(uint64_t i) const {
    switch (desc_.data_type) {
        case DataType::kFloat32: return get<float>(i);
        case DataType::kFloat16: return half_to_float(get<uint16_t>(i));
        case DataType::kFloat64: return get<double>(i);
        case DataType::kUint64: return double(get<uint64_t>(i));
        default: return double(get_as_int64(i));
    }
}

int64_t HostTensor::get_as_int64(uint64_t i) const {
    switch (desc_.data_type) {
        case DataType::kInt8: return get<int8_t>(i);
        case DataType::kInt16: return get<int16_t>(i);
        case DataType::kInt32: return get<int32_t>(i);
        case DataType::kInt64: return get<int64_t>(i);
        case DataType::kUint8: return get<uint8_t>(i);
        case DataType::kUint16: return get<uint16_t>(i);
        case DataType::kUint32: return get<uint32_t>(i);
        case DataType::kUint64: return int64_t(get<uint64_t>(i));
        case DataType::kFloat32: return int64_t(get<float>(i));
        case DataType::kFloat16: return int64_t(half_to_float(get<uint16_t>(i)));
        case DataType::kFloat64: return int64_t(get<double>(i));
        default: return 0;
    }
}

namespace {

// v in T, saturated at T's range (NaN: 0): converting an out-of-range double is undefined behaviour (UBSan: the
// reference's UINT64 band centre 2^64 from `generate --operator all`, sanitized CI stage 2026-11-30).
template <typename T>
T saturating_cast(double v) {
    if (std::isnan(v)) return T(0);
    if (v <= double(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
    if (v >= std::ldexp(1.0, std::numeric_limits<T>::digits)) return std::numeric_limits<T>::max();
    return T(v);
}

}  // namespace

void HostTensor::set_from_double(uint64_t i, double v) {
    switch (desc_.data_type) {
        case DataType::kFloat32: set<float>(i, float(v)); break;
        case DataType::kFloat16: set<uint16_t>(i, double_to_half(v)); break;
        case DataType::kFloat64: set<double>(i, v); break;
        case DataType::kInt8: set<int8_t>(i, saturating_cast<int8_t>(v)); break;
        case DataType::kInt16: set<int16_t>(i, saturating_cast<int16_t>(v)); break;
        case DataType::kInt32: set<int32_t>(i, saturating_cast<int32_t>(v)); break;
        case DataType::kInt64: set<int64_t>(i, saturating_cast<int64_t>(v)); break;
        case DataType::kUint8: set<uint8_t>(i, saturating_cast<uint8_t>(v)); break;
        case DataType::kUint16: set<uint16_t>(i, saturating_cast<uint16_t>(v)); break;
        case DataType::kUint32: set<uint32_t>(i, saturating_cast<uint32_t>(v)); break;
        case DataType::kUint64: set<uint64_t>(i, saturating_cast<uint64_t>(v)); break;
        default: break;
    }
}

namespace {

// Calls copy(logical_byte_offset, physical_byte_offset, bytes) for runs covering every element once, walking the
// rows (the innermost dimension) with the outer coordinates advanced incrementally, so no division happens per
// row: a row whose inner stride is 1 is one run (one memcpy), else each element is. The perf suite's 256 MiB
// tensors cross this boundary several times per case, and copying them element by element was a tenth of a
// case's host time.
template <typename Copy>
void for_each_run(const TensorDesc& desc, size_t element_bytes, Copy&& copy) {
    const uint64_t count = desc.element_count();
    if (count == 0) return;
    const size_t rank = desc.sizes.size();
    if (rank == 0) return copy(0, 0, element_bytes);
    const Dims strides = desc.effective_strides();
    const uint64_t row = desc.sizes.back(), inner = strides.back();
    std::vector<uint32_t> coordinate(rank, 0);
    uint64_t offset = 0;  // physical element offset of the row's first element
    for (uint64_t first = 0; first < count; first += row) {
        if (inner == 1) {
            copy(first * element_bytes, offset * element_bytes, row * element_bytes);
        } else {
            for (uint64_t j = 0; j < row; ++j)
                copy((first + j) * element_bytes, (offset + j * inner) * element_bytes, element_bytes);
        }
        for (size_t d = rank - 1; d-- > 0;) {
            if (++coordinate[d] < desc.sizes[d]) {
                offset += strides[d];
                break;
            }
            offset -= uint64_t(strides[d]) * (desc.sizes[d] - 1);
            coordinate[d] = 0;
        }
    }
}

}  // namespace

std::vector<std::byte> to_physical(const HostTensor& logical, std::byte fill) {
    const TensorDesc& desc = logical.desc();
    std::vector<std::byte> physical(desc.total_size_in_bytes, fill);
    const std::byte* from = logical.element_ptr(0);
    for_each_run(desc, logical.element_bytes(), [&](uint64_t l, uint64_t p, uint64_t bytes) {
        std::memcpy(physical.data() + p, from + l, bytes);
    });
    return physical;
}

HostTensor from_physical(const TensorDesc& desc, std::span<const std::byte> physical) {
    HostTensor logical(desc);
    assert(physical.size() >= desc.total_size_in_bytes);
    std::byte* to = logical.element_ptr(0);
    for_each_run(desc, logical.element_bytes(), [&](uint64_t l, uint64_t p, uint64_t bytes) {
        std::memcpy(to + l, physical.data() + p, bytes);
    });
    return logical;
}

}  // namespace dmltool
