#include <gtest/gtest.h>

#include "shaders/builder.h"
#include "shaders/disasm.h"

namespace dmltool::shaders {
namespace {

TEST(Disassembler, PrintsFxcStyleListing) {
    ProgramBuilder b;
    Resource in = b.srv_raw(0);
    Resource out = b.uav_raw(0);
    Operand id = b.thread_id();
    Operand r = b.temp();
    b.ishl(r.x(), id.x(), imm(4));
    b.ld_raw(r.yzw(), r.x(), in);  // three words into y, z, w
    b.ult(r.x(), id.x(), b.root_constant(0));
    b.if_nz(r.x());
    b.mul(r.y(), r.y(), imm_f(2.0f));
    b.mov(r.zw(), imm4(1, 0xffffffffu, 3, 4).yz());
    b.store_raw(out, imm(0), r.yzw());
    b.endif();
    auto program = b.finish();
    ASSERT_TRUE(program.is_ok()) << program.status().message();
    auto text = disassemble_program(*program);
    ASSERT_TRUE(text.is_ok()) << text.status().message();
    EXPECT_EQ(*text,
              "cs_5_0\n"
              "dcl_constantbuffer CB0[1], immediateIndexed\n"
              "dcl_resource_raw t0\n"
              "dcl_uav_raw u0\n"
              "dcl_input vThreadID.xyz\n"
              "dcl_temps 1\n"
              "dcl_thread_group 64, 1, 1\n"
              "ishl r0.x, vThreadID.x, l(4)\n"
              "ld_raw r0.yzw, r0.x, t0.xxyz\n"
              "ult r0.x, vThreadID.x, cb0[0].x\n"
              "if_nz r0.x\n"
              "  mul [precise(y)] r0.y, r0.y, l(2)\n"
              "  mov r0.zw, l(0, 0, -1, 3)\n"
              "  store_raw u0.xyz, l(0), r0.yzwy\n"
              "endif\n"
              "ret\n");
}

TEST(Disassembler, RejectsTruncatedPrograms) {
    EXPECT_FALSE(disassemble_program(std::vector<uint32_t>{0x00050050, 5, 0x0100003e}).is_ok());
    EXPECT_FALSE(disassemble_program(std::vector<uint32_t>{0x00050050, 3, 0x0500003e}).is_ok());
    EXPECT_FALSE(disassemble_program(std::vector<uint32_t>{0x12345678, 2}).is_ok());
}

}  // namespace
}  // namespace dmltool::shaders
