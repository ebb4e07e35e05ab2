#include "shaders/strided_copy.h"

#include <algorithm>
#include <bit>
#include <map>
#include <mutex>

namespace dmltool::shaders {
namespace {

// Root constants: a fixed header, then the per-dimension tables. One definition for the kernel and the host.
struct ConstantLayout {
    static constexpr uint32_t kThreads = 0;        // threads doing work (the rest of the grid idles)
    static constexpr uint32_t kThreadsPerRow = 1;  // DispatchGrid::threads_per_row
    static constexpr uint32_t kChunksPerRow = 2;
    static constexpr uint32_t kRowLength = 3;      // row elements (units)
    static constexpr uint32_t kInputOffset = 4;    // units
    static constexpr uint32_t kOutputOffset = 5;   // units
    static constexpr uint32_t kTables = 6;

    uint32_t outer = 0;
    uint32_t row = 0;
    uint32_t outer_sizes() const { return kTables; }
    uint32_t outer_input_strides() const { return kTables + outer; }
    uint32_t outer_output_strides() const { return kTables + 2 * outer; }
    uint32_t row_sizes() const { return kTables + 3 * outer; }
    uint32_t row_input_strides() const { return row_sizes() + row; }
    // wrap[d] (d >= 1): input offset change when row coordinate d wraps from size[d] to 0 and d-1 steps.
    uint32_t row_wraps() const { return row_sizes() + 2 * row; }
    uint32_t count() const { return row_sizes() + 3 * row; }
};

bool valid_unit_lanes(uint32_t unit, uint32_t lanes) {
    for (auto [u, l] : strided_copy_unit_lane_pairs())
        if (u == unit && l == lanes) return true;
    return false;
}

// Loads one unit at unit index `index` into value (x, xy or xyzw).
void load_unit(ProgramBuilder& b, const TensorViews& input, uint32_t unit, Operand index, Operand value) {
    if (unit == 16) {
        Operand address = b.temp();
        b.ishl(address.x(), index, imm(4));
        load_words(b, input, address.x(), value.xyzw());
    } else {
        load_element(b, input, unit, index, unit == 8 ? value.xy() : value.x());
    }
}

// Stores one unit alone: whole words plainly, 1/2-byte units with atomics (neighbours may share the word).
void store_unit(ProgramBuilder& b, const TensorViews& output, uint32_t unit, Operand index, Operand value) {
    if (unit < 4) return store_element_atomic(b, output, unit, index, value.x());
    Operand address = b.temp();
    b.ishl(address.x(), index, imm(std::countr_zero(unit)));
    store_words(b, output, address.x(), unit == 16 ? value.xyzw() : unit == 8 ? value.xy() : value.x());
}

// Next row element: the innermost coordinate steps, carries ripple outwards (nested, so the common case is one
// compare), and the input offset follows through the precomputed strides and wrap deltas.
void advance(ProgramBuilder& b, const ConstantLayout& k, const std::vector<Operand>& coords, Operand source,
             Operand flag) {
    const uint32_t last = uint32_t(coords.size()) - 1;
    b.iadd(coords[last], coords[last], imm(1));
    b.iadd(source, source, b.root_constant(k.row_input_strides() + last));
    uint32_t open = 0;
    for (uint32_t d = last; d >= 1; --d) {
        b.ieq(flag, coords[d], b.root_constant(k.row_sizes() + d));
        b.if_nz(flag);
        ++open;
        b.mov(coords[d], imm(0));
        b.iadd(coords[d - 1], coords[d - 1], imm(1));
        b.iadd(source, source, b.root_constant(k.row_wraps() + d));
    }
    for (; open > 0; --open) b.endif();
}

uint64_t padded_bytes(uint64_t bytes) { return std::max<uint64_t>(16, (bytes + 15) & ~uint64_t(15)); }

// A decimated chunk (see strided_copy.h): lane j's element sits at byte phase + j * decimation * unit of the
// aligned vectors starting at the chunk's first element rounded down to 16 bytes; all positions are constants.
void gather_decimated_chunk(ProgramBuilder& b, const StridedCopyKernelSpec& spec, const TensorViews& input16,
                            Operand source, Operand words) {
    const uint32_t unit = spec.unit_bytes, lanes = spec.lanes, step = spec.decimation * unit;
    const uint32_t span = spec.phase_bytes + (lanes - 1) * step + unit;
    Operand address = b.temp();
    b.ishl(address.x(), source, imm(std::countr_zero(unit)));
    b.and_(address.x(), address.x(), imm(~15u));
    std::vector<Operand> vectors;
    for (uint32_t v = 0; v * 16 < span; ++v) {
        vectors.push_back(b.temp());
        if (v > 0) b.iadd(address.y(), address.x(), imm(16 * v));
        load_words(b, input16, v > 0 ? address.y() : address.x(), vectors.back().xyzw());
    }
    Operand shifted = b.temp();
    for (uint32_t lane = 0; lane < lanes; ++lane) {
        const uint32_t at = spec.phase_bytes + lane * step;
        const Operand& vector = vectors[at / 16];
        const uint32_t word = at % 16 / 4, shift = at % 4 * 8;
        if (unit == 8) {
            b.mov(words.select({2 * lane, 2 * lane + 1}), vector.select({word, word + 1}));
        } else if (unit == 4) {
            b.mov(words.component(lane), vector.component(word));
        } else {
            Operand element = vector.component(word);
            if (shift > 0) {
                b.ushr(shifted.x(), element, imm(shift));
                element = shifted.x();
            }
            const uint32_t per_word = 4 / unit;
            insert_subword(b, words.component(lane / per_word), unit, lane % per_word, element);
        }
    }
}

}  // namespace

std::vector<std::pair<uint32_t, uint32_t>> strided_copy_unit_lane_pairs() {
    // lanes > 1 only where a chunk is one or four whole words.
    return {{1, 1}, {1, 4}, {1, 16}, {2, 1}, {2, 2}, {2, 8}, {4, 1}, {4, 4}, {8, 1}, {8, 2}, {16, 1}};
}

Result<StridedCopyLayout> simplify_strided_copy(const StridedCopyProblem& problem) {
    const uint32_t bytes = problem.element_bytes;
    if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8)
        return invalid_input("strided copy: element size must be 1, 2, 4 or 8 bytes, got " + std::to_string(bytes));
    StridedCopyLayout layout;
    layout.unit_bytes = bytes;
    layout.input_offset = problem.input_offset;
    layout.output_offset = problem.output_offset;
    // Drop size-1 dimensions; merge a dimension into its outer neighbour when both tensors are contiguous
    // across them (outer stride = inner stride * inner size, which also merges broadcast runs).
    for (const StridedCopyDim& dim : problem.dims) {
        if (dim.size == 0) return invalid_input("strided copy: a dimension of size 0");
        if (dim.size == 1) continue;
        if (!layout.dims.empty()) {
            StridedCopyDim& outer = layout.dims.back();
            if (outer.input_stride == dim.input_stride * dim.size && outer.output_stride == dim.output_stride * dim.size) {
                outer = {outer.size * dim.size, dim.input_stride, dim.output_stride};
                continue;
            }
        }
        layout.dims.push_back(dim);
    }
    if (layout.dims.empty()) layout.dims.push_back({1, 1, 1});
    std::vector<StridedCopyDim>& dims = layout.dims;
    const size_t rank = dims.size();

    // Wider units when the innermost dimension is contiguous on both sides and everything stays aligned.
    if (dims.back().input_stride == 1 && dims.back().output_stride == 1) {
        for (uint32_t unit : {16u, 8u, 4u, 2u}) {
            if (unit <= bytes) break;
            const uint64_t ratio = unit / bytes;
            bool fits = dims.back().size % ratio == 0 && layout.input_offset % ratio == 0 &&
                        layout.output_offset % ratio == 0;
            for (size_t d = 0; d + 1 < rank; ++d)
                fits = fits && dims[d].input_stride % ratio == 0 && dims[d].output_stride % ratio == 0;
            if (!fits) continue;
            dims.back().size /= ratio;
            for (size_t d = 0; d + 1 < rank; ++d) {
                dims[d].input_stride /= ratio;
                dims[d].output_stride /= ratio;
            }
            layout.input_offset /= ratio;
            layout.output_offset /= ratio;
            layout.unit_bytes = unit;
            break;
        }
    }
    const uint32_t unit = layout.unit_bytes;

    // The row: the longest suffix packed in the output.
    uint64_t packed = 1;
    for (size_t d = rank; d-- > 0;) {
        if (dims[d].output_stride != packed) break;
        packed *= dims[d].size;
        ++layout.row_rank;
    }
    layout.row_length = packed;
    const size_t outer_rank = rank - layout.row_rank;
    auto rows_aligned = [&](uint64_t chunk_bytes) {
        if (layout.output_offset * unit % chunk_bytes) return false;
        for (size_t d = 0; d < outer_rank; ++d)
            if (dims[d].output_stride * unit % chunk_bytes) return false;
        return true;
    };
    // Chunks of 16 bytes where rows start 16-aligned, else 4 bytes (sub-word units), else one element.
    if (layout.row_rank > 0 && unit < 16) {
        const uint32_t word_lanes = unit < 4 ? 4 / unit : 1;
        if (rows_aligned(16)) layout.lanes = 16 / unit;
        else if (unit < 4 && rows_aligned(4)) layout.lanes = word_lanes;
        // Rows shorter than a chunk would take only the per-element tail path.
        if (layout.row_length < layout.lanes) layout.lanes = word_lanes;
    }
    // Decimated rows: 16-byte chunks inside one run of the innermost dimension, which steps 2..4 units through
    // the input, every other input stride a multiple of 16 bytes: each chunk then starts at the same byte phase.
    const StridedCopyDim& inner = dims.back();
    if (layout.row_rank > 0 && unit < 16 && unit * layout.lanes == 16 && inner.input_stride >= 2 &&
        inner.input_stride <= 4 && inner.size % layout.lanes == 0) {
        bool aligned = true;
        for (size_t d = 0; d + 1 < rank; ++d) aligned = aligned && dims[d].input_stride * unit % 16 == 0;
        if (aligned) {
            layout.decimation = uint32_t(inner.input_stride);
            layout.phase_bytes = uint32_t(layout.input_offset * unit % 16);
        }
    }
    layout.chunks_per_row = (layout.row_length + layout.lanes - 1) / layout.lanes;
    uint64_t outer_count = 1;
    for (size_t d = 0; d < outer_rank; ++d) outer_count *= dims[d].size;
    layout.threads = outer_count * layout.chunks_per_row;
    return layout;
}

Result<std::vector<uint8_t>> build_strided_copy_kernel(const StridedCopyKernelSpec& spec) {
    const uint32_t unit = spec.unit_bytes, lanes = spec.lanes;
    const uint32_t rank = spec.outer_rank + spec.row_rank;
    if (!valid_unit_lanes(unit, lanes))
        return invalid_input("strided copy kernel: unsupported unit/lanes " + std::to_string(unit) + "/" +
                             std::to_string(lanes));
    if (rank == 0 || rank > kStridedCopyMaxRank || (lanes > 1 && spec.row_rank == 0))
        return invalid_input("strided copy kernel: bad rank " + std::to_string(spec.outer_rank) + "+" +
                             std::to_string(spec.row_rank));
    if (spec.input_views == 0 || spec.output_views == 0)
        return invalid_input("strided copy kernel: a tensor needs a view");
    const ConstantLayout k{spec.outer_rank, spec.row_rank};

    if (spec.decimation != 0) {
        if (spec.decimation < 2 || spec.decimation > 4 || unit >= 16 || unit * lanes != 16 || !spec.typed_input ||
            spec.row_rank == 0 || spec.phase_bytes >= 16 || spec.phase_bytes % unit != 0)
            return invalid_input("strided copy kernel: decimated rows need a stride of 2..4, 16-byte chunks of smaller "
                                 "units, a row, typed loads and a unit-aligned phase below 16");
    } else if (spec.typed_input && unit != 16) {
        return invalid_input("strided copy kernel: typed loads need 16-byte units");
    }
    if (spec.typed_output && unit * lanes != 16) return invalid_input("strided copy kernel: typed stores need 16-byte chunks");

    const uint32_t group = spec.threads_per_group;
    if (group < 32 || group > 1024 || !std::has_single_bit(group))
        return invalid_input("strided copy kernel: thread group size must be a power of two from 32 to 1024, got " +
                             std::to_string(group));
    ProgramBuilder b({.thread_group = {group, 1, 1}});
    TensorViews input{{}, spec.window_log2}, output{{}, spec.window_log2};
    for (uint32_t i = 0; i < spec.input_views; ++i) input.views.push_back(b.srv_raw(i));
    for (uint32_t i = 0; i < spec.output_views; ++i) output.views.push_back(b.uav_raw(i));
    // The views 16-byte accesses go through: typed aliases where the spec asks for them.
    TensorViews input16 = input, output16 = output;
    for (uint32_t i = 0; spec.typed_input && i < spec.input_views; ++i)
        input16.views[i] = b.srv_typed_uint4(spec.input_views + i);
    for (uint32_t i = 0; spec.typed_output && i < spec.output_views; ++i)
        output16.views[i] = b.uav_typed_uint4(spec.output_views + i);
    auto rc = [&](uint32_t i) { return b.root_constant(i); };

    Operand thread = linear_thread_index(b, rc(ConstantLayout::kThreadsPerRow));
    Operand t = b.temp();
    b.ult(t.x(), thread, rc(ConstantLayout::kThreads));
    b.if_nz(t.x());

    // Thread -> (outer index, chunk within the row).
    Operand outer_index = thread, chunk = thread;
    if (spec.outer_rank > 0 && spec.row_rank > 0) {
        b.udiv(t.y(), t.z(), thread, rc(ConstantLayout::kChunksPerRow));
        outer_index = t.y();
        chunk = t.z();
    }
    Operand input_base = rc(ConstantLayout::kInputOffset);
    Operand output_base = rc(ConstantLayout::kOutputOffset);
    if (spec.outer_rank > 0) {
        const std::vector<Operand> coords =
            decompose_index(b, outer_index, spec.outer_rank, UintArray::root_constants(k.outer_sizes()));
        input_base = dot_strides(b, coords, UintArray::root_constants(k.outer_input_strides()), input_base);
        output_base = dot_strides(b, coords, UintArray::root_constants(k.outer_output_strides()), output_base);
    }

    // pos.x: first row element of the chunk; pos.y: its output unit index. source: its input unit index.
    Operand pos = b.temp();
    Operand source;
    std::vector<Operand> coords;
    if (spec.row_rank > 0) {
        if (lanes > 1) b.ishl(pos.x(), chunk, imm(std::countr_zero(lanes)));
        else b.mov(pos.x(), chunk);
        const std::vector<Operand> split =
            decompose_index(b, pos.x(), spec.row_rank, UintArray::root_constants(k.row_sizes()));
        // Own, mutable copies: advance() steps them.
        Operand c;
        for (uint32_t d = 0; d < spec.row_rank; ++d) {
            if (d % 4 == 0) c = b.temp();
            coords.push_back(c.component(d % 4));
            b.mov(coords.back(), split[d]);
        }
        source = dot_strides(b, coords, UintArray::root_constants(k.row_input_strides()), input_base);
        b.iadd(pos.y(), output_base, pos.x());
    } else {
        source = b.temp().x();
        b.mov(source, input_base);
        b.mov(pos.y(), output_base);
    }
    Operand flag = b.temp().x();

    if (lanes == 1) {
        Operand value = b.temp();
        load_unit(b, input16, unit, source, value);
        store_unit(b, output16, unit, pos.y(), value);
    } else {
        // Full chunk: gather every lane into whole words, one store of unit * lanes bytes.
        Operand remaining = b.temp();
        b.isub(remaining.x(), rc(ConstantLayout::kRowLength), pos.x());
        b.uge(remaining.y(), remaining.x(), imm(lanes));
        b.if_nz(remaining.y());
        {
            Operand words = b.temp();
            if (unit < 4) b.mov(words.xyzw(), imm(0));
            if (spec.decimation != 0) {
                gather_decimated_chunk(b, spec, input16, source, words);
            } else {
                for (uint32_t lane = 0; lane < lanes; ++lane) {
                    if (lane > 0) advance(b, k, coords, source, flag);
                    Operand value = b.temp();
                    load_unit(b, input, unit, source, value);
                    if (unit < 4) {
                        const uint32_t per_word = 4 / unit;
                        insert_subword(b, words.component(lane / per_word), unit, lane % per_word, value.x());
                    } else if (unit == 4) {
                        b.mov(words.component(lane), value.x());
                    } else {
                        b.mov(words.select({2 * lane, 2 * lane + 1}), value.xy());
                    }
                }
            }
            Operand address = b.temp();
            b.ishl(address.x(), pos.y(), imm(std::countr_zero(unit)));
            store_words(b, unit * lanes == 16 ? output16 : output, address.x(), unit * lanes == 4 ? words.x() : words.xyzw());
        }
        b.else_();
        {
            // The row's last chunk: only the lanes inside the row, each stored on its own.
            Operand value = b.temp();
            Operand at = b.temp();
            for (uint32_t lane = 0; lane < lanes; ++lane) {
                if (lane > 0) {
                    b.ult(flag, imm(lane), remaining.x());
                    b.if_nz(flag);
                    advance(b, k, coords, source, flag);
                }
                load_unit(b, input, unit, source, value);
                b.iadd(at.x(), pos.y(), imm(lane));
                store_unit(b, output, unit, at.x(), value);
            }
            for (uint32_t lane = 1; lane < lanes; ++lane) b.endif();
        }
        b.endif();
    }
    b.endif();
    b.ret();
    return b.build_dxbc();
}

Result<std::shared_ptr<const std::vector<uint8_t>>> strided_copy_kernel(const StridedCopyKernelSpec& spec) {
    static std::mutex mutex;
    static std::map<StridedCopyKernelSpec, std::shared_ptr<const std::vector<uint8_t>>> cache;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = cache.find(spec);
    if (it != cache.end()) return it->second;
    DMLTOOL_ASSIGN_OR_RETURN(std::vector<uint8_t> blob, build_strided_copy_kernel(spec));
    auto shared = std::make_shared<const std::vector<uint8_t>>(std::move(blob));
    cache.emplace(spec, shared);
    return shared;
}

Status append_strided_copy(const StridedCopyProblem& problem, const StridedCopyBuffer& input,
                           const StridedCopyBuffer& output, const std::string& label, DevicePlan& plan,
                           const StridedCopyOptions& options) {
    DMLTOOL_ASSIGN_OR_RETURN(StridedCopyLayout layout, simplify_strided_copy(problem));
    const uint32_t window = options.window_log2;
    if (window < 8 || window > kMaxViewBytesLog2)
        return invalid_input(label + ": view window must be 2^8 .. 2^29 bytes");
    // Byte addresses are 32-bit; larger buffers would need 64-bit address math or chunked dispatches.
    auto view_count = [&](const StridedCopyBuffer& buffer, const char* role) -> Result<uint32_t> {
        const uint64_t bytes = padded_bytes(buffer.total_bytes);
        if (bytes > (uint64_t{1} << 32))
            return unsupported(label + ": " + role + " buffer of " + std::to_string(buffer.total_bytes) +
                               " bytes exceeds the 4 GiB the strided-copy kernel addresses (32-bit byte offsets)");
        return uint32_t((bytes + (uint64_t{1} << window) - 1) >> window);
    };
    DMLTOOL_ASSIGN_OR_RETURN(uint32_t input_views, view_count(input, "input"));
    DMLTOOL_ASSIGN_OR_RETURN(uint32_t output_views, view_count(output, "output"));

    const uint32_t rank = uint32_t(layout.dims.size());
    if (rank > kStridedCopyMaxRank)
        return unsupported(label + ": " + std::to_string(rank) + " dimensions after merging; the strided copy handles " +
                           std::to_string(kStridedCopyMaxRank));
    const ConstantLayout k{rank - layout.row_rank, layout.row_rank};
    const DispatchGrid grid = plan_dispatch(layout.threads, options.threads_per_group);
    std::vector<uint64_t> wide(k.count(), 0);
    wide[ConstantLayout::kThreads] = layout.threads;
    wide[ConstantLayout::kThreadsPerRow] = grid.threads_per_row;
    wide[ConstantLayout::kChunksPerRow] = layout.chunks_per_row;
    wide[ConstantLayout::kRowLength] = layout.row_length;
    wide[ConstantLayout::kInputOffset] = layout.input_offset;
    wide[ConstantLayout::kOutputOffset] = layout.output_offset;
    for (uint32_t d = 0; d < k.outer; ++d) {
        wide[k.outer_sizes() + d] = layout.dims[d].size;
        wide[k.outer_input_strides() + d] = layout.dims[d].input_stride;
        wide[k.outer_output_strides() + d] = layout.dims[d].output_stride;
    }
    std::vector<uint32_t> constants(k.count());
    for (uint32_t d = 0; d < k.row; ++d) {
        const StridedCopyDim& dim = layout.dims[k.outer + d];
        wide[k.row_sizes() + d] = dim.size;
        wide[k.row_input_strides() + d] = dim.input_stride;
    }
    for (uint32_t i = 0; i < k.count(); ++i) {
        if (wide[i] > 0xffffffffull)
            return unsupported(label + ": a size, stride or offset of the strided copy exceeds 32 bits (root constant " +
                               std::to_string(i) + " = " + std::to_string(wide[i]) + ")");
        constants[i] = uint32_t(wide[i]);
    }
    // Wrap deltas are modular (the kernel adds them with 32-bit wrap-around).
    for (uint32_t d = 1; d < k.row; ++d) {
        const StridedCopyDim& dim = layout.dims[k.outer + d];
        const uint64_t outer_stride = layout.dims[k.outer + d - 1].input_stride;
        constants[k.row_wraps() + d] = uint32_t(outer_stride - dim.size * dim.input_stride);
    }

    if (!options.typed_vectors) layout.decimation = layout.phase_bytes = 0;  // its loads need the typed alias
    const bool typed_input = options.typed_vectors && (layout.unit_bytes == 16 || layout.decimation != 0);
    const bool typed_output = options.typed_vectors && layout.unit_bytes * layout.lanes == 16;
    const StridedCopyKernelSpec spec{layout.unit_bytes, layout.lanes, k.outer, k.row, input_views, output_views, window,
                                     typed_input, typed_output, options.threads_per_group, layout.decimation,
                                     layout.phase_bytes};
    DMLTOOL_ASSIGN_OR_RETURN(auto dxbc, strided_copy_kernel(spec));
    KernelDispatch dispatch;
    dispatch.dxbc = std::move(dxbc);
    dispatch.label = label + "/strided_copy u" + std::to_string(layout.unit_bytes) + "x" + std::to_string(layout.lanes) +
                     " r" + std::to_string(k.outer) + "+" + std::to_string(k.row) + (typed_output ? " typed" : "") +
                     (layout.decimation ? " dec" + std::to_string(layout.decimation) + "p" + std::to_string(layout.phase_bytes) : "");
    dispatch.root_constants = std::move(constants);
    auto bind = [&](const StridedCopyBuffer& buffer, uint32_t views, bool typed, std::vector<BufferBinding>& out) {
        for (uint32_t i = 0; i < views; ++i) {
            // The last (or only) view reaches to the end of the buffer: at most one window by construction.
            const uint64_t size = i + 1 < views ? uint64_t{1} << window : 0;
            out.push_back({buffer.source, buffer.index, uint64_t{i} << window, size, typed});
        }
    };
    bind(input, input_views, false, dispatch.srvs);
    if (typed_input) bind(input, input_views, true, dispatch.srvs);
    bind(output, output_views, false, dispatch.uavs);
    if (typed_output) bind(output, output_views, true, dispatch.uavs);
    dispatch.group_count = {grid.groups_x, grid.groups_y, 1};
    plan.dispatches.push_back(std::move(dispatch));
    return Status::ok();
}

}  // namespace dmltool::shaders
