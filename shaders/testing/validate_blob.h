// Test helper: runs a DXBC blob through vkd3d 1.2's own translator (vkd3d-compiler -> SPIR-V) and spirv-val,
// so every kernel a test builds is known to be accepted by the runtime that will compile it.
// The tool paths come from CMake (find_program); tests GTEST_SKIP when they are missing.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace dmltool::shaders::testing {

struct BlobValidation {
    bool tools_found = false;  // vkd3d-compiler and spirv-val exist
    bool ok = false;           // both accepted the blob
    std::string log;           // their combined output (errors), or why the tools were not run
    std::string spirv_text;    // spirv-dis output when available (for asserting how vkd3d translated an op)
};

BlobValidation validate_with_vkd3d(std::span<const uint8_t> dxbc, const std::string& name);

}  // namespace dmltool::shaders::testing
