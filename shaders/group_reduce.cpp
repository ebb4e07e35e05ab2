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

}  // namespace dmltool::shaders
