// RESAMPLE's dedicated LINEAR paths for the two scales of the perf suite, on packed tensors whose leading
// dimensions are identities ("planes") and whose rows are whole 16-byte vectors (V = 16 / element size
// elements), every type of the feature-level table:
//
//  x2   (half-pixel upsampling of the last two dimensions by exactly 2, F.interpolate bilinear x2): a thread
//       takes two input rows A, B and one input vector column [cV, cV + V) and writes two output rows of 2V
//       elements each (4 typed 16-byte stores). It loads the two input vectors (typed 16-byte loads) and, per
//       row, the word holding the left neighbour cV - 1 and the right neighbour cV + V (raw 4-byte loads of
//       words the neighbouring threads load anyway: cache hits). Blends are separable, rows first:
//       v = wa * A + wb * B per column (V + 2 columns, two output rows), then per output
//       out = w0 * v[x0] + w1 * v[x1] (a product and a multiply-add each).
//       Thread pair j = 0 .. H covers output rows 2j - 1 (A = row j - 1, B = row j; weights 3/4, 1/4) and 2j
//       (1/4, 3/4). The clamped edges use the reference's taps with their zero weights (so inf/NaN inputs
//       propagate as in the reference's sum): output row 0 = 0 * in[1] + 1 * in[0] (j = 0: A = row 1),
//       output row 2H - 1 = 1 * in[H - 1] + 0 * in[H - 1] (j = H: B = A); columns likewise.
//  x0.5 (downsampling of the last two dimensions by exactly 2): every tap is {2o, 2o + 1, 1/2, 1/2}, a fixed
//       2x2 average. A thread writes one output vector (V elements) from four input vectors (two per input
//       row): out = 0.5 * (0.5 * a0 + 0.5 * a1) + 0.5 * (0.5 * b0 + 0.5 * b1), columns first.
//
// Arithmetic: plain float32 (docs/semantics.md: a separable a * w0 + b * w1 per axis is within
// the error bound), every weight exact. Element codecs (Codec below): FLOAT32 as is; FLOAT16 through the exact
// integer conversions of shaders/elements.h (round to nearest even on output); INT8/UINT8 as biased floats
// 2^15 + u (u the byte, for INT8 the byte + 128): every weight here is a multiple of 1/4 per axis, so every
// partial blend is 2^15 + (a multiple of 1/16 below 256), exact in float32; subtracting the bias (exact) gives
// the exact blend, which ftoi/ftou truncate toward zero, exactly the reference's conversion (docs/semantics.md
// and tolerances); no clamp is needed (a convex combination). The taps are not assumed: plan_linear_fast checks every one against coordinates.h.
//
// Tuning variants (LinearFastVariant, offered by op.cpp): x2 with one output row per thread instead of a pair
// (fewer registers, twice the threads; each input vector is loaded by four threads instead of two: cache hits),
// and FLOAT16 converted by the f16tof32 / f32tof16 opcodes instead of the integer conversions. Vulkan leaves the
// opcodes' rounding to the driver, so those plans require DeviceCapability::kExactHalfOpcodes and run only where
// gpu/half_opcode_probe.h found them exact; they then compute the same values as the integer conversions.
#include <algorithm>
#include <bit>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "ops/resample/coordinates.h"
#include "ops/resample/kernel_internal.h"

namespace dmltool::ops::resample {
namespace {

using shaders::imm;
using shaders::imm_f;
using shaders::Operand;
using shaders::ProgramBuilder;
using shaders::Resource;

// Root constants of both kernels.
constexpr uint32_t kFastThreads = 0;
constexpr uint32_t kFastThreadsPerRow = 1;
constexpr uint32_t kFastChunks = 2;  // x2: input vectors per input row; x0.5: output vectors per output row
constexpr uint32_t kFastPairs = 3;   // x2: row pairs per plane (H + 1)
constexpr uint32_t kFastInH = 4;     // x2: input rows per plane
constexpr uint32_t kFastInW = 5;     // x2: input elements per row
constexpr uint32_t kFastOutH = 6;    // x2: output rows per plane (2H)
constexpr uint32_t kFastConstantCount = 7;

constexpr float kByteBias = 32768.0f;  // 2^15: biased byte value = 2^15 + u

// Hands out single components of fresh temps (keeps the register count of long unrolled kernels down).
class Scalars {
public:
    explicit Scalars(ProgramBuilder& b) : b_(b) {}
    Operand next() {
        if (used_ == 4) {
            current_ = b_.temp();
            used_ = 0;
        }
        return current_.component(used_++);
    }

private:
    ProgramBuilder& b_;
    Operand current_;
    uint32_t used_ = 4;
};

// How one element type's 16-byte vectors become float32 values and back.
class Codec {
public:
    // native_half: FLOAT16 through the f16tof32 / f32tof16 opcodes instead of the integer conversions (1-2
    // instructions instead of 11 per input, 1 instead of 14 per output), only where the device's opcodes were found
    // exact (DeviceCapability::kExactHalfOpcodes). A NaN may convert to another NaN than the integer conversions
    // give (sign and payload): the outputs are the same values all the same (core/plan_tuning.h).
    Codec(ProgramBuilder& b, DataType type, bool native_half = false)
        : b_(b), type_(type), native_half_(native_half), s_(b) {}

    uint32_t per_vector() const { return 16 / uint32_t(element_size(type_)); }
    uint32_t per_word() const { return 4 / uint32_t(element_size(type_)); }

    // The V values of a vector (words in .xyzw), element order.
    std::vector<Operand> unpack(Operand words) {
        std::vector<Operand> values(per_vector());
        switch (type_) {
            case DataType::kFloat32:
                for (uint32_t k = 0; k < 4; ++k) values[k] = words.component(k);
                break;
            case DataType::kFloat16: {
                Operand lo = b_.temp(), hi = b_.temp();
                from_half(lo.xyzw(), words.xyzw(), false);
                from_half(hi.xyzw(), words.xyzw(), true);
                for (uint32_t k = 0; k < 4; ++k) {
                    values[2 * k] = lo.component(k);
                    values[2 * k + 1] = hi.component(k);
                }
                break;
            }
            default: {  // 8-bit: biased floats
                Operand u = unsigned_bytes(words.xyzw());
                for (uint32_t lane = 0; lane < 4; ++lane) {
                    Operand f = b_.temp();
                    biased_bytes(f.xyzw(), u, lane);
                    for (uint32_t k = 0; k < 4; ++k) values[4 * k + lane] = f.component(k);
                }
                break;
            }
        }
        return values;
    }

    // The value of element `lane` (position within the word) of a scalar word.
    Operand unpack_one(Operand word, uint32_t lane) {
        switch (type_) {
            case DataType::kFloat32: return word;
            case DataType::kFloat16: {
                Operand t = b_.temp();
                from_half(t.x(), word, lane == 1);
                return t.x();
            }
            default: {
                Operand t = b_.temp();
                biased_bytes(t.y(), unsigned_bytes(word), lane);
                return t.y();
            }
        }
    }

    // The four words of a vector from V output values.
    Operand pack(const std::vector<Operand>& values) {
        Operand words = b_.temp();
        switch (type_) {
            case DataType::kFloat32:
                for (uint32_t k = 0; k < 4; ++k) b_.mov(words.component(k), values[k]);
                break;
            case DataType::kFloat16:
                for (uint32_t k = 0; k < 4; ++k) {
                    Operand h = b_.temp();
                    to_half(h.x(), values[2 * k]);
                    to_half(h.y(), values[2 * k + 1]);
                    b_.bfi(words.component(k), imm(16), imm(16), h.y(), h.x());
                }
                break;
            default:
                for (uint32_t k = 0; k < 4; ++k) {
                    Operand r = b_.temp();
                    for (uint32_t lane = 0; lane < 4; ++lane) {
                        // The exact blend (the bias off: exact, both terms multiples of 1/16 below 2^16, so even a
                        // compiler that re-associated it into the blend could not change it), truncated toward zero.
                        const float bias = kByteBias + (type_ == DataType::kInt8 ? 128.0f : 0.0f);
                        b_.add(r.component(lane), values[4 * k + lane], imm_f(-bias));
                        if (type_ == DataType::kInt8) b_.ftoi(r.component(lane), r.component(lane));
                        else b_.ftou(r.component(lane), r.component(lane));
                    }
                    // The low 8 bits of each integer are the byte (two's complement for INT8).
                    b_.bfi(r.x(), imm(8), imm(8), r.y(), r.x());
                    b_.bfi(r.x(), imm(8), imm(16), r.z(), r.x());
                    b_.bfi(words.component(k), imm(8), imm(24), r.w(), r.x());
                }
                break;
        }
        return words;
    }

    // a * w0 + c * w1 into a fresh scalar (the product, then one multiply-add).
    Operand blend(Operand a, Operand w0, Operand c, Operand w1) {
        Operand d = s_.next();
        b_.mul(d, c, w1);
        b_.mad(d, a, w0, d);
        return d;
    }

private:
    // float32 -> float16 bits (low 16 bits, upper bits zero) with round to nearest even: what
    // shaders::float_to_half computes (overflow to inf, NaN to 0x7e00 with the sign), in 13 integer operations
    // and one add instead of 16 and one. |f| is rounded to the half grid of its binade by one float add of
    // s = 1.5 * 2^(E + 13) (E its exponent, at least -14: the half-subnormal grid 2^-24 below 2^-14): the sum lies
    // in [2^(E + 13), 2^(E + 14)), whose ulp is 2^(E - 10), the half ulp, so the add rounds |f| to nearest even on
    // that grid, and bits(sum) - bits(s) is the rounded |f| in half ulps: the half's 10-bit mantissa plus 1024
    // (normal) or the subnormal half itself (E = -14). Adding (E + 14) << 10 gives the half's bits, 0x7c00 (inf)
    // or more on overflow (s itself overflows into the sign bit for E >= 116: the difference is then "negative",
    // a huge unsigned), so umin(., 0x7c00) saturates; NaN is selected explicitly. A float32 denormal |f| flushed
    // by the add gives +-0 (within the bound's F). The operands of the add are integer results, so no compiler
    // can fold it into the blend before.
    void to_half(Operand dst, Operand f) {
        if (native_half_) {  // a NaN may become another NaN half than below (NVIDIA: 0x7fff for every NaN)
            b_.f32tof16(dst, f);
            return;
        }
        Operand t = b_.temp(), u = b_.temp();
        b_.and_(t.x(), f, imm(0x7fffffffu));                        // |f|
        b_.and_(t.y(), t.x(), imm(0x7f800000u));
        b_.umax(t.y(), t.y(), imm(113u << 23));                      // e: exponent field, E >= -14
        b_.iadd(t.z(), t.y(), imm((13u << 23) | 0x400000u));         // bits(s)
        b_.add(t.w(), t.x(), t.z());                                 // |f| + s, rounded on the half grid
        b_.ushr(u.x(), t.y(), imm(13));                              // (E + 127) << 10
        b_.isub(u.x(), u.x(), t.z());
        b_.iadd(u.x(), u.x(), t.w());                                // bits(sum) - bits(s) + ((E + 127) << 10)
        b_.iadd(u.x(), u.x(), imm(0u - (113u << 10)));               // in all: + (E + 14) << 10
        b_.umin(u.x(), u.x(), imm(0x7c00u));                         // overflow: inf
        b_.ult(u.y(), imm(0x7f800000u), t.x());
        b_.movc(u.x(), u.y(), imm(0x7e00u), u.x());                  // NaN
        b_.ushr(u.z(), f, imm(31));
        b_.bfi(dst, imm(1), imm(15), u.z(), u.x());                  // the sign
    }

    // float16 -> float32, exact for every half (what shaders::half_to_float computes, without its int-to-float
    // conversion): the low (upper = false) or high half of each component of `words` into the same components of
    // dst. Normal halves: the magnitude bits m shifted into place with the exponent rebiased, (m << 13) + (112 << 23);
    // subnormal ones (m < 0x400): (m << 13) + (113 << 23) is 2^-14 + m * 2^-24, so subtracting 2^-14 leaves
    // m * 2^-24 exactly (every value involved is a normal float32, so denormal flushing cannot touch it);
    // inf/NaN (m >= 0x7c00): the exponent field set to all ones, the payload kept. Then the sign.
    void from_half(Operand dst, Operand words, bool upper) {
        const uint32_t n = words.component_count();
        auto sel = [n](Operand r) { return n == 4 ? r.xyzw() : r.x(); };
        if (native_half_) {  // the opcode reads the low 16 bits of each component
            if (!upper) {
                b_.f16tof32(dst, words);
                return;
            }
            Operand h = sel(b_.temp());
            b_.ushr(h, words, imm(16));
            b_.f16tof32(dst, h);
            return;
        }
        Operand m = sel(b_.temp()), x = sel(b_.temp()), t = sel(b_.temp()), c = sel(b_.temp());
        if (upper) b_.ubfe(m, imm(15), imm(16), words);
        else b_.and_(m, words, imm(0x7fffu));
        b_.imad(x, m, imm(1u << 13), imm(112u << 23));
        b_.iadd(t, x, imm(1u << 23));
        b_.add(t, t, imm_f(-0x1p-14f));
        b_.ult(c, m, imm(0x400u));
        b_.movc(x, c, t, x);
        b_.uge(c, m, imm(0x7c00u));
        b_.or_(t, x, imm(0x7f800000u));
        b_.movc(x, c, t, x);
        if (upper) {
            b_.and_(t, words, imm(0x80000000u));
        } else {
            b_.ishl(t, words, imm(16));
            b_.and_(t, t, imm(0x80000000u));
        }
        b_.or_(dst, x, t);
    }

    // 8-bit words with every byte as unsigned (INT8: + 128, flipping each sign bit).
    Operand unsigned_bytes(Operand words) {
        if (type_ != DataType::kInt8) return words;
        Operand t = b_.temp();
        const Operand dst = words.component_count() == 4 ? t.xyzw() : t.x();
        b_.xor_(dst, words, imm(0x80808080u));
        return dst;
    }

    // dst = 2^15 + byte `lane` of each word of u, as float bits (the byte into mantissa bits 8..15 of 2^15).
    void biased_bytes(Operand dst, Operand u, uint32_t lane) {
        Operand source = u;
        if (lane > 0) {
            Operand t = b_.temp();
            source = u.component_count() == 4 ? t.xyzw() : t.x();
            b_.ushr(source, u, imm(8 * lane));
        }
        b_.bfi(dst, imm(8), imm(8), source, imm(std::bit_cast<uint32_t>(kByteBias)));
    }

    ProgramBuilder& b_;
    DataType type_;
    bool native_half_;
    Scalars s_;
};

// x2: see the file comment. Thread = (plane * (H + 1) + j) * chunks + c. With one_row (a tuning variant: half the
// registers per thread, so more threads in flight), a thread writes one output row: thread = (plane * 2H + r) *
// chunks + c, r = 2j - 1 or 2j with the same rows and weights as that row of the pair.
Result<std::vector<uint8_t>> build_x2_kernel(DataType type, bool native_half, bool one_row) {
    ProgramBuilder b({.thread_group = {kThreadsPerGroup, 1, 1}});
    Resource vectors = b.srv_typed_uint4(0);
    const Resource words = b.srv_raw(1);
    Resource output = b.uav_typed_uint4(0);
    auto rc = [&](uint32_t i) { return b.root_constant(i); };
    Codec codec(b, type, native_half);
    const uint32_t V = codec.per_vector();
    const uint32_t esize = uint32_t(element_size(type));

    Operand thread = shaders::linear_thread_index(b, rc(kFastThreadsPerRow));
    Operand t = b.temp(), p = b.temp(), r = b.temp(), col = b.temp();
    b.ult(t.x(), thread, rc(kFastThreads));
    b.if_nz(t.x());
    b.udiv(t.y(), t.z(), thread, rc(kFastChunks));   // t.y plane * (H + 1) + j (one_row: plane * 2H + r), t.z chunk c
    Operand odd;
    if (one_row) {
        odd = b.temp();
        b.udiv(p.x(), p.w(), t.y(), rc(kFastOutH));  // p.x plane, p.w output row r
        b.and_(odd.x(), p.w(), imm(1));               // r = 2j - 1 (odd) or 2j
        b.iadd(p.y(), p.w(), imm(1));
        b.ushr(p.y(), p.y(), imm(1));                 // j
    } else {
        b.udiv(p.x(), p.y(), t.y(), rc(kFastPairs));  // p.x plane, p.y j
    }
    b.iadd(p.z(), rc(kFastInH), imm(0xffffffffu));   // H - 1
    // Input rows (plane-relative): A = j == 0 ? 1 : j - 1, B = min(j, H - 1).
    b.ieq(t.w(), p.y(), imm(0));
    b.iadd(r.x(), p.y(), imm(0xffffffffu));
    b.movc(r.x(), t.w(), imm(1), r.x());
    b.umin(r.y(), p.y(), p.z());
    b.imul(r.z(), p.x(), rc(kFastInH));              // plane * H
    b.iadd(r.xy(), r.xy(), r.z());                   // absolute input rows of A and B
    // Row weights: output row 2j - 1 = wa1 * A + wb1 * B (3/4, 1/4; j == H: 1, 0); row 2j = wa2 * A + wb2 * B
    // (1/4, 3/4; j == 0: 0, 1).
    Operand w = b.temp();
    b.ieq(t.w(), p.y(), rc(kFastInH));
    b.movc(w.y(), t.w(), imm_f(0.0f), imm_f(0.25f));  // wb1
    b.sub(w.x(), imm_f(1.0f), w.y());                 // wa1 (exact)
    b.ieq(t.w(), p.y(), imm(0));
    b.movc(w.z(), t.w(), imm_f(0.0f), imm_f(0.25f));  // wa2
    b.sub(w.w(), imm_f(1.0f), w.z());                 // wb2
    if (one_row) b.movc(w.xy(), odd.x(), w.xy(), w.zw());  // this row's pair: (wa1, wb1) or (wa2, wb2)
    // Columns: first cV, left neighbour max(cV - 1, 0), right min(cV + V, W - 1) (their words' byte addresses
    // below); the edge chunks replace them with in[1] and in[W - 1] after loading.
    Operand edge = b.temp();
    b.imul(col.x(), t.z(), imm(V));
    b.iadd(col.y(), col.x(), imm(0xffffffffu));
    b.imax(col.y(), col.y(), imm(0));
    b.iadd(col.z(), col.x(), imm(V));
    b.iadd(col.w(), rc(kFastInW), imm(0xffffffffu));
    b.umin(col.z(), col.z(), col.w());
    b.ieq(edge.x(), t.z(), imm(0));                   // first chunk of the row
    b.iadd(edge.y(), rc(kFastChunks), imm(0xffffffffu));
    b.ieq(edge.y(), t.z(), edge.y());                 // last chunk of the row
    // Column weights of the first and last output of the chunk: out[0] = wl * v[left] + (1 - wl) * v[cV],
    // out[2V - 1] = (1 - wr) * v[cV + V - 1] + wr * v[right].
    Operand cw = b.temp();
    b.movc(cw.x(), edge.x(), imm_f(0.0f), imm_f(0.25f));
    b.sub(cw.y(), imm_f(1.0f), cw.x());
    b.movc(cw.w(), edge.y(), imm_f(0.0f), imm_f(0.25f));
    b.sub(cw.z(), imm_f(1.0f), cw.w());

    // Loads and unpacking: columns cV - 1 .. cV + V of rows A and B.
    std::vector<Operand> rows[2];
    for (int k = 0; k < 2; ++k) {
        Operand a = b.temp(), v = b.temp(), n = b.temp();
        b.imad(a.x(), r.component(k), rc(kFastChunks), t.z());  // vector index
        b.ld_typed(v.xyzw(), a.x(), vectors);
        b.imad(a.y(), r.component(k), rc(kFastInW), col.y());   // element index of the left neighbour
        b.imad(a.z(), r.component(k), rc(kFastInW), col.z());   // and of the right one
        b.imul(a.yz(), a.yz(), imm(esize));
        b.and_(a.yz(), a.yz(), imm(0xfffffffcu));               // their words
        b.ld_raw(n.x(), a.y(), words);
        b.ld_raw(n.y(), a.z(), words);
        std::vector<Operand> center = codec.unpack(v);
        Operand left = codec.unpack_one(n.x(), codec.per_word() - 1);
        Operand right = codec.unpack_one(n.y(), 0);
        Operand e = b.temp();
        b.movc(e.x(), edge.x(), center[1], left);
        b.movc(e.y(), edge.y(), center[V - 1], right);
        rows[k].push_back(e.x());
        rows[k].insert(rows[k].end(), center.begin(), center.end());
        rows[k].push_back(e.y());
    }

    // Output rows 2j - 1 (when j >= 1) and 2j (when j < H): vector index (plane * 2H + row) * 2 * chunks + 2c.
    Operand o = b.temp();
    b.imul(o.x(), rc(kFastInH), imm(2));
    b.imul(o.x(), o.x(), p.x());
    b.imad(o.x(), p.y(), imm(2), o.x());              // plane * 2H + 2j
    b.imul(o.y(), rc(kFastChunks), imm(2));           // output vectors per row
    b.imad(o.z(), t.z(), imm(2), imm(0));
    const Operand quarter = imm_f(0.25f), three_quarters = imm_f(0.75f);
    for (int out_row = 0; out_row < (one_row ? 1 : 2); ++out_row) {
        if (!one_row) {
            Operand valid = b.temp();
            if (out_row == 0) b.ine(valid.x(), p.y(), imm(0));
            else b.ine(valid.x(), p.y(), rc(kFastInH));
            b.if_nz(valid.x());
        }
        const Operand wa = out_row == 0 ? w.x() : w.z();
        const Operand wb = out_row == 0 ? w.y() : w.w();
        std::vector<Operand> v(V + 2);
        for (uint32_t k = 0; k < V + 2; ++k) v[k] = codec.blend(rows[0][k], wa, rows[1][k], wb);
        std::vector<Operand> out(2 * V);
        for (uint32_t k = 0; k < V; ++k) {
            // Output column 2(cV + k): input columns cV + k - 1 (v[k]) and cV + k (v[k + 1]).
            out[2 * k] = k == 0 ? codec.blend(v[0], cw.x(), v[1], cw.y())
                                : codec.blend(v[k], quarter, v[k + 1], three_quarters);
            // Output column 2(cV + k) + 1: input columns cV + k and cV + k + 1.
            out[2 * k + 1] = k == V - 1 ? codec.blend(v[V], cw.z(), v[V + 1], cw.w())
                                        : codec.blend(v[k + 1], three_quarters, v[k + 2], quarter);
        }
        Operand a = b.temp();
        if (one_row) {
            b.imad(a.x(), t.y(), o.y(), o.z());       // t.y = plane * 2H + r
        } else {
            b.iadd(a.x(), o.x(), imm(out_row == 0 ? 0xffffffffu : 0u));
            b.imad(a.x(), a.x(), o.y(), o.z());
        }
        const Operand lo = codec.pack(std::vector<Operand>(out.begin(), out.begin() + V));
        const Operand hi = codec.pack(std::vector<Operand>(out.begin() + V, out.end()));
        b.store_typed(output, a.x(), lo.xyzw());
        b.iadd(a.y(), a.x(), imm(1));
        b.store_typed(output, a.y(), hi.xyzw());
        if (!one_row) b.endif();
    }
    b.endif();
    b.ret();
    return b.build_dxbc();
}

// x0.5: see the file comment. Thread = output vector index = (plane * Ho + oh) * chunks + c; its input rows
// are 2 * (plane * Ho + oh) and the next, its input vectors 2c and 2c + 1 of each.
Result<std::vector<uint8_t>> build_half_kernel(DataType type, bool native_half) {
    ProgramBuilder b({.thread_group = {kThreadsPerGroup, 1, 1}});
    Resource vectors = b.srv_typed_uint4(0);
    Resource output = b.uav_typed_uint4(0);
    auto rc = [&](uint32_t i) { return b.root_constant(i); };
    Codec codec(b, type, native_half);
    const uint32_t V = codec.per_vector();

    Operand thread = shaders::linear_thread_index(b, rc(kFastThreadsPerRow));
    Operand t = b.temp(), a = b.temp();
    b.ult(t.x(), thread, rc(kFastThreads));
    b.if_nz(t.x());
    b.udiv(t.y(), t.z(), thread, rc(kFastChunks));  // t.y output row (all planes), t.z chunk
    b.imul(t.w(), rc(kFastChunks), imm(2));          // input vectors per row
    b.imul(a.x(), t.y(), imm(2));
    b.imad(a.x(), a.x(), t.w(), imm(0));
    b.imad(a.x(), t.z(), imm(2), a.x());             // row 2 * oh, vector 2c
    b.iadd(a.y(), a.x(), imm(1));
    b.iadd(a.zw(), a.xy(), t.w());                   // the next input row
    std::vector<Operand> in[2];
    for (int k = 0; k < 2; ++k)
        for (int half = 0; half < 2; ++half) {
            Operand v = b.temp();
            b.ld_typed(v.xyzw(), a.component(2 * k + half), vectors);
            const std::vector<Operand> values = codec.unpack(v);
            in[k].insert(in[k].end(), values.begin(), values.end());
        }
    const Operand half = imm_f(0.5f);
    std::vector<Operand> out(V);
    for (uint32_t k = 0; k < V; ++k) {
        const Operand top = codec.blend(in[0][2 * k], half, in[0][2 * k + 1], half);
        const Operand bottom = codec.blend(in[1][2 * k], half, in[1][2 * k + 1], half);
        out[k] = codec.blend(top, half, bottom, half);
    }
    b.store_typed(output, thread, codec.pack(out).xyzw());
    b.endif();
    b.ret();
    return b.build_dxbc();
}

bool same_tap(const LinearTap& a, const LinearTap& b) {
    return a.x0 == b.x0 && a.x1 == b.x1 && std::bit_cast<uint32_t>(a.w0) == std::bit_cast<uint32_t>(b.w0) &&
           std::bit_cast<uint32_t>(a.w1) == std::bit_cast<uint32_t>(b.w1);
}

// The tap of output index o for x2 half-pixel upsampling of n_in (>= 2) elements, in closed form.
LinearTap x2_tap(uint32_t o, uint32_t n_in) {
    LinearTap tap;
    if (o == 0) {
        tap.x1 = 1;
        return tap;  // x0 0, w0 1, w1 0
    }
    tap.x0 = (o - 1) / 2;
    tap.x1 = std::min(tap.x0 + 1, n_in - 1);
    // The last output's coordinate n - 0.75 is clamped to n - 1 (coordinates.h): weight 0 on the clamped x1.
    tap.w1 = o == 2 * n_in - 1 ? 0.0f : o % 2 == 1 ? 0.25f : 0.75f;
    tap.w0 = 1.0f - tap.w1;
    return tap;
}

// Whether every tap of dimension d is `expected(o)`.
template <typename Expected>
bool taps_are(const ResampleDesc& desc, uint32_t d, Expected expected) {
    const uint32_t n_in = desc.input.sizes[d], n_out = desc.output.sizes[d];
    const float inv = inverse_scale(desc.scales[d]);
    for (uint32_t o = 0; o < n_out; ++o)
        if (!same_tap(linear_tap(o, n_in, inv), expected(o))) return false;
    return true;
}

bool is_identity_dim(const ResampleDesc& desc, uint32_t d) {
    const uint32_t n = desc.input.sizes[d];
    if (desc.output.sizes[d] != n) return false;
    return taps_are(desc, d, [&](uint32_t o) { return LinearTap{o, std::min(o + 1, n - 1), 1.0f, 0.0f}; });
}

bool is_x2_dim(const ResampleDesc& desc, uint32_t d) {
    const uint32_t n = desc.input.sizes[d];
    if (n < 2 || uint64_t(desc.output.sizes[d]) != uint64_t(n) * 2) return false;
    return taps_are(desc, d, [&](uint32_t o) { return x2_tap(o, n); });
}

bool is_half_dim(const ResampleDesc& desc, uint32_t d) {
    const uint32_t n = desc.output.sizes[d];
    if (n < 1 || uint64_t(desc.input.sizes[d]) != uint64_t(n) * 2) return false;
    return taps_are(desc, d, [](uint32_t o) { return LinearTap{2 * o, 2 * o + 1, 0.5f, 0.5f}; });
}

bool is_packed(const TensorDesc& tensor) {
    const Dims strides = tensor.effective_strides();
    uint64_t expected = 1;
    for (uint32_t d = tensor.rank(); d-- > 0;) {
        if (strides[d] != expected) return false;
        expected *= tensor.sizes[d];
    }
    return true;
}

enum class FastKind { kX2, kHalf };

Result<std::shared_ptr<const std::vector<uint8_t>>> cached(FastKind kind, DataType type, LinearFastVariant variant) {
    static std::mutex mutex;
    static std::map<std::tuple<FastKind, DataType, bool, bool>, std::shared_ptr<const std::vector<uint8_t>>> blobs;
    std::lock_guard<std::mutex> lock(mutex);
    auto& slot = blobs[{kind, type, variant.native_half, variant.one_output_row}];
    if (!slot) {
        DMLTOOL_ASSIGN_OR_RETURN(std::vector<uint8_t> blob,
                                 kind == FastKind::kX2 ? build_x2_kernel(type, variant.native_half, variant.one_output_row)
                                                       : build_half_kernel(type, variant.native_half));
        slot = std::make_shared<const std::vector<uint8_t>>(std::move(blob));
    }
    return slot;
}

}  // namespace

Result<std::optional<DevicePlan>> plan_linear_fast(const ResampleDesc& desc, LinearFastVariant variant) {
    const std::optional<DevicePlan> none;
    const DataType type = desc.input.data_type;
    const uint32_t rank = desc.input.rank();
    if (desc.mode != InterpolationMode::kLinear || rank < 2 || rank > kMaxRank ||
        (type != DataType::kFloat32 && type != DataType::kFloat16 && type != DataType::kInt8 &&
         type != DataType::kUint8) ||
        !is_packed(desc.input) || !is_packed(desc.output) || (variant.native_half && type != DataType::kFloat16))
        return none;
    if (desc.input.total_size_in_bytes > kWindowBytes || desc.output.total_size_in_bytes > kWindowBytes) return none;
    for (uint32_t d = 0; d + 2 < rank; ++d)
        if (!is_identity_dim(desc, d)) return none;
    const uint64_t esize = element_size(type), per_vector = 16 / esize;
    const uint32_t h = desc.input.sizes[rank - 2], w = desc.input.sizes[rank - 1];
    uint64_t planes = 1;
    for (uint32_t d = 0; d + 2 < rank; ++d) planes *= desc.input.sizes[d];
    FastKind kind;
    uint64_t threads = 0, chunks = 0;
    if (w % per_vector == 0 && is_x2_dim(desc, rank - 2) && is_x2_dim(desc, rank - 1)) {
        kind = FastKind::kX2;
        chunks = w / per_vector;
        threads = planes * (variant.one_output_row ? 2 * uint64_t(h) : uint64_t(h) + 1) * chunks;
    } else if (!variant.one_output_row && (w / 2) % per_vector == 0 && is_half_dim(desc, rank - 2) &&
               is_half_dim(desc, rank - 1)) {
        kind = FastKind::kHalf;
        chunks = w / 2 / per_vector;
        threads = planes * (h / 2) * chunks;
    } else {
        return none;
    }
    if (threads == 0 || threads >= (uint64_t{1} << 32)) return none;

    DevicePlan plan;
    KernelDispatch dispatch;
    DMLTOOL_ASSIGN_OR_RETURN(dispatch.dxbc, cached(kind, type, variant));
    dispatch.label = "resample/" + std::string(data_type_name(type)) +
                     (kind == FastKind::kX2 ? "/linear_x2" : "/linear_half") +
                     (variant.one_output_row ? "/one_row" : "") + (variant.native_half ? "/native_half" : "");
    if (variant.native_half) plan.require(DeviceCapability::kExactHalfOpcodes);
    const shaders::DispatchGrid grid = shaders::plan_dispatch(threads, kThreadsPerGroup);
    std::vector<uint32_t> constants(kFastConstantCount, 0);
    constants[kFastThreads] = uint32_t(threads);
    constants[kFastThreadsPerRow] = grid.threads_per_row;
    constants[kFastChunks] = uint32_t(chunks);
    constants[kFastPairs] = h + 1;
    constants[kFastInH] = h;
    constants[kFastInW] = w;
    constants[kFastOutH] = 2 * h;  // < 2^32: h * w elements fit one 512 MiB view
    dispatch.root_constants = std::move(constants);
    dispatch.group_count = {grid.groups_x, grid.groups_y, 1};
    dispatch.srvs.push_back({BufferBinding::Source::kInput, 0, 0, 0, /*typed_uint4=*/true});
    if (kind == FastKind::kX2) dispatch.srvs.push_back({BufferBinding::Source::kInput, 0, 0, 0});  // neighbours
    dispatch.uavs.push_back({BufferBinding::Source::kOutput, 0, 0, 0, /*typed_uint4=*/true});
    plan.dispatches.push_back(std::move(dispatch));
    return std::optional<DevicePlan>(std::move(plan));
}

}  // namespace dmltool::ops::resample
