#include "shaders/testing/validate_blob.h"

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/platform.h"

namespace dmltool::shaders::testing {
namespace {

struct CommandOutput {
    int exit_code = -1;
    std::string text;
};

CommandOutput run_command(const std::string& command) {
    CommandOutput out;
#if defined(_WIN32)
    // The tools are Linux programs (no Windows build of vkd3d-compiler is found), so this is never reached
    // there in practice; _pclose returns the exit code itself.
    FILE* pipe = _popen((command + " 2>&1").c_str(), "r");
#else
    FILE* pipe = popen((command + " 2>&1").c_str(), "r");
#endif
    if (pipe == nullptr) return out;
    std::array<char, 4096> buffer;
    size_t n;
    while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.text.append(buffer.data(), n);
#if defined(_WIN32)
    out.exit_code = _pclose(pipe);
#else
    const int status = pclose(pipe);
    out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
#endif
    return out;
}

std::string sanitize(const std::string& name) {
    std::string out;
    for (char c : name) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-') ? c : '_';
    return out;
}

}  // namespace

BlobValidation validate_with_vkd3d(std::span<const uint8_t> dxbc, const std::string& name) {
    BlobValidation result;
    const std::string compiler = DMLTOOL_VKD3D_COMPILER;
    const std::string validator = DMLTOOL_SPIRV_VAL;
    const std::string disassembler = DMLTOOL_SPIRV_DIS;
    if (compiler.empty() || validator.empty() || !std::filesystem::exists(compiler) ||
        !std::filesystem::exists(validator)) {
        result.log = "vkd3d-compiler or spirv-val not found (install vkd3d-compiler and spirv-tools)";
        return result;
    }
    result.tools_found = true;
    const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                      ("dmltool_blobs_" + std::to_string(platform::process_id()));
    std::filesystem::create_directories(dir);
    const std::filesystem::path dxbc_path = dir / (sanitize(name) + ".dxbc");
    const std::filesystem::path spv_path = dir / (sanitize(name) + ".spv");
    {
        std::ofstream file(dxbc_path, std::ios::binary);
        file.write(reinterpret_cast<const char*>(dxbc.data()), static_cast<std::streamsize>(dxbc.size()));
    }
    // VKD3D_SHADER_DEBUG=none hides vkd3d's harmless fixme chatter; real failures still set the exit code.
    const CommandOutput compiled = run_command("VKD3D_SHADER_DEBUG=none " + compiler +
                                               " -x dxbc-tpf -b spirv-binary -o " + spv_path.string() + " " +
                                               dxbc_path.string());
    if (compiled.exit_code != 0 || !std::filesystem::exists(spv_path)) {
        result.log = "vkd3d-compiler failed (exit " + std::to_string(compiled.exit_code) + "): " + compiled.text;
        std::filesystem::remove_all(dir);
        return result;
    }
    const CommandOutput validated = run_command(validator + " " + spv_path.string());
    if (!disassembler.empty() && std::filesystem::exists(disassembler)) {
        result.spirv_text = run_command(disassembler + " " + spv_path.string()).text;
    }
    result.ok = validated.exit_code == 0;
    result.log = compiled.text + validated.text;
    std::filesystem::remove_all(dir);
    return result;
}

}  // namespace dmltool::shaders::testing
