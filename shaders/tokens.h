// Bit layout of SM 4/5 tokens (Microsoft's d3d12TokenizedProgramFormat.hpp), shared by the builder and the
// disassembler so the two can never disagree about an encoding.
#pragma once

#include <cstdint>

#include "shaders/builder.h"

namespace dmltool::shaders::tokens {

constexpr uint32_t kVersionCs50 = 0x00050050;  // program type 5 (compute), major 5, minor 0
constexpr uint32_t kMaxInstructionLength = 127;

// OpcodeToken0: [10:0] opcode, [23:11] controls, [30:24] length, [31] extended.
constexpr uint32_t kOpcodeMask = 0x7ff;
constexpr uint32_t kOpcodeExtended = 1u << 31;
constexpr uint32_t kTestNonZero = 1u << 18;      // if/breakc: test non-zero instead of zero
constexpr uint32_t kSaturate = 1u << 13;
constexpr uint32_t kPreciseShift = 19;           // [22:19] per-component precise mask
constexpr uint32_t kPreciseMask = 0xfu << kPreciseShift;
constexpr uint32_t kUavGloballyCoherent = 1u << 16;
constexpr uint32_t kConstantBufferDynamicIndexed = 1u << 11;
inline uint32_t instruction_length(uint32_t token) { return (token >> 24) & 0x7f; }
// dcl_resource / dcl_uav_typed: [15:11] resource dimension (1 = buffer); then a return-type token of four
// 4-bit fields, one per component (4 = uint).
constexpr uint32_t kResourceDimensionBuffer = 1u << 11;
constexpr uint32_t kResourceDimensionMask = 0x1fu << 11;
constexpr uint32_t kReturnTypeUint4 = 0x4444;

// OperandToken0: [1:0] component count, [3:2] selection mode, [11:4] mask/swizzle/select, [19:12] type,
// [21:20] index dimension, [24:22]/[27:25]/[30:28] index representation (0 = immediate 32), [31] extended.
constexpr uint32_t kComponents0 = 0, kComponents1 = 1, kComponents4 = 2;
constexpr uint32_t kSelectMask = 0, kSelectSwizzle = 1, kSelect1 = 2;
constexpr uint32_t kSwizzleXyzw = 0xe4;
constexpr uint32_t kOperandExtended = 1u << 31;
// Extended operand token: [5:0] type (1 = modifier), [13:6] modifier.
constexpr uint32_t kExtendedOperandModifier = 1;
constexpr uint32_t kModifierNegate = 1, kModifierAbs = 2;

constexpr uint32_t operand_token(uint32_t components, uint32_t selection_mode, uint32_t selection_bits,
                                 RegisterType type, uint32_t index_dims) {
    return components | selection_mode << 2 | selection_bits << 4 | static_cast<uint32_t>(type) << 12 |
           index_dims << 20;
}

}  // namespace dmltool::shaders::tokens
