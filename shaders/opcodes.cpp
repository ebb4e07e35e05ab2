#include "shaders/opcodes.h"

#include <array>

namespace dmltool::shaders {
namespace {

using K = OperandKind;
constexpr bool kYes = true;
constexpr bool kNo = false;

// Every opcode the builder or the disassembler knows. "allowed" ALU entries were compiled with vkd3d-compiler
// 1.2, validated with spirv-val (shaders/tests/builder_test.cpp) and checked numerically on lavapipe
// (gpu/tests/opcode_numeric_test.cpp; memory, atomics and control flow in gpu/tests/kernels_test.cpp).
// sync and atomic_xor/iadd/umax/umin are validated but not yet checked numerically. Refused entries name
// what vkd3d 1.2 does with them.
constexpr std::array kOpcodes = {
    OpcodeInfo{Opcode::kAdd, "add", 1, 2, K::kFloat, kYes, ""},
    OpcodeInfo{Opcode::kAnd, "and", 1, 2, K::kBits, kYes, ""},
    OpcodeInfo{Opcode::kBreak, "break", 0, 0, K::kFlow, kYes, ""},
    OpcodeInfo{Opcode::kBreakc, "breakc", 0, 1, K::kFlow, kYes, ""},
    OpcodeInfo{Opcode::kDiv, "div", 1, 2, K::kFloat, kYes, "D3D allows 2.5 ulp; lavapipe is correctly rounded on the tested inputs"},
    OpcodeInfo{Opcode::kElse, "else", 0, 0, K::kFlow, kYes, ""},
    OpcodeInfo{Opcode::kEndif, "endif", 0, 0, K::kFlow, kYes, ""},
    OpcodeInfo{Opcode::kEndloop, "endloop", 0, 0, K::kFlow, kYes, ""},
    OpcodeInfo{Opcode::kEq, "eq", 1, 2, K::kFloat, kYes, ""},
    // 2^x. [FS] allows 3 ulp, and Vulkan leaves GLSL's Exp2 (what vkd3d translates it to) to the driver: kernels use
    // it only in plans that require DeviceCapability::kAccurateExp2, which gpu/transcendental_probe.h checks.
    OpcodeInfo{Opcode::kExp, "exp", 1, 1, K::kFloat, kYes, "D3D allows 3 ulp; run only where the device's exp2 probe passed"},
    OpcodeInfo{Opcode::kFrc, "frc", 1, 1, K::kFloat, kYes, ""},
    OpcodeInfo{Opcode::kFtoi, "ftoi", 1, 1, K::kFloat, kYes, "out-of-range and NaN inputs are undefined on vkd3d 1.2"},
    OpcodeInfo{Opcode::kFtou, "ftou", 1, 1, K::kFloat, kYes, "out-of-range and NaN inputs are undefined on vkd3d 1.2"},
    OpcodeInfo{Opcode::kGe, "ge", 1, 2, K::kFloat, kYes, ""},
    OpcodeInfo{Opcode::kIadd, "iadd", 1, 2, K::kInt, kYes, ""},
    OpcodeInfo{Opcode::kIf, "if", 0, 1, K::kFlow, kYes, ""},
    OpcodeInfo{Opcode::kIeq, "ieq", 1, 2, K::kInt, kYes, ""},
    OpcodeInfo{Opcode::kIge, "ige", 1, 2, K::kInt, kYes, ""},
    OpcodeInfo{Opcode::kIlt, "ilt", 1, 2, K::kInt, kYes, ""},
    OpcodeInfo{Opcode::kImad, "imad", 1, 3, K::kInt, kYes, "low 32 bits; also the unsigned multiply-add"},
    OpcodeInfo{Opcode::kImax, "imax", 1, 2, K::kInt, kYes, ""},
    OpcodeInfo{Opcode::kImin, "imin", 1, 2, K::kInt, kYes, ""},
    OpcodeInfo{Opcode::kImul, "imul", 2, 2, K::kInt, kYes, "only 'imul null, lo': vkd3d 1.2 does not implement the high part"},
    OpcodeInfo{Opcode::kIne, "ine", 1, 2, K::kInt, kYes, ""},
    OpcodeInfo{Opcode::kIneg, "ineg", 1, 1, K::kInt, kYes, ""},
    OpcodeInfo{Opcode::kIshl, "ishl", 1, 2, K::kInt, kYes, "count masked to 5 bits by the builder (vkd3d does not)"},
    OpcodeInfo{Opcode::kIshr, "ishr", 1, 2, K::kInt, kYes, "count masked to 5 bits by the builder (vkd3d does not)"},
    OpcodeInfo{Opcode::kItof, "itof", 1, 1, K::kInt, kYes, ""},
    OpcodeInfo{Opcode::kLd, "ld", 1, 2, K::kMemory, kYes, "typed buffer loads only (ld_typed): 16-byte uint4 elements"},
    OpcodeInfo{Opcode::kLoop, "loop", 0, 0, K::kFlow, kYes, ""},
    OpcodeInfo{Opcode::kLt, "lt", 1, 2, K::kFloat, kYes, ""},
    OpcodeInfo{Opcode::kMad, "mad", 1, 3, K::kFloat, kYes,
               "vkd3d 1.2 emits GLSL Fma, which Vulkan lets a driver fuse or not (lavapipe: not); use mul + add "
               "(with unfused_mul) where the CPU reference rounds twice"},
    OpcodeInfo{Opcode::kMin, "min", 1, 2, K::kFloat, kYes, ""},
    OpcodeInfo{Opcode::kMax, "max", 1, 2, K::kFloat, kYes, ""},
    OpcodeInfo{Opcode::kCustomData, "customdata", 0, 0, K::kDeclaration, kNo, "not emitted by the builder"},
    OpcodeInfo{Opcode::kMov, "mov", 1, 1, K::kBits, kYes, ""},
    OpcodeInfo{Opcode::kMovc, "movc", 1, 3, K::kBits, kYes, ""},
    OpcodeInfo{Opcode::kMul, "mul", 1, 2, K::kFloat, kYes, ""},
    OpcodeInfo{Opcode::kNe, "ne", 1, 2, K::kFloat, kYes, ""},
    OpcodeInfo{Opcode::kNop, "nop", 0, 0, K::kFlow, kNo, "not needed"},
    OpcodeInfo{Opcode::kNot, "not", 1, 1, K::kBits, kYes, ""},
    OpcodeInfo{Opcode::kOr, "or", 1, 2, K::kBits, kYes, ""},
    OpcodeInfo{Opcode::kRet, "ret", 0, 0, K::kFlow, kYes, ""},
    OpcodeInfo{Opcode::kRoundNe, "round_ne", 1, 1, K::kFloat, kYes, ""},
    OpcodeInfo{Opcode::kRoundNi, "round_ni", 1, 1, K::kFloat, kYes, ""},
    OpcodeInfo{Opcode::kRoundPi, "round_pi", 1, 1, K::kFloat, kYes, ""},
    OpcodeInfo{Opcode::kRoundZ, "round_z", 1, 1, K::kFloat, kYes, ""},
    OpcodeInfo{Opcode::kSqrt, "sqrt", 1, 1, K::kFloat, kYes, ""},
    OpcodeInfo{Opcode::kUdiv, "udiv", 2, 2, K::kUint, kYes, "quotient and remainder; either destination may be null"},
    OpcodeInfo{Opcode::kUlt, "ult", 1, 2, K::kUint, kYes, ""},
    OpcodeInfo{Opcode::kUge, "uge", 1, 2, K::kUint, kYes, ""},
    OpcodeInfo{Opcode::kUmul, "umul", 2, 2, K::kUint, kNo,
               "vkd3d 1.2 silently drops umul (compiles, wrong results); use imul null, lo (same low bits)"},
    OpcodeInfo{Opcode::kUmad, "umad", 1, 3, K::kUint, kNo, "not translated by vkd3d 1.2; use imad (same low bits)"},
    OpcodeInfo{Opcode::kUmax, "umax", 1, 2, K::kUint, kYes, ""},
    OpcodeInfo{Opcode::kUmin, "umin", 1, 2, K::kUint, kYes, ""},
    OpcodeInfo{Opcode::kUshr, "ushr", 1, 2, K::kUint, kYes, "count masked to 5 bits by the builder (vkd3d does not)"},
    OpcodeInfo{Opcode::kUtof, "utof", 1, 1, K::kUint, kYes, ""},
    OpcodeInfo{Opcode::kXor, "xor", 1, 2, K::kBits, kYes, ""},
    OpcodeInfo{Opcode::kDclResource, "dcl_resource_buffer", 0, 0, K::kDeclaration, kYes, ""},
    OpcodeInfo{Opcode::kDclConstantBuffer, "dcl_constantbuffer", 0, 0, K::kDeclaration, kYes, ""},
    OpcodeInfo{Opcode::kDclInput, "dcl_input", 0, 0, K::kDeclaration, kYes, ""},
    OpcodeInfo{Opcode::kDclTemps, "dcl_temps", 0, 0, K::kDeclaration, kYes, ""},
    OpcodeInfo{Opcode::kDclGlobalFlags, "dcl_globalFlags", 0, 0, K::kDeclaration, kYes, ""},
    OpcodeInfo{Opcode::kF32ToF16, "f32tof16", 1, 1, K::kFloat, kYes, ""},
    OpcodeInfo{Opcode::kF16ToF32, "f16tof32", 1, 1, K::kUint, kYes, ""},
    OpcodeInfo{Opcode::kUaddc, "uaddc", 2, 2, K::kUint, kNo, "rejected by vkd3d 1.2"},
    OpcodeInfo{Opcode::kUsubb, "usubb", 2, 2, K::kUint, kNo, "rejected by vkd3d 1.2"},
    OpcodeInfo{Opcode::kCountbits, "countbits", 1, 1, K::kBits, kYes, ""},
    OpcodeInfo{Opcode::kUbfe, "ubfe", 1, 3, K::kUint, kYes, "needs offset + width <= 32 (undefined in SPIR-V beyond)"},
    OpcodeInfo{Opcode::kIbfe, "ibfe", 1, 3, K::kInt, kYes, "needs offset + width <= 32 (undefined in SPIR-V beyond)"},
    OpcodeInfo{Opcode::kBfi, "bfi", 1, 4, K::kBits, kYes, "needs offset + width <= 32 (undefined in SPIR-V beyond)"},
    OpcodeInfo{Opcode::kBfrev, "bfrev", 1, 1, K::kBits, kNo, "not verified; not needed"},
    OpcodeInfo{Opcode::kSwapc, "swapc", 2, 3, K::kBits, kNo, "not verified; use two movc"},
    OpcodeInfo{Opcode::kDclThreadGroup, "dcl_thread_group", 0, 0, K::kDeclaration, kYes, ""},
    OpcodeInfo{Opcode::kDclUavTyped, "dcl_uav_typed_buffer", 0, 0, K::kDeclaration, kYes, ""},
    OpcodeInfo{Opcode::kDclUavRaw, "dcl_uav_raw", 0, 0, K::kDeclaration, kYes, ""},
    OpcodeInfo{Opcode::kDclTgsmRaw, "dcl_tgsm_raw", 0, 0, K::kDeclaration, kYes, ""},
    OpcodeInfo{Opcode::kDclResourceRaw, "dcl_resource_raw", 0, 0, K::kDeclaration, kYes, ""},
    OpcodeInfo{Opcode::kStoreUavTyped, "store_uav_typed", 1, 2, K::kMemory, kYes, "typed buffer stores only (store_typed)"},
    OpcodeInfo{Opcode::kLdRaw, "ld_raw", 1, 2, K::kMemory, kYes, ""},
    OpcodeInfo{Opcode::kStoreRaw, "store_raw", 1, 2, K::kMemory, kYes, ""},
    OpcodeInfo{Opcode::kAtomicAnd, "atomic_and", 1, 2, K::kMemory, kYes, ""},
    OpcodeInfo{Opcode::kAtomicOr, "atomic_or", 1, 2, K::kMemory, kYes, ""},
    OpcodeInfo{Opcode::kAtomicXor, "atomic_xor", 1, 2, K::kMemory, kYes, ""},
    OpcodeInfo{Opcode::kAtomicIadd, "atomic_iadd", 1, 2, K::kMemory, kYes, ""},
    OpcodeInfo{Opcode::kAtomicUmax, "atomic_umax", 1, 2, K::kMemory, kYes, ""},
    OpcodeInfo{Opcode::kAtomicUmin, "atomic_umin", 1, 2, K::kMemory, kYes, ""},
    OpcodeInfo{Opcode::kSync, "sync", 0, 0, K::kFlow, kYes, ""},
    OpcodeInfo{Opcode::kDadd, "dadd", 1, 2, K::kFloat, kNo, "double precision is rejected by vkd3d 1.2"},
    OpcodeInfo{Opcode::kDmax, "dmax", 1, 2, K::kFloat, kNo, "double precision is rejected by vkd3d 1.2"},
    OpcodeInfo{Opcode::kDmin, "dmin", 1, 2, K::kFloat, kNo, "double precision is rejected by vkd3d 1.2"},
    OpcodeInfo{Opcode::kDmul, "dmul", 1, 2, K::kFloat, kNo, "double precision is rejected by vkd3d 1.2"},
    OpcodeInfo{Opcode::kDeq, "deq", 1, 2, K::kFloat, kNo, "double precision is rejected by vkd3d 1.2"},
    OpcodeInfo{Opcode::kDge, "dge", 1, 2, K::kFloat, kNo, "double precision is rejected by vkd3d 1.2"},
    OpcodeInfo{Opcode::kDlt, "dlt", 1, 2, K::kFloat, kNo, "double precision is rejected by vkd3d 1.2"},
    OpcodeInfo{Opcode::kDne, "dne", 1, 2, K::kFloat, kNo, "double precision is rejected by vkd3d 1.2"},
    OpcodeInfo{Opcode::kDmov, "dmov", 1, 1, K::kFloat, kNo, "double precision is rejected by vkd3d 1.2"},
    OpcodeInfo{Opcode::kDmovc, "dmovc", 1, 3, K::kFloat, kNo, "double precision is rejected by vkd3d 1.2"},
    OpcodeInfo{Opcode::kDtof, "dtof", 1, 1, K::kFloat, kNo, "double precision is rejected by vkd3d 1.2"},
    OpcodeInfo{Opcode::kFtod, "ftod", 1, 1, K::kFloat, kNo, "double precision is rejected by vkd3d 1.2"},
    OpcodeInfo{Opcode::kDdiv, "ddiv", 1, 2, K::kFloat, kNo, "double precision is rejected by vkd3d 1.2"},
    OpcodeInfo{Opcode::kDfma, "dfma", 1, 3, K::kFloat, kNo, "double precision is rejected by vkd3d 1.2"},
    OpcodeInfo{Opcode::kDrcp, "drcp", 1, 1, K::kFloat, kNo, "double precision is rejected by vkd3d 1.2"},
    OpcodeInfo{Opcode::kDtoi, "dtoi", 1, 1, K::kFloat, kNo, "double precision is rejected by vkd3d 1.2"},
    OpcodeInfo{Opcode::kDtou, "dtou", 1, 1, K::kFloat, kNo, "double precision is rejected by vkd3d 1.2"},
    OpcodeInfo{Opcode::kItod, "itod", 1, 1, K::kInt, kNo, "double precision is rejected by vkd3d 1.2"},
    OpcodeInfo{Opcode::kUtod, "utod", 1, 1, K::kUint, kNo, "double precision is rejected by vkd3d 1.2"},
};

}  // namespace

std::optional<OpcodeInfo> opcode_info(uint32_t opcode) {
    for (const OpcodeInfo& info : kOpcodes) {
        if (static_cast<uint32_t>(info.opcode) == opcode) return info;
    }
    return std::nullopt;
}

}  // namespace dmltool::shaders
