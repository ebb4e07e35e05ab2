// Kernel pieces every operator shares, emitted into a ProgramBuilder:
//  - tensor access through raw views, including tensors split over several <= 512 MiB views (TensorViews);
//  - element load/store for 1/2/4/8-byte element types (SM 5.0 has only 32-bit integers: 8/16-bit elements
//    are extracted from / inserted into 32-bit words, 64-bit elements move as two words, low word first);
//  - float16 <-> float32 conversion with the rounding the CPU reference uses (round to nearest even);
//  - index math: linear index -> coordinates -> strided offset, sizes/strides from root constants or an SRV;
//  - the dispatch grid: how a linear thread index maps onto a 2-D grid of thread groups.
//
// Sub-word stores. Two threads must never read-modify-write the same 32-bit word with plain stores. Kernels
// should make each thread own whole output words (store_word / insert_subword: a thread producing int8
// outputs writes 4 elements at once); where that is impossible (scatter), store_element_atomic clears and
// sets only the element's bits with atomic_and/atomic_or on the raw UAV, which is race-free for neighbours.
//
// All helpers work around vkd3d 1.2's gaps: multiplications use imul's low part (umul is dropped by vkd3d),
// bitfield helpers keep offset + width <= 32 (SPIR-V leaves the rest undefined), and no helper relies on
// the ignored 'precise' flag.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "shaders/builder.h"

namespace dmltool::shaders {

// Vulkan guarantees 2^27 texel-buffer elements per view; vkd3d maps raw views to R32 texel buffers, so a
// view covers at most 2^29 bytes = 512 MiB.
constexpr uint32_t kMaxViewBytesLog2 = 29;

// One tensor as a kernel sees it: `views` tile the tensor's bytes in windows of 2^window_log2 bytes
// (view i covers bytes [i << window_log2, (i + 1) << window_log2)). A single view is the common case.
// Byte addresses are 32-bit, so a tensor is at most 4 GiB.
struct TensorViews {
    std::vector<Resource> views;
    uint32_t window_log2 = kMaxViewBytesLog2;

    static TensorViews single(Resource resource) { return {{resource}, kMaxViewBytesLog2}; }
};

// Loads dst.component_count() consecutive words at byte_address (scalar; 4-aligned; an access must not
// straddle two windows, which a naturally aligned 4/8/16-byte access never does). On typed uint4 views
// (Resource::typed_uint4) only 16-byte accesses at 16-aligned addresses exist.
void load_words(ProgramBuilder& b, const TensorViews& tensor, Operand byte_address, Operand dst);
void store_words(ProgramBuilder& b, const TensorViews& tensor, Operand byte_address, Operand value);

enum class Extend { kZero, kSign };

// Loads element `element_index` (scalar uint) of element_bytes (1, 2, 4, 8) into dst: one component
// (8/16-bit values zero- or sign-extended) or, for 8 bytes, two components (low word, high word).
void load_element(ProgramBuilder& b, const TensorViews& tensor, uint32_t element_bytes, Operand element_index,
                  Operand dst, Extend extend = Extend::kZero);

// Stores one element. 4/8-byte elements use plain stores; 1/2-byte elements use atomic_and + atomic_or on
// their word, so concurrent threads storing neighbouring elements of the same word do not race.
void store_element_atomic(ProgramBuilder& b, const TensorViews& tensor, uint32_t element_bytes,
                          Operand element_index, Operand value);

// word = word with element `lane` (0-based within the word) replaced by the low element_bytes of value.
// For kernels where each thread owns whole output words.
void insert_subword(ProgramBuilder& b, Operand word, uint32_t element_bytes, uint32_t lane, Operand value);

// float16 bits (low 16 bits of src) -> float32, exact for every half including subnormals, inf and NaN.
void half_to_float(ProgramBuilder& b, Operand dst, Operand src);
// float32 -> float16 bits (in the low 16 bits, upper bits zero), round to nearest even, overflow to inf,
// NaN to a quiet NaN with the sign kept. Integer arithmetic only, so denormal flushing cannot change it.
void float_to_half(ProgramBuilder& b, Operand dst, Operand src);

// d = a * b, rounded once, and kept from being fused into a following add by the driver. vkd3d 1.2 drops
// 'precise', so the product is passed through an integer OR with `runtime_zero`: an operand that is 0 at run
// time but unknown to the compiler (e.g. a root constant the op always sets to 0).
void unfused_mul(ProgramBuilder& b, Operand d, Operand x, Operand y, Operand runtime_zero);

// Where a list of per-dimension uints lives at run time.
class UintArray {
public:
    static UintArray root_constants(uint32_t first_constant) { return UintArray(first_constant, std::nullopt); }
    // Words [first_word, ...) of a raw SRV (for ranks whose sizes/strides do not fit the 64-DWORD root signature).
    static UintArray in_buffer(Resource buffer, uint32_t first_word) { return UintArray(first_word, buffer); }
    // Element i as a scalar operand (a root-constant operand, or a temp loaded from the buffer).
    Operand get(ProgramBuilder& b, uint32_t i) const;

private:
    UintArray(uint32_t first, std::optional<Resource> buffer) : first_(first), buffer_(buffer) {}
    uint32_t first_;
    std::optional<Resource> buffer_;
};

// Row-major decomposition of `linear` (scalar, < product of sizes) into `rank` coordinates, outermost first.
// Uses one udiv (quotient + remainder) per dimension except the outermost.
std::vector<Operand> decompose_index(ProgramBuilder& b, Operand linear, uint32_t rank, const UintArray& sizes);

// base + sum(coords[i] * strides[i]) modulo 2^32 (imad low part; a stride of 0 broadcasts that dimension).
Operand dot_strides(ProgramBuilder& b, const std::vector<Operand>& coords, const UintArray& strides, Operand base);

// How a linear thread index maps to Dispatch(groups_x, groups_y, 1): D3D12 allows at most 65535 groups per
// dimension, so large launches wrap into rows of threads_per_row threads.
struct DispatchGrid {
    uint32_t groups_x = 0;
    uint32_t groups_y = 0;
    uint32_t threads_per_row = 0;  // groups_x * threads_per_group; pass it to the kernel as a root constant
};
DispatchGrid plan_dispatch(uint64_t threads, uint32_t threads_per_group);

// vThreadID.y * threads_per_row + vThreadID.x, as a scalar temp. Threads past the end must be masked by
// the kernel (if_nz(ult(index, count))).
Operand linear_thread_index(ProgramBuilder& b, Operand threads_per_row);

}  // namespace dmltool::shaders
