// The resample kernel generator (Emitter, see emitter.h): setup, per-dimension addressing, corner loads and
// the three store paths — rows without a window, flat words, single elements. The windowed row path is in
// emit_window.cpp, the blend arithmetic in blend.cpp.
#include <vector>

#include "ops/resample/emitter.h"

namespace dmltool::ops::resample {

Emitter::Emitter(ProgramBuilder& b, const KernelConfig& config)
    : b_(b),
      config_(config),
      esize_(uint32_t(element_size(config.type))),
      sizes_(UintArray::root_constants(kSizes)),
      out_strides_(UintArray::root_constants(kOutStrides)),
      in_strides_(UintArray::root_constants(kInStrides)) {
    input_.window_log2 = shaders::kMaxViewBytesLog2;
    output_.window_log2 = shaders::kMaxViewBytesLog2;
    for (uint32_t i = 0; i < config.input_views; ++i) input_.views.push_back(b.srv_raw(i));
    for (uint32_t d = 0; d < config.rank; ++d)
        if (config.kinds[d] != DimKind::kIdentity) uses_table_ = true;
    if (config.window_words > 0) uses_table_ = true;  // the chunk table
    if (uses_table_) table_ = b.srv_raw(config.input_views);
    for (uint32_t i = 0; i < config.output_views; ++i) output_.views.push_back(b.uav_raw(i));
}

void Emitter::emit() {
    Operand thread = shaders::linear_thread_index(b_, b_.root_constant(kThreadsPerRow));
    Operand in_range = b_.temp();
    b_.ult(in_range.x(), thread, b_.root_constant(kThreadCount));
    b_.if_nz(in_range.x());
    switch (config_.path) {
        case StorePath::kRows:
            if (config_.window_words > 0) emit_rows_window(thread);
            else emit_rows(thread);
            break;
        case StorePath::kFlatWords: emit_flat_words(thread); break;
        case StorePath::kElements: emit_elements(thread); break;
    }
    b_.endif();
    b_.ret();
}

Term Emitter::dim_term(uint32_t d, Operand coord) {
    Term term;
    term.kind = config_.kinds[d];
    Operand t = b_.temp();
    switch (term.kind) {
        case DimKind::kIdentity:
            b_.imul(t.x(), coord, in_strides_.get(b_, d));
            term.offset = t.x();
            break;
        case DimKind::kGather:
            b_.iadd(t.x(), coord, rc(kTableOffsets + d));
            b_.ishl(t.x(), t.x(), imm(2));
            b_.ld_raw(t.y(), t.x(), table_);
            term.offset = t.y();
            break;
        case DimKind::kBlend: {
            b_.ishl(t.x(), coord, imm(2));
            b_.iadd(t.x(), t.x(), rc(kTableOffsets + d));
            b_.ishl(t.x(), t.x(), imm(2));
            term.tap = b_.temp();
            b_.ld_raw(term.tap.xyzw(), t.x(), table_);
            break;
        }
    }
    return term;
}

// Adds the offsets of the non-blended terms to `base`; collects the blended ones (outermost first).
Operand Emitter::fold_offsets(Operand base, const std::vector<const Term*>& terms, std::vector<const Term*>& blends) {
    Operand sum = base;
    for (const Term* term : terms) {
        if (term->kind == DimKind::kBlend) {
            blends.push_back(term);
            continue;
        }
        Operand t = b_.temp();
        b_.iadd(t.x(), sum, term->offset);
        sum = t.x();
    }
    return sum;
}

Value Emitter::load_corner(Operand source) {
    Operand v = b_.temp();
    Value value;
    switch (config_.type) {
        case DataType::kFloat32:
            shaders::load_element(b_, input_, 4, source, v.x());
            value.hi = v.x();
            break;
        case DataType::kFloat16:
            shaders::load_element(b_, input_, 2, source, v.x());
            shaders::half_to_float(b_, v.y(), v.x());
            value.hi = v.y();
            break;
        case DataType::kInt8:
            shaders::load_element(b_, input_, 1, source, v.x(), Extend::kSign);
            b_.itof(v.y(), v.x());
            value.hi = v.y();
            break;
        default:  // kUint8
            shaders::load_element(b_, input_, 1, source, v.x(), Extend::kZero);
            b_.utof(v.y(), v.x());
            value.hi = v.y();
            break;
    }
    return value;
}

Value Emitter::corners(const std::vector<const Term*>& blends, size_t k, Operand base) {
    if (k == blends.size()) return load_corner(base);
    const Term& term = *blends[k];
    Operand o = b_.temp();
    b_.iadd(o.x(), base, term.tap.x());
    b_.iadd(o.y(), base, term.tap.y());
    const Value a = corners(blends, k + 1, o.x());
    const Value c = corners(blends, k + 1, o.y());
    return blend(a, c, term);
}

// The output element's bits (low element_size bytes of a scalar).
Operand Emitter::element_bits(Operand base, const std::vector<const Term*>& blends) {
    Operand f = b_.temp();
    if (blends.empty()) {  // a pure gather: bit-exact copy
        shaders::load_element(b_, input_, esize_, base, f.x());
        return f.x();
    }
    return finish(corners(blends, 0, base));
}

void Emitter::pack(Operand words, uint32_t lane, Operand bits) {
    if (esize_ == 4) {
        b_.mov(words.component(lane), bits);
    } else {
        const uint32_t per_word = 4 / esize_;
        shaders::insert_subword(b_, words.component(lane / per_word), esize_, lane % per_word, bits);
    }
}

Operand Emitter::word_operand(Operand words, uint32_t count) {
    switch (count) {
        case 1: return words.x();
        case 2: return words.xy();
        case 3: return words.xyz();
        default: return words.xyzw();
    }
}

Emitter::RowStart Emitter::begin_row(Operand thread) {
    const uint32_t rank = config_.rank;
    RowStart start;
    start.row_group = b_.temp();
    b_.udiv(start.row_group.x(), start.row_group.y(), thread, rc(kGroupsPerRow));
    const std::vector<Operand> coords = shaders::decompose_index(b_, start.row_group.x(), rank - 1, sizes_);
    for (uint32_t d = 0; d + 1 < rank; ++d) start.outer.push_back(dim_term(d, coords[d]));
    std::vector<const Term*> outer_ptrs;
    for (const Term& t : start.outer) outer_ptrs.push_back(&t);
    start.outer_base = fold_offsets(rc(kInputBase), outer_ptrs, start.outer_blends);
    start.out_row = shaders::dot_strides(b_, coords, out_strides_, imm(0));
    return start;
}

void Emitter::emit_rows(Operand thread) {
    const uint32_t rank = config_.rank;
    const uint32_t group = config_.group;
    const RowStart row = begin_row(thread);

    Operand col = b_.temp();  // x first column, y last valid column
    b_.ishl(col.x(), row.row_group.y(), imm(log2_of(group)));
    b_.iadd(col.y(), rc(kLastSize), imm(0xffffffffu));
    const uint32_t word_count = group * esize_ / 4;
    Operand words = b_.temp();
    b_.mov(word_operand(words, word_count), imm(0));
    for (uint32_t lane = 0; lane < group; ++lane) {
        Operand c = b_.temp();
        b_.iadd(c.x(), col.x(), imm(lane));
        b_.umin(c.x(), c.x(), col.y());  // past the row's end: recompute the last column (an unaddressed byte)
        const Term last = dim_term(rank - 1, c.x());
        std::vector<const Term*> blends = row.outer_blends;
        std::vector<const Term*> last_terms{&last};
        const Operand base = fold_offsets(row.outer_base, last_terms, blends);
        pack(words, lane, element_bits(base, blends));
    }
    Operand address = b_.temp();
    b_.iadd(address.x(), row.out_row, col.x());
    b_.ishl(address.x(), address.x(), imm(log2_of(esize_)));
    shaders::store_words(b_, output_, address.x(), word_operand(words, word_count));
}

// All terms of one output element (flat index `element`); returns the source base and the blends.
Operand Emitter::element_source(Operand element, std::vector<Term>& terms, std::vector<const Term*>& blends,
                                std::vector<Operand>& coords) {
    coords = shaders::decompose_index(b_, element, config_.rank, sizes_);
    terms.clear();
    terms.reserve(config_.rank);
    for (uint32_t d = 0; d < config_.rank; ++d) terms.push_back(dim_term(d, coords[d]));
    std::vector<const Term*> ptrs;
    for (const Term& t : terms) ptrs.push_back(&t);
    return fold_offsets(rc(kInputBase), ptrs, blends);
}

void Emitter::emit_flat_words(Operand thread) {
    const uint32_t group = config_.group;  // 4 / element size: one output word
    Operand e = b_.temp();                 // x first element, y last element
    b_.ishl(e.x(), thread, imm(log2_of(group)));
    b_.iadd(e.y(), rc(kElementCount), imm(0xffffffffu));
    Operand word = b_.temp();
    b_.mov(word.x(), imm(0));
    for (uint32_t lane = 0; lane < group; ++lane) {
        Operand c = b_.temp();
        b_.iadd(c.x(), e.x(), imm(lane));
        b_.umin(c.x(), c.x(), e.y());  // past the end: a duplicate of the last element in the padding bytes
        std::vector<Term> terms;
        std::vector<const Term*> blends;
        std::vector<Operand> coords;
        const Operand base = element_source(c.x(), terms, blends, coords);
        pack(word, lane, element_bits(base, blends));
    }
    Operand address = b_.temp();
    b_.ishl(address.x(), thread, imm(2));
    shaders::store_words(b_, output_, address.x(), word.x());
}

void Emitter::emit_elements(Operand thread) {
    std::vector<Term> terms;
    std::vector<const Term*> blends;
    std::vector<Operand> coords;
    const Operand base = element_source(thread, terms, blends, coords);
    const Operand bits = element_bits(base, blends);
    const Operand out = shaders::dot_strides(b_, coords, out_strides_, imm(0));
    if (esize_ == 4) {
        Operand address = b_.temp();
        b_.ishl(address.x(), out, imm(2));
        shaders::store_words(b_, output_, address.x(), bits);
    } else {
        // Neighbouring outputs of other threads may share the word: clear-and-set with atomics.
        // store_element_atomic reads value.x() of the register, so the bits must sit in component x.
        Operand value = b_.temp();
        b_.mov(value.x(), bits);
        shaders::store_element_atomic(b_, output_, esize_, out, value.x());
    }
}

}  // namespace dmltool::ops::resample
