// Readable, fxc-style listing of SM 5.0 compute programs, for debugging kernels and for golden token tests.
// It covers everything ProgramBuilder emits; unknown opcodes are printed as raw tokens rather than refused,
// so a foreign blob can still be inspected.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "core/status.h"

namespace dmltool::shaders {

Result<std::string> disassemble_program(std::span<const uint32_t> program);
Result<std::string> disassemble_container(std::span<const uint8_t> container);

}  // namespace dmltool::shaders
