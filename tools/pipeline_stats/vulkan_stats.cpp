#include "tools/pipeline_stats/vulkan_stats.h"

#include <vulkan/vulkan.h>

#include <cstring>
#include <map>

namespace dmltool::pipeline_stats {
namespace {

constexpr const char* kExtension = VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME;

// A zeroed Vulkan structure with its sType (and pNext) set.
template <typename T>
T vk_struct(VkStructureType type, void* next = nullptr) {
    T value{};
    value.sType = type;
    value.pNext = next;
    return value;
}

Status vk_failure(VkResult result, const std::string& what, const char* call) {
    return device_error(what + ": " + call + " failed with " + vk_result_name(result));
}

VkDescriptorType vk_descriptor_type(DescriptorKind kind) {
    switch (kind) {
        case DescriptorKind::kUniformBuffer: return VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
        case DescriptorKind::kStorageBuffer: return VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        case DescriptorKind::kUniformTexelBuffer: return VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
        case DescriptorKind::kStorageTexelBuffer: return VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
        case DescriptorKind::kSampledImage: return VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
        case DescriptorKind::kStorageImage: return VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
        case DescriptorKind::kSampler: return VK_DESCRIPTOR_TYPE_SAMPLER;
        case DescriptorKind::kCombinedImageSampler: return VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    }
    return VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
}

bool has_extension(VkPhysicalDevice physical) {
    uint32_t count = 0;
    if (vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr) != VK_SUCCESS) return false;
    std::vector<VkExtensionProperties> extensions(count);
    if (vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, extensions.data()) != VK_SUCCESS) return false;
    for (const VkExtensionProperties& e : extensions)
        if (std::strcmp(e.extensionName, kExtension) == 0) return true;
    return false;
}

std::string device_name(VkPhysicalDevice physical) {
    VkPhysicalDeviceProperties properties{};
    vkGetPhysicalDeviceProperties(physical, &properties);
    return properties.deviceName;
}

// Everything created by one pipeline_statistics call, destroyed in reverse on every path.
struct PipelineObjects {
    explicit PipelineObjects(VkDevice owner) : device(owner) {}
    PipelineObjects(const PipelineObjects&) = delete;
    PipelineObjects& operator=(const PipelineObjects&) = delete;
    VkDevice device;
    std::vector<VkDescriptorSetLayout> set_layouts;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkShaderModule module = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    ~PipelineObjects() {
        if (pipeline) vkDestroyPipeline(device, pipeline, nullptr);
        if (module) vkDestroyShaderModule(device, module, nullptr);
        if (layout) vkDestroyPipelineLayout(device, layout, nullptr);
        for (VkDescriptorSetLayout set : set_layouts) vkDestroyDescriptorSetLayout(device, set, nullptr);
    }
};

}  // namespace

struct StatisticsDevice::State {
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    uint32_t max_push_constant_bytes = 0;
    PFN_vkGetPipelineExecutablePropertiesKHR get_properties = nullptr;
    PFN_vkGetPipelineExecutableStatisticsKHR get_statistics = nullptr;
    ~State() {
        if (device) vkDestroyDevice(device, nullptr);
        if (instance) vkDestroyInstance(instance, nullptr);
    }
};

StatisticsDevice::StatisticsDevice(std::unique_ptr<State> state) : state_(std::move(state)) {}
StatisticsDevice::~StatisticsDevice() = default;

Result<std::unique_ptr<StatisticsDevice>> StatisticsDevice::create(std::optional<uint32_t> device_index) {
    auto state = std::make_unique<State>();
    auto app = vk_struct<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
    app.pApplicationName = "dmltool_pipeline_stats";
    app.apiVersion = VK_API_VERSION_1_1;  // vkGetPhysicalDeviceFeatures2 / Properties2 are core
    auto instance_info = vk_struct<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
    instance_info.pApplicationInfo = &app;
    if (VkResult r = vkCreateInstance(&instance_info, nullptr, &state->instance); r != VK_SUCCESS)
        return vk_failure(r, "Vulkan", "vkCreateInstance");
    uint32_t count = 0;
    if (VkResult r = vkEnumeratePhysicalDevices(state->instance, &count, nullptr); r != VK_SUCCESS)
        return vk_failure(r, "Vulkan", "vkEnumeratePhysicalDevices");
    std::vector<VkPhysicalDevice> physicals(count);
    if (VkResult r = vkEnumeratePhysicalDevices(state->instance, &count, physicals.data()); r < 0)
        return vk_failure(r, "Vulkan", "vkEnumeratePhysicalDevices");
    if (physicals.empty()) return device_error("Vulkan: vkEnumeratePhysicalDevices found no physical device");

    uint32_t chosen = 0;
    if (device_index) {
        if (*device_index >= physicals.size())
            return invalid_input("--device-index: expected an index below " + std::to_string(physicals.size()) +
                                 " (the Vulkan physical devices), found " + std::to_string(*device_index));
        chosen = *device_index;
        if (!has_extension(physicals[chosen]))
            return unsupported("device " + std::to_string(chosen) + " '" + device_name(physicals[chosen]) + "' lacks " +
                               kExtension + ": the driver reports no pipeline statistics");
    } else {
        std::string names;
        while (chosen < physicals.size() && !has_extension(physicals[chosen])) {
            names += (names.empty() ? "'" : ", '") + device_name(physicals[chosen]) + "'";
            ++chosen;
        }
        if (chosen == physicals.size())
            return unsupported("no Vulkan device has " + std::string(kExtension) + " (devices: " + names +
                               "): the driver reports no pipeline statistics");
    }
    state->physical = physicals[chosen];

    // The statistics feature, and every core feature the device has, as vkd3d's device does: a kernel's SPIR-V may
    // declare capabilities that need them, and robustBufferAccess (D3D12's bounds-checked views) changes codegen.
    auto executable_features = vk_struct<VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR);
    auto features =
        vk_struct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &executable_features);
    vkGetPhysicalDeviceFeatures2(state->physical, &features);
    if (!executable_features.pipelineExecutableInfo)
        return unsupported("device '" + device_name(state->physical) + "' has " + kExtension +
                           " but not its pipelineExecutableInfo feature");
    auto driver = vk_struct<VkPhysicalDeviceDriverProperties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES);
    auto properties = vk_struct<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &driver);
    vkGetPhysicalDeviceProperties2(state->physical, &properties);
    state->max_push_constant_bytes = properties.properties.limits.maxPushConstantsSize;

    uint32_t family_count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(state->physical, &family_count, nullptr);
    std::vector<VkQueueFamilyProperties> families(family_count);
    vkGetPhysicalDeviceQueueFamilyProperties(state->physical, &family_count, families.data());
    uint32_t family = 0;
    while (family < family_count && !(families[family].queueFlags & VK_QUEUE_COMPUTE_BIT)) ++family;
    if (family == family_count)
        return device_error("device '" + device_name(state->physical) + "' has no compute queue");
    const float priority = 1.0f;
    auto queue = vk_struct<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
    queue.queueFamilyIndex = family;
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    auto device_info = vk_struct<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &features);
    device_info.queueCreateInfoCount = 1;
    device_info.pQueueCreateInfos = &queue;
    device_info.enabledExtensionCount = 1;
    device_info.ppEnabledExtensionNames = &kExtension;
    if (VkResult r = vkCreateDevice(state->physical, &device_info, nullptr, &state->device); r != VK_SUCCESS)
        return vk_failure(r, "device '" + device_name(state->physical) + "'", "vkCreateDevice");
    state->get_properties = reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
        vkGetDeviceProcAddr(state->device, "vkGetPipelineExecutablePropertiesKHR"));
    state->get_statistics = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
        vkGetDeviceProcAddr(state->device, "vkGetPipelineExecutableStatisticsKHR"));
    if (!state->get_properties || !state->get_statistics)
        return device_error("device '" + device_name(state->physical) +
                            "': vkGetDeviceProcAddr found no vkGetPipelineExecutable*KHR");

    auto out = std::unique_ptr<StatisticsDevice>(new StatisticsDevice(std::move(state)));
    out->description_.name = properties.properties.deviceName;
    out->description_.driver = std::string(driver.driverName) + (driver.driverInfo[0] ? " " : "") + driver.driverInfo;
    out->description_.index = chosen;
    return out;
}

Result<std::vector<ExecutableStatistics>> StatisticsDevice::pipeline_statistics(std::span<const uint32_t> spirv,
                                                                                const SpirvInterface& interface,
                                                                                const std::string& what) {
    const VkDevice device = state_->device;
    PipelineObjects objects(device);
    // One set layout per set number up to the highest used (unused numbers get empty layouts, as Vulkan
    // requires the array to be dense).
    std::map<uint32_t, std::vector<VkDescriptorSetLayoutBinding>> sets;
    for (const SpirvBinding& b : interface.bindings)
        sets[b.set].push_back({b.binding, vk_descriptor_type(b.kind), b.count, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
    const uint32_t set_count = sets.empty() ? 0 : sets.rbegin()->first + 1;
    for (uint32_t set = 0; set < set_count; ++set) {
        const std::vector<VkDescriptorSetLayoutBinding>& bindings = sets[set];
        auto info = vk_struct<VkDescriptorSetLayoutCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
        info.bindingCount = static_cast<uint32_t>(bindings.size());
        info.pBindings = bindings.data();
        VkDescriptorSetLayout layout = VK_NULL_HANDLE;
        if (VkResult r = vkCreateDescriptorSetLayout(device, &info, nullptr, &layout); r != VK_SUCCESS)
            return vk_failure(r, what, "vkCreateDescriptorSetLayout");
        objects.set_layouts.push_back(layout);
    }
    if (interface.push_constant_bytes > state_->max_push_constant_bytes)
        return device_error(what + ": the kernel reads " + std::to_string(interface.push_constant_bytes) +
                            " bytes of push constants, the device allows " +
                            std::to_string(state_->max_push_constant_bytes));
    const VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, interface.push_constant_bytes};
    auto layout_info = vk_struct<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
    layout_info.setLayoutCount = static_cast<uint32_t>(objects.set_layouts.size());
    layout_info.pSetLayouts = objects.set_layouts.data();
    layout_info.pushConstantRangeCount = interface.push_constant_bytes > 0 ? 1 : 0;
    layout_info.pPushConstantRanges = &push;
    if (VkResult r = vkCreatePipelineLayout(device, &layout_info, nullptr, &objects.layout); r != VK_SUCCESS)
        return vk_failure(r, what, "vkCreatePipelineLayout");

    auto module_info = vk_struct<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
    module_info.codeSize = spirv.size() * sizeof(uint32_t);
    module_info.pCode = spirv.data();
    if (VkResult r = vkCreateShaderModule(device, &module_info, nullptr, &objects.module); r != VK_SUCCESS)
        return vk_failure(r, what, "vkCreateShaderModule");
    auto pipeline_info = vk_struct<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
    pipeline_info.flags = VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
    pipeline_info.stage =
        vk_struct<VkPipelineShaderStageCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO);
    pipeline_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    pipeline_info.stage.module = objects.module;
    pipeline_info.stage.pName = "main";
    pipeline_info.layout = objects.layout;
    if (VkResult r = vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &pipeline_info, nullptr, &objects.pipeline);
        r != VK_SUCCESS)
        return vk_failure(r, what, "vkCreateComputePipelines");

    auto pipeline = vk_struct<VkPipelineInfoKHR>(VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR);
    pipeline.pipeline = objects.pipeline;
    uint32_t executable_count = 0;
    if (VkResult r = state_->get_properties(device, &pipeline, &executable_count, nullptr); r != VK_SUCCESS)
        return vk_failure(r, what, "vkGetPipelineExecutablePropertiesKHR");
    std::vector<VkPipelineExecutablePropertiesKHR> executables(
        executable_count,
        vk_struct<VkPipelineExecutablePropertiesKHR>(VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR));
    if (VkResult r = state_->get_properties(device, &pipeline, &executable_count, executables.data()); r != VK_SUCCESS)
        return vk_failure(r, what, "vkGetPipelineExecutablePropertiesKHR");

    std::vector<ExecutableStatistics> out;
    for (uint32_t e = 0; e < executable_count; ++e) {
        auto executable = vk_struct<VkPipelineExecutableInfoKHR>(VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR);
        executable.pipeline = objects.pipeline;
        executable.executableIndex = e;
        uint32_t statistic_count = 0;
        if (VkResult r = state_->get_statistics(device, &executable, &statistic_count, nullptr); r != VK_SUCCESS)
            return vk_failure(r, what, "vkGetPipelineExecutableStatisticsKHR");
        std::vector<VkPipelineExecutableStatisticKHR> statistics(
            statistic_count,
            vk_struct<VkPipelineExecutableStatisticKHR>(VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR));
        if (VkResult r = state_->get_statistics(device, &executable, &statistic_count, statistics.data());
            r != VK_SUCCESS)
            return vk_failure(r, what, "vkGetPipelineExecutableStatisticsKHR");
        ExecutableStatistics& entry = out.emplace_back();
        entry.name = executables[e].name;
        entry.description = executables[e].description;
        entry.subgroup_size = executables[e].subgroupSize;
        for (const VkPipelineExecutableStatisticKHR& s : statistics) {
            Statistic& stat = entry.statistics.emplace_back();
            stat.name = s.name;
            stat.description = s.description;
            switch (s.format) {
                case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: stat.value = s.value.b32 != VK_FALSE; break;
                case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: stat.value = s.value.i64; break;
                case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: stat.value = s.value.u64; break;
                case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR: stat.value = s.value.f64; break;
                default: stat.value = s.value.u64; break;  // a future format: its raw bits
            }
        }
    }
    return out;
}

std::string vk_result_name(int32_t result) {
    switch (result) {
#define DMLTOOL_VK_RESULT(name) \
    case name: return #name;
        DMLTOOL_VK_RESULT(VK_SUCCESS)
        DMLTOOL_VK_RESULT(VK_INCOMPLETE)
        DMLTOOL_VK_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
        DMLTOOL_VK_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
        DMLTOOL_VK_RESULT(VK_ERROR_INITIALIZATION_FAILED)
        DMLTOOL_VK_RESULT(VK_ERROR_DEVICE_LOST)
        DMLTOOL_VK_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
        DMLTOOL_VK_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
        DMLTOOL_VK_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
        DMLTOOL_VK_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
        DMLTOOL_VK_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
        DMLTOOL_VK_RESULT(VK_ERROR_UNKNOWN)
        DMLTOOL_VK_RESULT(VK_ERROR_INVALID_SHADER_NV)
        DMLTOOL_VK_RESULT(VK_PIPELINE_COMPILE_REQUIRED)
#undef DMLTOOL_VK_RESULT
        default: return "VkResult " + std::to_string(result);
    }
}

}  // namespace dmltool::pipeline_stats
