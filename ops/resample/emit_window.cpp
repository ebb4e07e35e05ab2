// The row path with a window (KernelConfig::window_words) and its short-weight variant
// (KernelConfig::short_weights): Emitter members, see emitter.h. The host side (which rows qualify, the chunk
// table) is plan_window in plan.cpp; the arithmetic they share with the other paths is in blend.cpp.
#include <optional>
#include <vector>

#include "ops/resample/emitter.h"

namespace dmltool::ops::resample {

// ---- kRows with a window (config.window_words > 0) ----
//
// The chunk table has one 8-word entry per `group` columns of an output row: x = start, the byte offset
// (a multiple of 4, relative to the row's input base) of the window of window_words words, then for each
// lane (output column of the chunk) a 4-bit selector — the byte index within the window of the element
// that lane reads (sel0: the element itself, or x0 of a blended last dimension; sel1: x1). The host only
// picks this path where every row base is 4-byte aligned, every chunk's elements fit the window, and every
// window lies inside the input buffer, so the window's words are exactly the words the per-lane loads of
// the general path would touch (plus at most a few neighbours).

// The element at byte `k` (scalar, 0..4 * window_words - 1, a multiple of the element size) of `window`,
// zero- or sign-extended to 32 bits (element bits; a float32 as is).
Operand Emitter::window_element(Operand window, Operand k) {
    const uint32_t words = config_.window_words;
    Operand t = b_.temp();
    Operand word = window.x();
    if (words >= 2) {
        b_.and_(t.x(), k, imm(4));
        b_.movc(t.y(), t.x(), window.y(), window.x());
        if (words == 4) {
            b_.movc(t.z(), t.x(), window.w(), window.z());
            b_.and_(t.x(), k, imm(8));
            b_.movc(t.y(), t.x(), t.z(), t.y());
        }
        word = t.y();
    }
    if (esize_ == 4) return word;
    b_.ishl(t.z(), k, imm(3));
    b_.and_(t.z(), t.z(), imm(24));  // (k mod 4) * 8: 0, 8, 16, 24 (bytes) or 0, 16 (halves)
    if (config_.type == DataType::kInt8) b_.ibfe(t.w(), imm(8), t.z(), word);
    else b_.ubfe(t.w(), imm(esize_ * 8), t.z(), word);
    return t.w();
}

// Lane `lane`'s selector `which` (0: sel0, 1: sel1) from the chunk entry (lo = words 0-3, hi = words 4-7).
Operand Emitter::selector(Operand entry_lo, Operand entry_hi, uint32_t lane, uint32_t which) {
    Operand source = which == 0 ? (lane < 8 ? entry_lo.y() : entry_lo.z()) : (lane < 8 ? entry_hi.x() : entry_hi.y());
    Operand k = b_.temp();
    b_.ubfe(k.x(), imm(4), imm(4 * (lane % 8)), source);
    return k.x();
}

Value Emitter::window_value(Operand window, Operand k) {
    const Operand bits = window_element(window, k);
    Value value;
    Operand v = b_.temp();
    switch (config_.type) {
        case DataType::kFloat32: value.hi = bits; break;
        case DataType::kFloat16:
            shaders::half_to_float(b_, v.x(), bits);
            value.hi = v.x();
            break;
        case DataType::kInt8: b_.itof(v.x(), bits); value.hi = v.x(); break;
        default: b_.utof(v.x(), bits); value.hi = v.x(); break;
    }
    return value;
}

// Row bases (elements) of every corner of the outer blended dimensions, outermost dimension first (bit
// order as in corners(): the first blend is the most significant index bit).
void Emitter::row_bases(const std::vector<const Term*>& blends, size_t k, Operand base, std::vector<Operand>& out) {
    if (k == blends.size()) {
        out.push_back(base);
        return;
    }
    Operand o = b_.temp();
    b_.iadd(o.x(), base, blends[k]->tap.x());
    b_.iadd(o.y(), base, blends[k]->tap.y());
    row_bases(blends, k + 1, o.x(), out);
    row_bases(blends, k + 1, o.y(), out);
}

// The blended value of one lane: the same sequence of blends, in the same order, as corners() (so the same
// arithmetic), with the corner values picked out of the row windows.
Value Emitter::window_corners(const std::vector<const Term*>& blends, size_t k, uint32_t index,
                              const std::vector<Operand>& windows, Operand k0, Operand k1, const Term* last) {
    if (k == blends.size()) {
        const Operand window = windows[index];
        if (last == nullptr) return window_value(window, k0);
        const Value a = window_value(window, k0);
        const Value c = window_value(window, k1);
        return blend(a, c, *last);
    }
    const Value a = window_corners(blends, k + 1, index * 2, windows, k0, k1, last);
    const Value c = window_corners(blends, k + 1, index * 2 + 1, windows, k0, k1, last);
    return blend(a, c, *blends[k]);
}

// ---- kRows with a window and short weights (config.short_weights) ----
//
// Chunk entry: {start, sel0[0..7], sel1[0..7], code[0..7], sel0[8..15], sel1[8..15], code[8..15], 0},
// 4 bits per lane each; code = 16 * w1 of the lane's column (the last dimension's weights are n/16).

// Field `which` (0 sel0, 1 sel1, 2 code) of lane `lane`.
Operand Emitter::short_field(Operand entry_lo, Operand entry_hi, uint32_t lane, uint32_t which) {
    const Operand source = lane < 8 ? entry_lo.component(1 + which) : entry_hi.component(which);
    Operand k = b_.temp();
    b_.ubfe(k.x(), imm(4), imm(4 * (lane % 8)), source);
    return k.x();
}

// The thread's chunk-table entry: words 0-3 into entry_lo, and words 4.. into entry_hi when it is not null
// (as many as its selection has components).
void Emitter::load_chunk_entry(const RowStart& row, Operand entry_lo, Operand entry_hi) {
    Operand a = b_.temp();
    b_.ishl(a.x(), row.row_group.y(), imm(log2_of(kChunkEntryWords)));
    b_.iadd(a.x(), a.x(), rc(kChunkTable));
    b_.ishl(a.x(), a.x(), imm(2));
    b_.ld_raw(entry_lo.xyzw(), a.x(), table_);
    if (!entry_hi.is_null()) {
        b_.iadd(a.y(), a.x(), imm(16));
        b_.ld_raw(entry_hi, a.y(), table_);
    }
}

// One window of config_.window_words input words per corner row of the outer blended dimensions, starting at
// the entry's first input column.
std::vector<Operand> Emitter::load_row_windows(const RowStart& row, Operand entry_lo) {
    std::vector<Operand> bases;
    row_bases(row.outer_blends, 0, row.outer_base, bases);
    std::vector<Operand> windows;
    for (Operand base : bases) {
        Operand address = b_.temp();
        b_.ishl(address.x(), base, imm(log2_of(esize_)));
        b_.iadd(address.x(), address.x(), entry_lo.x());
        Operand window = b_.temp();
        shaders::load_words(b_, input_, address.x(), word_operand(window, config_.window_words));
        windows.push_back(window);
    }
    return windows;
}

void Emitter::emit_rows_window_short(Operand thread) {
    const uint32_t group = config_.group;
    const RowStart row = begin_row(thread);

    Operand entry_lo = b_.temp();
    Operand entry_hi = b_.temp();
    load_chunk_entry(row, entry_lo, group > 8 ? entry_hi.xyz() : Operand());
    const std::vector<Operand> windows = load_row_windows(row, entry_lo);

    Operand col = b_.temp();
    b_.ishl(col.x(), row.row_group.y(), imm(log2_of(group)));
    const uint32_t word_count = group * esize_ / 4;
    Operand words = b_.temp();
    b_.mov(word_operand(words, word_count), imm(0));
    for (uint32_t lane = 0; lane < group; ++lane) {
        const Operand k0 = short_field(entry_lo, entry_hi, lane, 0);
        const Operand k1 = short_field(entry_lo, entry_hi, lane, 1);
        const Operand code = short_field(entry_lo, entry_hi, lane, 2);
        Term last;
        last.kind = DimKind::kBlend;
        last.tap = b_.temp();  // z w0, w w1 (x, y unused)
        b_.utof(last.tap.w(), code);
        b_.mul(last.tap.w(), last.tap.w(), imm_f(0.0625f));  // w1 = n / 16, exact
        b_.sub(last.tap.z(), imm_f(1.0f), last.tap.w());     // w0 = 1 - w1, exact
        const Value v = window_corners(row.outer_blends, 0, 0, windows, k0, k1, &last);
        pack(words, lane, finish(v, /*clamp=*/false));  // 8-bit: exact in float32 (see blend.cpp), no clamp
    }
    Operand address = b_.temp();
    b_.iadd(address.x(), row.out_row, col.x());
    b_.ishl(address.x(), address.x(), imm(log2_of(esize_)));
    shaders::store_words(b_, output_, address.x(), word_operand(words, word_count));
}

void Emitter::emit_rows_window(Operand thread) {
    if (config_.short_weights) return emit_rows_window_short(thread);
    const uint32_t rank = config_.rank;
    const uint32_t group = config_.group;
    const bool last_blend = config_.kinds[rank - 1] == DimKind::kBlend;
    const RowStart row = begin_row(thread);

    Operand entry_lo = b_.temp();
    Operand entry_hi = b_.temp();
    load_chunk_entry(row, entry_lo, last_blend ? entry_hi.xyzw() : Operand());
    const std::vector<Operand> windows = load_row_windows(row, entry_lo);

    Operand col = b_.temp();  // x first column, y last valid column
    b_.ishl(col.x(), row.row_group.y(), imm(log2_of(group)));
    b_.iadd(col.y(), rc(kLastSize), imm(0xffffffffu));
    const uint32_t word_count = group * esize_ / 4;
    Operand words = b_.temp();
    b_.mov(word_operand(words, word_count), imm(0));
    for (uint32_t lane = 0; lane < group; ++lane) {
        const Operand k0 = selector(entry_lo, entry_hi, lane, 0);
        if (row.outer_blends.empty() && !last_blend) {  // a pure gather: bit-exact copy
            pack(words, lane, window_element(windows[0], k0));
            continue;
        }
        std::optional<Term> last;
        Operand k1;
        if (last_blend) {
            Operand c = b_.temp();
            b_.iadd(c.x(), col.x(), imm(lane));
            b_.umin(c.x(), c.x(), col.y());  // past the row's end: the last column (an unaddressed byte)
            last = dim_term(rank - 1, c.x());
            k1 = selector(entry_lo, entry_hi, lane, 1);
        }
        const Value v = window_corners(row.outer_blends, 0, 0, windows, k0, k1, last ? &*last : nullptr);
        pack(words, lane, finish(v));
    }
    Operand address = b_.temp();
    b_.iadd(address.x(), row.out_row, col.x());
    b_.ishl(address.x(), address.x(), imm(log2_of(esize_)));
    shaders::store_words(b_, output_, address.x(), word_operand(words, word_count));
}

}  // namespace dmltool::ops::resample
