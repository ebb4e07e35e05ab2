#include "gpu/directml/directml_backend.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <vector>

#include "gpu/device_footprint.h"
#include "gpu/directml/dml_operator_desc.h"
#include "gpu/hresult.h"
#include "gpu/roofline_probe.h"

#if defined(_WIN32)
#include <winver.h>  // GetFileVersionInfo (version.dll): the DLL's version picks its deviation registry
#endif

namespace dmltool::gpu {

// ---- Loading DirectML.dll (the platform seam) ---------------------------------------------------------------

class DirectMlLibrary {
public:
#if defined(_WIN32)
    ~DirectMlLibrary() {
        if (module_) FreeLibrary(module_);
    }
    static Result<std::unique_ptr<DirectMlLibrary>> load(const std::string& requested) {
        auto library = std::unique_ptr<DirectMlLibrary>(new DirectMlLibrary());
        std::string tried;
        if (!requested.empty()) {
            library->module_ = LoadLibraryA(requested.c_str());
            tried = requested;
        } else {
            // Default: next to dmltool.exe, then the system's search path (System32 on Windows 10+).
            char exe[MAX_PATH] = {};
            const DWORD length = GetModuleFileNameA(nullptr, exe, MAX_PATH);
            std::string beside(exe, length);
            const size_t slash = beside.find_last_of("\\/");
            beside = (slash == std::string::npos ? std::string() : beside.substr(0, slash + 1)) + "DirectML.dll";
            if (GetFileAttributesA(beside.c_str()) != INVALID_FILE_ATTRIBUTES)
                library->module_ = LoadLibraryA(beside.c_str()), tried = beside;
            if (!library->module_) library->module_ = LoadLibraryA("DirectML.dll"), tried += (tried.empty() ? "" : ", then ") + std::string("DirectML.dll from the system");
        }
        if (!library->module_)
            return device_error("cannot load DirectML.dll (tried " + tried + "): LoadLibrary error " +
                                std::to_string(GetLastError()) +
                                "; scripts/fetch_directml.sh fetches it, --directml-dll PATH names it");
        char loaded[MAX_PATH] = {};
        library->path_.assign(loaded, GetModuleFileNameA(library->module_, loaded, MAX_PATH));
        library->version_ = file_version(library->path_);
        library->create_device1_ = reinterpret_cast<PFN_DMLTOOL_DML_CREATE_DEVICE1>(
            reinterpret_cast<void*>(GetProcAddress(library->module_, "DMLCreateDevice1")));
        if (!library->create_device1_)
            return device_error(library->path_ + " has no DMLCreateDevice1 export (DirectML 1.1 or later needed)");
        return library;
    }
#else
    static Result<std::unique_ptr<DirectMlLibrary>> load(const std::string&) {
        return device_error("the DirectML backend needs the Windows build: DirectML.dll is a Windows DLL "
                            "(build dmltool.exe with scripts/build_windows.sh and run it on Windows or under Wine)");
    }
#endif
    const std::string& path() const { return path_; }
    // The DLL's file version from its version resource (VS_FIXEDFILEINFO: "1.15.4"; a zero revision is left
    // out), nullopt when it has none.
    const std::optional<std::string>& version() const { return version_; }
    PFN_DMLTOOL_DML_CREATE_DEVICE1 create_device1() const { return create_device1_; }

private:
    DirectMlLibrary() = default;
#if defined(_WIN32)
    HMODULE module_ = nullptr;
#endif
#if defined(_WIN32)
    static std::optional<std::string> file_version(const std::string& path) {
        DWORD ignored = 0;
        const DWORD size = GetFileVersionInfoSizeA(path.c_str(), &ignored);
        if (size == 0) return std::nullopt;
        std::vector<char> data(size);
        VS_FIXEDFILEINFO* info = nullptr;
        UINT length = 0;
        if (!GetFileVersionInfoA(path.c_str(), 0, size, data.data()) ||
            !VerQueryValueA(data.data(), "\\", reinterpret_cast<void**>(&info), &length) || !info ||
            length < sizeof(VS_FIXEDFILEINFO) || info->dwSignature != 0xFEEF04BDu)
            return std::nullopt;
        std::string version = std::to_string(HIWORD(info->dwFileVersionMS)) + "." +
                              std::to_string(LOWORD(info->dwFileVersionMS)) + "." +
                              std::to_string(HIWORD(info->dwFileVersionLS));
        if (LOWORD(info->dwFileVersionLS) != 0) version += "." + std::to_string(LOWORD(info->dwFileVersionLS));
        return version;
    }
#endif
    std::string path_;
    std::optional<std::string> version_;
    PFN_DMLTOOL_DML_CREATE_DEVICE1 create_device1_ = nullptr;
};

// ---- One case on DirectML -----------------------------------------------------------------------------------

namespace {

// DirectML binds buffers at 16-byte offsets and reads whole 4-byte words: allocations are padded to 16.
uint64_t padded(uint64_t bytes) { return device_buffer_size(bytes).value_or(bytes); }

std::vector<const TensorDesc*> slot_descs(const Op& op, const OpDesc& desc, TensorRole role) {
    std::vector<const TensorDesc*> out;
    for (const TensorSlot& slot : op.tensors(desc))
        if (slot.role == role) out.push_back(slot.desc);
    return out;
}

// The highest shader model the D3D12 device compiles (0x51 for 5.1), or nullopt when it does not say. Wine 8.0's vkd3d
// 1.6 reports 5.1: it compiles DXBC only, so a DXIL (shader model 6) shader of DirectML's fails in
// CreateComputePipelineState (E_INVALIDARG, "Skipping DXIL shader model 6+ code chunk" with VKD3D_DEBUG=fixme).
std::optional<unsigned> highest_shader_model(ID3D12Device* device) {
    D3D12_FEATURE_DATA_SHADER_MODEL model{D3D_SHADER_MODEL_6_0};
    if (FAILED(device->CheckFeatureSupport(D3D12_FEATURE_SHADER_MODEL, &model, sizeof model))) return std::nullopt;
    return unsigned(model.HighestShaderModel);
}

// "IDMLDevice::CreateOperator(DML_OPERATOR_RESAMPLE (...)) failed: E_INVALIDARG (0x80070057)"
Status dml_call_failed(HRESULT hr, const std::string& call, ID3D12Device* device) {
    return hresult_status(hr, call, device);
}

void uav_barrier(ID3D12GraphicsCommandList* list) {
    D3D12_RESOURCE_BARRIER barrier{};
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
    barrier.UAV.pResource = nullptr;  // every UAV access before vs after
    list->ResourceBarrier(1, &barrier);
}

}  // namespace

struct DirectMlBackend::Prepared {
    const OpDesc* desc = nullptr;
    std::vector<const HostTensor*> inputs;
    std::unique_ptr<dml::DmlOperatorDesc> dml_desc;
    ComPtr<IDMLCompiledOperator> compiled;
    DML_BINDING_PROPERTIES execute_properties{};
    std::vector<std::unique_ptr<GpuBuffer>> input_buffers;  // null for absent optional inputs
    std::vector<std::unique_ptr<GpuBuffer>> output_buffers;
    std::unique_ptr<GpuBuffer> persistent, temporary;
    ComPtr<IDMLBindingTable> table;
};

DirectMlBackend::~DirectMlBackend() {
    // DirectML objects hold references to the D3D12 device: release them before the context, and the DLL last.
    last_timed_.reset();
    recorder_.Reset();
    dml_device_.Reset();
    context_.reset();
}

Result<std::unique_ptr<DirectMlBackend>> DirectMlBackend::create(const GpuContextOptions& context_options,
                                                                  const DirectMlOptions& options) {
    std::unique_ptr<DirectMlBackend> backend(new DirectMlBackend());
    backend->options_ = options;
    backend->context_options_ = context_options;
    DMLTOOL_ASSIGN_OR_RETURN(backend->library_, DirectMlLibrary::load(options.dll_path));
    backend->dll_path_ = backend->library_->path();
    DMLTOOL_ASSIGN_OR_RETURN(backend->context_, GpuContext::create(context_options));
    backend->max_device_bytes_ =
        options.max_device_bytes ? options.max_device_bytes : backend->context_->adapter().device_local_bytes;
    DMLTOOL_RETURN_IF_ERROR(backend->create_dml_device());
    return backend;
}

Status DirectMlBackend::create_dml_device() {
    ID3D12Device* device = context_->device();
    auto create = [&](DML_CREATE_DEVICE_FLAGS flags) {
        dml_device_.Reset();
        return library_->create_device1()(device, flags, DML_FEATURE_LEVEL_1_0, dml::iid_of<IDMLDevice>(),
                                          reinterpret_cast<void**>(dml_device_.GetAddressOf()));
    };
    HRESULT hr = E_FAIL;
    debug_layer_ = false;
    if (options_.debug) {
        hr = create(DML_CREATE_DEVICE_FLAG_DEBUG);
        if (SUCCEEDED(hr)) {
            debug_layer_ = true;
        } else {
            std::fprintf(stderr, "dmltool: note: --dml-debug: DMLCreateDevice1 with DML_CREATE_DEVICE_FLAG_DEBUG failed "
                         "(%s; the debug layer needs DirectML.Debug.dll and the D3D12 debug layer): running without it\n",
                         hresult_name(hr).c_str());
        }
    }
    if (!debug_layer_) hr = create(DML_CREATE_DEVICE_FLAG_NONE);
    if (FAILED(hr)) return dml_call_failed(hr, "DMLCreateDevice1 (" + dll_path_ + ")", device);

    // The highest level this DLL and device support: ask for every level dmltool knows.
    std::vector<DML_FEATURE_LEVEL> levels;
    for (FeatureLevel level : kAllFeatureLevels) levels.push_back(static_cast<DML_FEATURE_LEVEL>(level.value));
    DML_FEATURE_QUERY_FEATURE_LEVELS query{UINT(levels.size()), levels.data()};
    DML_FEATURE_DATA_FEATURE_LEVELS supported{};
    hr = dml_device_->CheckFeatureSupport(DML_FEATURE_FEATURE_LEVELS, sizeof query, &query, sizeof supported, &supported);
    if (FAILED(hr)) return dml_call_failed(hr, "IDMLDevice::CheckFeatureSupport(DML_FEATURE_FEATURE_LEVELS)", device);
    max_feature_level_ = FeatureLevel{uint16_t(supported.MaxSupportedFeatureLevel)};
    hr = dml_device_->CreateCommandRecorder(dml::iid_of<IDMLCommandRecorder>(),
                                            reinterpret_cast<void**>(recorder_.GetAddressOf()));
    if (FAILED(hr)) return dml_call_failed(hr, "IDMLDevice::CreateCommandRecorder", device);
    return Status::ok();
}

std::string DirectMlBackend::execution_options() const {
    std::string text = std::string("metacommands ") + (options_.disable_metacommands ? "off" : "on") +
                       ", half-precision computation " + (options_.allow_half_precision ? "allowed" : "off");
    if (debug_layer_) text += ", debug layer";
    return text;
}

std::optional<std::string> DirectMlBackend::implementation_version() const { return library_->version(); }

std::string DirectMlBackend::name() const {
    return "directml (" + dll_path_ + (library_->version() ? ", DirectML " + *library_->version() : std::string()) +
           ", max feature level " +
           (max_feature_level_ ? max_feature_level_->to_string() : std::string("?")) + ", " + execution_options() +
           ", adapter " + context_->adapter().name + ")";
}

Status DirectMlBackend::recover() {
    if (!context_->is_lost()) return Status::ok();
    last_timed_.reset();
    recorder_.Reset();
    dml_device_.Reset();
    auto fresh = GpuContext::create(context_options_);
    if (!fresh.is_ok())
        return fresh.status().with_context("recreating the device after it was lost (" + context_->lost_reason() + ")");
    context_ = std::move(fresh).value();
    return create_dml_device();
}

Status DirectMlBackend::check_capacity(const Op& op, const OpDesc& desc) {
    DMLTOOL_ASSIGN_OR_RETURN(auto buffers, device_buffers(op, desc, DevicePlan{}));
    return check_device_footprint(buffers, {context_->adapter().name, context_->max_buffer_bytes(), max_device_bytes_});
}

Result<DeviceRoofline> DirectMlBackend::measure_roofline(uint64_t copy_bytes) {
    // The device's roofline does not depend on who dispatches: the same probes as dmltool's own backend.
    RooflineProbeOptions probe;
    probe.copy_bytes = context_->adapter().kind == AdapterKind::kCpu ? std::min<uint64_t>(copy_bytes, 8ull << 20)
                                                                     : copy_bytes;
    return gpu::measure_roofline(*context_, probe);
}

Result<std::unique_ptr<DirectMlBackend::Prepared>> DirectMlBackend::prepare(
    const Op& op, const OpDesc& desc, const std::vector<const HostTensor*>& inputs) {
    if (max_feature_level_) {
        DMLTOOL_ASSIGN_OR_RETURN(FeatureLevel needed, min_feature_level(op, desc));
        if (needed > *max_feature_level_)
            return unsupported("needs DML feature level " + needed.to_string() + ", above this DirectML device's " +
                               max_feature_level_->to_string() + " (IDMLDevice::CheckFeatureSupport)");
    }
    ID3D12Device* device = context_->device();
    auto p = std::make_unique<Prepared>();
    p->desc = &desc;
    p->inputs = inputs;
    DMLTOOL_ASSIGN_OR_RETURN(p->dml_desc, dml::DmlOperatorDesc::build(op, desc));
    for (const DML_BUFFER_TENSOR_DESC* t : p->dml_desc->input_tensors())
        if (t && (t->Flags & DML_TENSOR_FLAG_OWNED_BY_DML))
            return unsupported("DML_TENSOR_FLAG_OWNED_BY_DML inputs are not bound by dmltool's DirectML backend");

    ComPtr<IDMLOperator> dml_operator;
    HRESULT hr = dml_device_->CreateOperator(&p->dml_desc->desc(), dml::iid_of<IDMLOperator>(),
                                             reinterpret_cast<void**>(dml_operator.GetAddressOf()));
    if (hr == E_INVALIDARG)
        return unsupported("DirectML " + std::string(kDescRejectedMarker) + ": IDMLDevice::CreateOperator(" +
                           p->dml_desc->summary() + ") returned E_INVALIDARG (0x80070057)");
    if (FAILED(hr)) return dml_call_failed(hr, "IDMLDevice::CreateOperator(" + p->dml_desc->summary() + ")", device);

    DML_EXECUTION_FLAGS flags = DML_EXECUTION_FLAG_NONE;
    if (options_.disable_metacommands) flags |= DML_EXECUTION_FLAG_DISABLE_META_COMMANDS;
    if (options_.allow_half_precision) flags |= DML_EXECUTION_FLAG_ALLOW_HALF_PRECISION_COMPUTATION;
    hr = dml_device_->CompileOperator(dml_operator.Get(), flags, dml::iid_of<IDMLCompiledOperator>(),
                                      reinterpret_cast<void**>(p->compiled.GetAddressOf()));
    if (hr == E_INVALIDARG) {
        // DirectML accepted the desc (CreateOperator); compiling it failed. On a device without shader model 6 that
        // is the device's limit, not a refusal of the desc: DirectML 1.15.4 picks DXIL shaders for some descs
        // (e.g. contiguous FLOAT32 ELEMENT_WISE_ADD of a multiple of 4 elements), which vkd3d 1.6 cannot create
        // (results/directml_element_wise_2026-11-29.txt). UNSUPPORTED with that reason, and no registry entry.
        const std::optional<unsigned> model = highest_shader_model(device);
        if (model && *model < unsigned(D3D_SHADER_MODEL_6_0))
            return unsupported("IDMLDevice::CompileOperator(" + p->dml_desc->summary() +
                               ") returned E_INVALIDARG (0x80070057) after CreateOperator accepted the desc: this D3D12 "
                               "device compiles shader model " + std::to_string(*model >> 4) + "." +
                               std::to_string(*model & 0xf) + " at most, and DirectML chose a shader model "
                               "6 (DXIL) shader for this desc (device limit, not a refusal of the desc)");
        return unsupported("DirectML " + std::string(kDescRejectedMarker) + ": IDMLDevice::CompileOperator(" +
                           p->dml_desc->summary() + ") returned E_INVALIDARG (0x80070057)");
    }
    // HRESULT_FROM_WIN32(ERROR_UNHANDLED_EXCEPTION): an exception inside DirectML while compiling a desc that
    // CreateOperator accepted, the device intact. DirectML 1.15.4 does so on every QUANTIZED_LINEAR_AVERAGE_POOLING
    // desc with a scale or zero point tensor of too few dimensions, though not every time (ops/pooling/op.cpp no
    // longer gives it those; results/directml_pooling_2026-11-29.txt): a refusal of the desc, not a device failure.
    constexpr HRESULT kUnhandledException = HRESULT(0x8007023E);
    if (hr == kUnhandledException && SUCCEEDED(device->GetDeviceRemovedReason()))
        return unsupported("DirectML " + std::string(kDescRejectedMarker) + ": IDMLDevice::CompileOperator(" +
                           p->dml_desc->summary() +
                           ") returned 0x8007023e (ERROR_UNHANDLED_EXCEPTION) after CreateOperator accepted the desc");
    if (FAILED(hr)) return dml_call_failed(hr, "IDMLDevice::CompileOperator(" + p->dml_desc->summary() + ")", device);

    ComPtr<IDMLOperatorInitializer> initializer;
    IDMLCompiledOperator* compiled[] = {p->compiled.Get()};
    hr = dml_device_->CreateOperatorInitializer(1, compiled, dml::iid_of<IDMLOperatorInitializer>(),
                                                reinterpret_cast<void**>(initializer.GetAddressOf()));
    if (FAILED(hr)) return dml_call_failed(hr, "IDMLDevice::CreateOperatorInitializer", device);
    const DML_BINDING_PROPERTIES init_properties = dml::binding_properties(initializer.Get());
    p->execute_properties = dml::binding_properties(p->compiled.Get());

    // Buffers: the inputs' physical images, the outputs (poisoned before each execution), DirectML's own.
    const auto input_descs = slot_descs(op, desc, TensorRole::kInput);
    for (size_t i = 0; i < input_descs.size(); ++i) {
        if (!input_descs[i] || !inputs[i]) {
            p->input_buffers.emplace_back();
            continue;
        }
        std::vector<std::byte> image = to_physical(*inputs[i]);
        image.resize(padded(image.size()), std::byte{0});
        DMLTOOL_ASSIGN_OR_RETURN(GpuBuffer buffer, GpuBuffer::create(*context_, MemoryKind::kDevice, image.size(),
                                                                     "directml input " + std::to_string(i)));
        DMLTOOL_RETURN_IF_ERROR(upload(*context_, buffer, 0, image));
        p->input_buffers.push_back(std::make_unique<GpuBuffer>(std::move(buffer)));
    }
    // One per DML output member, in member order: an absent optional output (null member) has no buffer and is bound
    // as DML_BINDING_TYPE_NONE; the present ones are the op's output slots in the same order (DmlOperatorDesc::build).
    for (const DML_BUFFER_TENSOR_DESC* output : p->dml_desc->output_tensors()) {
        if (!output) {
            p->output_buffers.emplace_back();
            continue;
        }
        DMLTOOL_ASSIGN_OR_RETURN(GpuBuffer buffer, GpuBuffer::create(*context_, MemoryKind::kDevice,
                                                                     padded(output->TotalTensorSizeInBytes), "directml output"));
        p->output_buffers.push_back(std::make_unique<GpuBuffer>(std::move(buffer)));
    }
    const uint64_t temporary_bytes = std::max(init_properties.TemporaryResourceSize, p->execute_properties.TemporaryResourceSize);
    if (temporary_bytes) {
        DMLTOOL_ASSIGN_OR_RETURN(GpuBuffer buffer, GpuBuffer::create(*context_, MemoryKind::kDevice, padded(temporary_bytes),
                                                                     "directml temporary"));
        p->temporary = std::make_unique<GpuBuffer>(std::move(buffer));
    }
    if (p->execute_properties.PersistentResourceSize) {
        DMLTOOL_ASSIGN_OR_RETURN(GpuBuffer buffer,
                                 GpuBuffer::create(*context_, MemoryKind::kDevice,
                                                   padded(p->execute_properties.PersistentResourceSize), "directml persistent"));
        p->persistent = std::make_unique<GpuBuffer>(std::move(buffer));
    }

    // Initialize: the initializer writes the persistent resource (its output) using the temporary one.
    ID3D12GraphicsCommandList* list = context_->command_list();
    const uint32_t init_descriptors = std::max<uint32_t>(1, init_properties.RequiredDescriptorCount);
    DMLTOOL_ASSIGN_OR_RETURN(DescriptorRange range, context_->allocate_descriptors(init_descriptors));
    DML_BINDING_TABLE_DESC table_desc{initializer.Get(), range.cpu, range.gpu, init_descriptors};
    ComPtr<IDMLBindingTable> init_table;
    hr = dml_device_->CreateBindingTable(&table_desc, dml::iid_of<IDMLBindingTable>(),
                                         reinterpret_cast<void**>(init_table.GetAddressOf()));
    if (FAILED(hr)) return dml_call_failed(hr, "IDMLDevice::CreateBindingTable (initializer)", device);
    DML_BUFFER_BINDING persistent_binding{}, temporary_binding{};
    if (p->persistent) {
        p->persistent->transition(list, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
        persistent_binding = {p->persistent->resource(), 0, p->persistent->size()};
        DML_BINDING_DESC binding{DML_BINDING_TYPE_BUFFER, &persistent_binding};
        init_table->BindOutputs(1, &binding);
    }
    if (p->temporary && init_properties.TemporaryResourceSize) {
        p->temporary->transition(list, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
        temporary_binding = {p->temporary->resource(), 0, p->temporary->size()};
        DML_BINDING_DESC binding{DML_BINDING_TYPE_BUFFER, &temporary_binding};
        init_table->BindTemporaryResource(&binding);
    }
    recorder_->RecordDispatch(list, initializer.Get(), init_table.Get());
    uav_barrier(list);
    context_->keep_alive(initializer.Get());
    context_->keep_alive(init_table.Get());
    DMLTOOL_RETURN_IF_ERROR(context_->submit_and_wait().with_context("initializing " + p->dml_desc->summary()));
    return p;
}

Status DirectMlBackend::poison_outputs(Prepared& prepared, std::byte output_poison) {
    for (auto& buffer : prepared.output_buffers) {
        if (!buffer) continue;  // an absent optional output
        std::vector<std::byte> poison(buffer->size(), output_poison);
        DMLTOOL_RETURN_IF_ERROR(upload(*context_, *buffer, 0, poison));
    }
    return Status::ok();
}

Status DirectMlBackend::bind_for_execution(Prepared& p) {
    ID3D12GraphicsCommandList* list = context_->command_list();
    const uint32_t count = std::max<uint32_t>(1, p.execute_properties.RequiredDescriptorCount);
    DMLTOOL_ASSIGN_OR_RETURN(DescriptorRange range, context_->allocate_descriptors(count));
    DML_BINDING_TABLE_DESC table_desc{p.compiled.Get(), range.cpu, range.gpu, count};
    HRESULT hr = p.table ? p.table->Reset(&table_desc)
                         : dml_device_->CreateBindingTable(&table_desc, dml::iid_of<IDMLBindingTable>(),
                                                           reinterpret_cast<void**>(p.table.GetAddressOf()));
    if (FAILED(hr)) return dml_call_failed(hr, "IDMLDevice::CreateBindingTable (execution)", context_->device());

    // One binding per DML input member in desc order; absent optional tensors are DML_BINDING_TYPE_NONE.
    auto bind_all = [&](const std::vector<std::unique_ptr<GpuBuffer>>& buffers,
                        const std::vector<const DML_BUFFER_TENSOR_DESC*>& tensors,
                        std::vector<DML_BUFFER_BINDING>& storage, std::vector<DML_BINDING_DESC>& descs) {
        storage.resize(buffers.size());
        descs.resize(buffers.size());
        for (size_t i = 0; i < buffers.size(); ++i) {
            if (!buffers[i]) {
                descs[i] = {DML_BINDING_TYPE_NONE, nullptr};
                continue;
            }
            buffers[i]->transition(list, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
            storage[i] = {buffers[i]->resource(), 0, tensors[i]->TotalTensorSizeInBytes};
            descs[i] = {DML_BINDING_TYPE_BUFFER, &storage[i]};
        }
    };
    std::vector<DML_BUFFER_BINDING> input_storage, output_storage;
    std::vector<DML_BINDING_DESC> input_descs, output_descs;
    bind_all(p.input_buffers, p.dml_desc->input_tensors(), input_storage, input_descs);
    bind_all(p.output_buffers, p.dml_desc->output_tensors(), output_storage, output_descs);
    p.table->BindInputs(UINT(input_descs.size()), input_descs.data());
    p.table->BindOutputs(UINT(output_descs.size()), output_descs.data());
    if (p.persistent) {
        DML_BUFFER_BINDING b{p.persistent->resource(), 0, p.persistent->size()};
        DML_BINDING_DESC d{DML_BINDING_TYPE_BUFFER, &b};
        p.table->BindPersistentResource(&d);
    }
    if (p.temporary && p.execute_properties.TemporaryResourceSize) {
        DML_BUFFER_BINDING b{p.temporary->resource(), 0, p.temporary->size()};
        DML_BINDING_DESC d{DML_BINDING_TYPE_BUFFER, &b};
        p.table->BindTemporaryResource(&d);
    }
    return Status::ok();
}

Status DirectMlBackend::record_execution(Prepared& p) {
    ID3D12GraphicsCommandList* list = context_->command_list();
    recorder_->RecordDispatch(list, p.compiled.Get(), p.table.Get());
    uav_barrier(list);  // the next execution rewrites the same outputs
    return Status::ok();
}

Result<std::vector<HostTensor>> DirectMlBackend::execute(const Op& op, const OpDesc& desc,
                                                         const std::vector<const HostTensor*>& inputs,
                                                         BackendTiming* timing, std::byte output_poison) {
    auto outputs = execute_once(op, desc, inputs, timing, output_poison);
    if (!outputs.is_ok() && !context_->is_lost()) (void)context_->discard_recording();
    return outputs;
}

Result<std::vector<HostTensor>> DirectMlBackend::execute_once(const Op& op, const OpDesc& desc,
                                                              const std::vector<const HostTensor*>& inputs,
                                                              BackendTiming* timing, std::byte output_poison) {
    DMLTOOL_ASSIGN_OR_RETURN(auto prepared, prepare(op, desc, inputs));
    DMLTOOL_RETURN_IF_ERROR(poison_outputs(*prepared, output_poison));
    const auto start = std::chrono::steady_clock::now();
    DMLTOOL_RETURN_IF_ERROR(bind_for_execution(*prepared));
    DMLTOOL_RETURN_IF_ERROR(record_execution(*prepared));
    DMLTOOL_RETURN_IF_ERROR(context_->submit_and_wait().with_context("executing " + prepared->dml_desc->summary()));
    if (timing)
        timing->first_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::vector<HostTensor> outputs;
    // The present outputs' buffers, in order, are the output slots (absent optional outputs have no buffer).
    const auto output_descs = slot_descs(op, desc, TensorRole::kOutput);
    std::vector<GpuBuffer*> present;
    for (const auto& buffer : prepared->output_buffers)
        if (buffer) present.push_back(buffer.get());
    if (present.size() != output_descs.size())
        return internal_error(std::string(op.name()) + ": " + std::to_string(present.size()) +
                              " DirectML output buffers for " + std::to_string(output_descs.size()) + " output slots");
    for (size_t i = 0; i < output_descs.size(); ++i) {
        DMLTOOL_ASSIGN_OR_RETURN(std::vector<std::byte> bytes,
                                 download(*context_, *present[i], 0, output_descs[i]->total_size_in_bytes));
        outputs.push_back(from_physical(*output_descs[i], bytes));
    }
    return outputs;
}

Result<double> DirectMlBackend::time_executions(const Op& op, const OpDesc& desc,
                                                const std::vector<const HostTensor*>& inputs,
                                                unsigned iterations) {
    const uint64_t work_bytes = op.work(desc).bytes;
    if (!last_timed_ || last_timed_->desc != &desc || last_timed_->inputs != inputs || last_timed_bytes_ != work_bytes) {
        last_timed_.reset();
        DMLTOOL_ASSIGN_OR_RETURN(last_timed_, prepare(op, desc, inputs));
        last_timed_bytes_ = work_bytes;
    }
    Prepared& p = *last_timed_;
    // Descriptors live until the next submit, which time_gpu does: bind again for every timed batch.
    DMLTOOL_RETURN_IF_ERROR(bind_for_execution(p));
    return context_->time_gpu(iterations, [&] { return record_execution(p); });
}

}  // namespace dmltool::gpu
