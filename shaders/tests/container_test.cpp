// The DXBC container and checksum must match fxc bit for bit: vkd3d and the Windows runtime reject a blob
// whose checksum is wrong.
#include <gtest/gtest.h>

#include <cstring>

#include "shaders/container.h"

namespace dmltool::shaders {
namespace {

// A compute shader compiled by fxc (cs_5_0), from vkd3d 1.2's tests/d3d12.c (test_buffer_srv ...): two raw
// SRVs, two raw UAVs, root constants, loops. Its header carries fxc's checksum.
constexpr uint32_t kFxcBlob[] = {
    0x43425844, 0x8d2646b7, 0xeb60d9ee, 0x33ccd6ed, 0x5557e649, 0x00000001, 0x0000023c, 0x00000003,
    0x0000002c, 0x0000003c, 0x0000004c, 0x4e475349, 0x00000008, 0x00000000, 0x00000008, 0x4e47534f,
    0x00000008, 0x00000000, 0x00000008, 0x58454853, 0x000001e8, 0x00050050, 0x0000007a, 0x0100086a,
    0x04000059, 0x00208e46, 0x00000000, 0x00000001, 0x030000a1, 0x00107000, 0x00000000, 0x030000a1,
    0x00107000, 0x00000004, 0x0300009d, 0x0011e000, 0x00000000, 0x0300009d, 0x0011e000, 0x00000002,
    0x02000068, 0x00000001, 0x0400009b, 0x00000001, 0x00000001, 0x00000001, 0x05000036, 0x00100012,
    0x00000000, 0x00004001, 0x00000000, 0x01000030, 0x08000050, 0x00100022, 0x00000000, 0x0010000a,
    0x00000000, 0x0020800a, 0x00000000, 0x00000000, 0x03040003, 0x0010001a, 0x00000000, 0x07000029,
    0x00100022, 0x00000000, 0x0010000a, 0x00000000, 0x00004001, 0x00000002, 0x890000a5, 0x800002c2,
    0x00199983, 0x00100042, 0x00000000, 0x0010001a, 0x00000000, 0x00107006, 0x00000000, 0x070000a6,
    0x0011e012, 0x00000000, 0x0010001a, 0x00000000, 0x0010002a, 0x00000000, 0x0700001e, 0x00100012,
    0x00000000, 0x0010000a, 0x00000000, 0x00004001, 0x00000001, 0x01000016, 0x05000036, 0x00100012,
    0x00000000, 0x00004001, 0x00000000, 0x01000030, 0x08000050, 0x00100022, 0x00000000, 0x0010000a,
    0x00000000, 0x0020801a, 0x00000000, 0x00000000, 0x03040003, 0x0010001a, 0x00000000, 0x07000029,
    0x00100022, 0x00000000, 0x0010000a, 0x00000000, 0x00004001, 0x00000002, 0x890000a5, 0x800002c2,
    0x00199983, 0x00100042, 0x00000000, 0x0010001a, 0x00000000, 0x00107006, 0x00000004, 0x070000a6,
    0x0011e012, 0x00000002, 0x0010001a, 0x00000000, 0x0010002a, 0x00000000, 0x0700001e, 0x00100012,
    0x00000000, 0x0010000a, 0x00000000, 0x00004001, 0x00000001, 0x01000016, 0x0100003e,
};

std::span<const uint8_t> fxc_bytes() { return {reinterpret_cast<const uint8_t*>(kFxcBlob), sizeof kFxcBlob}; }

TEST(DxbcChecksum, MatchesFxc) {
    const std::array<uint32_t, 4> sum = dxbc_checksum(fxc_bytes());
    EXPECT_EQ(sum[0], 0x8d2646b7u);
    EXPECT_EQ(sum[1], 0xeb60d9eeu);
    EXPECT_EQ(sum[2], 0x33ccd6edu);
    EXPECT_EQ(sum[3], 0x5557e649u);
}

TEST(DxbcContainer, RebuildsFxcBlobByteForByte) {
    auto program = extract_program(fxc_bytes());
    ASSERT_TRUE(program.is_ok()) << program.status().message();
    const std::vector<uint8_t> rebuilt = make_compute_container(*program);
    ASSERT_EQ(rebuilt.size(), sizeof kFxcBlob);
    EXPECT_EQ(std::memcmp(rebuilt.data(), kFxcBlob, sizeof kFxcBlob), 0);
}

// Both branches of the final-block layout: tails of 56..63 bytes need an extra block.
TEST(DxbcChecksum, EveryTailLengthRoundTrips) {
    for (uint32_t words = 2; words < 40; ++words) {
        std::vector<uint32_t> program(words, 0x12345678u + words);
        program[0] = 0x00050050;
        program[1] = words;
        const std::vector<uint8_t> blob = make_compute_container(program);
        auto extracted = extract_program(blob);
        ASSERT_TRUE(extracted.is_ok()) << words << ": " << extracted.status().message();
        EXPECT_EQ(*extracted, program);
    }
}

TEST(DxbcContainer, RejectsCorruption) {
    std::vector<uint8_t> blob(fxc_bytes().begin(), fxc_bytes().end());
    blob[200] ^= 1;
    auto result = extract_program(blob);
    ASSERT_FALSE(result.is_ok());
    EXPECT_NE(result.status().message().find("checksum"), std::string::npos);
    EXPECT_FALSE(extract_program(std::vector<uint8_t>(10, 0)).is_ok());
    std::vector<uint8_t> truncated(fxc_bytes().begin(), fxc_bytes().end() - 4);
    EXPECT_FALSE(extract_program(truncated).is_ok());
}

}  // namespace
}  // namespace dmltool::shaders
