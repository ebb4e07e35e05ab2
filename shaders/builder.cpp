#include "shaders/builder.h"

#include <algorithm>
#include <cstring>

#include "shaders/container.h"
#include "shaders/tokens.h"

namespace dmltool::shaders {
namespace {

// The components an operand selects, in xyzw order (destination lanes).
std::array<uint8_t, 4> sorted_components(const std::array<uint8_t, 4>& components, uint32_t count) {
    std::array<uint8_t, 4> sorted = components;
    for (uint32_t i = 1; i < count; ++i) {
        for (uint32_t j = i; j > 0 && sorted[j - 1] > sorted[j]; --j) std::swap(sorted[j - 1], sorted[j]);
    }
    return sorted;
}

}  // namespace

// ---------------------------------------------------------------------------------------------------------
// Operands

Operand Operand::select(std::initializer_list<uint32_t> components) const {
    Operand out = *this;
    if (type_ == RegisterType::kNull) {
        out.error_ = "component selection on a null operand";
        return out;
    }
    if (components.size() == 0 || components.size() > 4) {
        out.error_ = "a component selection needs 1 to 4 components";
        return out;
    }
    // Selections compose, as swizzles do: f.yz().x() reads f.y. Re-selecting absolute components of an already
    // narrowed operand would silently read the wrong register component.
    const bool narrowed = count_ > 0 && count_ < 4;
    uint8_t i = 0;
    for (uint32_t c : components) {
        if (c > 3) {
            out.error_ = "component index above 3 (w)";
            return out;
        }
        if (narrowed && c >= count_) {
            out.error_ = "component selected beyond an already narrowed selection (selections compose: f.y().x() is f.y)";
            return out;
        }
        out.components_[i++] = count_ > 0 ? components_[c] : static_cast<uint8_t>(c);
    }
    out.count_ = i;
    return out;
}

bool ProgramBuilder::overlaps(const Operand& dst, const Operand& src) {
    if (dst.is_null() || dst.type_ != src.type_ || dst.index_dims_ != src.index_dims_) return false;
    for (uint8_t d = 0; d < dst.index_dims_; ++d)
        if (dst.index_[d] != src.index_[d]) return false;
    for (uint32_t i = 0; i < dst.count_; ++i)
        for (uint32_t j = 0; j < src.count_; ++j)
            if (dst.components_[i] == src.components_[j]) return true;
    return false;
}

void ProgramBuilder::udiv(Operand quotient, Operand remainder, Operand a, Operand b) {
    // Only the first-written result can clobber a source the second one still needs.
    if (!remainder.is_null())
        for (const Operand* src : {&a, &b})
            if (overlaps(quotient, *src)) {
                fail("udiv: the quotient overlaps a source while the remainder is wanted (vkd3d 1.2 writes the "
                     "quotient before computing the remainder); use a separate register");
                return;
            }
    emit(Opcode::kUdiv, {quotient, remainder}, {a, b});
}

Operand Operand::operator-() const {
    Operand out = *this;
    out.negate_ = !negate_;
    return out;
}

Operand Operand::abs() const {
    Operand out = *this;
    out.absolute_ = true;
    out.negate_ = false;
    return out;
}

Operand imm(uint32_t value) { return imm4(value, value, value, value).x(); }
Operand imm_i(int32_t value) { return imm(static_cast<uint32_t>(value)); }
Operand imm_f(float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    return imm(bits);
}

Operand imm4(uint32_t x, uint32_t y, uint32_t z, uint32_t w) {
    Operand op;
    op.type_ = RegisterType::kImmediate32;
    op.count_ = 4;
    op.immediate_ = {x, y, z, w};
    return op;
}

Operand null_operand() { return Operand(); }

Operand resource_operand(Resource resource) {
    Operand op;
    op.type_ = resource.type;
    op.index_[0] = resource.slot;
    op.index_dims_ = 1;
    op.count_ = 4;
    return op;
}

// ---------------------------------------------------------------------------------------------------------
// Registers and declarations

ProgramBuilder::ProgramBuilder(BuilderOptions options) : options_(options) {}

Operand ProgramBuilder::temp() {
    Operand op;
    op.type_ = RegisterType::kTemp;
    op.index_[0] = next_temp_++;
    op.index_dims_ = 1;
    op.count_ = 4;
    return op;
}

Operand ProgramBuilder::system_value(RegisterType type) {
    Operand op = resource_operand({type, 0});
    op.index_dims_ = 0;
    return op.xyz();
}

Operand ProgramBuilder::thread_id() {
    input_masks_[0] = 0x7;
    return system_value(RegisterType::kThreadId);
}

Operand ProgramBuilder::thread_group_id() {
    input_masks_[1] = 0x7;
    return system_value(RegisterType::kThreadGroupId);
}

Operand ProgramBuilder::thread_id_in_group() {
    input_masks_[2] = 0x7;
    return system_value(RegisterType::kThreadIdInGroup);
}

Operand ProgramBuilder::root_constant(uint32_t index) {
    Operand op = resource_operand({RegisterType::kConstantBuffer, 0});
    op.index_[1] = index / 4;
    op.index_dims_ = 2;
    constant_vec4s_ = std::max(constant_vec4s_, index / 4 + 1);
    return op.component(index % 4);
}

Resource ProgramBuilder::srv_raw(uint32_t slot) {
    if (std::find(srv_slots_.begin(), srv_slots_.end(), slot) == srv_slots_.end()) srv_slots_.push_back(slot);
    return {RegisterType::kResource, slot};
}

Resource ProgramBuilder::uav_raw(uint32_t slot) {
    if (std::find(uav_slots_.begin(), uav_slots_.end(), slot) == uav_slots_.end()) uav_slots_.push_back(slot);
    return {RegisterType::kUav, slot};
}

Resource ProgramBuilder::srv_typed_uint4(uint32_t slot) {
    if (std::find(typed_srv_slots_.begin(), typed_srv_slots_.end(), slot) == typed_srv_slots_.end())
        typed_srv_slots_.push_back(slot);
    return {RegisterType::kResource, slot, true};
}

Resource ProgramBuilder::uav_typed_uint4(uint32_t slot) {
    if (std::find(typed_uav_slots_.begin(), typed_uav_slots_.end(), slot) == typed_uav_slots_.end())
        typed_uav_slots_.push_back(slot);
    return {RegisterType::kUav, slot, true};
}

Resource ProgramBuilder::groupshared_raw(uint32_t bytes) {
    if (bytes == 0 || bytes % 4 != 0 || bytes > 32768) fail("groupshared size must be a multiple of 4 in (0, 32768]");
    groupshared_bytes_.push_back(bytes);
    return {RegisterType::kGroupshared, static_cast<uint32_t>(groupshared_bytes_.size() - 1)};
}

// ---------------------------------------------------------------------------------------------------------
// Encoding

void ProgramBuilder::fail(const std::string& message) {
    if (!error_.empty()) return;  // the first error is the useful one
    error_ = "instruction #" + std::to_string(instruction_count_) + ": " + message;
}

bool ProgramBuilder::check_operand(const Operand& operand, const char* role) {
    if (operand.error_ != nullptr) {
        fail(std::string(role) + ": " + operand.error_);
        return false;
    }
    return true;
}

void ProgramBuilder::encode_dst(const Operand& d, std::vector<uint32_t>& out) {
    using namespace tokens;
    if (d.is_null()) {
        out.push_back(operand_token(kComponents0, 0, 0, RegisterType::kNull, 0));
        return;
    }
    const bool writable = d.type_ == RegisterType::kTemp || d.type_ == RegisterType::kUav ||
                          d.type_ == RegisterType::kGroupshared;
    if (!writable) return fail("destination must be a temp, a UAV or groupshared memory");
    if (d.negate_ || d.absolute_) return fail("destination operands cannot carry modifiers");
    uint32_t mask = 0;
    for (uint32_t i = 0; i < d.count_; ++i) {
        const uint32_t bit = 1u << d.components_[i];
        if (mask >= bit) return fail("destination components must be distinct and in xyzw order");
        mask |= bit;
    }
    out.push_back(operand_token(kComponents4, kSelectMask, mask, d.type_, 1));
    out.push_back(d.index_[0]);
}

// Encodes a source. dst_lanes[0..dst_count) are the destination components it feeds (HLSL order);
// dst_count == 0 means a scalar context (conditions, addresses).
void ProgramBuilder::encode_src(const Operand& s, const std::array<uint8_t, 4>& dst_lanes, uint32_t dst_count,
                                std::vector<uint32_t>& out) {
    using namespace tokens;
    if (s.is_null()) return fail("a source operand is null");
    const uint32_t lanes = std::max<uint32_t>(dst_count, 1);
    if (s.count_ != 1 && s.count_ < lanes) {
        return fail("source has " + std::to_string(s.count_) + " components for " + std::to_string(lanes) +
                    " destination components");
    }
    const bool replicate = s.count_ == 1;
    const uint32_t modifier = (s.negate_ ? kModifierNegate : 0) | (s.absolute_ ? kModifierAbs : 0);

    if (s.type_ == RegisterType::kImmediate32) {
        if (modifier != 0) return fail("immediates cannot carry modifiers");
        if (lanes == 1 && dst_count <= 1) {
            out.push_back(operand_token(kComponents1, 0, 0, RegisterType::kImmediate32, 0));
            out.push_back(s.immediate_[s.components_[0]]);
            return;
        }
        std::array<uint32_t, 4> values = {0, 0, 0, 0};
        for (uint32_t i = 0; i < dst_count; ++i) {
            values[dst_lanes[i]] = s.immediate_[s.components_[replicate ? 0 : i]];
        }
        out.push_back(operand_token(kComponents4, 0, 0, RegisterType::kImmediate32, 0));
        out.insert(out.end(), values.begin(), values.end());
        return;
    }

    uint32_t token;
    const bool is_resource = s.type_ == RegisterType::kResource || s.type_ == RegisterType::kUav ||
                             s.type_ == RegisterType::kGroupshared;
    if (replicate && !is_resource) {
        token = operand_token(kComponents4, kSelect1, s.components_[0], s.type_, s.index_dims_);
    } else {
        std::array<uint32_t, 4> swizzle;
        swizzle.fill(s.components_[0]);
        for (uint32_t i = 0; i < lanes; ++i) {
            swizzle[dst_count == 0 ? i : dst_lanes[i]] = s.components_[replicate ? 0 : i];
        }
        const uint32_t bits = swizzle[0] | swizzle[1] << 2 | swizzle[2] << 4 | swizzle[3] << 6;
        token = operand_token(kComponents4, kSelectSwizzle, bits, s.type_, s.index_dims_);
    }
    if (modifier != 0) token |= kOperandExtended;
    out.push_back(token);
    if (modifier != 0) out.push_back(kExtendedOperandModifier | modifier << 6);
    for (uint32_t i = 0; i < s.index_dims_; ++i) out.push_back(s.index_[i]);
}

void ProgramBuilder::emit_raw(uint32_t controls, Opcode opcode, const std::vector<uint32_t>& operand_tokens) {
    const size_t length = 1 + operand_tokens.size();
    if (length > tokens::kMaxInstructionLength) return fail("instruction longer than 127 tokens");
    body_.push_back(static_cast<uint32_t>(opcode) | controls | static_cast<uint32_t>(length) << 24);
    body_.insert(body_.end(), operand_tokens.begin(), operand_tokens.end());
    last_opcode_ = opcode;
    ++instruction_count_;
}

void ProgramBuilder::emit(Opcode opcode, std::initializer_list<Operand> dst, std::initializer_list<Operand> src) {
    const auto info = opcode_info(static_cast<uint32_t>(opcode));
    if (!info) return fail("opcode " + std::to_string(static_cast<uint32_t>(opcode)) + " is not on the allow-list");
    const std::string name(info->name);
    if (!info->allowed) return fail(name + " is refused: " + std::string(info->note));
    if (info->kind == OperandKind::kDeclaration || info->kind == OperandKind::kMemory) {
        return fail(name + " must be emitted through its dedicated builder method");
    }
    if (dst.size() != info->num_dst || src.size() != info->num_src) {
        return fail(name + " takes " + std::to_string(info->num_dst) + " destination(s) and " +
                    std::to_string(info->num_src) + " source(s)");
    }
    if (opcode == Opcode::kImul && !dst.begin()->is_null()) {
        return fail("imul with a high-part destination is not implemented by vkd3d 1.2; use imul(d, a, b)");
    }
    for (const Operand& d : dst) {
        if (!check_operand(d, "destination")) return;
    }
    for (const Operand& s : src) {
        if (!check_operand(s, "source")) return;
    }

    // The written lanes come from the first non-null destination. vkd3d reads the sources once per
    // destination, through that destination's mask, so two-result instructions (udiv) may write different
    // components only when every source is a replicated scalar.
    std::array<uint8_t, 4> lanes = {0, 0, 0, 0};
    uint32_t lane_count = 0;
    const bool scalar_sources = std::all_of(src.begin(), src.end(), [](const Operand& s) { return s.count_ == 1; });
    for (const Operand& d : dst) {
        if (d.is_null()) continue;
        const std::array<uint8_t, 4> sorted = sorted_components(d.components_, d.count_);
        if (lane_count != 0) {
            const bool same = lane_count == d.count_ && std::equal(sorted.begin(), sorted.begin() + d.count_, lanes.begin());
            if (!same && !scalar_sources) {
                return fail(name + ": destinations writing different components need scalar sources");
            }
            continue;
        }
        lanes = sorted;
        lane_count = d.count_;
    }
    if (info->num_dst > 0 && lane_count == 0) return fail(name + ": every destination is null");

    std::vector<Operand> sources(src);
    if (opcode == Opcode::kIshl || opcode == Opcode::kIshr || opcode == Opcode::kUshr) {
        // D3D uses only the low 5 bits of a shift count; vkd3d 1.2 passes the count straight to SPIR-V, where a
        // count >= 32 is undefined. Mask it here so kernels get D3D semantics.
        Operand& count = sources[1];
        if (count.type_ == RegisterType::kImmediate32) {
            for (uint32_t& value : count.immediate_) value &= 31;
        } else {
            if (shift_scratch_.type_ != RegisterType::kTemp) shift_scratch_ = temp();
            Operand masked = shift_scratch_;
            masked.count_ = static_cast<uint8_t>(lane_count);
            masked.components_ = lanes;
            emit(Opcode::kAnd, {masked}, {count, imm(31)});
            count = masked;
        }
    }

    std::vector<uint32_t> operands;
    for (const Operand& d : dst) encode_dst(d, operands);
    for (const Operand& s : sources) encode_src(s, lanes, lane_count, operands);
    if (!error_.empty()) return;

    uint32_t controls = 0;
    const bool rounds = opcode == Opcode::kAdd || opcode == Opcode::kMul || opcode == Opcode::kMad ||
                        opcode == Opcode::kDiv || opcode == Opcode::kSqrt;
    if (rounds && options_.precise_float_math && lane_count > 0) {
        uint32_t mask = 0;
        for (uint32_t i = 0; i < lane_count; ++i) mask |= 1u << lanes[i];
        controls |= mask << tokens::kPreciseShift;
    }
    emit_raw(controls, opcode, operands);
}

// ---------------------------------------------------------------------------------------------------------
// Control flow

void ProgramBuilder::if_nz(Operand cond) {
    std::vector<uint32_t> operands;
    if (!check_operand(cond, "condition")) return;
    if (cond.count_ != 1) return fail("if: the condition must be one component");
    encode_src(cond, {}, 0, operands);
    emit_raw(tokens::kTestNonZero, Opcode::kIf, operands);
    flow_stack_.push_back(Opcode::kIf);
}

void ProgramBuilder::if_z(Operand cond) {
    std::vector<uint32_t> operands;
    if (!check_operand(cond, "condition")) return;
    if (cond.count_ != 1) return fail("if: the condition must be one component");
    encode_src(cond, {}, 0, operands);
    emit_raw(0, Opcode::kIf, operands);
    flow_stack_.push_back(Opcode::kIf);
}

void ProgramBuilder::else_() {
    if (flow_stack_.empty() || flow_stack_.back() != Opcode::kIf) return fail("else without an open if");
    flow_stack_.back() = Opcode::kElse;
    emit_raw(0, Opcode::kElse, {});
}

void ProgramBuilder::endif() {
    if (flow_stack_.empty() || (flow_stack_.back() != Opcode::kIf && flow_stack_.back() != Opcode::kElse)) {
        return fail("endif without an open if");
    }
    flow_stack_.pop_back();
    emit_raw(0, Opcode::kEndif, {});
}

void ProgramBuilder::loop() {
    flow_stack_.push_back(Opcode::kLoop);
    emit_raw(0, Opcode::kLoop, {});
}

void ProgramBuilder::endloop() {
    if (flow_stack_.empty() || flow_stack_.back() != Opcode::kLoop) return fail("endloop without an open loop");
    flow_stack_.pop_back();
    emit_raw(0, Opcode::kEndloop, {});
}

namespace {
bool inside_loop(const std::vector<Opcode>& stack) {
    return std::find(stack.begin(), stack.end(), Opcode::kLoop) != stack.end();
}
}  // namespace

void ProgramBuilder::break_() {
    if (!inside_loop(flow_stack_)) return fail("break outside a loop");
    emit_raw(0, Opcode::kBreak, {});
}

void ProgramBuilder::breakc_nz(Operand cond) {
    if (!inside_loop(flow_stack_)) return fail("breakc outside a loop");
    if (!check_operand(cond, "condition")) return;
    if (cond.count_ != 1) return fail("breakc: the condition must be one component");
    std::vector<uint32_t> operands;
    encode_src(cond, {}, 0, operands);
    emit_raw(tokens::kTestNonZero, Opcode::kBreakc, operands);
}

void ProgramBuilder::breakc_z(Operand cond) {
    if (!inside_loop(flow_stack_)) return fail("breakc outside a loop");
    if (!check_operand(cond, "condition")) return;
    if (cond.count_ != 1) return fail("breakc: the condition must be one component");
    std::vector<uint32_t> operands;
    encode_src(cond, {}, 0, operands);
    emit_raw(0, Opcode::kBreakc, operands);
}

void ProgramBuilder::ret() {
    // An early return inside if/loop is legal DXBC, but we keep kernels to one exit (guard the body with
    // if_nz instead) so the structured control flow vkd3d builds stays trivial.
    if (!flow_stack_.empty()) return fail("ret inside if/loop; guard the body with if_nz instead");
    emit_raw(0, Opcode::kRet, {});
}

// ---------------------------------------------------------------------------------------------------------
// Memory

void ProgramBuilder::emit_memory(Opcode opcode, Operand dst, Operand address, Operand src) {
    const std::string name(opcode_info(static_cast<uint32_t>(opcode))->name);
    if (!check_operand(dst, "destination") || !check_operand(address, "address") || !check_operand(src, "source")) {
        return;
    }
    if (address.count_ != 1) return fail(name + ": the byte address must be one component");
    const std::array<uint8_t, 4> lanes = sorted_components(dst.components_, dst.count_);
    std::vector<uint32_t> operands;
    encode_dst(dst, operands);
    encode_src(address, {}, 0, operands);
    encode_src(src, lanes, dst.count_, operands);
    if (!error_.empty()) return;
    emit_raw(0, opcode, operands);
}

void ProgramBuilder::ld_typed(Operand dst, Operand element_index, Resource resource) {
    if (!resource.typed_uint4 || resource.type == RegisterType::kGroupshared) return fail("ld_typed: needs a typed uint4 view");
    if (dst.type_ != RegisterType::kTemp || dst.count_ != 4) return fail("ld_typed: the destination must be a temp's .xyzw");
    emit_memory(Opcode::kLd, dst, element_index, resource_operand(resource));
}

void ProgramBuilder::ld_raw(Operand dst, Operand byte_address, Resource resource) {
    if (resource.typed_uint4) return fail("ld_raw: t" + std::to_string(resource.slot) + " is a typed view");
    if (dst.type_ != RegisterType::kTemp) return fail("ld_raw: the destination must be a temp");
    emit_memory(Opcode::kLdRaw, dst, byte_address, resource_operand(resource));
}

namespace {
// A memory destination writing `count` consecutive words: mask .x, .xy, .xyz or .xyzw.
Operand memory_destination(Resource resource, uint32_t count) {
    Operand op = resource_operand(resource);
    switch (count) {
        case 1: return op.x();
        case 2: return op.xy();
        case 3: return op.xyz();
        default: return op.xyzw();
    }
}
}  // namespace

void ProgramBuilder::store_typed(Resource resource, Operand element_index, Operand value) {
    if (resource.type != RegisterType::kUav || !resource.typed_uint4) return fail("store_typed: needs a typed uint4 UAV");
    if (value.count_ != 4) return fail("store_typed: the value must have four components");
    emit_memory(Opcode::kStoreUavTyped, memory_destination(resource, 4), element_index, value);
}

void ProgramBuilder::store_raw(Resource resource, Operand byte_address, Operand value) {
    if (resource.type == RegisterType::kResource) return fail("store_raw: t# registers are read-only");
    if (resource.typed_uint4) return fail("store_raw: u" + std::to_string(resource.slot) + " is a typed view");
    emit_memory(Opcode::kStoreRaw, memory_destination(resource, value.count_), byte_address, value);
}

#define DMLTOOL_ATOMIC(method, opcode)                                                                   \
    void ProgramBuilder::method(Resource resource, Operand byte_address, Operand value) {                \
        if (resource.type == RegisterType::kResource) return fail(#method ": t# registers are read-only"); \
        if (resource.typed_uint4) return fail(#method ": atomics need a raw view");                       \
        if (value.count_ != 1) return fail(#method ": the value must be one component");                \
        emit_memory(opcode, memory_destination(resource, 1), byte_address, value);                       \
    }
DMLTOOL_ATOMIC(atomic_and, Opcode::kAtomicAnd)
DMLTOOL_ATOMIC(atomic_or, Opcode::kAtomicOr)
DMLTOOL_ATOMIC(atomic_xor, Opcode::kAtomicXor)
DMLTOOL_ATOMIC(atomic_iadd, Opcode::kAtomicIadd)
DMLTOOL_ATOMIC(atomic_umax, Opcode::kAtomicUmax)
DMLTOOL_ATOMIC(atomic_umin, Opcode::kAtomicUmin)
#undef DMLTOOL_ATOMIC

void ProgramBuilder::sync(uint32_t sync_flags) {
    const uint32_t all = kSyncThreadsInGroup | kSyncGroupsharedMemory | kSyncUavMemoryGroup | kSyncUavMemoryGlobal;
    if (sync_flags == 0 || (sync_flags & ~all) != 0) return fail("sync: flags must be a non-empty set of SyncFlags");
    emit_raw(sync_flags, Opcode::kSync, {});
}

// ---------------------------------------------------------------------------------------------------------
// Finishing

Result<std::vector<uint32_t>> ProgramBuilder::finish() const {
    using namespace tokens;
    if (!error_.empty()) return internal_error("shader builder: " + error_);
    if (!flow_stack_.empty()) return internal_error("shader builder: unclosed if/loop at the end of the program");
    for (uint32_t size : options_.thread_group) {
        if (size == 0) return internal_error("shader builder: thread group dimensions must be non-zero");
    }
    const auto& g = options_.thread_group;
    if (g[0] > 1024 || g[1] > 1024 || g[2] > 64 || uint64_t{g[0]} * g[1] * g[2] > 1024) {
        return internal_error("shader builder: thread group exceeds cs_5_0 limits (x,y <= 1024, z <= 64, total <= 1024)");
    }

    // Declarations in the order fxc writes them.
    std::vector<uint32_t> code = {kVersionCs50, 0};
    auto instruction = [&code](Opcode opcode, std::initializer_list<uint32_t> operands, uint32_t controls = 0) {
        code.push_back(static_cast<uint32_t>(opcode) | controls | static_cast<uint32_t>(1 + operands.size()) << 24);
        code.insert(code.end(), operands);
    };
    if (constant_vec4s_ > 0) {
        instruction(Opcode::kDclConstantBuffer,
                    {operand_token(kComponents4, kSelectSwizzle, kSwizzleXyzw, RegisterType::kConstantBuffer, 2), 0,
                     constant_vec4s_});
    }
    for (uint32_t slot : srv_slots_) {
        instruction(Opcode::kDclResourceRaw, {operand_token(kComponents0, 0, 0, RegisterType::kResource, 1), slot});
    }
    for (uint32_t slot : uav_slots_) {
        instruction(Opcode::kDclUavRaw, {operand_token(kComponents0, 0, 0, RegisterType::kUav, 1), slot});
    }
    for (uint32_t slot : typed_srv_slots_) {
        if (std::find(srv_slots_.begin(), srv_slots_.end(), slot) != srv_slots_.end())
            return internal_error("shader builder: t" + std::to_string(slot) + " declared both raw and typed");
        instruction(Opcode::kDclResource, {operand_token(kComponents0, 0, 0, RegisterType::kResource, 1), slot,
                                           kReturnTypeUint4},
                    kResourceDimensionBuffer);
    }
    for (uint32_t slot : typed_uav_slots_) {
        if (std::find(uav_slots_.begin(), uav_slots_.end(), slot) != uav_slots_.end())
            return internal_error("shader builder: u" + std::to_string(slot) + " declared both raw and typed");
        instruction(Opcode::kDclUavTyped, {operand_token(kComponents0, 0, 0, RegisterType::kUav, 1), slot,
                                           kReturnTypeUint4},
                    kResourceDimensionBuffer);
    }
    const RegisterType inputs[3] = {RegisterType::kThreadId, RegisterType::kThreadGroupId,
                                    RegisterType::kThreadIdInGroup};
    for (int i = 0; i < 3; ++i) {
        if (input_masks_[i] != 0) {
            instruction(Opcode::kDclInput, {operand_token(kComponents4, kSelectMask, input_masks_[i], inputs[i], 0)});
        }
    }
    if (next_temp_ > 0) instruction(Opcode::kDclTemps, {next_temp_});
    for (size_t i = 0; i < groupshared_bytes_.size(); ++i) {
        instruction(Opcode::kDclTgsmRaw, {operand_token(kComponents0, 0, 0, RegisterType::kGroupshared, 1),
                                          static_cast<uint32_t>(i), groupshared_bytes_[i]});
    }
    instruction(Opcode::kDclThreadGroup, {g[0], g[1], g[2]});

    code.insert(code.end(), body_.begin(), body_.end());
    if (last_opcode_ != Opcode::kRet) instruction(Opcode::kRet, {});
    code[1] = static_cast<uint32_t>(code.size());
    return code;
}

Result<std::vector<uint8_t>> ProgramBuilder::build_dxbc() const {
    DMLTOOL_ASSIGN_OR_RETURN(std::vector<uint32_t> program, finish());
    return make_compute_container(program);
}

}  // namespace dmltool::shaders
