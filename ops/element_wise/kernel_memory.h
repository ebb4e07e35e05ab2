// Internal to the element-wise emitter (kernel.cpp): how a thread reads its inputs' elements into registers in the
// bodies' domains and writes its results (kernel.h describes the paths; kernel_bodies.h the domains).
#pragma once

#include <cstdint>
#include <vector>

#include "core/dtype.h"
#include "ops/element_wise/kernel_bodies.h"
#include "shaders/builder.h"
#include "shaders/elements.h"

namespace dmltool::ops::element_wise::memory {

// How a thread of the vector path reads one input's 4 elements.
enum InputMode : uint32_t {
    kScalarLoads = 0,  // one load per lane at base + lane * inner stride
    kVectorLoad = 1,   // the 4 elements are contiguous and aligned: one 4/8/16-byte load (two 16-byte ones: 64-bit)
    kRowBroadcast = 2, // inner stride 0: one load for all lanes
};

// Reads one input's elements of a thread: one register per group (groups of `lanes` consecutive elements along the
// row; the same register for every group where the input is constant along the row). `wide`: all groups' bytes in
// one aligned 16-byte load from the typed views. 1/2/4-byte types.
std::vector<shaders::Operand> load_input(shaders::ProgramBuilder& b, const shaders::TensorViews& raw,
                                         const shaders::TensorViews& typed, DataType type, uint32_t mode,
                                         uint32_t lanes, uint32_t groups, bool wide, bool native_half,
                                         shaders::Operand base, shaders::Operand inner_stride);

// Writes a thread's groups (`results`, one register per group): one element (lanes 1, atomically for narrow
// types), or the groups' whole words at once (the thread owns them: 16 bytes from the typed views where `typed`
// has them, else 4, 8 or 16 bytes raw). 1/2/4-byte types.
void store_output(shaders::ProgramBuilder& b, const shaders::TensorViews& raw, const shaders::TensorViews& typed,
                  DataType type, uint32_t lanes, bool native_half, shaders::Operand base,
                  const std::vector<shaders::Operand>& results);

// The 64-bit kernels (one group of `lanes` elements per thread). An INT64/UINT64 input's elements as a Wide value:
// per lane one 8-byte load, one for all lanes (row broadcast), or the 32 contiguous bytes as two 16-byte loads
// (`typed`: from the typed views), low words to .lo and high words to .hi.
Wide load_input_64(shaders::ProgramBuilder& b, const shaders::TensorViews& raw, const shaders::TensorViews& typed,
                   uint32_t mode, uint32_t lanes, bool typed_load, shaders::Operand base,
                   shaders::Operand inner_stride);
// A narrower integer value (`type`, already sign- or zero-extended to 32 bits) as a Wide value.
Wide extend_to_64(shaders::ProgramBuilder& b, DataType type, uint32_t lanes, shaders::Operand value);
// Writes a 64-bit output: per element (lanes 1) or the 4 elements' 32 bytes as two 16-byte stores (typed views
// where `typed` has them).
void store_output_64(shaders::ProgramBuilder& b, const shaders::TensorViews& raw, const shaders::TensorViews& typed,
                     uint32_t lanes, shaders::Operand base, Wide result);

}  // namespace dmltool::ops::element_wise::memory
