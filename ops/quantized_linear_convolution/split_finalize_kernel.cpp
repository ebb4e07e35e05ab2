// The finalize kernel of the float path with split input channels: adds the slices' int32 partial sums of each
// output and requantizes them (see SplitFinalizeKernelOptions in kernel.h).
#include <cstdint>
#include <vector>

#include "ops/quantized_linear_convolution/kernel.h"
#include "ops/quantized_linear_convolution/kernel_internal.h"

namespace dmltool::ops::quantized_linear_convolution {
using namespace internal;

Result<std::vector<uint8_t>> build_split_finalize_kernel(const SplitFinalizeKernelOptions& o) {
    if (o.splits < 2 || o.splits > 64) return invalid_input("split finalize kernel: splits must be 2..64");
    ProgramBuilder b({.thread_group = {kThreadsPerGroup, 1, 1}});
    auto rc = [&](uint32_t i) { return b.root_constant(i); };
    const Resource partial = b.srv_raw(0);
    const Resource scratch = b.srv_raw(1);
    const TensorViews output = TensorViews::single(b.uav_raw(0));
    Operand thread = shaders::linear_thread_index(b, rc(kThreadsPerRow));
    Operand t = b.temp();
    b.ult(t.x(), thread, rc(kThreads));
    b.if_nz(t.x());
    // Thread i: quad i of the partial layout, (n, m, oh, column quad) = the planner's kSizeN.. decomposition.
    const std::vector<Operand> coord =
        shaders::decompose_index(b, thread, 4, shaders::UintArray::root_constants(kSizeN));
    Operand sum = b.temp(), part = b.temp(), addr = b.temp();
    b.ishl(addr.x(), thread, imm(4));
    b.ishl(addr.y(), rc(kPartialSplit), imm(2));
    b.ld_raw(sum.xyzw(), addr.x(), partial);
    for (uint32_t s = 1; s < o.splits; ++s) {
        b.iadd(addr.x(), addr.x(), addr.y());
        b.ld_raw(part.xyzw(), addr.x(), partial);
        b.iadd(sum.xyzw(), sum.xyzw(), part.xyzw());
    }
    Operand p = b.temp();  // x m, z ow0 (emit_store_tile's layout)
    b.mov(p.x(), coord[1]);
    b.ishl(p.z(), coord[3], imm(2));
    emit_store_tile(b, o.output_signed, {sum}, 1, 1, coord[0], coord[2], p, scratch, output);
    b.endif();
    b.ret();
    return b.build_dxbc();
}

}  // namespace dmltool::ops::quantized_linear_convolution
