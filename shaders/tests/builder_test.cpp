// The builder's contract: legal programs validate with vkd3d 1.2 + spirv-val; refused opcodes and malformed
// programs are errors at build time, never silently wrong kernels.
#include <gtest/gtest.h>

#include "shaders/builder.h"
#include "shaders/container.h"
#include "shaders/disasm.h"
#include "shaders/testing/validate_blob.h"

namespace dmltool::shaders {
namespace {

void expect_valid(const ProgramBuilder& b, const std::string& name) {
    auto blob = b.build_dxbc();
    ASSERT_TRUE(blob.is_ok()) << blob.status().message();
    const testing::BlobValidation v = testing::validate_with_vkd3d(*blob, name);
    if (!v.tools_found) GTEST_SKIP() << v.log;
    auto text = disassemble_container(*blob);
    EXPECT_TRUE(v.ok) << v.log << "\n" << (text.is_ok() ? *text : text.status().message());
}

void expect_refused(const ProgramBuilder& b, const std::string& fragment) {
    auto program = b.finish();
    ASSERT_FALSE(program.is_ok());
    EXPECT_EQ(program.status().code(), ErrorCode::kInternal);
    EXPECT_NE(program.status().message().find(fragment), std::string::npos) << program.status().message();
}

// A program with every allowed instruction shape, so one validation run covers the whole allow-list.
TEST(ProgramBuilder, EveryAllowedInstructionValidates) {
    ProgramBuilder b;
    Resource in = b.srv_raw(0);
    Resource out = b.uav_raw(1);
    Resource shared = b.groupshared_raw(256);
    Operand id = b.thread_id();
    Operand r = b.temp(), s = b.temp(), f = b.temp();
    b.ishl(r.x(), id.x(), imm(4));
    b.ld_raw(s.xyzw(), r.x(), in);
    b.iadd(s.x(), s.x(), b.root_constant(5));
    b.isub(s.y(), s.y(), s.x());
    b.ineg(s.z(), s.z());
    b.imul(s.w(), s.w(), imm(3));
    b.imad(s.x(), s.x(), s.y(), imm(7));
    b.udiv(r.y(), r.z(), s.x(), imm(7));
    b.ishr(s.y(), s.y(), r.y());
    b.ushr(s.z(), s.z(), imm(33));
    b.and_(s.x(), s.x(), s.y());
    b.or_(s.x(), s.x(), s.z());
    b.xor_(s.x(), s.x(), s.w());
    b.not_(s.y(), s.x());
    b.umin(s.x(), s.x(), s.y());
    b.umax(s.x(), s.x(), s.y());
    b.imin(s.x(), s.x(), s.y());
    b.imax(s.x(), s.x(), s.y());
    b.ult(r.w(), s.x(), s.y());
    b.uge(r.w(), s.x(), s.y());
    b.ilt(r.w(), s.x(), s.y());
    b.ige(r.w(), s.x(), s.y());
    b.ieq(r.w(), s.x(), s.y());
    b.ine(r.w(), s.x(), s.y());
    b.movc(s.xy(), r.w(), s.zw(), imm4(1, 2, 3, 4).xy());
    b.ubfe(s.x(), imm(8), imm(8), s.x());
    b.ibfe(s.y(), imm(8), imm(16), s.y());
    b.bfi(s.z(), imm(8), imm(24), s.x(), s.z());
    b.countbits(s.w(), s.w());
    b.itof(f.x(), s.x());
    b.utof(f.y(), s.y());
    b.add(f.x(), f.x(), f.y());
    b.sub(f.x(), f.x(), -f.y().abs());
    b.mul(f.y(), f.x(), imm_f(0.5f));
    b.mad(f.z(), f.x(), f.y(), imm_f(1.0f));
    b.div(f.w(), f.x(), f.z());
    b.min(f.x(), f.x(), f.w());
    b.max(f.y(), f.y(), f.w());
    b.sqrt(f.z(), f.z().abs());
    b.exp2(f.x(), f.y());
    b.eq(r.w(), f.x(), f.y());
    b.ne(r.w(), f.x(), f.y());
    b.lt(r.w(), f.x(), f.y());
    b.ge(r.w(), f.x(), f.y());
    b.round_ne(f.x(), f.x());
    b.round_ni(f.y(), f.y());
    b.round_pi(f.z(), f.z());
    b.round_z(f.w(), f.w());
    b.frc(f.x(), f.x());
    b.ftoi(s.x(), f.x());
    b.ftou(s.y(), f.y());
    b.f32tof16(s.z(), f.z());
    b.f16tof32(f.w(), s.z());
    b.if_nz(r.w());
    b.store_raw(shared, imm(0), s.x());
    b.else_();
    b.store_raw(shared, imm(4), s.xy());
    b.endif();
    b.sync(kSyncThreadsInGroup | kSyncGroupsharedMemory);
    b.ld_raw(s.x(), imm(0), shared);
    b.mov(r.x(), imm(0));
    b.loop();
    b.uge(r.w(), r.x(), imm(4));
    b.breakc_nz(r.w());
    b.iadd(r.x(), r.x(), imm(1));
    b.if_z(r.x());
    b.break_();
    b.endif();
    b.endloop();
    b.atomic_and(out, imm(0), s.x());
    b.atomic_or(out, imm(0), s.y());
    b.atomic_xor(out, imm(0), s.z());
    b.atomic_iadd(out, imm(0), s.w());
    b.atomic_umax(out, imm(0), s.w());
    b.atomic_umin(out, imm(0), s.w());
    b.ishl(r.y(), id.x(), imm(4));
    b.store_raw(out, r.y(), f.xyzw());
    b.ret();
    expect_valid(b, "every_allowed_instruction");
}

TEST(ProgramBuilder, RefusesOpcodesVkd3dMistranslates) {
    struct Case {
        Opcode opcode;
        int dsts;
        int srcs;
        const char* fragment;
    };
    const Case cases[] = {
        {Opcode::kUmul, 2, 2, "umul is refused: vkd3d 1.2 silently drops umul"},
        {Opcode::kUmad, 1, 3, "umad is refused"},
        {Opcode::kUaddc, 2, 2, "uaddc is refused"},
        {Opcode::kUsubb, 2, 2, "usubb is refused"},
        {Opcode::kDadd, 1, 2, "dadd is refused: double precision"},
        {Opcode::kDmul, 1, 2, "dmul is refused"},
        {Opcode::kFtod, 1, 1, "ftod is refused"},
    };
    for (const Case& c : cases) {
        ProgramBuilder b;
        Operand r = b.temp();
        const Operand d = r.x();
        const Operand s = r.y();
        if (c.dsts == 2 && c.srcs == 2) b.emit(c.opcode, {null_operand(), d}, {s, s});
        if (c.dsts == 1 && c.srcs == 3) b.emit(c.opcode, {d}, {s, s, s});
        if (c.dsts == 1 && c.srcs == 2) b.emit(c.opcode, {d}, {s, s});
        if (c.dsts == 1 && c.srcs == 1) b.emit(c.opcode, {d}, {s});
        expect_refused(b, c.fragment);
    }
    ProgramBuilder unknown;
    unknown.emit(static_cast<Opcode>(0x7f0), {}, {});
    expect_refused(unknown, "not on the allow-list");
}

TEST(ProgramBuilder, RefusesImulHighPart) {
    ProgramBuilder b;
    Operand r = b.temp();
    b.emit(Opcode::kImul, {r.x(), r.y()}, {r.z(), r.w()});
    expect_refused(b, "high-part");
}

TEST(ProgramBuilder, RefusesMalformedPrograms) {
    {
        ProgramBuilder b;
        Operand r = b.temp();
        b.if_nz(r.x());
        expect_refused(b, "unclosed");
    }
    {
        ProgramBuilder b;
        b.endloop();
        expect_refused(b, "endloop without an open loop");
    }
    {
        ProgramBuilder b;
        b.break_();
        expect_refused(b, "break outside a loop");
    }
    {
        ProgramBuilder b;
        Operand r = b.temp();
        b.if_nz(r.x());
        b.ret();
        b.endif();
        expect_refused(b, "ret inside");
    }
    {
        ProgramBuilder b;
        Operand r = b.temp();
        b.mov(r.xyz(), r.xy());
        expect_refused(b, "source has 2 components for 3");
    }
    {
        ProgramBuilder b;
        Operand r = b.temp();
        b.mov(r.select({1, 0}), r.xy());
        expect_refused(b, "xyzw order");
    }
    {
        ProgramBuilder b;
        Operand r = b.temp();
        b.mov(imm(1), r.x());
        expect_refused(b, "destination must be");
    }
    {
        ProgramBuilder b;
        Operand r = b.temp();
        b.mov(r.x(), r.select({4}));
        expect_refused(b, "component index");
    }
    {
        ProgramBuilder b;
        b.store_raw(b.srv_raw(0), imm(0), imm(1));
        expect_refused(b, "read-only");
    }
    {
        ProgramBuilder b({.thread_group = {2048, 1, 1}});
        expect_refused(b, "thread group");
    }
}

// vkd3d 1.2 hands shift counts to SPIR-V unmasked (>= 32 is undefined there); the builder masks them.
TEST(ProgramBuilder, MasksShiftCounts) {
    ProgramBuilder b;
    Operand r = b.temp();
    b.ishl(r.x(), r.y(), imm(33));
    b.ushr(r.x(), r.y(), r.z());
    auto program = b.finish();
    ASSERT_TRUE(program.is_ok()) << program.status().message();
    auto text = disassemble_program(*program);
    ASSERT_TRUE(text.is_ok());
    EXPECT_NE(text->find("ishl r0.x, r0.y, l(1)"), std::string::npos) << *text;
    EXPECT_NE(text->find("and r1.x, r0.z, l(31)\nushr r0.x, r0.y, r1.x"), std::string::npos) << *text;
}

TEST(ProgramBuilder, DeclaresWhatTheBodyUses) {
    ProgramBuilder b({.thread_group = {32, 2, 1}});
    Resource out = b.uav_raw(3);
    Operand r = b.temp();
    b.iadd(r.x(), b.thread_id_in_group().x(), b.root_constant(6));
    b.store_raw(out, imm(0), r.x());
    auto program = b.finish();
    ASSERT_TRUE(program.is_ok());
    auto text = disassemble_program(*program);
    ASSERT_TRUE(text.is_ok());
    EXPECT_EQ(*text,
              "cs_5_0\n"
              "dcl_constantbuffer CB0[2], immediateIndexed\n"
              "dcl_uav_raw u3\n"
              "dcl_input vThreadIDInGroup.xyz\n"
              "dcl_temps 1\n"
              "dcl_thread_group 32, 2, 1\n"
              "iadd r0.x, vThreadIDInGroup.x, cb0[1].z\n"
              "store_raw u3.x, l(0), r0.x\n"
              "ret\n");
    expect_valid(b, "declarations");
}

}  // namespace
}  // namespace dmltool::shaders

namespace dmltool::shaders {
namespace {

// A component picked from an already narrowed operand refers to that selection, not to the register:
// f.y().x() must read f.y (helpers receive such operands and call .x() on them).
TEST(BuilderSelection, SelectionsCompose) {
    ProgramBuilder b({.thread_group = {1, 1, 1}});
    Operand f = b.temp();
    Operand y = f.y();
    EXPECT_EQ(y.x().component_count(), 1u);
    EXPECT_EQ(y.x().component_at(0), 1u);
    EXPECT_EQ(f.zw().y().component_at(0), 3u);
    EXPECT_EQ(f.yzw().select({2, 0}).component_at(0), 3u);
    EXPECT_EQ(f.yzw().select({2, 0}).component_at(1), 1u);
    EXPECT_EQ(f.x().component_at(0), 0u);
}

// Asking for a component the selection does not have is an error when the operand is used, not a silent
// read of another register component.
TEST(BuilderSelection, OutOfSelectionComponentIsAnError) {
    ProgramBuilder b({.thread_group = {1, 1, 1}});
    Operand f = b.temp();
    b.mov(f.x().y(), imm(1));
    b.ret();
    EXPECT_FALSE(b.build_dxbc().is_ok());
}

}  // namespace
}  // namespace dmltool::shaders

namespace dmltool::shaders {
namespace {

// vkd3d 1.2 computes udiv's quotient into its destination before the remainder: an overlapping source would
// be read after it changed, so the builder refuses it instead of emitting a silently wrong kernel.
TEST(BuilderUdiv, DestinationOverlappingASourceIsRefused) {
    ProgramBuilder bad({.thread_group = {1, 1, 1}});
    Operand t = bad.temp();
    bad.udiv(t.x(), t.y(), t.x(), imm(3));
    bad.ret();
    auto refused = bad.build_dxbc();
    ASSERT_FALSE(refused.is_ok());
    EXPECT_NE(refused.status().message().find("udiv: the quotient overlaps a source"), std::string::npos);

    ProgramBuilder good({.thread_group = {1, 1, 1}});
    Operand u = good.temp();
    good.udiv(u.z(), u.w(), u.y(), imm(3));  // other components of the same register are fine
    good.udiv(null_operand(), u.y(), u.y(), imm(5));  // a lone remainder may replace its source
    good.udiv(u.x(), null_operand(), u.x(), imm(5));  // and so may a lone quotient
    good.ret();
    EXPECT_TRUE(good.build_dxbc().is_ok());
}

}  // namespace
}  // namespace dmltool::shaders
