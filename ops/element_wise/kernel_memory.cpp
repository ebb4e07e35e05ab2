// How the element-wise emitter's threads read and write their elements (kernel_memory.h).
#include "ops/element_wise/kernel_memory.h"

#include <bit>

namespace dmltool::ops::element_wise::memory {
namespace {

using shaders::imm;
using shaders::Operand;
using shaders::ProgramBuilder;
using shaders::TensorViews;

bool signed_type(DataType type) { return is_signed_integer(type); }

// float16 bits (the low 16 bits of `bits`) as float32: one f16tof32, or the integer conversion.
void widen_half(ProgramBuilder& b, bool native_half, Operand dst, Operand bits) {
    if (native_half) b.f16tof32(dst, bits);
    else shaders::half_to_float(b, dst, bits);
}

// Lane `lane` (of the 16 bytes a thread reads at most) of `words`, an element of `bytes`, into `dst` in its domain
// (float32 for float types, 32-bit integers otherwise).
void extract_lane(ProgramBuilder& b, DataType type, bool native_half, Operand words, uint32_t lane, Operand dst) {
    const uint32_t bytes = uint32_t(element_size(type));
    Operand word = words.component(lane * bytes / 4);
    if (bytes == 4) return b.mov(dst, word);
    const uint32_t width = bytes * 8, offset = lane * width % 32;
    if (type == DataType::kFloat16 && native_half) {  // the opcode reads the low 16 bits
        if (offset == 0) return b.f16tof32(dst, word);
        Operand t = b.temp();
        b.ushr(t.x(), word, imm(offset));
        return b.f16tof32(dst, t.x());
    }
    Operand bits = b.temp();
    if (signed_type(type)) b.ibfe(bits.x(), imm(width), imm(offset), word);
    else b.ubfe(bits.x(), imm(width), imm(offset), word);
    if (type == DataType::kFloat16) shaders::half_to_float(b, dst, bits.x());
    else b.mov(dst, bits.x());
}

}  // namespace

std::vector<Operand> load_input(ProgramBuilder& b, const TensorViews& raw, const TensorViews& typed, DataType type,
                                uint32_t mode, uint32_t lanes, uint32_t groups, bool wide, bool native_half,
                                Operand base, Operand inner_stride) {
    const uint32_t bytes = uint32_t(element_size(type));
    const shaders::Extend extend = signed_type(type) ? shaders::Extend::kSign : shaders::Extend::kZero;
    auto convert = [&](Operand dst, Operand bits) {
        if (type == DataType::kFloat16) widen_half(b, native_half, dst, bits);
        else b.mov(dst, bits);
    };
    std::vector<Operand> values;
    if (lanes == 1 || mode == kRowBroadcast) {
        Operand bits = b.temp(), value = b.temp();
        shaders::load_element(b, raw, bytes, base, bits.x(), extend);
        convert(value.x(), bits.x());
        if (lanes == 4) b.mov(value.yzw(), value.x());
        return std::vector<Operand>(groups, lanes == 4 ? value.xyzw() : value.x());
    }
    Operand t = b.temp();
    if (mode == kScalarLoads) {
        for (uint32_t g = 0; g < groups; ++g) {
            Operand bits = b.temp(), value = b.temp();
            for (uint32_t lane = 0; lane < lanes; ++lane) {
                b.imad(t.x(), imm(g * lanes + lane), inner_stride, base);
                shaders::load_element(b, raw, bytes, t.x(), bits.component(lane), extend);
                convert(value.component(lane), bits.component(lane));
            }
            values.push_back(value.xyzw());
        }
        return values;
    }
    if (wide) {
        Operand words = b.temp();
        b.ishl(t.x(), base, imm(std::countr_zero(bytes)));
        shaders::load_words(b, typed, t.x(), words.xyzw());
        for (uint32_t g = 0; g < groups; ++g) {
            Operand value = b.temp();
            for (uint32_t lane = 0; lane < lanes; ++lane)
                extract_lane(b, type, native_half, words, g * lanes + lane, value.component(lane));
            values.push_back(value.xyzw());
        }
        return values;
    }
    // One load per group (4, 8 or 16 bytes; the input's rows are not 16-byte aligned for all groups at once).
    const uint32_t words_per_group = lanes * bytes / 4;
    for (uint32_t g = 0; g < groups; ++g) {
        Operand words = b.temp(), value = b.temp(), address = b.temp();
        if (g > 0) b.iadd(address.x(), base, imm(g * lanes));
        b.ishl(address.x(), g > 0 ? address.x() : base, imm(std::countr_zero(bytes)));
        shaders::load_words(b, raw, address.x(), words_per_group == 4 ? words.xyzw() : words_per_group == 2 ? words.xy() : words.x());
        for (uint32_t lane = 0; lane < lanes; ++lane) extract_lane(b, type, native_half, words, lane, value.component(lane));
        values.push_back(value.xyzw());
    }
    return values;
}

void store_output(ProgramBuilder& b, const TensorViews& raw, const TensorViews& typed, DataType type, uint32_t lanes,
                  bool native_half, Operand base, const std::vector<Operand>& results) {
    const uint32_t bytes = uint32_t(element_size(type));
    auto narrow = [&](Operand dst, Operand value) {
        if (type != DataType::kFloat16) return b.mov(dst, value);
        if (native_half) return b.f32tof16(dst, value);  // NVIDIA writes 0x7fff for every NaN: still a NaN
        shaders::float_to_half(b, dst, value);
    };
    if (lanes == 1) {
        Operand bits = b.temp();
        narrow(bits.x(), results[0]);
        return shaders::store_element_atomic(b, raw, bytes, base, bits.x());
    }
    const uint32_t count = lanes * uint32_t(results.size()), per_word = 4 / bytes, word_count = count / per_word;
    Operand words = b.temp();
    for (uint32_t lane = 0; lane < count; ++lane) {
        Operand word = words.component(lane / per_word);
        const Operand value = results[lane / lanes].component(lane % lanes);
        if (bytes == 4) {
            narrow(word, value);
            continue;
        }
        if (lane % per_word == 0 && type == DataType::kFloat16 && native_half) {
            b.f32tof16(word, value);  // the upper 16 bits zero
            continue;
        }
        Operand bits = b.temp();
        narrow(bits.x(), value);
        if (lane % per_word == 0) b.and_(word, bits.x(), imm(bytes == 1 ? 0xffu : 0xffffu));  // the word's first element
        else shaders::insert_subword(b, word, bytes, lane % per_word, bits.x());
    }
    Operand t = b.temp();
    b.ishl(t.x(), base, imm(std::countr_zero(bytes)));
    if (word_count == 4) return shaders::store_words(b, typed.views.empty() ? raw : typed, t.x(), words.xyzw());
    shaders::store_words(b, raw, t.x(), word_count == 2 ? words.xy() : words.x());
}

Wide load_input_64(ProgramBuilder& b, const TensorViews& raw, const TensorViews& typed, uint32_t mode, uint32_t lanes,
                   bool typed_load, Operand base, Operand inner_stride) {
    auto lanes_of = [&](Operand r) { return lanes == 4 ? r.xyzw() : r.x(); };
    Operand lo = b.temp(), hi = b.temp(), bits = b.temp();
    if (lanes == 1 || mode == kRowBroadcast) {
        shaders::load_element(b, raw, 8, base, bits.xy());
        b.mov(lanes_of(lo), bits.x());
        b.mov(lanes_of(hi), bits.y());
        return {lanes_of(lo), lanes_of(hi)};
    }
    Operand address = b.temp();
    if (mode == kScalarLoads) {
        for (uint32_t lane = 0; lane < lanes; ++lane) {
            b.imad(address.x(), imm(lane), inner_stride, base);
            shaders::load_element(b, raw, 8, address.x(), bits.xy());
            b.mov(lo.component(lane), bits.x());
            b.mov(hi.component(lane), bits.y());
        }
        return {lo.xyzw(), hi.xyzw()};
    }
    // Elements base .. base + 3: 32 bytes from a 32-byte aligned address, (lo, hi) pairs in element order.
    Operand second = b.temp();
    const TensorViews& views = typed_load ? typed : raw;
    b.ishl(address.x(), base, imm(3));
    b.iadd(address.y(), address.x(), imm(16));
    shaders::load_words(b, views, address.x(), bits.xyzw());
    shaders::load_words(b, views, address.y(), second.xyzw());
    b.mov(lo.xy(), bits.select({0, 2}));
    b.mov(lo.zw(), second.select({0, 2}));
    b.mov(hi.xy(), bits.select({1, 3}));
    b.mov(hi.zw(), second.select({1, 3}));
    return {lo.xyzw(), hi.xyzw()};
}

Wide extend_to_64(ProgramBuilder& b, DataType type, uint32_t lanes, Operand value) {
    Operand hi = lanes == 4 ? b.temp().xyzw() : b.temp().x();
    if (is_signed_integer(type)) b.ishr(hi, value, imm(31));
    else b.mov(hi, imm(0));
    return {value, hi};
}

void store_output_64(ProgramBuilder& b, const TensorViews& raw, const TensorViews& typed, uint32_t lanes, Operand base,
                     Wide result) {
    Operand first = b.temp();
    if (lanes == 1) {
        b.mov(first.x(), result.lo);
        b.mov(first.y(), result.hi);
        return shaders::store_element_atomic(b, raw, 8, base, first.xy());
    }
    Operand second = b.temp(), address = b.temp();
    b.mov(first.select({0, 2}), result.lo.xy());
    b.mov(first.select({1, 3}), result.hi.xy());
    b.mov(second.select({0, 2}), result.lo.zw());
    b.mov(second.select({1, 3}), result.hi.zw());
    const TensorViews& views = typed.views.empty() ? raw : typed;
    b.ishl(address.x(), base, imm(3));
    b.iadd(address.y(), address.x(), imm(16));
    shaders::store_words(b, views, address.x(), first.xyzw());
    shaders::store_words(b, views, address.y(), second.xyzw());
}

}  // namespace dmltool::ops::element_wise::memory
