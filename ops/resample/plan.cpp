// Host planning of the resample kernels (plan_resample; the overview is in kernel.cpp): per output dimension,
// the coordinate tables built with coordinates.h, classified and merged into canonical dimensions; the store
// path and, where it applies, the row window and its chunk table; the kernel configuration, the blob (cached)
// and the DevicePlan's root constants, auxiliary table buffer and views.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>

#include "ops/resample/coordinates.h"
#include "ops/resample/kernel.h"
#include "ops/resample/kernel_internal.h"
#include "shaders/elements.h"

namespace dmltool::ops::resample {
namespace {

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

Result<KernelConfig> resample_kernel_config(const ResampleDesc& desc, const SemanticsOptions& semantics) {
    DMLTOOL_ASSIGN_OR_RETURN(Choice choice, choose(desc, semantics));
    return choice.config;
}

Result<DevicePlan> plan_resample(const ResampleDesc& desc, const SemanticsOptions& semantics) {
    DMLTOOL_ASSIGN_OR_RETURN(std::optional<DevicePlan> upsample, plan_nearest_upsample(desc, semantics));
    if (upsample) return std::move(*upsample);
    DMLTOOL_ASSIGN_OR_RETURN(std::optional<DevicePlan> strided, plan_nearest_strided(desc, semantics));
    if (strided) return std::move(*strided);
    // Dedicated linear x2 and x0.5 paths (linear_fast.cpp): 16-byte vectors in and out, several outputs per thread.
    DMLTOOL_ASSIGN_OR_RETURN(std::optional<DevicePlan> linear_fast, plan_linear_fast(desc));
    if (linear_fast) return std::move(*linear_fast);
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

}  // namespace dmltool::ops::resample
