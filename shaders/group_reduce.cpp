#include "shaders/group_reduce.h"

namespace dmltool::shaders {

void group_sum_slices(ProgramBuilder& b, Resource shared, Operand value, Operand thread_in_group, uint32_t columns,
                      uint32_t slices, bool integer) {
    if (slices <= 1) return;
    Operand t = b.temp();  // x own byte address, y partner's byte address, z "this slice adds" flag, w partner
    b.ishl(t.x(), thread_in_group, imm(2));
    b.store_raw(shared, t.x(), value);
    b.sync(kSyncThreadsInGroup | kSyncGroupsharedMemory);
    // Halving strides: the slices below `stride` add the slice `stride` above them. The barrier after each step
    // sits outside the branch (every thread reaches it); the last step's store is skipped, as slice 0 keeps its
    // sum in `value` and nothing reads the shared words afterwards.
    for (uint32_t stride = slices / 2; stride >= 1; stride /= 2) {
        b.ult(t.z(), thread_in_group, imm(stride * columns));
        b.if_nz(t.z());
        b.iadd(t.y(), t.x(), imm(stride * columns * 4));
        b.ld_raw(t.w(), t.y(), shared);
        if (integer)
            b.iadd(value, value, t.w());
        else
            b.add(value, value, t.w());
        if (stride > 1) b.store_raw(shared, t.x(), value);
        b.endif();
        if (stride > 1) b.sync(kSyncThreadsInGroup | kSyncGroupsharedMemory);
    }
}

namespace {

void combine(ProgramBuilder& b, ReduceOp op, Operand acc, Operand other) {
    switch (op) {
        case ReduceOp::kAdd: b.add(acc, acc, other); break;
        case ReduceOp::kMax: b.max(acc, acc, other); break;
        case ReduceOp::kImax: b.imax(acc, acc, other); break;
        case ReduceOp::kUmin: b.umin(acc, acc, other); break;
    }
}

}  // namespace

void group_reduce_segments(ProgramBuilder& b, Resource shared, Operand value, Operand thread_in_group,
                           uint32_t segment, ReduceOp op) {
    if (segment <= 1) return;
    if ((segment & (segment - 1)) != 0) return b.fail("group_reduce_segments: segment must be a power of two");
    Operand t = b.temp();  // x own byte address, y the segment's first byte address
    Operand w = b.temp();  // up to four of the segment's values
    b.ishl(t.x(), thread_in_group, imm(2));
    b.store_raw(shared, t.x(), value);
    b.sync(kSyncThreadsInGroup | kSyncGroupsharedMemory);
    b.and_(t.y(), t.x(), imm(~(segment * 4 - 1)));
    // Four words per load (16-byte aligned: segments of 4 or more start at multiples of 16 bytes).
    const uint32_t per_load = segment < 4 ? segment : 4;
    Operand words = per_load == 2 ? w.xy() : w.xyzw();
    b.ld_raw(words, t.y(), shared);
    b.mov(value, w.x());
    for (uint32_t i = 1; i < per_load; ++i) combine(b, op, value, w.component(i));
    if (segment <= 16) {
        for (uint32_t first = 4; first < segment; first += 4) {
            b.iadd(t.z(), t.y(), imm(first * 4));
            b.ld_raw(w.xyzw(), t.z(), shared);
            for (uint32_t i = 0; i < 4; ++i) combine(b, op, value, w.component(i));
        }
        return;
    }
    // Long segments in a loop (the same order): unrolled, 256 threads' words made blobs that lavapipe's LLVM took
    // seconds to compile.
    b.iadd(t.z(), t.y(), imm(16));
    b.iadd(t.w(), t.y(), imm(segment * 4));
    b.loop();
    b.uge(w.x(), t.z(), t.w());
    b.breakc_nz(w.x());
    b.ld_raw(w.xyzw(), t.z(), shared);
    for (uint32_t i = 0; i < 4; ++i) combine(b, op, value, w.component(i));
    b.iadd(t.z(), t.z(), imm(16));
    b.endloop();
}

}  // namespace dmltool::shaders
