// GPU kernels of DML_RESAMPLE v1.
//
// Host side (plan_resample): per output dimension, the tables the CPU reference uses are built with
// coordinates.h (nearest_index for the semantics' rule; linear_tap) and classified:
//   identity  — source index == output index (scale 1 with a matching size, or a crop): offset = c * stride;
//   gather    — nearest, or linear whose weights are all exactly {1, 0}: a table of premultiplied offsets;
//   blend     — linear otherwise: a table of {x0 * stride, x1 * stride, w0, w1} per output coordinate.
// Skipping the zero-weight corner of identity/gather dimensions gives the reference's result (the weights there
// are exactly 1 and 0) for every finite input. Size-1 gather dimensions fold into a constant input offset,
// adjacent identity dimensions with compatible strides merge, so packed NCHW upsampling of H and W becomes
// rank 3 {N*C identity, H, W}: 4 corners per output, 2 udivs per thread.
//
// Device side: the kernel does no coordinate math, only table loads, gathers and blends. Variants are
// specialised on data type, canonical rank, each dimension's kind and the store path (see StorePath); sizes,
// strides and table positions are root constants, so one blob serves every shape of a class.
//   kRows: the output's last dimension is contiguous and every row starts 16-byte (else 4-byte) aligned; a
//   thread writes 16 (4) bytes of one row with one store — consecutive threads write consecutive vectors. Lanes
//   past the row's end are clamped to the last column and land in bytes no output element addresses.
//   kRows with a window (KernelConfig::window_words, chosen by plan_window): where every row base is 4-byte
//   aligned and each thread's columns read at most 4 consecutive input words per input row (upsampling, mild
//   downsampling), the thread loads those words once per input row it reads and picks its elements with 4-bit
//   byte selectors from a per-chunk table; the blends are the same operations in the same order, so results
//   are bit-identical to the per-lane path.
//   kFlatWords / kElements: the general layouts (see kernel.h).
//
// Linear arithmetic. The reference sums the 2^k corner products in double and rounds once. A plain float32
// sum is NOT within the tolerance (4 ulp float32, 2 ulp float16): with mixed-sign inputs the result can be
// much smaller than the corner terms, and their float32 rounding errors (~2^-24 of the terms) then exceed many
// ulps of the result (measured: ~3% of random outputs off by > 4 ulp). Float outputs therefore use
// error-free transformations: the blend is separable (innermost blended dimension first), each product
// a * w is Dekker's exact TwoProduct (w split into 12-bit halves on the device by masking, a split the same
// way unless it is a widened half, whose 11 significant bits make a * w_half exact), sums are Knuth's TwoSum,
// and the rounding errors are carried in a float32 "lo" word. The result hi + lo is within ~2^-48 of the
// terms' magnitude before its final rounding — i.e. correctly rounded except for cancellations far beyond
// anything the tolerance can see. Every product whose rounding matters goes through unfused_mul (vkd3d 1.2
// drops 'precise', so nothing else stops a driver from contracting it into an FMA); the remaining products
// are exact, so fusing them cannot change a result. A non-finite hi (inf/NaN inputs) is returned as is.
// INT8/UINT8 outputs tolerate ±1 after round_ne + clamp, so they blend in plain float32.
//
// Short weights (KernelConfig::short_weights; window variant, blended last dimension, <= 3 blended
// dimensions). Power-of-two scales give weights that are multiples of 1/16 (2x: {1/4, 3/4}; 4x: odd eighths;
// 1/2x: 1/2), which the host checks from the tables (w1 * 16 an integer, w0 == 1 - w1 exactly). Then:
//  - each lane's last-dimension weight travels as a 4-bit code n (w1 = n / 16, w0 = 1 - w1, both exact) in
//    the chunk table, replacing the per-lane tap load and its index math;
//  - a corner weight W (the product of at most 3 such weights) is exact and has at most 12 significant bits,
//    so the blend is computed non-separably as sum_i v_i * W_i: FLOAT16 values (11 bits) give exact products
//    v * W; FLOAT32 values are split into 12-bit halves (vh + vl), so p = fl(v * W) and its error
//    e = (vh * W - p) + vl * W are exact (Dekker with an unsplit factor: 2 partial products, not 4);
//    the 2^k products are summed with Ogita-Rump-Oishi Sum2 (a TwoSum chain for hi, the exact TwoSum errors
//    and product errors summed in lo), i.e. as if in twice the working precision: |hi + lo - S| is within
//    ~k^2 * 2^-48 of sum |v_i W_i|, as accurate as the generic separable path, in about half its operations;
//  - INT8/UINT8: every separable partial blend is a multiple of 2^-12 below 2^8 in magnitude, so float32 is
//    exact, round_ne is the reference's round-half-even, and no clamp is needed (a convex combination).
//    The result is bit-identical to the reference.
// hi is the plain float32 sum of the corner products, so inf/NaN inputs give what the generic path gives.
#include "ops/resample/kernel.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <tuple>

#include "ops/resample/coordinates.h"
#include "shaders/elements.h"
#include "shaders/kernels.h"

namespace dmltool::ops::resample {
namespace {

using shaders::Extend;
using shaders::imm;
using shaders::imm_f;
using shaders::Operand;
using shaders::ProgramBuilder;
using shaders::Resource;
using shaders::TensorViews;
using shaders::UintArray;

// Root constants.
constexpr uint32_t kThreadCount = 0;
constexpr uint32_t kThreadsPerRow = 1;
constexpr uint32_t kInputBase = 2;     // element offset of the folded size-1 dimensions
constexpr uint32_t kRuntimeZero = 3;   // always 0; keeps unfused_mul's products out of FMAs
constexpr uint32_t kGroupsPerRow = 4;  // kRows: threads per output row
constexpr uint32_t kLastSize = 5;      // kRows: size of the last dimension
constexpr uint32_t kElementCount = 6;  // kFlatWords: output elements
constexpr uint32_t kChunkTable = 7;    // kRows with a window: first word of the chunk table (8 words per chunk)
constexpr uint32_t kSizes = 8;         // [4] canonical output sizes
constexpr uint32_t kOutStrides = 12;   // [4] output strides (elements)
constexpr uint32_t kInStrides = 16;    // [4] input strides (elements; identity dimensions)
constexpr uint32_t kTableOffsets = 20; // [4] first word of each dimension's table in the auxiliary buffer
constexpr uint32_t kRootConstantCount = 24;

constexpr uint32_t kMaxRank = 4;
constexpr uint32_t kThreadsPerGroup = shaders::kDefaultThreadsPerGroup;
constexpr uint32_t kSplitMask = 0xfffff000u;  // keeps the top 12 significant bits of a float32
constexpr uint64_t kWindowBytes = uint64_t{1} << shaders::kMaxViewBytesLog2;
constexpr uint32_t kChunkEntryWords = 8;  // {start, sel0[0..7], sel0[8..15], 0, sel1[0..7], sel1[8..15], 0, 0}

bool is_compensated(DataType type) { return type == DataType::kFloat32 || type == DataType::kFloat16; }

uint32_t log2_of(uint32_t power_of_two) { return uint32_t(std::countr_zero(power_of_two)); }

// ---- kernel emission ----------------------------------------------------------------------------------------

// One dimension's contribution to the source address of one output coordinate.
struct Term {
    DimKind kind = DimKind::kIdentity;
    Operand offset;  // identity / gather: element offset (scalar)
    Operand tap;     // blend: x = x0 * stride, y = x1 * stride, z = w0, w = w1
    Operand split;   // blend, float types: x = hi(w0), y = hi(w1), z = lo(w0), w = lo(w1) (12 bits each)
};

// A blended value: hi (+ lo, the accumulated rounding errors, for float types).
struct Value {
    Operand hi;
    Operand lo;
    bool has_lo = false;
    bool narrow = false;  // hi has at most 12 significant bits (a widened half): a * w_half is exact
};

class Emitter {
public:
    Emitter(ProgramBuilder& b, const KernelConfig& config)
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

    void emit() {
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

private:
    Operand rc(uint32_t index) { return b_.root_constant(index); }

    Term dim_term(uint32_t d, Operand coord) {
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
                if (is_compensated(config_.type)) {
                    term.split = b_.temp();
                    b_.and_(term.split.xy(), term.tap.zw(), imm(kSplitMask));
                    b_.sub(term.split.zw(), term.tap.zw(), term.split.xy());
                }
                break;
            }
        }
        return term;
    }

    // Adds the offsets of the non-blended terms to `base`; collects the blended ones (outermost first).
    Operand fold_offsets(Operand base, const std::vector<const Term*>& terms, std::vector<const Term*>& blends) {
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

    Value load_corner(Operand source) {
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
                value.narrow = true;
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

    // d = d, through an integer OR with the run-time zero: the value is unchanged but no longer an expression
    // the driver's compiler can simplify or fuse with its neighbours.
    void opaque(Operand d) { b_.or_(d, d, rc(kRuntimeZero)); }

    // p = fl(a * w) (kept out of FMAs), e = a * w - p exactly (Dekker; every partial product is exact).
    void two_product(const Value& a, Operand w, Operand w_hi, Operand w_lo, Operand p, Operand e) {
        shaders::unfused_mul(b_, p, a.hi, w, rc(kRuntimeZero));
        // Each partial sum is made opaque: otherwise a compiler may factor ah * wh + ah * wl into ah * w (NIR's
        // inexact algebra does), which rounds and loses exactly the bits e exists to keep.
        if (a.narrow) {
            b_.mad(e, a.hi, w_hi, -p);
            opaque(e);
            b_.mad(e, a.hi, w_lo, e);
            return;
        }
        Operand s = b_.temp();
        b_.and_(s.x(), a.hi, imm(kSplitMask));
        b_.sub(s.y(), a.hi, s.x());
        b_.mad(e, s.x(), w_hi, -p);
        opaque(e);
        b_.mad(e, s.x(), w_lo, e);
        opaque(e);
        b_.mad(e, s.y(), w_hi, e);
        opaque(e);
        b_.mad(e, s.y(), w_lo, e);
    }

    Value blend(const Value& a, const Value& c, const Term& term) {
        Value out;
        if (!is_compensated(config_.type)) {
            Operand r = b_.temp();
            b_.mul(r.x(), a.hi, term.tap.z());
            b_.mad(r.x(), c.hi, term.tap.w(), r.x());
            out.hi = r.x();
            return out;
        }
        Operand r = b_.temp();  // x p0, y e0, z p1, w e1
        Operand q = b_.temp();
        two_product(a, term.tap.z(), term.split.x(), term.split.z(), r.x(), r.y());
        two_product(c, term.tap.w(), term.split.y(), term.split.w(), r.z(), r.w());
        // TwoSum(p0, p1): s + es == p0 + p1 exactly. The intermediates pass through opaque() so that a
        // compiler's algebraic rewrites ((p0 + p1) - p0 -> p1, which Mesa's NIR applies to SPIR-V without
        // NoContraction) cannot see through them.
        b_.add(q.x(), r.x(), r.z());
        opaque(q.x());
        b_.sub(q.y(), q.x(), r.x());
        opaque(q.y());
        b_.sub(q.z(), q.x(), q.y());
        opaque(q.z());
        b_.sub(q.z(), r.x(), q.z());
        b_.sub(q.w(), r.z(), q.y());
        b_.add(q.z(), q.z(), q.w());
        b_.add(q.z(), q.z(), r.y());
        b_.add(q.z(), q.z(), r.w());
        if (a.has_lo) b_.mad(q.z(), a.lo, term.tap.z(), q.z());
        if (c.has_lo) b_.mad(q.z(), c.lo, term.tap.w(), q.z());
        out.hi = q.x();
        out.lo = q.z();
        out.has_lo = true;
        return out;
    }

    Value corners(const std::vector<const Term*>& blends, size_t k, Operand base) {
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
    Operand element_bits(Operand base, const std::vector<const Term*>& blends) {
        Operand f = b_.temp();
        if (blends.empty()) {  // a pure gather: bit-exact copy
            shaders::load_element(b_, input_, esize_, base, f.x());
            return f.x();
        }
        return finish(corners(blends, 0, base));
    }

    // The output element's bits from a blended value (rounded and converted as the output type needs).
    Operand finish(const Value& v, bool clamp = true) {
        Operand f = b_.temp();
        if (is_compensated(config_.type)) {
            b_.add(f.x(), v.hi, v.lo);
            b_.and_(f.y(), v.hi, imm(0x7fffffffu));
            b_.ult(f.y(), f.y(), imm(0x7f800000u));  // hi finite: hi + lo; else inf/NaN as the plain sum has it
            b_.movc(f.x(), f.y(), f.x(), v.hi);
            if (config_.type == DataType::kFloat32) return f.x();
            shaders::float_to_half(b_, f.z(), f.x());
            return f.z();
        }
        const bool is_signed = config_.type == DataType::kInt8;
        b_.round_ne(f.x(), v.hi);
        if (clamp) {  // not needed for an exact convex combination (short weights)
            b_.max(f.x(), f.x(), imm_f(is_signed ? -128.0f : 0.0f));
            b_.min(f.x(), f.x(), imm_f(is_signed ? 127.0f : 255.0f));
        }
        if (is_signed) b_.ftoi(f.y(), f.x());
        else b_.ftou(f.y(), f.x());
        return f.y();
    }

    void pack(Operand words, uint32_t lane, Operand bits) {
        if (esize_ == 4) {
            b_.mov(words.component(lane), bits);
        } else {
            const uint32_t per_word = 4 / esize_;
            shaders::insert_subword(b_, words.component(lane / per_word), esize_, lane % per_word, bits);
        }
    }

    Operand word_operand(Operand words, uint32_t count) {
        switch (count) {
            case 1: return words.x();
            case 2: return words.xy();
            case 3: return words.xyz();
            default: return words.xyzw();
        }
    }

    // What both row variants start with: the row and group a thread owns, the outer dimensions folded into one
    // input base (blended ones kept apart), and the output row offset. Not copyable: outer_blends points into
    // outer.
    struct RowStart {
        RowStart() = default;
        RowStart(const RowStart&) = delete;
        RowStart(RowStart&&) = default;
        Operand row_group;  // x row, y group (chunk) within the row
        std::vector<Term> outer;
        std::vector<const Term*> outer_blends;
        Operand outer_base;
        Operand out_row;
    };
    RowStart begin_row(Operand thread) {
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

    void emit_rows(Operand thread) {
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
    Operand window_element(Operand window, Operand k) {
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
    Operand selector(Operand entry_lo, Operand entry_hi, uint32_t lane, uint32_t which) {
        Operand source = which == 0 ? (lane < 8 ? entry_lo.y() : entry_lo.z()) : (lane < 8 ? entry_hi.x() : entry_hi.y());
        Operand k = b_.temp();
        b_.ubfe(k.x(), imm(4), imm(4 * (lane % 8)), source);
        return k.x();
    }

    Value window_value(Operand window, Operand k) {
        const Operand bits = window_element(window, k);
        Value value;
        Operand v = b_.temp();
        switch (config_.type) {
            case DataType::kFloat32: value.hi = bits; break;
            case DataType::kFloat16:
                shaders::half_to_float(b_, v.x(), bits);
                value.hi = v.x();
                value.narrow = true;
                break;
            case DataType::kInt8: b_.itof(v.x(), bits); value.hi = v.x(); break;
            default: b_.utof(v.x(), bits); value.hi = v.x(); break;
        }
        return value;
    }

    // Row bases (elements) of every corner of the outer blended dimensions, outermost dimension first (bit
    // order as in corners(): the first blend is the most significant index bit).
    void row_bases(const std::vector<const Term*>& blends, size_t k, Operand base, std::vector<Operand>& out) {
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
    Value window_corners(const std::vector<const Term*>& blends, size_t k, uint32_t index,
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
    Operand short_field(Operand entry_lo, Operand entry_hi, uint32_t lane, uint32_t which) {
        const Operand source = lane < 8 ? entry_lo.component(1 + which) : entry_hi.component(which);
        Operand k = b_.temp();
        b_.ubfe(k.x(), imm(4), imm(4 * (lane % 8)), source);
        return k.x();
    }

    // Products of the outer blended dimensions' weights, one per outer corner in row_bases() order (empty
    // optional: weight 1, no outer blend). Exact: each weight has at most 4 significant bits.
    void outer_weights(const std::vector<const Term*>& blends, size_t k, std::optional<Operand> w,
                       std::vector<std::optional<Operand>>& out) {
        if (k == blends.size()) {
            out.push_back(w);
            return;
        }
        for (uint32_t upper = 0; upper < 2; ++upper) {
            const Operand f = upper ? blends[k]->tap.w() : blends[k]->tap.z();
            if (!w) {
                outer_weights(blends, k + 1, f, out);
                continue;
            }
            Operand t = b_.temp();
            b_.mul(t.x(), *w, f);
            outer_weights(blends, k + 1, t.x(), out);
        }
    }

    // s + err == a + b exactly (Knuth's TwoSum; opaque intermediates as in blend()).
    void two_sum(Operand a, Operand b, Operand s, Operand err) {
        Operand q = b_.temp();
        b_.add(s, a, b);
        opaque(s);
        b_.sub(q.x(), s, a);
        opaque(q.x());
        b_.sub(q.y(), s, q.x());
        opaque(q.y());
        b_.sub(q.y(), a, q.y());
        b_.sub(q.z(), b, q.x());
        b_.add(err, q.y(), q.z());
    }

    // FLOAT16: every half of a window converted once per thread (lo: even halves of words 0-3, hi: odd ones)
    // instead of once per lane and corner; short_half picks one by its byte selector. Same values.
    struct HalfWindow {
        Operand lo, hi;
    };
    HalfWindow convert_window(Operand window) {
        HalfWindow h{b_.temp(), b_.temp()};
        for (uint32_t w = 0; w < config_.window_words; ++w) {
            Operand t = b_.temp();
            b_.and_(t.x(), window.component(w), imm(0xffffu));
            b_.ushr(t.y(), window.component(w), imm(16));
            shaders::half_to_float(b_, h.lo.component(w), t.x());
            shaders::half_to_float(b_, h.hi.component(w), t.y());
        }
        return h;
    }
    // x: k & 2 (odd half), y: k & 4, z: k & 8 (word bits) of a byte selector.
    Operand half_bits(Operand k) {
        Operand t = b_.temp();
        b_.and_(t.x(), k, imm(2));
        if (config_.window_words >= 2) b_.and_(t.y(), k, imm(4));
        if (config_.window_words >= 4) b_.and_(t.z(), k, imm(8));
        return t;
    }
    Value short_half(const HalfWindow& h, Operand bits) {
        Operand m = b_.temp();
        const uint32_t words = config_.window_words;
        for (uint32_t w = 0; w < words; ++w) b_.movc(m.component(w), bits.x(), h.hi.component(w), h.lo.component(w));
        if (words >= 2) {
            b_.movc(m.x(), bits.y(), m.y(), m.x());
            if (words == 4) {
                b_.movc(m.y(), bits.y(), m.w(), m.z());
                b_.movc(m.x(), bits.z(), m.y(), m.x());
            }
        }
        Value v;
        v.hi = m.x();
        v.narrow = true;
        return v;
    }

    // sum over corners of v * W, W = outer[j] * (w0 | w1), as hi + lo (Sum2; see the file comment).
    Value short_sum(const std::vector<Operand>& windows, const std::vector<HalfWindow>& halves,
                    const std::vector<std::optional<Operand>>& outer, Operand k0, Operand k1, Operand w0, Operand w1) {
        Value sum;
        bool first = true;
        Operand bits0, bits1;
        if (!halves.empty()) {
            bits0 = half_bits(k0);
            bits1 = half_bits(k1);
        }
        for (size_t j = 0; j < windows.size(); ++j)
            for (uint32_t upper = 0; upper < 2; ++upper) {
                const Value v = !halves.empty() ? short_half(halves[j], upper ? bits1 : bits0)
                                                : window_value(windows[j], upper ? k1 : k0);
                Operand t = b_.temp();  // x W, y p, z e
                Operand w = upper ? w1 : w0;
                if (outer[j]) {
                    b_.mul(t.x(), *outer[j], w);
                    w = t.x();
                }
                const Operand p = t.y();
                bool has_e = false;
                if (v.narrow) {
                    b_.mul(p, v.hi, w);  // exact: 11 + 12 significant bits
                } else {
                    shaders::unfused_mul(b_, p, v.hi, w, rc(kRuntimeZero));
                    Operand s = b_.temp();
                    b_.and_(s.x(), v.hi, imm(kSplitMask));
                    b_.sub(s.y(), v.hi, s.x());
                    b_.mad(t.z(), s.x(), w, -p);  // vh * W exact, the difference too
                    opaque(t.z());
                    b_.mad(t.z(), s.y(), w, t.z());  // + vl * W (exact): e = v * W - p exactly
                    has_e = true;
                }
                if (first) {
                    first = false;
                    sum.hi = p;
                    if (has_e) {
                        sum.lo = t.z();
                        sum.has_lo = true;
                    }
                    continue;
                }
                Operand r = b_.temp();  // x new hi, y TwoSum error, z new lo
                two_sum(sum.hi, p, r.x(), r.y());
                if (sum.has_lo) b_.add(r.y(), r.y(), sum.lo);
                if (has_e) b_.add(r.y(), r.y(), t.z());
                sum.hi = r.x();
                sum.lo = r.y();
                sum.has_lo = true;
            }
        return sum;
    }

    void emit_rows_window_short(Operand thread) {
        const uint32_t group = config_.group;
        const RowStart row = begin_row(thread);

        Operand entry_lo = b_.temp();
        Operand entry_hi = b_.temp();
        Operand a = b_.temp();
        b_.ishl(a.x(), row.row_group.y(), imm(log2_of(kChunkEntryWords)));
        b_.iadd(a.x(), a.x(), rc(kChunkTable));
        b_.ishl(a.x(), a.x(), imm(2));
        b_.ld_raw(entry_lo.xyzw(), a.x(), table_);
        if (group > 8) {
            b_.iadd(a.y(), a.x(), imm(16));
            b_.ld_raw(entry_hi.xyz(), a.y(), table_);
        }

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
        std::vector<std::optional<Operand>> outer;
        if (is_compensated(config_.type)) outer_weights(row.outer_blends, 0, std::nullopt, outer);
        std::vector<HalfWindow> halves;
        if (config_.type == DataType::kFloat16)
            for (Operand window : windows) halves.push_back(convert_window(window));

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
            if (is_compensated(config_.type)) {
                pack(words, lane, finish(short_sum(windows, halves, outer, k0, k1, last.tap.z(), last.tap.w())));
            } else {  // exact in float32 (see the file comment): no clamp
                const Value v = window_corners(row.outer_blends, 0, 0, windows, k0, k1, &last);
                pack(words, lane, finish(v, /*clamp=*/false));
            }
        }
        Operand address = b_.temp();
        b_.iadd(address.x(), row.out_row, col.x());
        b_.ishl(address.x(), address.x(), imm(log2_of(esize_)));
        shaders::store_words(b_, output_, address.x(), word_operand(words, word_count));
    }

    void emit_rows_window(Operand thread) {
        if (config_.short_weights) return emit_rows_window_short(thread);
        const uint32_t rank = config_.rank;
        const uint32_t group = config_.group;
        const bool last_blend = config_.kinds[rank - 1] == DimKind::kBlend;
        const RowStart row = begin_row(thread);

        Operand entry_lo = b_.temp();
        Operand entry_hi = b_.temp();
        Operand a = b_.temp();
        b_.ishl(a.x(), row.row_group.y(), imm(log2_of(kChunkEntryWords)));
        b_.iadd(a.x(), a.x(), rc(kChunkTable));
        b_.ishl(a.x(), a.x(), imm(2));
        b_.ld_raw(entry_lo.xyzw(), a.x(), table_);
        if (last_blend) {
            b_.iadd(a.y(), a.x(), imm(16));
            b_.ld_raw(entry_hi.xyzw(), a.y(), table_);
        }

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

    // All terms of one output element (flat index `element`); returns the source base and the blends.
    Operand element_source(Operand element, std::vector<Term>& terms, std::vector<const Term*>& blends,
                           std::vector<Operand>& coords) {
        coords = shaders::decompose_index(b_, element, config_.rank, sizes_);
        terms.clear();
        terms.reserve(config_.rank);
        for (uint32_t d = 0; d < config_.rank; ++d) terms.push_back(dim_term(d, coords[d]));
        std::vector<const Term*> ptrs;
        for (const Term& t : terms) ptrs.push_back(&t);
        return fold_offsets(rc(kInputBase), ptrs, blends);
    }

    void emit_flat_words(Operand thread) {
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

    void emit_elements(Operand thread) {
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

    ProgramBuilder& b_;
    const KernelConfig& config_;
    uint32_t esize_;
    TensorViews input_;
    TensorViews output_;
    Resource table_;
    bool uses_table_ = false;
    UintArray sizes_;
    UintArray out_strides_;
    UintArray in_strides_;
};

Status check_config(const KernelConfig& config) {
    if (config.type != DataType::kFloat32 && config.type != DataType::kFloat16 && config.type != DataType::kInt8 &&
        config.type != DataType::kUint8)
        return invalid_input("resample kernel: data type " + std::string(data_type_name(config.type)) +
                             " is not FLOAT32, FLOAT16, INT8 or UINT8");
    if (config.rank < 1 || config.rank > kMaxRank) return invalid_input("resample kernel: rank must be 1..4");
    if (config.input_views < 1 || config.input_views > 8 || config.output_views < 1 || config.output_views > 8)
        return invalid_input("resample kernel: 1..8 views per tensor (4 GiB of 32-bit byte addresses)");
    const uint32_t esize = uint32_t(element_size(config.type));
    const uint32_t bytes = config.group * esize;
    switch (config.path) {
        case StorePath::kRows:
            if (bytes != 4 && bytes != 16) return invalid_input("resample kernel: a row group covers 4 or 16 bytes");
            break;
        case StorePath::kFlatWords:
            if (esize >= 4 || bytes != 4) return invalid_input("resample kernel: flat words need 1/2-byte elements, 4 bytes");
            break;
        case StorePath::kElements:
            if (config.group != 1) return invalid_input("resample kernel: the element path has one output per thread");
            break;
    }
    if (config.window_words != 0) {
        if (config.path != StorePath::kRows) return invalid_input("resample kernel: windows need the row path");
        if (config.window_words != 1 && config.window_words != 2 && config.window_words != 4)
            return invalid_input("resample kernel: a window holds 1, 2 or 4 words");
        if (config.input_views != 1) return invalid_input("resample kernel: windows need a single input view");
        if (config.group > 16) return invalid_input("resample kernel: at most 16 lanes per window chunk");
    }
    if (config.short_weights) {
        if (config.window_words == 0) return invalid_input("resample kernel: short weights need the window path");
        if (config.kinds[config.rank - 1] != DimKind::kBlend)
            return invalid_input("resample kernel: short weights need a blended last dimension");
        uint32_t blends = 0;
        for (uint32_t d = 0; d < config.rank; ++d) blends += config.kinds[d] == DimKind::kBlend;
        if (blends > 3) return invalid_input("resample kernel: short weights allow at most 3 blended dimensions");
    }
    return Status::ok();
}

// ---- host planning ---------------------------------------------------------------------------------------------

struct CanonicalDim {
    uint32_t size = 1;
    uint32_t out_stride = 0;
    uint32_t in_stride = 0;
    DimKind kind = DimKind::kIdentity;
    std::vector<uint32_t> table;  // gather: offsets; blend: 4 words per coordinate
};

struct Canonical {
    std::vector<CanonicalDim> dims;
    uint64_t input_base = 0;
    uint64_t table_bytes = 0;
};

uint32_t float_bits(float f) { return std::bit_cast<uint32_t>(f); }

Result<Canonical> canonicalize(const ResampleDesc& desc, const SemanticsOptions& semantics) {
    const uint32_t rank = desc.input.rank();
    const Dims in_strides = desc.input.effective_strides();
    const Dims out_strides = desc.output.effective_strides();
    constexpr uint64_t kMaxTableBytes = kWindowBytes;
    uint64_t table_bytes = 0;
    for (uint32_t d = 0; d < rank; ++d) table_bytes += uint64_t(desc.output.sizes[d]) * 16;
    if (table_bytes > kMaxTableBytes)
        return unsupported("RESAMPLE GPU: the per-dimension tables would exceed one 512 MiB view (output sizes " +
                           format_dims(desc.output.sizes) + ")");
    Canonical canonical;
    for (uint32_t d = 0; d < rank; ++d) {
        const uint32_t n_in = desc.input.sizes[d];
        const uint32_t n_out = desc.output.sizes[d];
        const uint32_t stride = in_strides[d];
        const float inv = inverse_scale(desc.scales[d]);
        CanonicalDim dim;
        dim.size = n_out;
        dim.out_stride = out_strides[d];
        dim.in_stride = stride;
        bool identity = true;
        if (desc.mode == InterpolationMode::kNearestNeighbor) {
            dim.kind = DimKind::kGather;
            dim.table.resize(n_out);
            for (uint32_t o = 0; o < n_out; ++o) {
                const uint32_t index = nearest_index(o, n_in, inv, semantics.resample_nearest_rule);
                identity = identity && index == o;
                dim.table[o] = uint32_t(uint64_t(index) * stride);
            }
        } else {
            std::vector<LinearTap> taps(n_out);
            bool weights_trivial = true;  // every output reads one input with weight exactly 1
            for (uint32_t o = 0; o < n_out; ++o) {
                taps[o] = linear_tap(o, n_in, inv);
                weights_trivial = weights_trivial && taps[o].w1 == 0.0f && taps[o].w0 == 1.0f;
                identity = identity && taps[o].x0 == o;
            }
            identity = identity && weights_trivial;
            if (weights_trivial) {
                dim.kind = DimKind::kGather;
                dim.table.resize(n_out);
                for (uint32_t o = 0; o < n_out; ++o) dim.table[o] = uint32_t(uint64_t(taps[o].x0) * stride);
            } else {
                dim.kind = DimKind::kBlend;
                dim.table.resize(uint64_t(n_out) * 4);
                for (uint32_t o = 0; o < n_out; ++o) {
                    dim.table[4 * o + 0] = uint32_t(uint64_t(taps[o].x0) * stride);
                    dim.table[4 * o + 1] = uint32_t(uint64_t(taps[o].x1) * stride);
                    dim.table[4 * o + 2] = float_bits(taps[o].w0);
                    dim.table[4 * o + 3] = float_bits(taps[o].w1);
                }
            }
        }
        if (identity) {
            dim.kind = DimKind::kIdentity;
            dim.table.clear();
        }
        if (n_out == 1 && dim.kind != DimKind::kBlend) {  // a constant offset
            if (dim.kind == DimKind::kGather) canonical.input_base += dim.table[0];
            continue;
        }
        // Merge into the previous identity dimension when one stride walks both (e.g. N and C of NCHW).
        if (dim.kind == DimKind::kIdentity && !canonical.dims.empty()) {
            CanonicalDim& prev = canonical.dims.back();
            if (prev.kind == DimKind::kIdentity && uint64_t(prev.in_stride) == uint64_t(dim.in_stride) * dim.size &&
                uint64_t(prev.out_stride) == uint64_t(dim.out_stride) * dim.size) {
                prev.size *= dim.size;  // at most the output's element count, which fits 32 bits
                prev.in_stride = dim.in_stride;
                prev.out_stride = dim.out_stride;
                continue;
            }
        }
        canonical.dims.push_back(std::move(dim));
    }
    if (canonical.dims.empty()) canonical.dims.push_back(CanonicalDim{});  // a single element
    return canonical;
}

uint64_t padded_buffer_size(uint64_t bytes) { return std::max<uint64_t>(16, (bytes + 15) & ~uint64_t(15)); }

Result<uint32_t> view_count(const TensorDesc& tensor, const char* role) {
    constexpr uint64_t kMaxBytes = uint64_t{1} << 32;
    if (tensor.total_size_in_bytes > kMaxBytes - 16)
        return unsupported(std::string("RESAMPLE GPU: the ") + role + " buffer (" +
                           std::to_string(tensor.total_size_in_bytes) +
                           " bytes) exceeds 4 GiB, the reach of the kernel's 32-bit byte addresses");
    const uint64_t padded = padded_buffer_size(tensor.total_size_in_bytes);
    return uint32_t((padded + kWindowBytes - 1) / kWindowBytes);
}

struct Choice {
    KernelConfig config;
    Canonical canonical;
    uint64_t threads = 0;
    uint32_t groups_per_row = 0;
    std::vector<uint32_t> chunks;  // kRows with a window: kChunkEntryWords per chunk
};

// Whether every blend weight is a multiple of 1/16 with w0 == 1 - w1 exactly, and 1 to 3 dimensions blend
// (KernelConfig::short_weights).
bool short_weights_ok(const std::vector<CanonicalDim>& dims) {
    uint32_t blends = 0;
    for (const CanonicalDim& dim : dims) {
        if (dim.kind != DimKind::kBlend) continue;
        ++blends;
        for (size_t i = 0; i + 3 < dim.table.size(); i += 4) {
            const float w0 = std::bit_cast<float>(dim.table[i + 2]);
            const float w1 = std::bit_cast<float>(dim.table[i + 3]);
            const float n = w1 * 16.0f;  // exact (a power of two)
            if (!(n >= 0.0f && n < 16.0f) || n != std::floor(n) || w0 != 1.0f - w1) return false;
        }
    }
    return blends >= 1 && blends <= 3;
}

// Picks the window variant of the row path where it applies (see emit_rows_window): a single input view,
// every row base 4-byte aligned (input base, identity strides, gather/blend table offsets of the outer
// dimensions), every chunk's input elements within 4 words, and every window inside the input's (16-byte
// padded) device buffer. Fills config.window_words and the chunk table; leaves both empty otherwise.
void plan_window(Choice& choice, const ResampleDesc& desc) {
    KernelConfig& config = choice.config;
    const std::vector<CanonicalDim>& dims = choice.canonical.dims;
    if (config.path != StorePath::kRows || config.input_views != 1 || config.group > 16) return;
    const uint64_t esize = element_size(config.type);
    const size_t last = dims.size() - 1;
    const bool last_blend = dims[last].kind == DimKind::kBlend;
    // The largest row base (elements), and alignment of every row base.
    uint64_t max_row = choice.canonical.input_base;
    if ((choice.canonical.input_base * esize) % 4 != 0) return;
    for (size_t d = 0; d < last; ++d) {
        const CanonicalDim& dim = dims[d];
        uint64_t largest = 0;
        switch (dim.kind) {
            case DimKind::kIdentity:
                if (dim.size > 1 && (uint64_t(dim.in_stride) * esize) % 4 != 0) return;
                largest = uint64_t(dim.size - 1) * dim.in_stride;
                break;
            case DimKind::kGather:
            case DimKind::kBlend:
                for (size_t i = 0; i < dim.table.size(); ++i) {
                    if (dim.kind == DimKind::kBlend && i % 4 >= 2) continue;  // weights
                    if ((uint64_t(dim.table[i]) * esize) % 4 != 0) return;
                    largest = std::max<uint64_t>(largest, dim.table[i]);
                }
                break;
        }
        max_row += largest;
    }
    const CanonicalDim& row = dims[last];
    auto offset = [&](uint32_t c, uint32_t which) -> uint64_t {  // bytes, relative to the row base
        switch (row.kind) {
            case DimKind::kIdentity: return uint64_t(c) * row.in_stride * esize;
            case DimKind::kGather: return uint64_t(row.table[c]) * esize;
            case DimKind::kBlend: return uint64_t(row.table[4 * size_t(c) + which]) * esize;
        }
        return 0;
    };
    const uint32_t group = config.group;
    const uint32_t chunks = choice.groups_per_row;
    if (uint64_t(chunks) * kChunkEntryWords * 4 > (uint64_t{64} << 20)) return;
    std::vector<std::pair<uint64_t, uint64_t>> spans(chunks);  // first and last word (byte offsets, 4-aligned)
    uint64_t words = 1;
    for (uint32_t g = 0; g < chunks; ++g) {
        uint64_t lo = UINT64_MAX, hi = 0;
        for (uint32_t l = 0; l < group; ++l) {
            const uint32_t c = std::min<uint64_t>(uint64_t(g) * group + l, row.size - 1);
            for (uint32_t which = 0; which < (last_blend ? 2u : 1u); ++which) {
                const uint64_t o = offset(c, which);
                lo = std::min(lo, o);
                hi = std::max(hi, o + esize - 1);
            }
        }
        spans[g] = {lo & ~uint64_t(3), hi & ~uint64_t(3)};
        words = std::max<uint64_t>(words, (spans[g].second - spans[g].first) / 4 + 1);
        if (words > 4) return;
    }
    const uint32_t window = words <= 1 ? 1 : words <= 2 ? 2 : 4;
    const bool short_weights = last_blend && short_weights_ok(dims);
    const uint64_t buffer = std::max<uint64_t>(16, (desc.input.total_size_in_bytes + 15) & ~uint64_t(15));
    std::vector<uint32_t> table(size_t(chunks) * kChunkEntryWords, 0);
    for (uint32_t g = 0; g < chunks; ++g) {
        // As late as the chunk's last word allows (but not before the row): the window then never reaches past
        // the last word this chunk reads, unless the row itself is shorter than the window.
        const uint64_t end = spans[g].second + 4;
        const uint64_t start = end >= 4 * window ? end - 4 * window : 0;
        if (max_row * esize + start + 4 * window > buffer) return;
        uint32_t* entry = &table[size_t(g) * kChunkEntryWords];
        entry[0] = uint32_t(start);
        for (uint32_t l = 0; l < group; ++l) {
            const uint32_t c = std::min<uint64_t>(uint64_t(g) * group + l, row.size - 1);
            const uint32_t shift = 4 * (l % 8);
            for (uint32_t which = 0; which < (last_blend ? 2u : 1u); ++which) {
                const uint64_t k = offset(c, which) - start;  // 0..4 * window - 1
                const uint32_t word = short_weights ? (l < 8 ? 1 : 4) + which : (which == 0 ? 1 : 4) + l / 8;
                entry[word] |= uint32_t(k) << shift;
            }
            if (short_weights) {  // the lane's weight code: 16 * w1 (0..15, checked by short_weights_ok)
                const uint32_t code = uint32_t(std::bit_cast<float>(row.table[4 * size_t(c) + 3]) * 16.0f);
                entry[l < 8 ? 3 : 6] |= code << shift;
            }
        }
    }
    config.window_words = window;
    config.short_weights = short_weights;
    choice.chunks = std::move(table);
}

Result<Choice> choose(const ResampleDesc& desc, const SemanticsOptions& semantics) {
    const DataType type = desc.input.data_type;
    if (type != DataType::kFloat32 && type != DataType::kFloat16 && type != DataType::kInt8 &&
        type != DataType::kUint8)
        return unsupported("RESAMPLE GPU: data type " + std::string(data_type_name(type)) + " has no kernel");
    if (desc.input.rank() < 1 || desc.input.rank() > kMaxRank)
        return unsupported("RESAMPLE GPU: only 1 to 4 dimensions have a kernel");
    Choice choice;
    DMLTOOL_ASSIGN_OR_RETURN(choice.canonical, canonicalize(desc, semantics));
    const std::vector<CanonicalDim>& dims = choice.canonical.dims;
    KernelConfig& config = choice.config;
    config.type = type;
    config.rank = uint32_t(dims.size());
    for (uint32_t d = 0; d < config.rank; ++d) config.kinds[d] = dims[d].kind;
    DMLTOOL_ASSIGN_OR_RETURN(config.input_views, view_count(desc.input, "input"));
    DMLTOOL_ASSIGN_OR_RETURN(config.output_views, view_count(desc.output, "output"));

    const uint32_t esize = uint32_t(element_size(type));
    const uint64_t elements = desc.output.element_count();
    const CanonicalDim& last = dims.back();
    auto rows_aligned_to = [&](uint64_t bytes) {
        for (size_t d = 0; d + 1 < dims.size(); ++d)
            if ((uint64_t(dims[d].out_stride) * esize) % bytes != 0) return false;
        return true;
    };
    bool packed = true;
    uint64_t expected = 1;
    for (size_t d = dims.size(); d-- > 0;) {
        packed = packed && dims[d].out_stride == expected;
        expected *= dims[d].size;
    }
    uint32_t row_bytes = 0;
    if (last.out_stride == 1) {
        if (rows_aligned_to(16) && uint64_t(last.size) * esize >= 16) row_bytes = 16;
        else if (rows_aligned_to(4)) row_bytes = 4;
    }
    if (row_bytes >= esize) {
        config.path = StorePath::kRows;
        config.group = row_bytes / esize;
        choice.groups_per_row = (last.size + config.group - 1) / config.group;
        choice.threads = elements / last.size * choice.groups_per_row;
    } else if (esize < 4 && packed) {
        config.path = StorePath::kFlatWords;
        config.group = 4 / esize;
        choice.threads = (elements + config.group - 1) / config.group;
    } else {
        config.path = StorePath::kElements;
        config.group = 1;
        choice.threads = elements;
    }
    if (choice.threads >= (uint64_t{1} << 32))
        return unsupported("RESAMPLE GPU: more than 2^32 threads");
    plan_window(choice, desc);
    return choice;
}

using ConfigKey = std::tuple<uint8_t, uint32_t, uint8_t, uint8_t, uint8_t, uint8_t, uint8_t, uint32_t, uint32_t,
                             uint32_t, uint32_t, bool>;

ConfigKey key_of(const KernelConfig& c) {
    return {uint8_t(c.type), c.rank, uint8_t(c.kinds[0]), uint8_t(c.kinds[1]), uint8_t(c.kinds[2]),
            uint8_t(c.kinds[3]), uint8_t(c.path), c.group, c.input_views, c.output_views, c.window_words,
            c.short_weights};
}

// Blobs are deterministic; building one per plan would only cost time.
Result<std::shared_ptr<const std::vector<uint8_t>>> cached_kernel(const KernelConfig& config) {
    static std::mutex mutex;
    static std::map<ConfigKey, std::shared_ptr<const std::vector<uint8_t>>> cache;
    KernelConfig normalized = config;
    for (uint32_t d = config.rank; d < kMaxRank; ++d) normalized.kinds[d] = DimKind::kIdentity;
    const ConfigKey key = key_of(normalized);
    {
        std::lock_guard<std::mutex> lock(mutex);
        auto it = cache.find(key);
        if (it != cache.end()) return it->second;
    }
    DMLTOOL_ASSIGN_OR_RETURN(std::vector<uint8_t> blob, build_resample_kernel(normalized));
    auto shared = std::make_shared<const std::vector<uint8_t>>(std::move(blob));
    std::lock_guard<std::mutex> lock(mutex);
    cache.emplace(key, shared);
    return shared;
}

std::string kernel_label(const KernelConfig& config) {
    static constexpr const char* kPathNames[] = {"rows", "flat_words", "elements"};
    static constexpr char kKindLetters[] = {'i', 'g', 'b'};
    std::string kinds;
    for (uint32_t d = 0; d < config.rank; ++d) kinds += kKindLetters[uint32_t(config.kinds[d])];
    std::string label = "resample/" + std::string(data_type_name(config.type)) + "/" + kinds + "/" +
                        kPathNames[uint32_t(config.path)] + "x" + std::to_string(config.group);
    if (config.window_words > 0) label += "w" + std::to_string(config.window_words);
    if (config.short_weights) label += "s";
    return label;
}

}  // namespace

Result<std::vector<uint8_t>> build_resample_kernel(const KernelConfig& config) {
    DMLTOOL_RETURN_IF_ERROR(check_config(config));
    ProgramBuilder b({.thread_group = {kThreadsPerGroup, 1, 1}});
    Emitter(b, config).emit();
    return b.build_dxbc();
}

Result<KernelConfig> resample_kernel_config(const ResampleDesc& desc, const SemanticsOptions& semantics) {
    DMLTOOL_ASSIGN_OR_RETURN(Choice choice, choose(desc, semantics));
    return choice.config;
}

Result<DevicePlan> plan_resample(const ResampleDesc& desc, const SemanticsOptions& semantics) {
    DMLTOOL_ASSIGN_OR_RETURN(Choice choice, choose(desc, semantics));
    const KernelConfig& config = choice.config;
    const std::vector<CanonicalDim>& dims = choice.canonical.dims;

    DevicePlan plan;
    KernelDispatch dispatch;
    DMLTOOL_ASSIGN_OR_RETURN(dispatch.dxbc, cached_kernel(config));
    dispatch.label = kernel_label(config);

    std::vector<uint32_t> table;
    std::vector<uint32_t> constants(kRootConstantCount, 0);
    for (uint32_t d = 0; d < config.rank; ++d) {
        constants[kSizes + d] = dims[d].size;
        constants[kOutStrides + d] = dims[d].out_stride;
        constants[kInStrides + d] = dims[d].in_stride;
        if (dims[d].kind == DimKind::kIdentity) continue;
        table.resize((table.size() + 3) & ~size_t(3));  // 16-byte aligned taps
        constants[kTableOffsets + d] = uint32_t(table.size());
        table.insert(table.end(), dims[d].table.begin(), dims[d].table.end());
    }
    if (config.window_words > 0) {
        table.resize((table.size() + 3) & ~size_t(3));  // 16-byte aligned entries
        constants[kChunkTable] = uint32_t(table.size());
        table.insert(table.end(), choice.chunks.begin(), choice.chunks.end());
    }
    const shaders::DispatchGrid grid = shaders::plan_dispatch(choice.threads, kThreadsPerGroup);
    constants[kThreadCount] = uint32_t(choice.threads);
    constants[kThreadsPerRow] = grid.threads_per_row;
    constants[kInputBase] = uint32_t(choice.canonical.input_base);
    constants[kRuntimeZero] = 0;
    constants[kGroupsPerRow] = choice.groups_per_row;
    constants[kLastSize] = dims.back().size;
    constants[kElementCount] = uint32_t(desc.output.element_count());
    dispatch.root_constants = std::move(constants);
    dispatch.group_count = {grid.groups_x, grid.groups_y, 1};

    auto windows = [](BufferBinding::Source source, uint32_t count, std::vector<BufferBinding>& out) {
        for (uint32_t i = 0; i < count; ++i)
            out.push_back({source, 0, uint64_t(i) * kWindowBytes, i + 1 == count ? 0 : kWindowBytes});
    };
    windows(BufferBinding::Source::kInput, config.input_views, dispatch.srvs);
    if (!table.empty()) {
        std::vector<std::byte> bytes(table.size() * 4);
        std::memcpy(bytes.data(), table.data(), bytes.size());
        plan.auxiliary_buffers.push_back(std::move(bytes));
        dispatch.srvs.push_back({BufferBinding::Source::kAuxiliary, 0, 0, 0});
    }
    windows(BufferBinding::Source::kOutput, config.output_views, dispatch.uavs);
    plan.dispatches.push_back(std::move(dispatch));
    return plan;
}

std::vector<KernelConfig> representative_kernel_configs() {
    std::vector<KernelConfig> configs;
    const DataType types[] = {DataType::kFloat32, DataType::kFloat16, DataType::kInt8, DataType::kUint8};
    // Kind patterns: each kind in every position, all blended (16 corners), the NCHW shape.
    const std::vector<std::vector<DimKind>> patterns = {
        {DimKind::kIdentity},
        {DimKind::kGather},
        {DimKind::kBlend},
        {DimKind::kIdentity, DimKind::kBlend, DimKind::kBlend},
        {DimKind::kIdentity, DimKind::kGather, DimKind::kGather},
        {DimKind::kGather, DimKind::kBlend},
        {DimKind::kBlend, DimKind::kIdentity},
        {DimKind::kBlend, DimKind::kGather, DimKind::kIdentity, DimKind::kBlend},
        {DimKind::kGather, DimKind::kIdentity, DimKind::kBlend, DimKind::kGather},
        {DimKind::kBlend, DimKind::kBlend, DimKind::kBlend, DimKind::kBlend},
        {DimKind::kGather, DimKind::kGather, DimKind::kGather, DimKind::kGather},
    };
    for (DataType type : types) {
        const uint32_t esize = uint32_t(element_size(type));
        for (const auto& pattern : patterns) {
            KernelConfig config;
            config.type = type;
            config.rank = uint32_t(pattern.size());
            for (size_t d = 0; d < pattern.size(); ++d) config.kinds[d] = pattern[d];
            std::vector<std::pair<StorePath, uint32_t>> paths = {{StorePath::kRows, 16 / esize},
                                                                 {StorePath::kElements, 1}};
            if (esize < 4) {
                paths.push_back({StorePath::kRows, 4 / esize});
                paths.push_back({StorePath::kFlatWords, 4 / esize});
            }
            for (const auto& [path, group] : paths) {
                config.path = path;
                config.group = group;
                config.window_words = 0;
                configs.push_back(config);
                if (path == StorePath::kRows) {  // the window variants of the row path
                    uint32_t blends = 0;
                    for (DimKind kind : pattern) blends += kind == DimKind::kBlend;
                    const bool short_ok = pattern.back() == DimKind::kBlend && blends <= 3;
                    for (uint32_t window : {1u, 2u, 4u}) {
                        config.window_words = window;
                        configs.push_back(config);
                        if (short_ok) {  // and their short-weight variants
                            config.short_weights = true;
                            configs.push_back(config);
                            config.short_weights = false;
                        }
                    }
                }
            }
            config.window_words = 0;
        }
        // Tensors beyond one 512 MiB view: several windows on both sides.
        KernelConfig big;
        big.type = type;
        big.rank = 3;
        big.kinds = {DimKind::kIdentity, DimKind::kBlend, DimKind::kGather, DimKind::kIdentity};
        big.input_views = 3;
        big.output_views = 2;
        for (StorePath path : {StorePath::kRows, StorePath::kElements}) {
            big.path = path;
            big.group = path == StorePath::kRows ? 16 / esize : 1;
            configs.push_back(big);
        }
    }
    return configs;
}

}  // namespace dmltool::ops::resample
