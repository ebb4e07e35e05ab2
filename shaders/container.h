// DXBC container: the file format CreateComputePipelineState takes. A 32-byte header ("DXBC", a 16-byte
// checksum, version 1, total size, chunk count), chunk offsets, then chunks (fourcc, size, data).
// Compute shaders carry ISGN and OSGN (both empty) and SHEX (the token stream), as fxc writes them.
// vkd3d and the Windows runtime both verify the checksum, so it must be exact.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/status.h"

namespace dmltool::shaders {

constexpr uint32_t fourcc(char a, char b, char c, char d) {
    return uint32_t(uint8_t(a)) | uint32_t(uint8_t(b)) << 8 | uint32_t(uint8_t(c)) << 16 | uint32_t(uint8_t(d)) << 24;
}

struct Chunk {
    uint32_t fourcc;
    std::vector<uint8_t> data;
};

// fxc's checksum: MD5 over bytes [20, size) with fxc's own final-block layout.
std::array<uint32_t, 4> dxbc_checksum(std::span<const uint8_t> container);

std::vector<uint8_t> make_container(const std::vector<Chunk>& chunks);

// ISGN + OSGN (empty) + SHEX(program tokens).
std::vector<uint8_t> make_compute_container(std::span<const uint32_t> program);

// Finds the SHEX (or SHDR) chunk of a container and returns its tokens; checks header, sizes and checksum.
Result<std::vector<uint32_t>> extract_program(std::span<const uint8_t> container);

}  // namespace dmltool::shaders
