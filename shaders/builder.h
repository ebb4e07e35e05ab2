// ProgramBuilder: emits Shader Model 5.0 compute programs (DXBC "SHEX" token streams) from C++.
// There is no HLSL compiler on this platform, so every GPU kernel is written against this API. It owns the
// token encoding, declares what the body uses (temps, inputs, constant buffer size) when the program is
// finished, and enforces the vkd3d 1.2 opcode allow-list (shaders/opcodes.h): a refused opcode, an unbalanced
// if/loop or a malformed operand makes finish() return an error naming the instruction.
//
// Operand convention (as in HLSL): a source's listed components feed the destination's written components
// in order, e.g. mov(r1.zw(), r0.xy()) writes r1.z = r0.x, r1.w = r0.y. A one-component source or immediate
// is replicated to every written component.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "core/status.h"
#include "shaders/opcodes.h"

namespace dmltool::shaders {

enum class RegisterType : uint8_t {
    kTemp = 0,
    kImmediate32 = 4,
    kResource = 7,        // t#: raw SRV
    kConstantBuffer = 8,  // cb0: the root constants
    kNull = 13,
    kUav = 30,            // u#: raw UAV
    kGroupshared = 31,    // g#: thread-group shared memory
    kThreadId = 32,       // vThreadID (SV_DispatchThreadID)
    kThreadGroupId = 33,  // vThreadGroupID
    kThreadIdInGroup = 34,
};

// A memory object an instruction can read or write: t# (raw SRV), u# (raw UAV) or g# (groupshared).
struct Resource {
    RegisterType type = RegisterType::kResource;
    uint32_t slot = 0;
    // A typed buffer view of uint4 (16-byte) elements instead of a raw view: one ld/store_uav_typed moves 16
    // bytes where vkd3d splits a raw 16-byte access into four 4-byte texel accesses.
    bool typed_uint4 = false;
};

class Operand {
public:
    Operand() = default;

    // Component selection on registers: each returns a copy reading/writing the named components.
    Operand x() const { return select({0}); }
    Operand y() const { return select({1}); }
    Operand z() const { return select({2}); }
    Operand w() const { return select({3}); }
    Operand xy() const { return select({0, 1}); }
    Operand xyz() const { return select({0, 1, 2}); }
    Operand xyzw() const { return select({0, 1, 2, 3}); }
    Operand yz() const { return select({1, 2}); }
    Operand zw() const { return select({2, 3}); }
    Operand yzw() const { return select({1, 2, 3}); }
    Operand component(uint32_t c) const { return select({c}); }
    // Arbitrary selection, components 0..3 (x..w); 1 to 4 entries.
    Operand select(std::initializer_list<uint32_t> components) const;

    // Source modifiers. On float instructions they are float negate/abs; on integer ones, two's-complement negate.
    Operand operator-() const;
    Operand abs() const;

    RegisterType type() const { return type_; }
    uint32_t component_count() const { return count_; }
    uint32_t component_at(uint32_t i) const { return components_[i]; }
    bool is_null() const { return type_ == RegisterType::kNull; }

private:
    friend class ProgramBuilder;
    friend Operand imm(uint32_t);
    friend Operand imm4(uint32_t, uint32_t, uint32_t, uint32_t);
    friend Operand null_operand();
    friend Operand resource_operand(Resource);

    RegisterType type_ = RegisterType::kNull;
    uint32_t index_[2] = {0, 0};
    uint8_t index_dims_ = 0;
    uint8_t count_ = 0;                       // selected components
    std::array<uint8_t, 4> components_ = {0, 1, 2, 3};
    std::array<uint32_t, 4> immediate_ = {0, 0, 0, 0};
    bool negate_ = false;
    bool absolute_ = false;
    const char* error_ = nullptr;             // set by a bad selection, reported when the operand is used
};

// Immediates ("l(...)" in fxc's syntax). Scalars are replicated to every written component.
Operand imm(uint32_t value);
Operand imm_i(int32_t value);
Operand imm_f(float value);
Operand imm4(uint32_t x, uint32_t y, uint32_t z, uint32_t w);
// The discarded destination of two-result instructions (imul's high part, one half of udiv).
Operand null_operand();
// A resource as a source operand with all four components (ld_raw swizzles it to the destination).
Operand resource_operand(Resource resource);

struct BuilderOptions {
    std::array<uint32_t, 3> thread_group = {64, 1, 1};
    // Marks add/mul/mad/div/sqrt "precise" (fxc's per-component flag: no contraction into FMA, no reassociation).
    // Windows drivers honour it; vkd3d 1.2 ignores it (no NoContraction decoration reaches SPIR-V), so kernels
    // that must not be fused on Linux also use unfused_mul() from shaders/elements.h.
    bool precise_float_math = true;
};

// sync flags (fxc: sync_g_t, sync_ugroup, ...).
enum SyncFlags : uint32_t {
    kSyncThreadsInGroup = 1u << 11,
    kSyncGroupsharedMemory = 1u << 12,
    kSyncUavMemoryGroup = 1u << 13,
    kSyncUavMemoryGlobal = 1u << 14,
};

class ProgramBuilder {
public:
    explicit ProgramBuilder(BuilderOptions options = {});

    // ---- registers and resources
    Operand temp();                      // a fresh r# (all four components)
    Operand thread_id();                 // vThreadID.xyz (dispatch-wide thread id)
    Operand thread_group_id();           // vThreadGroupID.xyz
    Operand thread_id_in_group();        // vThreadIDInGroup.xyz
    Operand root_constant(uint32_t index);  // 32-bit root constant #index, i.e. cb0[index / 4].xyzw[index % 4]
    Resource srv_raw(uint32_t slot);     // declares dcl_resource_raw t<slot>
    Resource uav_raw(uint32_t slot);     // declares dcl_uav_raw u<slot>
    Resource groupshared_raw(uint32_t bytes);  // declares dcl_tgsm_raw g#, bytes (multiple of 4)
    // Typed buffer views of uint4 elements (DXGI_FORMAT_R32G32B32A32_UINT): dcl_resource_buffer /
    // dcl_uav_typed_buffer (uint,uint,uint,uint). A slot is either raw or typed, never both.
    Resource srv_typed_uint4(uint32_t slot);
    Resource uav_typed_uint4(uint32_t slot);

    // ---- generic emission: checks the allow-list, operand counts and operand shapes
    void emit(Opcode opcode, std::initializer_list<Operand> dst, std::initializer_list<Operand> src);

    // ---- integer and bit instructions (32-bit; wrap-around arithmetic)
    void mov(Operand d, Operand a) { emit(Opcode::kMov, {d}, {a}); }
    void movc(Operand d, Operand cond, Operand if_true, Operand if_false) { emit(Opcode::kMovc, {d}, {cond, if_true, if_false}); }
    void iadd(Operand d, Operand a, Operand b) { emit(Opcode::kIadd, {d}, {a, b}); }
    void isub(Operand d, Operand a, Operand b) { emit(Opcode::kIadd, {d}, {a, -b}); }
    void ineg(Operand d, Operand a) { emit(Opcode::kIneg, {d}, {a}); }
    void imul(Operand d, Operand a, Operand b) { emit(Opcode::kImul, {null_operand(), d}, {a, b}); }  // low 32 bits: also the unsigned product
    void imad(Operand d, Operand a, Operand b, Operand c) { emit(Opcode::kImad, {d}, {a, b, c}); }  // a*b+c, low 32 bits
    // vkd3d 1.2 writes udiv's two results one after the other, so a quotient that overlaps a source corrupts
    // the remainder: refused at build time (a remainder written over its own source is fine).
    void udiv(Operand quotient, Operand remainder, Operand a, Operand b);
    void ishl(Operand d, Operand a, Operand shift) { emit(Opcode::kIshl, {d}, {a, shift}); }
    void ishr(Operand d, Operand a, Operand shift) { emit(Opcode::kIshr, {d}, {a, shift}); }
    void ushr(Operand d, Operand a, Operand shift) { emit(Opcode::kUshr, {d}, {a, shift}); }
    void and_(Operand d, Operand a, Operand b) { emit(Opcode::kAnd, {d}, {a, b}); }
    void or_(Operand d, Operand a, Operand b) { emit(Opcode::kOr, {d}, {a, b}); }
    void xor_(Operand d, Operand a, Operand b) { emit(Opcode::kXor, {d}, {a, b}); }
    void not_(Operand d, Operand a) { emit(Opcode::kNot, {d}, {a}); }
    void umin(Operand d, Operand a, Operand b) { emit(Opcode::kUmin, {d}, {a, b}); }
    void umax(Operand d, Operand a, Operand b) { emit(Opcode::kUmax, {d}, {a, b}); }
    void imin(Operand d, Operand a, Operand b) { emit(Opcode::kImin, {d}, {a, b}); }
    void imax(Operand d, Operand a, Operand b) { emit(Opcode::kImax, {d}, {a, b}); }
    void ult(Operand d, Operand a, Operand b) { emit(Opcode::kUlt, {d}, {a, b}); }
    void uge(Operand d, Operand a, Operand b) { emit(Opcode::kUge, {d}, {a, b}); }
    void ilt(Operand d, Operand a, Operand b) { emit(Opcode::kIlt, {d}, {a, b}); }
    void ige(Operand d, Operand a, Operand b) { emit(Opcode::kIge, {d}, {a, b}); }
    void ieq(Operand d, Operand a, Operand b) { emit(Opcode::kIeq, {d}, {a, b}); }
    void ine(Operand d, Operand a, Operand b) { emit(Opcode::kIne, {d}, {a, b}); }
    void ubfe(Operand d, Operand width, Operand offset, Operand a) { emit(Opcode::kUbfe, {d}, {width, offset, a}); }
    void ibfe(Operand d, Operand width, Operand offset, Operand a) { emit(Opcode::kIbfe, {d}, {width, offset, a}); }
    // d = base with bits [offset, offset+width) replaced by the low bits of insert.
    void bfi(Operand d, Operand width, Operand offset, Operand insert, Operand base) { emit(Opcode::kBfi, {d}, {width, offset, insert, base}); }
    void countbits(Operand d, Operand a) { emit(Opcode::kCountbits, {d}, {a}); }

    // ---- float instructions (IEEE binary32)
    void add(Operand d, Operand a, Operand b) { emit(Opcode::kAdd, {d}, {a, b}); }
    void sub(Operand d, Operand a, Operand b) { emit(Opcode::kAdd, {d}, {a, -b}); }
    void mul(Operand d, Operand a, Operand b) { emit(Opcode::kMul, {d}, {a, b}); }
    void mad(Operand d, Operand a, Operand b, Operand c) { emit(Opcode::kMad, {d}, {a, b, c}); }  // fused on vkd3d 1.2
    void div(Operand d, Operand a, Operand b) { emit(Opcode::kDiv, {d}, {a, b}); }
    void min(Operand d, Operand a, Operand b) { emit(Opcode::kMin, {d}, {a, b}); }
    void max(Operand d, Operand a, Operand b) { emit(Opcode::kMax, {d}, {a, b}); }
    void sqrt(Operand d, Operand a) { emit(Opcode::kSqrt, {d}, {a}); }
    // 2^a (DXBC exp): an approximation whose accuracy the driver decides (see opcodes.cpp).
    void exp2(Operand d, Operand a) { emit(Opcode::kExp, {d}, {a}); }
    void eq(Operand d, Operand a, Operand b) { emit(Opcode::kEq, {d}, {a, b}); }
    void ne(Operand d, Operand a, Operand b) { emit(Opcode::kNe, {d}, {a, b}); }
    void lt(Operand d, Operand a, Operand b) { emit(Opcode::kLt, {d}, {a, b}); }
    void ge(Operand d, Operand a, Operand b) { emit(Opcode::kGe, {d}, {a, b}); }
    void round_ne(Operand d, Operand a) { emit(Opcode::kRoundNe, {d}, {a}); }
    void round_ni(Operand d, Operand a) { emit(Opcode::kRoundNi, {d}, {a}); }
    void round_pi(Operand d, Operand a) { emit(Opcode::kRoundPi, {d}, {a}); }
    void round_z(Operand d, Operand a) { emit(Opcode::kRoundZ, {d}, {a}); }
    void frc(Operand d, Operand a) { emit(Opcode::kFrc, {d}, {a}); }
    void ftoi(Operand d, Operand a) { emit(Opcode::kFtoi, {d}, {a}); }
    void ftou(Operand d, Operand a) { emit(Opcode::kFtou, {d}, {a}); }
    void itof(Operand d, Operand a) { emit(Opcode::kItof, {d}, {a}); }
    void utof(Operand d, Operand a) { emit(Opcode::kUtof, {d}, {a}); }
    void f16tof32(Operand d, Operand a) { emit(Opcode::kF16ToF32, {d}, {a}); }  // low 16 bits of each source
    void f32tof16(Operand d, Operand a) { emit(Opcode::kF32ToF16, {d}, {a}); }  // result in the low 16 bits

    // ---- control flow (structured; checked for balance by finish())
    void if_nz(Operand cond);
    void if_z(Operand cond);
    void else_();
    void endif();
    void loop();
    void endloop();
    void break_();
    void breakc_nz(Operand cond);
    void breakc_z(Operand cond);
    void ret();

    // ---- memory. Addresses are byte offsets (multiples of 4) relative to the bound view.
    // Reads dst.component_count() consecutive 32-bit words into dst's components.
    void ld_raw(Operand dst, Operand byte_address, Resource resource);
    // Writes value.component_count() consecutive 32-bit words (1..4).
    void store_raw(Resource resource, Operand byte_address, Operand value);
    // Typed uint4 views: 16-byte element `element_index` (not a byte address) into dst.xyzw / from value.xyzw.
    void ld_typed(Operand dst, Operand element_index, Resource resource);
    void store_typed(Resource resource, Operand element_index, Operand value);
    void atomic_and(Resource resource, Operand byte_address, Operand value);
    void atomic_or(Resource resource, Operand byte_address, Operand value);
    void atomic_xor(Resource resource, Operand byte_address, Operand value);
    void atomic_iadd(Resource resource, Operand byte_address, Operand value);
    void atomic_umax(Resource resource, Operand byte_address, Operand value);
    void atomic_umin(Resource resource, Operand byte_address, Operand value);
    void sync(uint32_t sync_flags);

    // ---- results
    // The SHEX token stream (version token first), or the first error met while building.
    Result<std::vector<uint32_t>> finish() const;
    // finish() wrapped in a DXBC container (shaders/container.h), ready for CreateComputePipelineState.
    Result<std::vector<uint8_t>> build_dxbc() const;

    uint32_t temps_used() const { return next_temp_; }
    // Instructions emitted so far, declarations excluded (tests compare the cost of kernel bodies).
    uint32_t instruction_count() const { return instruction_count_; }

    // Records a build error (the first one wins); for helper libraries such as shaders/elements.h.
    void fail(const std::string& message);
    // True when dst writes a register component that src reads.
    static bool overlaps(const Operand& dst, const Operand& src);

private:
    static Operand system_value(RegisterType type);
    void emit_raw(uint32_t opcode_token_controls, Opcode opcode, const std::vector<uint32_t>& operand_tokens);
    void emit_memory(Opcode opcode, Operand dst, Operand address, Operand src);
    bool check_operand(const Operand& operand, const char* role);
    void encode_dst(const Operand& d, std::vector<uint32_t>& out);
    void encode_src(const Operand& s, const std::array<uint8_t, 4>& dst_lanes, uint32_t dst_count,
                    std::vector<uint32_t>& out);

    BuilderOptions options_;
    std::vector<uint32_t> body_;
    uint32_t instruction_count_ = 0;
    uint32_t next_temp_ = 0;
    uint32_t constant_vec4s_ = 0;  // cb0 size in float4s
    uint32_t input_masks_[3] = {0, 0, 0};  // vThreadID, vThreadGroupID, vThreadIDInGroup
    std::vector<uint32_t> srv_slots_;
    std::vector<uint32_t> uav_slots_;
    std::vector<uint32_t> typed_srv_slots_;
    std::vector<uint32_t> typed_uav_slots_;
    std::vector<uint32_t> groupshared_bytes_;
    std::vector<Opcode> flow_stack_;  // open if/loop blocks
    Opcode last_opcode_ = Opcode::kNop;
    Operand shift_scratch_;  // holds masked shift counts (see emit)
    std::string error_;
};

}  // namespace dmltool::shaders
