#include "shaders/kernels.h"

namespace dmltool::shaders {

Result<std::vector<uint8_t>> build_copy16_kernel(const Copy16Options& options) {
    ProgramBuilder b({.thread_group = {kDefaultThreadsPerGroup, 1, 1}});
    TensorViews src{{}, options.window_log2};
    TensorViews dst{{}, options.window_log2};
    for (uint32_t i = 0; i < options.views; ++i) {
        src.views.push_back(b.srv_raw(i));
        dst.views.push_back(b.uav_raw(i));
    }
    Operand index = linear_thread_index(b, b.root_constant(1));
    Operand t = b.temp();
    Operand data = b.temp();
    b.ult(t.x(), index, b.root_constant(0));
    b.if_nz(t.x());
    b.ishl(t.y(), index, imm(4));
    load_words(b, src, t.y(), data.xyzw());
    store_words(b, dst, t.y(), data.xyzw());
    b.endif();
    b.ret();
    return b.build_dxbc();
}

uint64_t strided_gather_threads(uint32_t element_bytes, uint64_t count) {
    const uint64_t per_thread = element_bytes < 4 ? 4 / element_bytes : 1;
    return (count + per_thread - 1) / per_thread;
}

Result<std::vector<uint8_t>> build_strided_gather_kernel(const StridedGatherOptions& options) {
    const uint32_t bytes = options.element_bytes;
    if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8) {
        return invalid_input("strided gather: element size must be 1, 2, 4 or 8 bytes");
    }
    constexpr uint32_t kCount = 0, kThreadsPerRow = 1, kOffset = 2, kFirstSize = 3;
    ProgramBuilder b({.thread_group = {kDefaultThreadsPerGroup, 1, 1}});
    const TensorViews input = TensorViews::single(b.srv_raw(0));
    const TensorViews output = TensorViews::single(b.uav_raw(0));
    const UintArray sizes = options.sizes_in_buffer ? UintArray::in_buffer(b.srv_raw(1), 0)
                                                    : UintArray::root_constants(kFirstSize);
    const UintArray strides = options.sizes_in_buffer ? UintArray::in_buffer(b.srv_raw(1), options.rank)
                                                      : UintArray::root_constants(kFirstSize + options.rank);
    const uint32_t per_thread = bytes < 4 ? 4 / bytes : 1;

    Operand thread = linear_thread_index(b, b.root_constant(kThreadsPerRow));
    Operand t = b.temp();
    Operand word = b.temp();
    b.imul(t.x(), thread, imm(per_thread));             // first element of this thread
    b.ult(t.y(), t.x(), b.root_constant(kCount));
    b.if_nz(t.y());
    b.mov(word.xy(), imm(0));
    for (uint32_t lane = 0; lane < per_thread; ++lane) {
        Operand element = t.x();
        if (lane > 0) {
            b.iadd(t.z(), t.x(), imm(lane));
            element = t.z();
            b.ult(t.w(), element, b.root_constant(kCount));
            b.if_nz(t.w());                             // the last word may be partly past the end
        }
        const std::vector<Operand> coords = decompose_index(b, element, options.rank, sizes);
        Operand source = dot_strides(b, coords, strides, b.root_constant(kOffset));
        Operand value = b.temp();
        load_element(b, input, bytes, source, bytes == 8 ? value.xy() : value.x());
        if (bytes < 4) {
            insert_subword(b, word.x(), bytes, lane, value.x());
        } else {
            b.mov(bytes == 8 ? word.xy() : word.x(), bytes == 8 ? value.xy() : value.x());
        }
        if (lane > 0) b.endif();
    }
    // Output byte address: thread * 4 for sub-word types (one word per thread), element * size otherwise.
    b.ishl(t.w(), bytes < 4 ? thread : t.x(), imm(bytes == 8 ? 3 : 2));
    store_words(b, output, t.w(), bytes == 8 ? word.xy() : word.x());
    b.endif();
    b.ret();
    return b.build_dxbc();
}

}  // namespace dmltool::shaders
