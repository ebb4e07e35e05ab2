// SM 5.0 opcode numbers and the allow-list: which opcodes our kernels may use on vkd3d 1.2.
// Numbers follow Microsoft's d3d12TokenizedProgramFormat.hpp (D3D10_SB_OPCODE_TYPE and its D3D11 additions).
// vkd3d 1.2 translates DXBC to SPIR-V and silently drops or rejects some opcodes (umul is dropped: it compiles
// and produces garbage), so every opcode a kernel emits is checked here when the program is built; anything
// not on the list is an error the kernel author sees, never a wrong number at run time.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace dmltool::shaders {

enum class Opcode : uint32_t {
    kAdd = 0x00, kAnd = 0x01, kBreak = 0x02, kBreakc = 0x03, kDiv = 0x0e, kElse = 0x12, kEndif = 0x15,
    kEndloop = 0x16, kEq = 0x18, kExp = 0x19, kFrc = 0x1a, kFtoi = 0x1b, kFtou = 0x1c, kGe = 0x1d, kIadd = 0x1e, kIf = 0x1f,
    kIeq = 0x20, kIge = 0x21, kIlt = 0x22, kImad = 0x23, kImax = 0x24, kImin = 0x25, kImul = 0x26, kIne = 0x27,
    kIneg = 0x28, kIshl = 0x29, kIshr = 0x2a, kItof = 0x2b, kLd = 0x2d, kLoop = 0x30, kLt = 0x31, kMad = 0x32, kMin = 0x33,
    kMax = 0x34, kCustomData = 0x35, kMov = 0x36, kMovc = 0x37, kMul = 0x38, kNe = 0x39, kNop = 0x3a,
    kNot = 0x3b, kOr = 0x3c, kRet = 0x3e, kRoundNe = 0x40, kRoundNi = 0x41, kRoundPi = 0x42, kRoundZ = 0x43,
    kSqrt = 0x4b, kUdiv = 0x4e, kUlt = 0x4f, kUge = 0x50, kUmul = 0x51, kUmad = 0x52, kUmax = 0x53,
    kUmin = 0x54, kUshr = 0x55, kUtof = 0x56, kXor = 0x57,
    kDclResource = 0x58, kDclConstantBuffer = 0x59, kDclInput = 0x5f, kDclTemps = 0x68, kDclGlobalFlags = 0x6a,
    kF32ToF16 = 0x82, kF16ToF32 = 0x83, kUaddc = 0x84, kUsubb = 0x85, kCountbits = 0x86, kUbfe = 0x8a,
    kIbfe = 0x8b, kBfi = 0x8c, kBfrev = 0x8d, kSwapc = 0x8e,
    kDclThreadGroup = 0x9b, kDclUavTyped = 0x9c, kDclUavRaw = 0x9d, kDclTgsmRaw = 0x9f, kDclResourceRaw = 0xa1,
    kStoreUavTyped = 0xa4, kLdRaw = 0xa5, kStoreRaw = 0xa6, kAtomicAnd = 0xa9, kAtomicOr = 0xaa, kAtomicXor = 0xab,
    kAtomicIadd = 0xad, kAtomicUmax = 0xb0, kAtomicUmin = 0xb1, kSync = 0xbe,
    kDadd = 0xbf, kDmax = 0xc0, kDmin = 0xc1, kDmul = 0xc2, kDeq = 0xc3, kDge = 0xc4, kDlt = 0xc5, kDne = 0xc6,
    kDmov = 0xc7, kDmovc = 0xc8, kDtof = 0xc9, kFtod = 0xca, kDdiv = 0xd2, kDfma = 0xd3, kDrcp = 0xd4,
    kDtoi = 0xd6, kDtou = 0xd7, kItod = 0xd8, kUtod = 0xd9,
};

// How an instruction's operands are interpreted; decides how immediates are printed and what a
// negate modifier means (float negate vs two's-complement negate).
enum class OperandKind : uint8_t { kFloat, kInt, kUint, kBits, kFlow, kMemory, kDeclaration };

struct OpcodeInfo {
    Opcode opcode;
    std::string_view name;     // fxc's mnemonic
    uint8_t num_dst;           // destination operands
    uint8_t num_src;           // source operands
    OperandKind kind;
    bool allowed;              // on the allow-list for vkd3d 1.2
    std::string_view note;     // for refused opcodes: why; for allowed ones: a caveat worth knowing
};

// Returns the table entry for a known opcode (allowed or refused), nullopt for numbers we do not know.
std::optional<OpcodeInfo> opcode_info(uint32_t opcode);

}  // namespace dmltool::shaders
