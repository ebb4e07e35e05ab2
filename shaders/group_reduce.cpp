#include "shaders/group_reduce.h"

#include "shaders/elements.h"

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

uint32_t log2_of(uint32_t power_of_two) {
    uint32_t l = 0;
    while ((1u << l) < power_of_two) ++l;
    return l;
}

constexpr uint32_t kSplitKColumnsContiguous = 8;
constexpr uint64_t kSplitKMaxOutputs = 16384;
constexpr uint64_t kSplitKMinK = 64;

// The sum over k: pos (x offset in A, y offset in B, z k, w scratch) advances by step.xy and k_step until k >= K.
// Returns the accumulator.
Operand k_loop(ProgramBuilder& b, const MatmulConstants& c, Operand pos, Operand step, uint32_t k_step,
               const MatmulSteps& steps) {
    Operand acc = b.temp();
    b.mov(acc.x(), imm(0));
    b.loop();
    b.uge(pos.w(), pos.z(), b.root_constant(c.k));
    b.breakc_nz(pos.w());
    steps.accumulate(pos, acc);
    b.iadd(pos.xy(), pos.xy(), step.xy());
    b.iadd(pos.z(), pos.z(), imm(k_step));
    b.endloop();
    return acc;
}

void combine(ProgramBuilder& b, ReduceOp op, Operand acc, Operand other) {
    switch (op) {
        case ReduceOp::kAdd: b.add(acc, acc, other); break;
        case ReduceOp::kMax: b.max(acc, acc, other); break;
        case ReduceOp::kImax: b.imax(acc, acc, other); break;
        case ReduceOp::kUmin: b.umin(acc, acc, other); break;
    }
}

}  // namespace

void emit_direct_matmul(ProgramBuilder& b, const MatmulConstants& c, const MatmulSteps& steps) {
    auto rc = [&](uint32_t i) { return b.root_constant(i); };
    Operand thread = linear_thread_index(b, rc(c.threads_per_row));
    Operand t = b.temp();
    b.ult(t.x(), thread, rc(c.threads));
    b.if_nz(t.x());
    const std::vector<Operand> coord = decompose_index(b, thread, 4, UintArray::root_constants(c.sizes));
    if (steps.before_loop) steps.before_loop(coord);
    Operand pos = b.temp();  // x offset in A, y offset in B, z k, w loop exit flag
    Operand a_base = dot_strides(b, {coord[0], coord[1], coord[2]}, UintArray::root_constants(c.a_strides), imm(0));
    b.mov(pos.x(), a_base);
    Operand b_base = dot_strides(b, {coord[0], coord[1]}, UintArray::root_constants(c.b_strides), imm(0));
    b.imad(pos.y(), coord[3], rc(c.b_strides + 3), b_base);
    b.mov(pos.z(), imm(0));
    Operand step = b.temp();  // x A step, y B step: one k apart
    b.mov(step.x(), rc(c.a_strides + 3));
    b.mov(step.y(), rc(c.b_strides + 2));
    Operand acc = k_loop(b, c, pos, step, 1, steps);
    steps.epilogue(coord, acc);
    b.endif();
    b.ret();
}

void emit_split_k_matmul(ProgramBuilder& b, const MatmulConstants& c, uint32_t columns, const MatmulSteps& steps) {
    auto rc = [&](uint32_t i) { return b.root_constant(i); };
    const Resource shared = b.groupshared_raw(kSplitKThreads * 4);
    const uint32_t slices = kSplitKThreads / columns;
    Operand tig = b.temp();
    b.mov(tig.x(), b.thread_id_in_group().x());
    Operand gid = b.temp();
    b.mov(gid.x(), b.thread_group_id().x());
    const std::vector<Operand> group = decompose_index(b, gid.x(), 4, UintArray::root_constants(c.group_sizes));
    Operand lane = b.temp();  // x column in the block, y slice, z n (0 past N, which nothing stores), w n < N
    b.and_(lane.x(), tig.x(), imm(columns - 1));
    b.ushr(lane.y(), tig.x(), imm(log2_of(columns)));
    b.imad(lane.z(), group[3], imm(columns), lane.x());
    b.ult(lane.w(), lane.z(), rc(c.sizes + 3));
    b.movc(lane.z(), lane.w(), lane.z(), imm(0));
    const std::vector<Operand> coord = {group[0], group[1], group[2], lane.z()};
    if (steps.before_loop) steps.before_loop(coord);
    Operand pos = b.temp();  // x offset in A, y offset in B, z k, w loop exit flag
    Operand a_base = dot_strides(b, {group[0], group[1], group[2]}, UintArray::root_constants(c.a_strides), imm(0));
    b.imad(pos.x(), lane.y(), rc(c.a_strides + 3), a_base);
    Operand b_base = dot_strides(b, {group[0], group[1]}, UintArray::root_constants(c.b_strides), imm(0));
    b.imad(pos.y(), lane.z(), rc(c.b_strides + 3), b_base);
    b.imad(pos.y(), lane.y(), rc(c.b_strides + 2), pos.y());
    // A column past N sums nothing (k starts at K) but still takes part in the reduction's barriers.
    b.movc(pos.z(), lane.w(), lane.y(), rc(c.k));
    Operand step = b.temp();  // x A step, y B step: `slices` k apart
    b.imul(step.x(), rc(c.a_strides + 3), imm(slices));
    b.imul(step.y(), rc(c.b_strides + 2), imm(slices));
    Operand acc = k_loop(b, c, pos, step, slices, steps);
    group_sum_slices(b, shared, acc.x(), tig.x(), columns, slices, steps.integer_sum);
    Operand t = b.temp();
    b.ult(t.x(), tig.x(), imm(columns));
    b.and_(t.x(), t.x(), lane.w());
    b.if_nz(t.x());
    steps.epilogue(coord, acc);
    b.endif();
    b.ret();
}

void emit_matmul(ProgramBuilder& b, const MatmulConstants& c, uint32_t columns, const MatmulSteps& steps) {
    if (columns != 0)
        emit_split_k_matmul(b, c, columns, steps);
    else
        emit_direct_matmul(b, c, steps);
}

SplitKPlan plan_split_k(uint64_t outputs, uint64_t k, uint64_t n, uint64_t b_stride_k, uint64_t b_stride_n,
                        MatmulChoice choice) {
    const bool split = outputs > 0 && outputs <= kSplitKMaxOutputs && k < (uint64_t{1} << 31) &&
                       (choice == MatmulChoice::kSplitK || (choice == MatmulChoice::kAuto && k >= kSplitKMinK));
    if (!split) return {};
    const uint32_t columns =
        (b_stride_k == 1 || b_stride_n != 1 || n < kSplitKColumnsContiguous) ? 1 : kSplitKColumnsContiguous;
    return {columns, (n + columns - 1) / columns};
}

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
