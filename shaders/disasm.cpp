#include "shaders/disasm.h"

#include <cstdio>
#include <cstring>

#include "shaders/container.h"
#include "shaders/opcodes.h"
#include "shaders/tokens.h"

namespace dmltool::shaders {
namespace {

using namespace tokens;

constexpr char kComponentNames[] = "xyzw";

std::string register_name(uint32_t type) {
    switch (static_cast<RegisterType>(type)) {
        case RegisterType::kTemp: return "r";
        case RegisterType::kResource: return "t";
        case RegisterType::kConstantBuffer: return "cb";
        case RegisterType::kNull: return "null";
        case RegisterType::kUav: return "u";
        case RegisterType::kGroupshared: return "g";
        case RegisterType::kThreadId: return "vThreadID";
        case RegisterType::kThreadGroupId: return "vThreadGroupID";
        case RegisterType::kThreadIdInGroup: return "vThreadIDInGroup";
        default: return "reg" + std::to_string(type) + "_";
    }
}

std::string format_immediate(uint32_t value, OperandKind kind) {
    char text[48];
    if (kind == OperandKind::kFloat) {
        float f;
        std::memcpy(&f, &value, 4);
        std::snprintf(text, sizeof text, "%.9g", static_cast<double>(f));
    } else if (value < 65536) {
        std::snprintf(text, sizeof text, "%u", value);
    } else if (value >= 0xffff0000u) {
        std::snprintf(text, sizeof text, "%d", static_cast<int32_t>(value));
    } else {
        std::snprintf(text, sizeof text, "0x%08x", value);
    }
    return text;
}

// Reads one operand starting at tokens[at]; advances `at`. Returns false on malformed input.
bool read_operand(std::span<const uint32_t> code, size_t& at, size_t end, OperandKind kind, std::string& out) {
    if (at >= end) return false;
    const uint32_t token = code[at++];
    const uint32_t components = token & 3;
    const uint32_t mode = (token >> 2) & 3;
    const uint32_t bits = (token >> 4) & 0xff;
    const uint32_t type = (token >> 12) & 0xff;
    const uint32_t dims = (token >> 20) & 3;
    uint32_t modifier = 0;
    bool extended = token & kOperandExtended;
    while (extended) {
        if (at >= end) return false;
        const uint32_t ext = code[at++];
        if ((ext & 0x3f) == kExtendedOperandModifier) modifier = (ext >> 6) & 0xff;
        extended = ext & kOperandExtended;
    }
    if (static_cast<RegisterType>(type) == RegisterType::kImmediate32) {
        const uint32_t count = components == kComponents4 ? 4 : 1;
        if (at + count > end) return false;
        out += "l(";
        for (uint32_t i = 0; i < count; ++i) out += (i ? ", " : "") + format_immediate(code[at++], kind);
        out += ")";
        return true;
    }
    std::string text = register_name(type);
    for (uint32_t d = 0; d < dims; ++d) {
        const uint32_t representation = (token >> (22 + 3 * d)) & 7;
        if (representation != 0 || at >= end) return false;  // only immediate indices are emitted by us
        const uint32_t index = code[at++];
        if (d > 0) text += '[';
        text += std::to_string(index);
        if (d > 0) text += ']';
    }
    if (components == kComponents4) {
        text += ".";
        if (mode == kSelectMask) {
            for (uint32_t c = 0; c < 4; ++c) {
                if (bits & (1u << c)) text += kComponentNames[c];
            }
        } else if (mode == kSelectSwizzle) {
            for (uint32_t c = 0; c < 4; ++c) text += kComponentNames[(bits >> (2 * c)) & 3];
        } else {
            text += kComponentNames[bits & 3];
        }
    }
    if (modifier & kModifierAbs) text = "|" + text + "|";
    if (modifier & kModifierNegate) text = "-" + text;
    out += text;
    return true;
}

std::string sync_name(uint32_t token) {
    std::string name = "sync";
    if (token & (1u << 14)) name += "_uglobal";
    if (token & (1u << 13)) name += "_ugroup";
    if (token & (1u << 12)) name += "_g";
    if (token & (1u << 11)) name += "_t";
    return name;
}

}  // namespace

Result<std::string> disassemble_program(std::span<const uint32_t> code) {
    if (code.size() < 2 || code[0] != kVersionCs50) return invalid_input("not a cs_5_0 token stream");
    if (code[1] != code.size()) return invalid_input("program length token does not match its size");
    std::string text = "cs_5_0\n";
    int depth = 0;
    size_t at = 2;
    while (at < code.size()) {
        const uint32_t token = code[at];
        const uint32_t opcode = token & kOpcodeMask;
        size_t length = instruction_length(token);
        if (static_cast<Opcode>(opcode) == Opcode::kCustomData) {
            if (at + 1 >= code.size()) return invalid_input("truncated customdata block");
            length = code[at + 1];
        }
        if (length == 0 || at + length > code.size()) {
            return invalid_input("instruction at token " + std::to_string(at) + " has an invalid length");
        }
        const size_t end = at + length;
        const auto info = opcode_info(opcode);
        std::string line;
        size_t operand_at = at + 1;
        if (token & kOpcodeExtended) {
            // Extended opcode tokens (fxc's ld_raw resource-type tokens): skip the chain.
            while (operand_at < end && (code[operand_at++] & kOpcodeExtended)) {
            }
        }
        const Opcode op = static_cast<Opcode>(opcode);
        if (op == Opcode::kEndif || op == Opcode::kEndloop || op == Opcode::kElse) --depth;
        bool generic_operands = true;
        if (!info) {
            char buffer[32];
            std::snprintf(buffer, sizeof buffer, "opcode_0x%x", opcode);
            line = buffer;
            for (size_t i = at + 1; i < end; ++i) {
                std::snprintf(buffer, sizeof buffer, " %08x", code[i]);
                line += buffer;
            }
            generic_operands = false;
        } else if (op == Opcode::kCustomData) {
            line = "customdata (" + std::to_string(length) + " tokens)";
            generic_operands = false;
        } else if (op == Opcode::kDclTemps || op == Opcode::kDclThreadGroup) {
            line = std::string(info->name) + " ";
            for (size_t i = at + 1; i < end; ++i) line += (i > at + 1 ? ", " : "") + std::to_string(code[i]);
            generic_operands = false;
        } else if (op == Opcode::kDclGlobalFlags) {
            line = "dcl_globalFlags " + std::to_string((token >> 11) & 0x1fff);
            generic_operands = false;
        } else if (op == Opcode::kDclConstantBuffer) {
            if (length != 4) return invalid_input("unexpected dcl_constantbuffer layout");
            line = "dcl_constantbuffer CB" + std::to_string(code[at + 2]) + "[" + std::to_string(code[at + 3]) + "], " +
                   ((token & kConstantBufferDynamicIndexed) ? "dynamicIndexed" : "immediateIndexed");
            generic_operands = false;
        } else if (op == Opcode::kDclResource || op == Opcode::kDclUavTyped) {
            if (length != 4 || (token & kResourceDimensionMask) != kResourceDimensionBuffer || code[at + 3] != kReturnTypeUint4)
                return invalid_input("unexpected " + std::string(info->name) + " layout (only uint4 buffers are emitted)");
            line = std::string(info->name) + " (uint,uint,uint,uint) " + (op == Opcode::kDclResource ? "t" : "u") +
                   std::to_string(code[at + 2]);
            generic_operands = false;
        } else if (op == Opcode::kDclTgsmRaw) {
            if (length != 4) return invalid_input("unexpected dcl_tgsm_raw layout");
            line = "dcl_tgsm_raw g" + std::to_string(code[at + 2]) + ", " + std::to_string(code[at + 3]);
            generic_operands = false;
        } else if (op == Opcode::kIf || op == Opcode::kBreakc) {
            line = std::string(info->name) + ((token & kTestNonZero) ? "_nz" : "_z");
        } else if (op == Opcode::kSync) {
            line = sync_name(token);
        } else {
            line = std::string(info->name);
            if (op == Opcode::kDclUavRaw && (token & kUavGloballyCoherent)) line += "_glc";
            if (token & kSaturate && info->kind == OperandKind::kFloat) line += "_sat";
            if (info->kind == OperandKind::kFloat && (token & kPreciseMask)) {
                line += " [precise(";
                for (uint32_t c = 0; c < 4; ++c) {
                    if (token & (1u << (kPreciseShift + c))) line += kComponentNames[c];
                }
                line += ")]";
            }
        }
        if (generic_operands) {
            const OperandKind kind = info->kind;
            bool first = true;
            while (operand_at < end) {
                line += first ? " " : ", ";
                first = false;
                if (!read_operand(code, operand_at, end, kind, line)) {
                    return invalid_input("malformed operand in '" + line + "' at token " + std::to_string(operand_at));
                }
            }
        }
        text += std::string(2 * static_cast<size_t>(depth > 0 ? depth : 0), ' ') + line + "\n";
        if (op == Opcode::kIf || op == Opcode::kLoop || op == Opcode::kElse) ++depth;
        at = end;
    }
    return text;
}

Result<std::string> disassemble_container(std::span<const uint8_t> container) {
    DMLTOOL_ASSIGN_OR_RETURN(std::vector<uint32_t> program, extract_program(container));
    return disassemble_program(program);
}

}  // namespace dmltool::shaders
