// TensorDesc is DML_BUFFER_TENSOR_DESC as a value type; HostTensor holds a tensor's LOGICAL values (packed,
// row-major, one element per index) in host memory. Physical buffers — strides, broadcast, padding,
// TotalTensorSizeInBytes — exist only at the boundary (to_physical / from_physical), so CPU references stay
// simple loops over logical indices while the GPU path and the layout round-trip exercise real strides.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/dtype.h"
#include "core/status.h"

namespace dmltool {

using Dims = std::vector<uint32_t>;

inline constexpr uint32_t kMaxDimensionCount = 8;            // DML_TENSOR_DIMENSION_COUNT_MAX1
inline constexpr uint64_t kMaxElementCount = 0xffffffffull;  // DirectML: at most 2^32 - 1 elements per tensor
inline constexpr uint32_t kOwnedByDmlFlag = 0x1;

struct TensorDesc {
    DataType data_type = DataType::kUnknown;
    uint32_t flags = 0;
    Dims sizes;
    std::optional<Dims> strides;      // in elements; absent = packed
    uint64_t total_size_in_bytes = 0;  // filled with the DMLCalcBufferTensorSize value when the case omits it
    uint32_t guaranteed_base_offset_alignment = 0;

    uint32_t rank() const { return uint32_t(sizes.size()); }
    // Product of sizes. Only meaningful after validate_tensor_desc succeeded (no overflow then).
    uint64_t element_count() const;
    // Strides in effect: the given ones, or packed row-major.
    Dims effective_strides() const;
    bool is_packed() const;
};

// Overflow-checked helpers: nullopt when the result does not fit in 64 bits.
std::optional<uint64_t> checked_mul(uint64_t a, uint64_t b);
std::optional<uint64_t> checked_add(uint64_t a, uint64_t b);
std::optional<uint64_t> checked_element_count(const Dims& sizes);

Dims packed_strides(const Dims& sizes);
// DMLCalcBufferTensorSize (DirectMLX.h), overflow-checked; nullopt on overflow.
std::optional<uint64_t> calc_buffer_tensor_size(DataType type, const Dims& sizes, const std::optional<Dims>& strides);

enum class TensorRole { kInput, kOutput };

// The spec §10 common checks. `total_size_given` says whether the case stated TotalTensorSizeInBytes (when
// not, it is filled in here). Messages name the offending member relative to the tensor (".Sizes[2]").
Status validate_tensor_desc(TensorDesc& desc, TensorRole role, bool total_size_given);

// "FLOAT16 {1,8,2,3}" (+ " strides {..}" when not packed), for messages and reports.
std::string describe(const TensorDesc& desc);
std::string format_dims(const Dims& dims);

// Row-major coordinates of a logical element index.
void unravel_index(uint64_t index, const Dims& sizes, uint32_t* coordinates);

class HostTensor {
public:
    HostTensor() = default;
    // Zero-filled logical storage. The desc must have been validated (the size cannot overflow).
    explicit HostTensor(TensorDesc desc);

    const TensorDesc& desc() const { return desc_; }
    DataType data_type() const { return desc_.data_type; }
    uint64_t element_count() const { return element_count_; }
    size_t element_bytes() const { return element_size(desc_.data_type); }

    std::span<std::byte> bytes() { return bytes_; }
    std::span<const std::byte> bytes() const { return bytes_; }
    std::byte* element_ptr(uint64_t index) { return bytes_.data() + index * element_bytes(); }
    const std::byte* element_ptr(uint64_t index) const { return bytes_.data() + index * element_bytes(); }

    // Typed access; T must match the data type's size (checked by assert: a programmer error otherwise).
    template <typename T>
    T get(uint64_t index) const {
        T value;
        std::memcpy(&value, element_ptr(index), sizeof(T));
        return value;
    }
    template <typename T>
    void set(uint64_t index, T value) {
        std::memcpy(element_ptr(index), &value, sizeof(T));
    }

    // Element as double (half and all integer types; 64-bit integers above 2^53 lose precision) and back
    // (round to nearest even for floats; integers must already be integral and in range).
    double get_as_double(uint64_t index) const;
    void set_from_double(uint64_t index, double value);
    // Integer element widened to 64 bits (sign-extended for signed types; UINT64 above INT64_MAX wraps).
    int64_t get_as_int64(uint64_t index) const;

private:
    TensorDesc desc_;
    uint64_t element_count_ = 0;
    std::vector<std::byte> bytes_;
};

// Physical buffer image of a logical tensor: total_size_in_bytes bytes, elements at their strided offsets,
// every other byte set to `fill`. When strides alias elements (0 = broadcast) the later element wins.
std::vector<std::byte> to_physical(const HostTensor& logical, std::byte fill = std::byte{0});
// Reads every addressed element of a physical buffer image back into a logical tensor.
HostTensor from_physical(const TensorDesc& desc, std::span<const std::byte> physical);

}  // namespace dmltool
