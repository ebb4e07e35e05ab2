#include "shaders/vector_interleave.h"

#include <bit>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace dmltool::shaders {
namespace {

constexpr uint32_t kThreadsPerGroup = 64;
constexpr uint32_t kPieceVectorsPerThread = 2;

// Root constants; every offset and stride is in 16-byte vectors.
enum Constant : uint32_t {
    kThreads, kThreadsPerRow, kRowVectors /* W / V */, kOutputRows /* H * B */, kOutputChannels,
    kInputN, kInputChannel, kInputBlockRow, kInputBlockColumn, kInputH, kInputBase,
    kOutputN, kOutputChannel, kOutputRow,
    kOutputRowVectors /* piece gather: W * B / V / 2 (its threads per row) */, kConstantCount
};

uint64_t padded_bytes(uint64_t bytes) { return std::max<uint64_t>(16, (bytes + 15) & ~uint64_t(15)); }

// dst = bits [src_offset, src_offset + width) of src moved to [dst_offset, dst_offset + width), zeros
// elsewhere, with plain shifts and masks: every GPU has those natively, whereas NVIDIA GPUs since Volta have
// no bitfield extract/insert instructions (ubfe/bfi lower to sequences). Masks are left out where a shift
// already clears the other bits.
void move_field(ProgramBuilder& b, Operand dst, Operand src, uint32_t src_offset, uint32_t width, uint32_t dst_offset) {
    const uint32_t mask = (width == 32 ? 0xffffffffu : (1u << width) - 1) << dst_offset;
    if (dst_offset == src_offset) {
        if (width == 32) b.mov(dst, src);
        else b.and_(dst, src, imm(mask));
        return;
    }
    bool clean;  // no bits outside the field left
    if (dst_offset > src_offset) {
        b.ishl(dst, src, imm(dst_offset - src_offset));
        clean = src_offset == 0 && dst_offset + width == 32;
    } else {
        b.ushr(dst, src, imm(src_offset - dst_offset));
        clean = src_offset + width == 32 && dst_offset == 0;
    }
    if (!clean) b.and_(dst, dst, imm(mask));
}

// Output vector m, element e (of V per vector) is input element w = (m*V + e) / B of the vector loaded from
// block column j = (m*V + e) % B: moves whole words for 4/8-byte elements, sub-word fields otherwise.
// `source_ids` names the register behind each in[j] (equal ids: one shared source). Neighbouring sub-word
// fields of an output word that come from the same source word with the same shift move as one field.
void assemble(ProgramBuilder& b, uint32_t element_bytes, uint32_t block, const std::vector<Operand>& in,
              const std::vector<uint32_t>& source_ids, Operand out, uint32_t m) {
    const uint32_t per_vector = 16 / element_bytes;
    if (element_bytes >= 4) {
        const uint32_t words = element_bytes / 4;
        for (uint32_t e = 0; e < per_vector; ++e) {
            const uint32_t index = m * per_vector + e, w = index / block, j = index % block;
            for (uint32_t k = 0; k < words; ++k) b.mov(out.component(e * words + k), in[j].component(w * words + k));
        }
        return;
    }
    const uint32_t per_word = 4 / element_bytes, bits = element_bytes * 8;
    struct Field {
        uint32_t j, component, src_offset, width, dst_offset;
    };
    Operand term = b.temp();
    for (uint32_t q = 0; q < 4; ++q) {
        std::vector<Field> fields;
        for (uint32_t s = 0; s < per_word; ++s) {
            const uint32_t index = m * per_vector + q * per_word + s, w = index / block, j = index % block;
            const Field f{j, w / per_word, (w % per_word) * bits, bits, s * bits};
            if (!fields.empty()) {
                Field& last = fields.back();
                if (source_ids[last.j] == source_ids[f.j] && last.component == f.component &&
                    last.src_offset + last.width == f.src_offset && last.dst_offset + last.width == f.dst_offset) {
                    last.width += bits;
                    continue;
                }
            }
            fields.push_back(f);
        }
        for (size_t k = 0; k < fields.size(); ++k) {
            const Field& f = fields[k];
            const Operand target = k == 0 ? out.component(q) : term.x();
            move_field(b, target, in[f.j].component(f.component), f.src_offset, f.width, f.dst_offset);
            if (k > 0) b.or_(out.component(q), out.component(q), term.x());
        }
    }
}

// The piece gather's loads, shuffles and stores. Output vector ov holds input elements [ov * V / B,
// (ov + 1) * V / B) of every source row: piece ov (16 / B bytes) of each row, at byte (row vector) * 16 +
// ov * 16 / B. A thread owns vectors ov and ov + stride (stride = half the row's vectors), so each of its
// loads and stores is coalesced across the warp; every load is issued before the first shuffle, so a thread
// has 2 * B loads in flight (and its index math serves 32 output bytes).
void emit_piece_gather(ProgramBuilder& b, const VectorInterleaveSpec& spec, const TensorViews& input,
                       const TensorViews& output, Operand source_vector, Operand target_vector, Operand ov,
                       Operand stride) {
    const uint32_t block = spec.block, piece_bytes = 16 / block;
    Operand address = b.temp(), step = b.temp();
    b.ishl(address.x(), source_vector, imm(4));
    b.imad(address.x(), ov, imm(piece_bytes), address.x());
    if (!spec.shared_source) b.ishl(step.x(), b.root_constant(kInputBlockColumn), imm(4));
    b.imul(step.y(), stride, imm(piece_bytes));
    std::vector<std::vector<Operand>> in(kPieceVectorsPerThread);
    std::vector<uint32_t> source_ids;  // which load feeds in[p][j]: all 0 for a shared source
    for (uint32_t j = 0; j < block; ++j) source_ids.push_back(spec.shared_source ? 0 : j);
    for (uint32_t p = 0; p < kPieceVectorsPerThread; ++p) {
        if (p > 0) b.iadd(address.x(), address.x(), step.y());
        b.mov(address.y(), address.x());
        for (uint32_t j = 0; j < block; ++j) {
            if (spec.shared_source && j > 0) {
                in[p].push_back(in[p][0]);
                continue;
            }
            in[p].push_back(b.temp());
            if (j > 0) b.iadd(address.y(), address.y(), step.x());
            load_words(b, input, address.y(), piece_bytes == 8 ? in[p][j].xy() : in[p][j].x());
        }
    }
    Operand out = b.temp();
    b.iadd(target_vector, target_vector, ov);
    for (uint32_t p = 0; p < kPieceVectorsPerThread; ++p) {
        assemble(b, spec.element_bytes, block, in[p], source_ids, out, 0);  // a piece sits like a vector's start
        if (p > 0) b.iadd(target_vector, target_vector, stride);
        b.ishl(address.x(), target_vector, imm(4));
        store_words(b, output, address.x(), out.xyzw());
    }
}

Result<std::shared_ptr<const std::vector<uint8_t>>> interleave_kernel(const VectorInterleaveSpec& spec) {
    static std::mutex mutex;
    static std::map<VectorInterleaveSpec, std::shared_ptr<const std::vector<uint8_t>>> cache;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = cache.find(spec);
    if (it != cache.end()) return it->second;
    DMLTOOL_ASSIGN_OR_RETURN(std::vector<uint8_t> blob, build_vector_interleave_kernel(spec));
    auto shared = std::make_shared<const std::vector<uint8_t>>(std::move(blob));
    cache.emplace(spec, shared);
    return shared;
}

}  // namespace

Result<std::vector<uint8_t>> build_vector_interleave_kernel(const VectorInterleaveSpec& spec) {
    const uint32_t bytes = spec.element_bytes, block = spec.block;
    if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8)
        return invalid_input("vector interleave kernel: element size must be 1, 2, 4 or 8 bytes");
    if (block < 2 || block > kMaxInterleaveBlock)
        return invalid_input("vector interleave kernel: block size must be 2 .. " + std::to_string(kMaxInterleaveBlock));
    if (spec.input_views == 0 || spec.output_views == 0)
        return invalid_input("vector interleave kernel: a tensor needs a view");
    if (spec.gather_pieces && ((block != 2 && block != 4) || bytes > 16 / block))
        return invalid_input("vector interleave kernel: the piece gather needs B = 2 or 4 and elements of at most 16 / B bytes");
    ProgramBuilder b({.thread_group = {kThreadsPerGroup, 1, 1}});
    TensorViews input{{}, spec.window_log2}, output{{}, spec.window_log2};
    // Pieces are 4/8-byte words: raw loads (a typed uint4 view only reads whole 16-byte vectors).
    for (uint32_t i = 0; i < spec.input_views; ++i)
        input.views.push_back(spec.gather_pieces ? b.srv_raw(i) : b.srv_typed_uint4(i));
    for (uint32_t i = 0; i < spec.output_views; ++i) output.views.push_back(b.uav_typed_uint4(i));
    auto rc = [&](uint32_t i) { return b.root_constant(i); };

    Operand thread = linear_thread_index(b, rc(kThreadsPerRow));
    Operand t = b.temp(), u = b.temp();
    b.ult(t.x(), thread, rc(kThreads));
    b.if_nz(t.x());
    // thread -> (n, c, output row oh = h * B + i, vector along the row: wv of the input row for the
    // interleave, ov of the output row for the piece gather).
    b.udiv(t.y(), t.z(), thread, rc(spec.gather_pieces ? kOutputRowVectors : kRowVectors));
    b.udiv(t.w(), u.x(), t.y(), rc(kOutputRows));       // t.w: n * C' + c, u.x: oh
    b.udiv(u.y(), u.z(), t.w(), rc(kOutputChannels));   // u.y: n, u.z: c
    if (std::has_single_bit(block)) {
        b.ushr(u.w(), u.x(), imm(std::countr_zero(block)));  // h
        b.and_(t.w(), u.x(), imm(block - 1));                // i
    } else {
        b.udiv(u.w(), t.w(), u.x(), imm(block));
    }
    // Source vector of block column 0, and the first output vector.
    Operand source = b.temp().x(), target = b.temp().x();
    b.imad(source, u.y(), rc(kInputN), rc(kInputBase));
    b.imad(source, u.z(), rc(kInputChannel), source);
    b.imad(source, t.w(), rc(kInputBlockRow), source);
    b.imad(source, u.w(), rc(kInputH), source);
    b.imul(target, u.y(), rc(kOutputN));
    b.imad(target, u.z(), rc(kOutputChannel), target);
    b.imad(target, u.x(), rc(kOutputRow), target);

    if (spec.gather_pieces) {
        emit_piece_gather(b, spec, input, output, source, target, t.z(), rc(kOutputRowVectors));
        b.endif();
        b.ret();
        return b.build_dxbc();
    }
    std::vector<Operand> in;
    std::vector<uint32_t> source_ids;  // which load feeds in[j]: all 0 for a shared source
    for (uint32_t j = 0; j < block; ++j) source_ids.push_back(spec.shared_source ? 0 : j);
    Operand address = b.temp().x();
    b.iadd(source, source, t.z());
    b.imad(target, t.z(), imm(block), target);
    for (uint32_t j = 0; j < block; ++j) {
        if (spec.shared_source && j > 0) {
            in.push_back(in[0]);
            continue;
        }
        in.push_back(b.temp());
        if (j > 0) b.iadd(source, source, rc(kInputBlockColumn));
        b.ishl(address, source, imm(4));
        load_words(b, input, address, in[j].xyzw());
    }
    Operand out = b.temp();
    for (uint32_t m = 0; m < block; ++m) {
        assemble(b, bytes, block, in, source_ids, out, m);
        if (m > 0) b.iadd(target, target, imm(1));
        b.ishl(address, target, imm(4));
        store_words(b, output, address, out.xyzw());
    }
    b.endif();
    b.ret();
    return b.build_dxbc();
}

Result<std::optional<KernelDispatch>> plan_vector_interleave(const VectorInterleaveProblem& p, const std::string& label,
                                                             uint32_t window) {
    const uint32_t bytes = p.element_bytes;
    if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8) return std::optional<KernelDispatch>();
    const uint64_t per_vector = 16 / bytes, block = p.block;
    if (block < 2 || block > kMaxInterleaveBlock || p.width % per_vector != 0) return std::optional<KernelDispatch>();
    const uint64_t element_strides[] = {p.in_n, p.in_c, p.in_block_row, p.in_block_column, p.in_h, p.in_base,
                                        p.out_n, p.out_c, p.out_row};
    uint64_t wide[kConstantCount] = {};
    for (uint32_t k = 0; k < 9; ++k) {
        if (element_strides[k] % per_vector != 0) return std::optional<KernelDispatch>();  // a row would start mid-vector
        wide[kInputN + k] = element_strides[k] / per_vector;
    }
    const uint64_t in_bytes = padded_bytes(p.input_bytes), out_bytes = padded_bytes(p.output_bytes);
    if (in_bytes > (uint64_t{1} << 32) || out_bytes > (uint64_t{1} << 32)) return std::optional<KernelDispatch>();
    const bool pieces_fit = (block == 2 || block == 4) && bytes <= 16 / block;
    const bool pieces = pieces_fit && (p.shape == InterleaveShape::kPieces ||
                                       (p.shape == InterleaveShape::kAuto && block == 4 && bytes <= 2));
    // A piece-gather thread writes two vectors, half an output row apart (W * B / V is even: B is).
    const uint64_t output_row_vectors = p.width * block / per_vector;
    const uint64_t row_threads = pieces ? output_row_vectors / kPieceVectorsPerThread : p.width / per_vector;
    const uint64_t threads = p.batch * p.channels * p.height * block * row_threads;
    const DispatchGrid grid = plan_dispatch(threads, kThreadsPerGroup);
    wide[kThreads] = threads;
    wide[kThreadsPerRow] = grid.threads_per_row;
    wide[kRowVectors] = p.width / per_vector;
    wide[kOutputRows] = p.height * block;
    wide[kOutputChannels] = p.channels;
    wide[kOutputRowVectors] = output_row_vectors / kPieceVectorsPerThread;
    KernelDispatch dispatch;
    for (uint64_t value : wide) {
        if (value > 0xffffffffull) return std::optional<KernelDispatch>();
        dispatch.root_constants.push_back(uint32_t(value));
    }
    if (window < 8 || window > kMaxViewBytesLog2) return invalid_input(label + ": view window must be 2^8 .. 2^29 bytes");
    const VectorInterleaveSpec spec{bytes, uint32_t(block), p.in_block_column == 0,
                                    uint32_t((in_bytes + (uint64_t{1} << window) - 1) >> window),
                                    uint32_t((out_bytes + (uint64_t{1} << window) - 1) >> window), window,
                                    pieces};
    DMLTOOL_ASSIGN_OR_RETURN(dispatch.dxbc, interleave_kernel(spec));
    dispatch.label = label + (pieces ? "/piece_gather b" : "/vector_interleave b") + std::to_string(block);
    auto bind = [&](BufferBinding::Source source, uint32_t slot, uint32_t views, bool typed,
                    std::vector<BufferBinding>& to) {
        for (uint32_t i = 0; i < views; ++i)
            to.push_back({source, slot, uint64_t{i} << window, i + 1 < views ? uint64_t{1} << window : 0, typed});
    };
    bind(BufferBinding::Source::kInput, p.input_slot, spec.input_views, !pieces, dispatch.srvs);
    bind(BufferBinding::Source::kOutput, p.output_slot, spec.output_views, true, dispatch.uavs);
    dispatch.group_count = {grid.groups_x, grid.groups_y, 1};
    return std::optional<KernelDispatch>(std::move(dispatch));
}

}  // namespace dmltool::shaders
