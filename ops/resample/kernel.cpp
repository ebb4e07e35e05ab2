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
// Files: plan.cpp (host planning: canonical dimensions, tables, path and window choice, the DevicePlan);
// emitter.h (the generator, Emitter) with emitter.cpp (setup, addressing, the row, flat-word and element
// paths), emit_window.cpp (the row path with a window and its short-weight variant) and blend.cpp (the float32
// blend and the output conversions); kernel_internal.h (the root-constant layout and table formats both sides
// share); linear_fast.cpp (the dedicated linear x2 / x0.5 kernels plan_resample tries first). This file: the
// configuration check, the generator's entry point and the covering set of configurations.
#include "ops/resample/kernel.h"

#include <vector>

#include "ops/resample/emitter.h"
#include "ops/resample/kernel_internal.h"

namespace dmltool::ops::resample {
namespace {

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

}  // namespace

Result<std::vector<uint8_t>> build_resample_kernel(const KernelConfig& config) {
    DMLTOOL_RETURN_IF_ERROR(check_config(config));
    ProgramBuilder b({.thread_group = {kThreadsPerGroup, 1, 1}});
    Emitter(b, config).emit();
    return b.build_dxbc();
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
