// Kernels of the roofline probes (gpu/roofline_probe.h), built with shaders/: a pattern fill and its on-device
// check (so a copy is verified without reading gigabytes back), the copy variants whose best bandwidth is the
// "plain copy" roofline, and long independent multiply-add chains for the integer and float32 peaks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "shaders/elements.h"

namespace dmltool::gpu {

// Word i of a pattern buffer: i * kPatternMultiplier + seed (mod 2^32). Distinct seeds differ in every word,
// so a destination filled with one seed and expected to hold another cannot pass by accident.
constexpr uint32_t kPatternMultiplier = 0x9E3779B1u;
constexpr uint32_t kProbeThreadsPerGroup = 256;

// Fill: u0..u(views-1) word i = pattern(i, seed). Root constants: [0] words, [1] threads_per_row, [2] seed.
// One word per thread.
Result<std::vector<uint8_t>> build_pattern_fill_kernel(uint32_t views);
// Check: counts words of t0.. that differ from pattern(i, seed) into u0 word 0 (atomic add). Same constants
// as the fill.
Result<std::vector<uint8_t>> build_pattern_check_kernel(uint32_t views);

// A copy of `count` vectors of `dwords` words from t0.. to u0..: each thread group moves vectors_per_thread *
// group size consecutive vectors, lane l touching vectors l, l + group, l + 2 group, ... (every access of a
// warp is contiguous). Root constants: [0] vector count, [1] threads_per_row (DispatchGrid of the groups).
struct CopyVariant {
    uint32_t dwords = 4;              // 1, 2 or 4 words per access
    uint32_t vectors_per_thread = 1;  // 1 .. 8 accesses per thread
    uint32_t views = 1;               // windows of 2^29 bytes for copies beyond one raw view
    bool typed = false;               // typed uint4 views (ld / store_uav_typed); needs dwords == 4
    std::string name() const;         // e.g. "compute ld_raw/store_raw x4 words, 2 per thread"
};
Result<std::vector<uint8_t>> build_copy_variant_kernel(const CopyVariant& variant);
// Threads (a whole number of groups) a variant needs for `count` vectors.
uint64_t copy_variant_threads(const CopyVariant& variant, uint64_t count);

// Multiply-add chains: each thread runs kMultiplyAddChains independent chains x = x * a + b for `iterations`
// (root constant [1]) loop trips of kMultiplyAddUnroll steps, then writes the XOR of its chains to u0 word
// thread (so nothing is dead code). a and b are root constants [2], [3], unknown to the compiler.
// Root constants: [0] threads_per_row, [1] iterations, [2] a, [3] b. Float: mad; integer: imad.
constexpr uint32_t kMultiplyAddChains = 16;
constexpr uint32_t kMultiplyAddUnroll = 8;
Result<std::vector<uint8_t>> build_multiply_add_kernel(bool floating_point);

}  // namespace dmltool::gpu
