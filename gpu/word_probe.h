// The run of a device probe (half_opcode_probe.h, transcendental_probe.h): one kernel over 32-bit words, judged on the
// host. Each probe writes its own kernel and judge; this runs it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"

namespace dmltool::gpu {

class GpuContext;

// Runs `dxbc` (root constants {input count, threads per row}, SRV t0 = `inputs`, one raw UAV per entry of
// `output_words`) over `threads` threads and returns each output's words. The outputs start filled with `poison`
// bytes, so that a kernel that wrote nothing fails its judge instead of reading as zeros.
Result<std::vector<std::vector<uint32_t>>> run_word_probe(GpuContext& context, std::span<const uint8_t> dxbc,
                                                          const std::string& name, std::span<const uint32_t> inputs,
                                                          std::span<const uint64_t> output_words, std::byte poison,
                                                          uint64_t threads);

}  // namespace dmltool::gpu
