#include "tools/pipeline_stats/dxbc_to_spirv.h"

#include <vkd3d_shader.h>

#include <cstring>

namespace dmltool::pipeline_stats {

Result<std::vector<uint32_t>> compile_dxbc_to_spirv(const std::vector<uint8_t>& dxbc, const KernelRegisters& registers,
                                                    const std::string& label) {
    std::vector<vkd3d_shader_resource_binding> bindings;
    auto bind = [&](vkd3d_shader_descriptor_type type, uint32_t count) {
        for (uint32_t i = 0; i < count; ++i) {
            vkd3d_shader_resource_binding b{};
            b.type = type;
            b.register_space = 0;
            b.register_index = i;
            b.shader_visibility = VKD3D_SHADER_VISIBILITY_ALL;
            b.flags = VKD3D_SHADER_BINDING_FLAG_BUFFER;  // our views are all buffers
            b.binding = {0, static_cast<unsigned>(bindings.size()), 1};
            bindings.push_back(b);
        }
    };
    bind(VKD3D_SHADER_DESCRIPTOR_TYPE_SRV, registers.srvs);
    bind(VKD3D_SHADER_DESCRIPTOR_TYPE_UAV, registers.uavs);
    vkd3d_shader_push_constant_buffer constants{};
    constants.register_index = 0;
    constants.shader_visibility = VKD3D_SHADER_VISIBILITY_ALL;
    constants.offset = 0;
    constants.size = registers.root_constants * 4;

    vkd3d_shader_interface_info interface {};
    interface.type = VKD3D_SHADER_STRUCTURE_TYPE_INTERFACE_INFO;
    interface.bindings = bindings.data();
    interface.binding_count = static_cast<unsigned>(bindings.size());
    interface.push_constant_buffers = &constants;
    interface.push_constant_buffer_count = registers.root_constants > 0 ? 1 : 0;

    vkd3d_shader_spirv_target_info target{};
    target.type = VKD3D_SHADER_STRUCTURE_TYPE_SPIRV_TARGET_INFO;
    target.next = &interface;
    target.entry_point = "main";
    target.environment = VKD3D_SHADER_SPIRV_ENVIRONMENT_VULKAN_1_0;

    const vkd3d_shader_compile_option options[] = {
        {VKD3D_SHADER_COMPILE_OPTION_STRIP_DEBUG, 1},
        {VKD3D_SHADER_COMPILE_OPTION_BUFFER_UAV, VKD3D_SHADER_COMPILE_OPTION_BUFFER_UAV_STORAGE_TEXEL_BUFFER},
    };
    vkd3d_shader_compile_info info{};
    info.type = VKD3D_SHADER_STRUCTURE_TYPE_COMPILE_INFO;
    info.next = &target;
    info.source = {dxbc.data(), dxbc.size()};
    info.source_type = VKD3D_SHADER_SOURCE_DXBC_TPF;
    info.target_type = VKD3D_SHADER_TARGET_SPIRV_BINARY;
    info.options = options;
    info.option_count = sizeof(options) / sizeof(options[0]);
    info.log_level = VKD3D_SHADER_LOG_ERROR;
    info.source_name = label.c_str();

    vkd3d_shader_code spirv{};
    char* messages = nullptr;
    const int rc = vkd3d_shader_compile(&info, &spirv, &messages);
    std::string log = messages ? messages : "";
    vkd3d_shader_free_messages(messages);
    while (!log.empty() && (log.back() == '\n' || log.back() == '\r')) log.pop_back();
    for (char& c : log) c = c == '\n' ? ';' : c;  // one-line messages
    if (rc < 0)
        return internal_error("kernel '" + label + "': vkd3d_shader_compile (DXBC -> SPIR-V) failed with " +
                              std::to_string(rc) + (log.empty() ? "" : ": " + log));
    std::vector<uint32_t> words(spirv.size / 4);
    std::memcpy(words.data(), spirv.code, words.size() * 4);
    vkd3d_shader_free_shader_code(&spirv);
    return words;
}

}  // namespace dmltool::pipeline_stats
