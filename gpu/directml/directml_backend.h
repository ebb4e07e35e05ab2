// DirectMlBackend runs each case through Microsoft's DirectML.dll on the same D3D12 layer as dmltool's own
// kernels (GpuContext: device on the chosen adapter, queue, buffers, timestamps). Per case: the validated desc
// becomes a DML_*_OPERATOR_DESC (dml_operator_desc.h), which is created, compiled, initialized (persistent and
// temporary resources), bound to the case's physical buffers (outputs poisoned first) and dispatched; outputs
// are read back as logical tensors. Errors name the DML call, its HRESULT and the desc.
//
// DirectML.dll is a Windows DLL: only the Windows build (dmltool.exe, also under Wine) can load it. The Linux
// build compiles this backend and refuses to create it, with the reason.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/backend.h"
#include "core/feature_level.h"
#include "gpu/directml/dml_api.h"
#include "gpu/gpu_buffer.h"
#include "gpu/gpu_context.h"

namespace dmltool::gpu {

struct DirectMlOptions {
    std::string dll_path;               // empty: DirectML.dll next to dmltool.exe, else the system's search path
    bool disable_metacommands = false;  // DML_EXECUTION_FLAG_DISABLE_META_COMMANDS
    bool allow_half_precision = false;  // DML_EXECUTION_FLAG_ALLOW_HALF_PRECISION_COMPUTATION
    bool debug = false;                 // DML_CREATE_DEVICE_FLAG_DEBUG (needs DirectML.Debug.dll)
    uint64_t max_device_bytes = 0;      // device memory one case may use; 0: the adapter's device-local memory
};

// The loaded DLL (a handle on Windows; nothing elsewhere).
class DirectMlLibrary;

class DirectMlBackend final : public Backend {
public:
    static Result<std::unique_ptr<DirectMlBackend>> create(const GpuContextOptions& context_options,
                                                            const DirectMlOptions& options);
    ~DirectMlBackend() override;

    std::string name() const override;
    std::string label() const override { return "directml"; }
    std::optional<FeatureLevel> max_feature_level() const override { return max_feature_level_; }
    std::optional<std::string> implementation_version() const override;
    Result<std::vector<HostTensor>> execute(const Op& op, const OpDesc& desc,
                                            const std::vector<const HostTensor*>& inputs, BackendTiming* timing,
                                            std::byte output_poison = kDefaultOutputPoison) override;
    Result<double> time_executions(const Op& op, const OpDesc& desc,
                                   const std::vector<const HostTensor*>& inputs,
                                   unsigned iterations) override;
    Result<DeviceRoofline> measure_roofline(uint64_t copy_bytes) override;
    Status check_capacity(const Op& op, const OpDesc& desc) override;
    bool lost() const override { return context_->is_lost(); }
    Status recover() override;

    // Where the DLL was loaded from, and the execution flags in effect ("metacommands off", ...), for reports.
    const std::string& dll_path() const { return dll_path_; }
    std::string execution_options() const;

private:
    struct Prepared;  // one case's compiled operator, bound buffers and persistent/temporary resources

    DirectMlBackend() = default;
    Status create_dml_device();
    Result<std::unique_ptr<Prepared>> prepare(const Op& op, const OpDesc& desc,
                                              const std::vector<const HostTensor*>& inputs);
    Status poison_outputs(Prepared& prepared, std::byte output_poison);
    // Binds the compiled operator's resources into a fresh descriptor range and records its dispatch.
    Status bind_for_execution(Prepared& prepared);
    Status record_execution(Prepared& prepared);
    Result<std::vector<HostTensor>> execute_once(const Op& op, const OpDesc& desc,
                                                 const std::vector<const HostTensor*>& inputs, BackendTiming* timing,
                                                 std::byte output_poison);

    std::unique_ptr<DirectMlLibrary> library_;
    std::string dll_path_;
    DirectMlOptions options_;
    GpuContextOptions context_options_;
    std::unique_ptr<GpuContext> context_;
    ComPtr<IDMLDevice> dml_device_;
    ComPtr<IDMLCommandRecorder> recorder_;
    std::optional<FeatureLevel> max_feature_level_;
    uint64_t max_device_bytes_ = 0;
    bool debug_layer_ = false;
    std::unique_ptr<Prepared> last_timed_;
    // With the desc's and inputs' addresses, the key of last_timed_: a desc freed and another allocated at its address
    // (bench's same-size copies, 2026-11-28) must not reuse the old plan, and one of another size never does.
    uint64_t last_timed_bytes_ = 0;
};

}  // namespace dmltool::gpu
