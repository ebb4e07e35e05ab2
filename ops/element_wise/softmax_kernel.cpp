// The emitter of softmax_kernel.h. Host planning (merging, geometry, bindings) is in softmax_plan.cpp.
#include "ops/element_wise/softmax_kernel_internal.h"

#include <bit>
#include <functional>

#include "ops/element_wise/kernel_bodies.h"
#include "shaders/group_reduce.h"

namespace dmltool::ops::element_wise::softmax {

using shaders::imm;
using shaders::imm4;
using shaders::Operand;
using shaders::ProgramBuilder;
using shaders::TensorViews;

namespace {

constexpr uint32_t kNegativeInfinity = 0xff800000u;
constexpr uint32_t kNanKey = 0x80000000u;  // below every number's key: NaN never wins a hardmax

struct Emitter {
    Emitter(const KernelSpec& s, ProgramBuilder& builder) : spec(s), b(builder) {}
    const KernelSpec& spec;
    ProgramBuilder& b;
    TensorViews input, output;  // typed uint4 views on the chunked path, raw views otherwise
    Operand runtime_zero;
    uint32_t bytes = 4;
    uint32_t quads = 1;  // registers per chunk: V / 4 (a FLOAT16 chunk of 8 elements takes two)

    Operand table(uint32_t first, uint32_t i) const { return b.root_constant(kTables + first + i); }

    // Operand of chunk register q: all four components on the chunked path, .x with single elements.
    Operand lanes(Operand r) const { return spec.chunk == 1 ? r.x() : r.xyzw(); }
    std::vector<Operand> fresh_chunk() {
        std::vector<Operand> v;
        for (uint32_t q = 0; q < quads; ++q) v.push_back(lanes(b.temp()));
        return v;
    }

    // Element offset of chunk c's first element in a tensor: base + the lane coordinates' strides.
    Operand offset(Operand c, Operand base, bool out) {
        Operand t = b.temp();
        if (spec.chunk > 1) {
            b.imad(t.x(), c, imm(spec.chunk), base);  // the lane is packed: stride 1
            return t.x();
        }
        const ConstantTables k{spec.outer_rank, spec.lane_rank};
        const uint32_t strides = out ? k.lane_output_strides() : k.lane_input_strides();
        if (spec.lane_rank == 1) {
            b.imad(t.x(), c, table(strides, 0), base);
            return t.x();
        }
        std::vector<Operand> coords = shaders::decompose_index(b, c, spec.lane_rank,
                                                               shaders::UintArray::root_constants(kTables + k.lane_sizes()));
        return shaders::dot_strides(b, coords, shaders::UintArray::root_constants(kTables + strides), base);
    }

    // Loads chunk c as float32 values.
    void load(Operand c, Operand base, const std::vector<Operand>& values) {
        Operand at = offset(c, base, false);
        if (spec.chunk == 1) {
            Operand bits = b.temp();
            shaders::load_element(b, input, bytes, at, bits.x());
            if (bytes == 2 && spec.native_half) b.f16tof32(values[0], bits.x());
            else if (bytes == 2) shaders::half_to_float(b, values[0], bits.x());
            else b.mov(values[0], bits.x());
            return;
        }
        Operand address = b.temp();
        b.ishl(address.x(), at, imm(std::countr_zero(bytes)));
        if (bytes == 4) return shaders::load_words(b, input, address.x(), values[0]);
        Operand words = b.temp(), half = b.temp();
        shaders::load_words(b, input, address.x(), words.xyzw());
        if (spec.native_half) {
            // Elements 4q..4q+3 are the low and high halves of words 2q and 2q + 1; the opcode reads low halves.
            Operand high = b.temp(), pair = b.temp();
            b.ushr(high.xyzw(), words.xyzw(), imm(16));
            for (uint32_t q = 0; q < quads; ++q) {
                b.mov(pair.select({0, 2}), words.select({2 * q, 2 * q + 1}));
                b.mov(pair.select({1, 3}), high.select({2 * q, 2 * q + 1}));
                b.f16tof32(values[q], pair.xyzw());
            }
            return;
        }
        for (uint32_t i = 0; i < spec.chunk; ++i) {
            b.ubfe(half.x(), imm(16), imm(i % 2 * 16), words.component(i / 2));
            shaders::half_to_float(b, values[i / 4].component(i % 4), half.x());
        }
    }

    void store(Operand c, Operand base, const std::vector<Operand>& values) {
        Operand at = offset(c, base, true);
        if (spec.chunk == 1) {
            Operand bits = b.temp();
            if (bytes == 2 && spec.native_half) b.f32tof16(bits.x(), values[0]);
            else if (bytes == 2) shaders::float_to_half(b, bits.x(), values[0]);
            else b.mov(bits.x(), values[0]);
            return shaders::store_element_atomic(b, output, bytes, at, bits.x());
        }
        Operand address = b.temp();
        b.ishl(address.x(), at, imm(std::countr_zero(bytes)));
        if (bytes == 4) return shaders::store_words(b, output, address.x(), values[0]);
        // The thread owns the chunk's whole words: pack the 8 halves and store plainly.
        Operand words = b.temp(), half = b.temp();
        if (spec.native_half) {
            Operand high = b.temp();
            for (uint32_t q = 0; q < quads; ++q) {
                b.f32tof16(half.xyzw(), values[q]);  // upper 16 bits zero
                b.ishl(high.select({1, 3}), half.select({1, 3}), imm(16));
                b.or_(words.select({2 * q, 2 * q + 1}), half.select({0, 2}), high.select({1, 3}));
            }
            return shaders::store_words(b, output, address.x(), words.xyzw());
        }
        b.mov(words.xyzw(), imm(0));
        for (uint32_t i = 0; i < spec.chunk; ++i) {
            shaders::float_to_half(b, half.x(), values[i / 4].component(i % 4));
            shaders::insert_subword(b, words.component(i / 2), 2, i % 2, half.x());
        }
        shaders::store_words(b, output, address.x(), words.xyzw());
    }

    // A float's bits as an integer that orders like the float: -0 and +0 equal (the reference's > ties them),
    // negatives below positives, NaN below everything. Integer arithmetic only: a device that flushes float
    // subnormals in comparisons could not tell 1e-45 from 2e-45, the reference can.
    void to_key(Operand v) {
        Operand t = b.temp(), nan = b.temp();
        const Operand tv = lanes(t), nv = lanes(nan);
        b.and_(tv, v, imm(0x7fffffff));
        b.ult(nv, imm(0x7f800000), tv);
        b.xor_(tv, v, imm(0x7fffffff));
        b.iadd(tv, tv, imm(1));
        Operand negative = b.temp();
        b.ilt(lanes(negative), v, imm(0));
        b.movc(v, lanes(negative), tv, v);
        b.movc(v, nv, imm(kNanKey), v);
    }

    // acc = acc op v, component-wise (an accumulator as wide as a chunk register: independent chains).
    void combine(Operand acc, Operand v, shaders::ReduceOp op) {
        switch (op) {
            case shaders::ReduceOp::kAdd: b.add(acc, acc, v); break;
            case shaders::ReduceOp::kMax: b.max(acc, acc, v); break;
            case shaders::ReduceOp::kImax: b.imax(acc, acc, v); break;
            case shaders::ReduceOp::kUmin: b.umin(acc, acc, v); break;
        }
    }

    // A chunk-wide accumulator starting at `init`, and its components folded into a scalar (x first).
    Operand accumulator(uint32_t init) {
        Operand acc = lanes(b.temp());
        b.mov(acc, imm(init));
        return acc;
    }
    Operand fold(Operand acc, shaders::ReduceOp op) {
        Operand scalar = b.temp().x();
        b.mov(scalar, acc.component_count() == 1 ? acc : acc.x());
        for (uint32_t i = 1; i < acc.component_count(); ++i) combine(scalar, acc.component(i), op);
        return scalar;
    }
};

}  // namespace

Result<std::vector<uint8_t>> build_kernel(const KernelSpec& spec) {
    const ConstantTables k{spec.outer_rank, spec.lane_rank};
    ProgramBuilder b({.thread_group = {spec.threads_per_group, 1, 1}});
    Emitter e(spec, b);
    e.bytes = spec.bytes;
    e.quads = spec.chunk > 4 ? spec.chunk / 4 : 1;
    const bool typed = spec.chunk > 1;
    e.input.window_log2 = e.output.window_log2 = spec.window_log2;
    for (uint32_t v = 0; v < spec.input_views; ++v)
        e.input.views.push_back(typed ? b.srv_typed_uint4(v) : b.srv_raw(v));
    for (uint32_t v = 0; v < spec.output_views; ++v)
        e.output.views.push_back(typed ? b.uav_typed_uint4(v) : b.uav_raw(v));
    e.runtime_zero = b.root_constant(kRuntimeZero);
    const uint32_t T = spec.threads_per_lane;
    const bool reduce = T > 1;
    shaders::Resource shared_a{}, shared_b{};
    if (reduce) {
        shared_a = b.groupshared_raw(spec.threads_per_group * 4);
        shared_b = b.groupshared_raw(spec.threads_per_group * 4);
    }

    // Lane, slice and this thread's chunk count (0 past the last lane: such threads still reach every barrier).
    Operand tig = b.thread_id_in_group().x();
    Operand gid = b.thread_group_id();
    Operand r = b.temp();  // x group, y lane, z slice, w flag
    b.imad(r.x(), gid.y(), b.root_constant(kGroupsX), gid.x());
    b.ushr(r.y(), tig, imm(std::countr_zero(T)));
    b.imad(r.y(), r.x(), imm(spec.threads_per_group / T), r.y());
    b.and_(r.z(), tig, imm(T - 1));
    Operand chunks = b.temp().x();
    b.ult(r.w(), r.y(), b.root_constant(kLanes));
    b.movc(chunks, r.w(), b.root_constant(kChunks), imm(0));
    Operand lane = r.y(), slice = r.z();
    if (spec.exact_fit) {
        // Lanes past the end (the last group's) read the last lane instead of branching around every load.
        Operand last = b.temp();
        b.iadd(last.x(), b.root_constant(kLanes), imm(0xffffffffu));
        b.umin(last.x(), lane, last.x());
        lane = last.x();
    }
    const std::vector<Operand> outer =
        shaders::decompose_index(b, lane, spec.outer_rank, shaders::UintArray::root_constants(kTables + k.outer_sizes()));
    auto table = [&](uint32_t first) { return shaders::UintArray::root_constants(kTables + first); };
    Operand in_base = shaders::dot_strides(b, outer, table(k.outer_input_strides()), imm(0));
    Operand out_base = shaders::dot_strides(b, outer, table(k.outer_output_strides()), imm(0));

    const bool hardmax = spec.kind == SoftmaxKind::kHardmax;
    const Operand padding = imm(hardmax ? kNanKey : kNegativeInfinity);
    // Values as the phases see them: float32 (softmaxes) or order keys (hardmax).
    auto load_values = [&](Operand c, const std::vector<Operand>& v) {
        e.load(c, in_base, v);
        if (hardmax)
            for (const Operand& q : v) e.to_key(q);
    };

    // The chunks: held in registers (register path) or loaded again by each phase (looped path). A phase body gets
    // the chunk index and its values; `writes` phases skip chunks past the lane's end (the register path pads
    // those with a value neutral to the reductions instead, so reductions need no branch).
    std::vector<Operand> chunk_index;
    std::vector<std::vector<Operand>> held;
    std::vector<Operand> valid;
    if (!spec.looped) {
        for (uint32_t i = 0; i < spec.chunks_per_thread; ++i) {
            Operand t = b.temp();
            b.imad(t.x(), imm(i), imm(T), slice);
            chunk_index.push_back(t.x());
            held.push_back(e.fresh_chunk());
            if (spec.exact_fit) {
                valid.push_back(r.w());  // the lane's validity: every chunk exists
                load_values(t.x(), held.back());
                continue;
            }
            b.ult(t.y(), t.x(), chunks);
            valid.push_back(t.y());
            for (const Operand& q : held.back()) b.mov(q, padding);
            b.if_nz(t.y());
            load_values(t.x(), held.back());
            b.endif();
        }
    }
    using Body = std::function<void(Operand c, const std::vector<Operand>& values, bool cached)>;
    auto phase = [&](bool writes, const Body& body) {
        if (!spec.looped) {
            for (uint32_t i = 0; i < spec.chunks_per_thread; ++i) {
                if (writes) b.if_nz(valid[i]);
                body(chunk_index[i], held[i], true);
                if (writes) b.endif();
            }
            return;
        }
        Operand c = b.temp();
        b.mov(c.x(), slice);
        b.loop();
        b.uge(c.y(), c.x(), chunks);
        b.breakc_nz(c.y());
        const std::vector<Operand> values = e.fresh_chunk();
        load_values(c.x(), values);
        body(c.x(), values, false);
        b.iadd(c.x(), c.x(), imm(T));
        b.endloop();
    };

    BodyContext math_context(b, spec.chunk == 1 ? 1 : 4, {}, e.runtime_zero, {DataType::kFloat32}, DataType::kFloat32);
    math_context.allow_hardware_exp2(spec.hardware_exp2);
    if (hardmax) {
        // The largest key, then the first element index holding it (NaN keys tie only when every element is NaN:
        // then element 0, as the reference).
        Operand keys = e.accumulator(kNanKey);
        phase(false, [&](Operand, const std::vector<Operand>& v, bool) {
            for (const Operand& q : v) e.combine(keys, q, shaders::ReduceOp::kImax);
        });
        Operand best = e.fold(keys, shaders::ReduceOp::kImax);
        if (reduce) shaders::group_reduce_segments(b, shared_a, best, tig, T, shaders::ReduceOp::kImax);
        Operand indices = e.accumulator(0xffffffffu);
        Operand j = b.temp(), hit = b.temp();
        phase(false, [&](Operand c, const std::vector<Operand>& v, bool) {
            for (uint32_t q = 0; q < v.size(); ++q) {
                const Operand jv = e.lanes(j), hv = e.lanes(hit);
                b.imad(jv, c, imm(spec.chunk), spec.chunk == 1 ? imm(0) : imm4(4 * q, 4 * q + 1, 4 * q + 2, 4 * q + 3));
                b.ieq(hv, v[q], best);
                b.movc(jv, hv, jv, imm(0xffffffffu));
                e.combine(indices, jv, shaders::ReduceOp::kUmin);
            }
        });
        Operand first = e.fold(indices, shaders::ReduceOp::kUmin);
        if (reduce) shaders::group_reduce_segments(b, shared_b, first, tig, T, shaders::ReduceOp::kUmin);
        phase(true, [&](Operand c, const std::vector<Operand>&, bool) {
            std::vector<Operand> y = e.fresh_chunk();
            for (uint32_t q = 0; q < y.size(); ++q) {
                b.imad(y[q], c, imm(spec.chunk), spec.chunk == 1 ? imm(0) : imm4(4 * q, 4 * q + 1, 4 * q + 2, 4 * q + 3));
                b.ieq(y[q], y[q], first);
                b.and_(y[q], y[q], imm(0x3f800000));  // 1.0f where the index matches, +0 elsewhere
            }
            e.store(c, out_base, y);
        });
    } else {
        const bool log_softmax = spec.kind == SoftmaxKind::kLogSoftmax;
        Operand maxima = e.accumulator(kNegativeInfinity);
        phase(false, [&](Operand, const std::vector<Operand>& v, bool) {
            for (const Operand& q : v) e.combine(maxima, q, shaders::ReduceOp::kMax);
        });
        Operand largest = e.fold(maxima, shaders::ReduceOp::kMax);
        if (reduce) shaders::group_reduce_segments(b, shared_a, largest, tig, T, shaders::ReduceOp::kMax);
        // Component-wise partial sums, folded once: fewer dependent adds than a scalar running sum.
        Operand partial = e.accumulator(0);
        // d = x - m, p = e^d. The register path keeps d (log softmax) or p (softmax) for the write phase.
        auto exponentials = [&](const std::vector<Operand>& v, std::vector<Operand>& p) {
            for (uint32_t q = 0; q < v.size(); ++q) {
                b.sub(v[q], v[q], largest);
                math::exp_nonpositive(math_context, p[q], v[q]);  // x - m <= 0
            }
        };
        phase(false, [&](Operand, const std::vector<Operand>& v, bool cached) {
            std::vector<Operand> p = log_softmax || !cached ? e.fresh_chunk() : v;
            exponentials(v, p);
            for (const Operand& q : p) e.combine(partial, q, shaders::ReduceOp::kAdd);
        });
        Operand sum = e.fold(partial, shaders::ReduceOp::kAdd);
        if (reduce) shaders::group_reduce_segments(b, shared_b, sum, tig, T, shaders::ReduceOp::kAdd);
        Operand log_sum = b.temp().x();
        if (log_softmax) {
            BodyContext scalar(b, 1, {}, e.runtime_zero, {DataType::kFloat32}, DataType::kFloat32);
            math::log(scalar, log_sum, sum);
        }
        phase(true, [&](Operand c, const std::vector<Operand>& v, bool cached) {
            std::vector<Operand> y = e.fresh_chunk();
            if (log_softmax) {
                // The register path's v already holds x - m.
                for (uint32_t q = 0; q < v.size(); ++q) {
                    if (!cached) b.sub(v[q], v[q], largest);
                    b.sub(y[q], v[q], log_sum);
                }
            } else {
                std::vector<Operand> p = v;
                if (!cached) {
                    p = e.fresh_chunk();
                    exponentials(v, p);
                }
                for (uint32_t q = 0; q < v.size(); ++q) b.div(y[q], p[q], sum);
            }
            e.store(c, out_base, y);
        });
    }
    b.ret();
    return b.build_dxbc();
}

}  // namespace dmltool::ops::element_wise::softmax
