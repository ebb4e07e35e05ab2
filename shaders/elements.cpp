#include "shaders/elements.h"

#include <bit>

namespace dmltool::shaders {
namespace {

bool valid_element_size(ProgramBuilder& b, uint32_t element_bytes) {
    if (element_bytes == 1 || element_bytes == 2 || element_bytes == 4 || element_bytes == 8) return true;
    b.fail("element size must be 1, 2, 4 or 8 bytes, got " + std::to_string(element_bytes));
    return false;
}

bool valid_views(ProgramBuilder& b, const TensorViews& tensor) {
    if (tensor.views.empty()) {
        b.fail("a tensor needs at least one view");
        return false;
    }
    if (tensor.window_log2 < 4 || tensor.window_log2 > kMaxViewBytesLog2) {
        b.fail("tensor window must be 2^4 .. 2^29 bytes");
        return false;
    }
    if ((uint64_t{tensor.views.size()} << tensor.window_log2) > (uint64_t{1} << 32) + (uint64_t{1} << tensor.window_log2)) {
        b.fail("tensor views cover more than 4 GiB: byte addresses are 32-bit");
        return false;
    }
    return true;
}

// Calls access(view, address_within_view) for the view holding byte_address. With one view that is a
// plain call; with several, an if-chain on the window number (SM 5.0 has no resource arrays on vkd3d).
template <typename Access>
void with_view(ProgramBuilder& b, const TensorViews& tensor, Operand byte_address, Access access) {
    if (!valid_views(b, tensor)) return;
    if (tensor.views.size() == 1) {
        access(tensor.views[0], byte_address);
        return;
    }
    Operand t = b.temp();
    b.ushr(t.x(), byte_address, imm(tensor.window_log2));
    b.and_(t.y(), byte_address, imm((1u << tensor.window_log2) - 1));
    for (size_t i = 0; i < tensor.views.size(); ++i) {
        b.ieq(t.z(), t.x(), imm(static_cast<uint32_t>(i)));
        b.if_nz(t.z());
        access(tensor.views[i], t.y());
        b.endif();
    }
}

// Byte address of the word holding element_index, and the element's bit offset within that word.
void subword_position(ProgramBuilder& b, uint32_t element_bytes, Operand element_index, Operand word_address,
                      Operand bit_offset) {
    const uint32_t per_word = 4 / element_bytes;
    b.and_(bit_offset, element_index, imm(per_word - 1));
    b.ishl(bit_offset, bit_offset, imm(element_bytes == 1 ? 3 : 4));
    if (element_bytes == 1) {
        b.and_(word_address, element_index, imm(~3u));
    } else {
        b.ishl(word_address, element_index, imm(1));
        b.and_(word_address, word_address, imm(~3u));
    }
}

}  // namespace

// Typed uint4 views take 16-byte element indices: the byte address (16-aligned) shifted right by 4.
Operand typed_element(ProgramBuilder& b, Operand address) {
    Operand element = b.temp().x();
    b.ushr(element, address, imm(4));
    return element;
}

void load_words(ProgramBuilder& b, const TensorViews& tensor, Operand byte_address, Operand dst) {
    if (tensor.views.size() > 1) b.mov(dst, imm(0));  // an address past every view reads zeros
    with_view(b, tensor, byte_address, [&](Resource view, Operand address) {
        if (view.typed_uint4) return b.ld_typed(dst, typed_element(b, address), view);
        b.ld_raw(dst, address, view);
    });
}

void store_words(ProgramBuilder& b, const TensorViews& tensor, Operand byte_address, Operand value) {
    with_view(b, tensor, byte_address, [&](Resource view, Operand address) {
        if (view.typed_uint4) return b.store_typed(view, typed_element(b, address), value);
        b.store_raw(view, address, value);
    });
}

void load_element(ProgramBuilder& b, const TensorViews& tensor, uint32_t element_bytes, Operand element_index,
                  Operand dst, Extend extend) {
    if (!valid_element_size(b, element_bytes)) return;
    Operand t = b.temp();
    if (element_bytes >= 4) {
        b.ishl(t.x(), element_index, imm(element_bytes == 4 ? 2 : 3));
        load_words(b, tensor, t.x(), element_bytes == 4 ? dst.x() : dst.xy());
        return;
    }
    subword_position(b, element_bytes, element_index, t.x(), t.y());
    load_words(b, tensor, t.x(), t.z());
    const Operand width = imm(element_bytes * 8);
    if (extend == Extend::kSign) {
        b.ibfe(dst.x(), width, t.y(), t.z());
    } else {
        b.ubfe(dst.x(), width, t.y(), t.z());
    }
}

void store_element_atomic(ProgramBuilder& b, const TensorViews& tensor, uint32_t element_bytes,
                          Operand element_index, Operand value) {
    if (!valid_element_size(b, element_bytes)) return;
    Operand t = b.temp();
    if (element_bytes >= 4) {
        b.ishl(t.x(), element_index, imm(element_bytes == 4 ? 2 : 3));
        store_words(b, tensor, t.x(), element_bytes == 4 ? value.x() : value.xy());
        return;
    }
    subword_position(b, element_bytes, element_index, t.x(), t.y());
    const uint32_t element_mask = element_bytes == 1 ? 0xffu : 0xffffu;
    b.ishl(t.z(), imm(element_mask), t.y());  // the element's bits within the word
    b.not_(t.w(), t.z());
    Operand bits = b.temp();
    b.ishl(bits.x(), value.x(), t.y());
    b.and_(bits.x(), bits.x(), t.z());
    // Clear, then set: each atomic touches only this element's bits, so neighbours' updates interleave safely.
    with_view(b, tensor, t.x(), [&](Resource view, Operand address) {
        b.atomic_and(view, address, t.w());
        b.atomic_or(view, address, bits.x());
    });
}

void insert_subword(ProgramBuilder& b, Operand word, uint32_t element_bytes, uint32_t lane, Operand value) {
    if (element_bytes != 1 && element_bytes != 2) return b.fail("insert_subword needs 1- or 2-byte elements");
    if (lane >= 4 / element_bytes) return b.fail("insert_subword: lane outside the word");
    const uint32_t bits = element_bytes * 8;
    b.bfi(word, imm(bits), imm(lane * bits), value, word);
}

void half_to_float(ProgramBuilder& b, Operand dst, Operand src) {
    // Integer reconstruction; subnormal halves go through utof(mantissa) * 2^-24, which is exact and whose
    // result is a normal float, so a device that flushes float denormals still gets them right.
    Operand t = b.temp();
    Operand u = b.temp();
    b.and_(t.y(), src, imm(0x7fff));                   // exponent and mantissa
    b.and_(t.z(), src, imm(0x8000));
    b.ishl(t.z(), t.z(), imm(16));                     // sign in bit 31
    b.ishl(t.w(), t.y(), imm(13));
    b.iadd(t.x(), t.w(), imm((127 - 15) << 23));       // normal: rebias the exponent
    b.utof(u.x(), t.y());
    b.mul(u.x(), u.x(), imm_f(1.0f / 16777216.0f));    // subnormal: mantissa * 2^-24
    b.or_(u.y(), t.w(), imm(0x7f800000));              // inf / NaN keeps the payload
    b.ult(u.z(), t.y(), imm(0x400));
    b.movc(t.x(), u.z(), u.x(), t.x());
    b.uge(u.w(), t.y(), imm(0x7c00));
    b.movc(t.x(), u.w(), u.y(), t.x());
    b.or_(dst, t.x(), t.z());
}

void float_to_half(ProgramBuilder& b, Operand dst, Operand src) {
    // Round-to-nearest-even with integer arithmetic (the well-known "fast3_rtne" formulation): adding
    // 0xfff plus the lowest kept mantissa bit before truncation rounds ties to even. Results that are half
    // subnormals come from one float add with 0.5 (exact RNE alignment of the 10 kept bits).
    Operand t = b.temp();
    Operand u = b.temp();
    b.and_(t.x(), src, imm(0x7fffffff));               // |f|
    b.and_(t.y(), src, imm(0x80000000));
    b.ushr(t.y(), t.y(), imm(16));                     // half sign bit
    b.ushr(t.z(), t.x(), imm(13));
    b.and_(t.z(), t.z(), imm(1));                      // lowest kept mantissa bit
    b.iadd(t.w(), t.x(), imm(static_cast<uint32_t>((15 - 127) << 23) + 0xfff));
    b.iadd(t.w(), t.w(), t.z());
    b.ushr(t.w(), t.w(), imm(13));                     // normal result
    b.add(u.x(), t.x(), imm_f(0.5f));
    b.iadd(u.x(), u.x(), imm(static_cast<uint32_t>(-0x3f000000)));  // subnormal result
    b.ult(u.y(), t.x(), imm(113u << 23));
    b.movc(t.w(), u.y(), u.x(), t.w());
    b.uge(u.y(), t.x(), imm(143u << 23));              // |f| >= 65536: infinity (or NaN below)
    b.movc(t.w(), u.y(), imm(0x7c00), t.w());
    b.ult(u.y(), imm(0x7f800000), t.x());              // NaN
    b.movc(t.w(), u.y(), imm(0x7e00), t.w());
    b.or_(dst, t.w(), t.y());
}

void unfused_mul(ProgramBuilder& b, Operand d, Operand x, Operand y, Operand runtime_zero) {
    b.mul(d, x, y);
    b.or_(d, d, runtime_zero);
}

Operand UintArray::get(ProgramBuilder& b, uint32_t i) const {
    if (!buffer_) return b.root_constant(first_ + i);
    Operand t = b.temp();
    b.ld_raw(t.x(), imm((first_ + i) * 4), *buffer_);
    return t.x();
}

std::vector<Operand> decompose_index(ProgramBuilder& b, Operand linear, uint32_t rank, const UintArray& sizes) {
    std::vector<Operand> coords(rank);
    if (rank == 0) return coords;
    Operand remaining = linear;
    for (uint32_t d = rank - 1; d > 0; --d) {
        Operand t = b.temp();
        b.udiv(t.x(), t.y(), remaining, sizes.get(b, d));
        coords[d] = t.y();
        remaining = t.x();
    }
    coords[0] = remaining;
    return coords;
}

Operand dot_strides(ProgramBuilder& b, const std::vector<Operand>& coords, const UintArray& strides, Operand base) {
    Operand acc = b.temp();
    b.mov(acc.x(), base);
    for (uint32_t i = 0; i < coords.size(); ++i) b.imad(acc.x(), coords[i], strides.get(b, i), acc.x());
    return acc.x();
}

DispatchGrid plan_dispatch(uint64_t threads, uint32_t threads_per_group) {
    constexpr uint64_t kMaxGroupsPerDimension = 65535;
    if (threads == 0 || threads_per_group == 0) return {};
    const uint64_t groups = (threads + threads_per_group - 1) / threads_per_group;
    const uint64_t rows = (groups + kMaxGroupsPerDimension - 1) / kMaxGroupsPerDimension;
    const uint64_t groups_x = (groups + rows - 1) / rows;
    const uint64_t groups_y = (groups + groups_x - 1) / groups_x;
    return {static_cast<uint32_t>(groups_x), static_cast<uint32_t>(groups_y),
            static_cast<uint32_t>(groups_x * threads_per_group)};
}

Operand linear_thread_index(ProgramBuilder& b, Operand threads_per_row) {
    Operand id = b.thread_id();
    Operand t = b.temp();
    b.imad(t.x(), id.y(), threads_per_row, id.x());
    return t.x();
}

}  // namespace dmltool::shaders
