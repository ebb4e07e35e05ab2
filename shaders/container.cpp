#include "shaders/container.h"

#include <cstring>
#include <string>

namespace dmltool::shaders {
namespace {

constexpr uint32_t kHeaderBytes = 32;
constexpr uint32_t kChecksumOffset = 4;
constexpr uint32_t kHashedFrom = 20;  // "DXBC" and the checksum itself are not hashed

uint32_t rotate_left(uint32_t x, uint32_t s) { return (x << s) | (x >> (32 - s)); }

// One MD5 compression step over a 64-byte block (RFC 1321).
void md5_compress(std::array<uint32_t, 4>& state, const uint32_t block[16]) {
    static constexpr uint32_t kSine[64] = {
        0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
        0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
        0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
        0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
        0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
        0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
        0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
        0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};
    static constexpr uint32_t kShift[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    for (uint32_t i = 0; i < 64; ++i) {
        const uint32_t round = i / 16;
        uint32_t f, word;
        switch (round) {
            case 0: f = (b & c) | (~b & d); word = i; break;
            case 1: f = (d & b) | (~d & c); word = (5 * i + 1) % 16; break;
            case 2: f = b ^ c ^ d; word = (3 * i + 5) % 16; break;
            default: f = c ^ (b | ~d); word = (7 * i) % 16; break;
        }
        const uint32_t next_b = b + rotate_left(a + f + kSine[i] + block[word], kShift[round][i % 4]);
        a = d;
        d = c;
        c = b;
        b = next_b;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
}

void append_u32(std::vector<uint8_t>& out, uint32_t value) {
    uint8_t bytes[4];
    std::memcpy(bytes, &value, 4);
    out.insert(out.end(), bytes, bytes + 4);
}

uint32_t read_u32(std::span<const uint8_t> bytes, size_t offset) {
    uint32_t value;
    std::memcpy(&value, bytes.data() + offset, 4);
    return value;
}

}  // namespace

// Plain MD5 appends 0x80, zero padding and the 64-bit bit count at the end of the last block. fxc instead
// puts the 32-bit bit count in the FIRST word of the final block and (bits >> 2) | 1 in its LAST word; when
// the tail leaves no room for the leading count, the 0x80 goes into its own block and the count follows in
// an extra block. The digest is the raw state words.
std::array<uint32_t, 4> dxbc_checksum(std::span<const uint8_t> container) {
    const uint8_t* data = container.data() + kHashedFrom;
    const uint32_t length = static_cast<uint32_t>(container.size() - kHashedFrom);
    const uint32_t bits = length * 8;
    std::array<uint32_t, 4> state = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
    uint32_t block[16];
    const uint32_t whole = length & ~63u;
    for (uint32_t offset = 0; offset < whole; offset += 64) {
        std::memcpy(block, data + offset, 64);
        md5_compress(state, block);
    }
    const uint32_t tail = length - whole;
    const uint32_t tail_marker = (bits >> 2) | 1;
    uint8_t last[64] = {};
    if (tail >= 56) {
        std::memcpy(last, data + whole, tail);
        last[tail] = 0x80;
        std::memcpy(block, last, 64);
        md5_compress(state, block);
        std::memset(block, 0, sizeof block);
        block[0] = bits;
        block[15] = tail_marker;
        md5_compress(state, block);
    } else {
        std::memcpy(last, &bits, 4);
        std::memcpy(last + 4, data + whole, tail);
        last[4 + tail] = 0x80;
        std::memcpy(last + 60, &tail_marker, 4);
        std::memcpy(block, last, 64);
        md5_compress(state, block);
    }
    return state;
}

std::vector<uint8_t> make_container(const std::vector<Chunk>& chunks) {
    const uint32_t count = static_cast<uint32_t>(chunks.size());
    std::vector<uint8_t> out(kHeaderBytes + 4 * count, 0);
    std::vector<uint32_t> offsets;
    for (const Chunk& chunk : chunks) {
        offsets.push_back(static_cast<uint32_t>(out.size()));
        append_u32(out, chunk.fourcc);
        append_u32(out, static_cast<uint32_t>(chunk.data.size()));
        out.insert(out.end(), chunk.data.begin(), chunk.data.end());
        while (out.size() % 4 != 0) out.push_back(0);
    }
    const uint32_t header[8] = {fourcc('D', 'X', 'B', 'C'), 0, 0, 0, 0, 1, static_cast<uint32_t>(out.size()), count};
    std::memcpy(out.data(), header, sizeof header);
    std::memcpy(out.data() + kHeaderBytes, offsets.data(), 4 * offsets.size());
    const std::array<uint32_t, 4> checksum = dxbc_checksum(out);
    std::memcpy(out.data() + kChecksumOffset, checksum.data(), 16);
    return out;
}

std::vector<uint8_t> make_compute_container(std::span<const uint32_t> program) {
    // An empty signature: element count 0, then the offset (8) where the element array would start.
    const std::vector<uint8_t> empty_signature = {0, 0, 0, 0, 8, 0, 0, 0};
    Chunk shex{fourcc('S', 'H', 'E', 'X'), std::vector<uint8_t>(program.size() * 4)};
    std::memcpy(shex.data.data(), program.data(), shex.data.size());
    return make_container({{fourcc('I', 'S', 'G', 'N'), empty_signature},
                           {fourcc('O', 'S', 'G', 'N'), empty_signature},
                           std::move(shex)});
}

Result<std::vector<uint32_t>> extract_program(std::span<const uint8_t> container) {
    if (container.size() < kHeaderBytes || read_u32(container, 0) != fourcc('D', 'X', 'B', 'C')) {
        return invalid_input("not a DXBC container (missing 'DXBC' magic)");
    }
    if (read_u32(container, 24) != container.size()) {
        return invalid_input("DXBC size field " + std::to_string(read_u32(container, 24)) + " != file size " +
                             std::to_string(container.size()));
    }
    const std::array<uint32_t, 4> checksum = dxbc_checksum(container);
    if (std::memcmp(checksum.data(), container.data() + kChecksumOffset, 16) != 0) {
        return invalid_input("DXBC checksum mismatch");
    }
    const uint32_t count = read_u32(container, 28);
    if (kHeaderBytes + 4ull * count > container.size()) return invalid_input("DXBC chunk table exceeds the file");
    for (uint32_t i = 0; i < count; ++i) {
        const uint32_t offset = read_u32(container, kHeaderBytes + 4 * i);
        if (offset + 8ull > container.size()) return invalid_input("DXBC chunk offset outside the file");
        const uint32_t tag = read_u32(container, offset);
        const uint32_t size = read_u32(container, offset + 4);
        if (offset + 8ull + size > container.size() || size % 4 != 0) return invalid_input("DXBC chunk size invalid");
        if (tag == fourcc('S', 'H', 'E', 'X') || tag == fourcc('S', 'H', 'D', 'R')) {
            std::vector<uint32_t> program(size / 4);
            std::memcpy(program.data(), container.data() + offset + 8, size);
            if (program.size() < 2 || program[1] != program.size()) {
                return invalid_input("SHEX length token does not match the chunk size");
            }
            return program;
        }
    }
    return invalid_input("DXBC container has no SHEX/SHDR chunk");
}

}  // namespace dmltool::shaders
