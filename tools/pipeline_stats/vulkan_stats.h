// Compiles SPIR-V compute shaders on a real VkDevice with VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR and reads
// the driver's per-executable statistics (VK_KHR_pipeline_executable_properties): what the driver made of the
// kernel, e.g. NVIDIA's register count and local-memory (spill) bytes, RADV's VGPRs/SGPRs and scratch.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "core/status.h"
#include "tools/pipeline_stats/spirv_interface.h"

namespace dmltool::pipeline_stats {

struct Statistic {
    std::string name;
    std::string description;
    std::variant<bool, int64_t, uint64_t, double> value;
};

struct ExecutableStatistics {
    std::string name;  // e.g. "Compute Shader", "SASS"
    std::string description;
    uint32_t subgroup_size = 0;
    std::vector<Statistic> statistics;
};

struct DeviceDescription {
    std::string name;
    std::string driver;  // driverName + driverInfo (VkPhysicalDeviceDriverProperties), when reported
    uint32_t index = 0;  // in vkEnumeratePhysicalDevices' order
};

// Errors: kUnsupported when the device lacks VK_KHR_pipeline_executable_properties (or its feature), kDevice for
// a failing Vulkan call (the message names the call and its VkResult), kInvalidInput for a bad device index.
class StatisticsDevice {
public:
    // device_index: the physical device to use; empty: the first one that has the extension.
    static Result<std::unique_ptr<StatisticsDevice>> create(std::optional<uint32_t> device_index);
    ~StatisticsDevice();
    StatisticsDevice(const StatisticsDevice&) = delete;
    StatisticsDevice& operator=(const StatisticsDevice&) = delete;

    const DeviceDescription& description() const { return description_; }
    // Builds the descriptor set layouts and push-constant range from `interface`, creates the compute pipeline
    // and returns the statistics of each of its executables. `what` prefixes messages ("case 'x' dispatch y").
    Result<std::vector<ExecutableStatistics>> pipeline_statistics(std::span<const uint32_t> spirv,
                                                                  const SpirvInterface& interface,
                                                                  const std::string& what);

private:
    struct State;
    explicit StatisticsDevice(std::unique_ptr<State> state);
    std::unique_ptr<State> state_;
    DeviceDescription description_;
};

std::string vk_result_name(int32_t result);  // "VK_ERROR_OUT_OF_HOST_MEMORY" or the number

}  // namespace dmltool::pipeline_stats
