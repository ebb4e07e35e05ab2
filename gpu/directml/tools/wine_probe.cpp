// dml_wine_probe.exe: a self-contained check of the DirectML path that needs only MinGW, d3d12 and DirectML.dll
// (no HDF5, no dmltool build): it proves that dml_api.h's declarations drive the real DLL and that the Vulkan
// driver lets the dispatches write their outputs, and it measures which index DirectML's RESAMPLE nearest picks
// per data type. scripts/directml_wine_probe.sh cross-compiles and runs it under Wine.
//   dml_wine_probe.exe [DirectML.dll]
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gpu/directml/dml_api.h"

using dmltool::gpu::ComPtr;
namespace dml = dmltool::gpu::dml;

namespace {

struct Failure {
    std::string what;
    HRESULT hr;
};

void check(HRESULT hr, const char* what) {
    if (FAILED(hr)) throw Failure{what, hr};
}

class Device {
public:
    explicit Device(const char* dll_path) {
        check(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, __uuidof(ID3D12Device), reinterpret_cast<void**>(device_.GetAddressOf())),
              "D3D12CreateDevice");
        HMODULE module = LoadLibraryA(dll_path);
        if (!module) throw Failure{std::string("LoadLibrary ") + dll_path, HRESULT(GetLastError())};
        auto create = reinterpret_cast<PFN_DMLTOOL_DML_CREATE_DEVICE1>(reinterpret_cast<void*>(GetProcAddress(module, "DMLCreateDevice1")));
        if (!create) throw Failure{"GetProcAddress DMLCreateDevice1", E_FAIL};
        check(create(device_.Get(), DML_CREATE_DEVICE_FLAG_NONE, DML_FEATURE_LEVEL_1_0, dml::iid_of<IDMLDevice>(),
                     reinterpret_cast<void**>(dml_.GetAddressOf())),
              "DMLCreateDevice1");
        check(dml_->CreateCommandRecorder(dml::iid_of<IDMLCommandRecorder>(), reinterpret_cast<void**>(recorder_.GetAddressOf())),
              "CreateCommandRecorder");
        D3D12_COMMAND_QUEUE_DESC queue_desc{};
        queue_desc.Type = D3D12_COMMAND_LIST_TYPE_DIRECT;
        check(device_->CreateCommandQueue(&queue_desc, __uuidof(ID3D12CommandQueue), reinterpret_cast<void**>(queue_.GetAddressOf())), "CreateCommandQueue");
        check(device_->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_DIRECT, __uuidof(ID3D12CommandAllocator),
                                              reinterpret_cast<void**>(allocator_.GetAddressOf())), "CreateCommandAllocator");
        check(device_->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_DIRECT, allocator_.Get(), nullptr,
                                         __uuidof(ID3D12GraphicsCommandList), reinterpret_cast<void**>(list_.GetAddressOf())), "CreateCommandList");
        check(device_->CreateFence(0, D3D12_FENCE_FLAG_NONE, __uuidof(ID3D12Fence), reinterpret_cast<void**>(fence_.GetAddressOf())), "CreateFence");
        D3D12_DESCRIPTOR_HEAP_DESC heap_desc{D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 64, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
        check(device_->CreateDescriptorHeap(&heap_desc, __uuidof(ID3D12DescriptorHeap), reinterpret_cast<void**>(heap_.GetAddressOf())),
              "CreateDescriptorHeap");
    }

    IDMLDevice* dml() const { return dml_.Get(); }

    unsigned max_feature_level() {
        const DML_FEATURE_LEVEL levels[] = {DML_FEATURE_LEVEL_1_0, DML_FEATURE_LEVEL_6_4};
        DML_FEATURE_QUERY_FEATURE_LEVELS query{2, levels};
        DML_FEATURE_DATA_FEATURE_LEVELS data{};
        check(dml_->CheckFeatureSupport(DML_FEATURE_FEATURE_LEVELS, sizeof query, &query, sizeof data, &data), "CheckFeatureSupport");
        return unsigned(data.MaxSupportedFeatureLevel);
    }

    ComPtr<ID3D12Resource> buffer(uint64_t bytes, D3D12_HEAP_TYPE heap, D3D12_RESOURCE_STATES state) {
        D3D12_HEAP_PROPERTIES properties{};
        properties.Type = heap;
        D3D12_RESOURCE_DESC desc{};
        desc.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
        desc.Width = (bytes + 255) & ~uint64_t{255};
        desc.Height = desc.DepthOrArraySize = desc.MipLevels = 1;
        desc.SampleDesc.Count = 1;
        desc.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
        desc.Flags = heap == D3D12_HEAP_TYPE_DEFAULT ? D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS : D3D12_RESOURCE_FLAG_NONE;
        ComPtr<ID3D12Resource> resource;
        check(device_->CreateCommittedResource(&properties, D3D12_HEAP_FLAG_NONE, &desc, state, nullptr, __uuidof(ID3D12Resource),
                                               reinterpret_cast<void**>(resource.GetAddressOf())), "CreateCommittedResource");
        return resource;
    }

    // Runs one operator: input bytes in, output bytes out (the output poisoned with 0xcd first).
    std::vector<unsigned char> run(const DML_OPERATOR_DESC& desc, const std::vector<unsigned char>& input, size_t output_bytes) {
        ComPtr<IDMLOperator> op;
        check(dml_->CreateOperator(&desc, dml::iid_of<IDMLOperator>(), reinterpret_cast<void**>(op.GetAddressOf())), "CreateOperator");
        ComPtr<IDMLCompiledOperator> compiled;
        check(dml_->CompileOperator(op.Get(), DML_EXECUTION_FLAG_NONE, dml::iid_of<IDMLCompiledOperator>(),
                                    reinterpret_cast<void**>(compiled.GetAddressOf())), "CompileOperator");
        ComPtr<IDMLOperatorInitializer> initializer;
        IDMLCompiledOperator* operators[] = {compiled.Get()};
        check(dml_->CreateOperatorInitializer(1, operators, dml::iid_of<IDMLOperatorInitializer>(),
                                              reinterpret_cast<void**>(initializer.GetAddressOf())), "CreateOperatorInitializer");
        const DML_BINDING_PROPERTIES init = dml::binding_properties(initializer.Get());
        const DML_BINDING_PROPERTIES exec = dml::binding_properties(compiled.Get());
        const uint64_t temporary_bytes = std::max(init.TemporaryResourceSize, exec.TemporaryResourceSize);
        ComPtr<ID3D12Resource> temporary, persistent;
        if (temporary_bytes) temporary = buffer(temporary_bytes, D3D12_HEAP_TYPE_DEFAULT, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
        if (exec.PersistentResourceSize)
            persistent = buffer(exec.PersistentResourceSize, D3D12_HEAP_TYPE_DEFAULT, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
        DML_BUFFER_BINDING temporary_binding{temporary.Get(), 0, temporary_bytes};
        DML_BUFFER_BINDING persistent_binding{persistent.Get(), 0, exec.PersistentResourceSize};
        DML_BINDING_DESC temporary_desc{DML_BINDING_TYPE_BUFFER, &temporary_binding};
        DML_BINDING_DESC persistent_desc{DML_BINDING_TYPE_BUFFER, &persistent_binding};

        D3D12_CPU_DESCRIPTOR_HANDLE cpu;
        D3D12_GPU_DESCRIPTOR_HANDLE gpu;
#if defined(_MSC_VER)
        cpu = heap_->GetCPUDescriptorHandleForHeapStart();
        gpu = heap_->GetGPUDescriptorHandleForHeapStart();
#else
        heap_->GetCPUDescriptorHandleForHeapStart(&cpu);  // MinGW's out-parameter form (MSVC struct return)
        heap_->GetGPUDescriptorHandleForHeapStart(&gpu);
#endif
        ID3D12DescriptorHeap* heaps[] = {heap_.Get()};
        DML_BINDING_TABLE_DESC table_desc{initializer.Get(), cpu, gpu, 32};
        ComPtr<IDMLBindingTable> table;
        check(dml_->CreateBindingTable(&table_desc, dml::iid_of<IDMLBindingTable>(), reinterpret_cast<void**>(table.GetAddressOf())),
              "CreateBindingTable");
        if (persistent) table->BindOutputs(1, &persistent_desc);
        if (init.TemporaryResourceSize) table->BindTemporaryResource(&temporary_desc);
        list_->SetDescriptorHeaps(1, heaps);
        recorder_->RecordDispatch(list_.Get(), initializer.Get(), table.Get());
        submit();

        auto upload = buffer(input.size() + output_bytes, D3D12_HEAP_TYPE_UPLOAD, D3D12_RESOURCE_STATE_GENERIC_READ);
        auto in = buffer(input.size(), D3D12_HEAP_TYPE_DEFAULT, D3D12_RESOURCE_STATE_COPY_DEST);
        auto out = buffer(output_bytes, D3D12_HEAP_TYPE_DEFAULT, D3D12_RESOURCE_STATE_COPY_DEST);
        auto readback = buffer(output_bytes, D3D12_HEAP_TYPE_READBACK, D3D12_RESOURCE_STATE_COPY_DEST);
        void* mapped = nullptr;
        check(upload->Map(0, nullptr, &mapped), "Map upload");
        std::memcpy(mapped, input.data(), input.size());
        std::memset(static_cast<unsigned char*>(mapped) + input.size(), 0xcd, output_bytes);
        upload->Unmap(0, nullptr);
        list_->CopyBufferRegion(in.Get(), 0, upload.Get(), 0, input.size());
        list_->CopyBufferRegion(out.Get(), 0, upload.Get(), input.size(), output_bytes);
        transition(in.Get(), D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
        transition(out.Get(), D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);

        table_desc.Dispatchable = compiled.Get();
        check(table->Reset(&table_desc), "IDMLBindingTable::Reset");
        DML_BUFFER_BINDING input_binding{in.Get(), 0, input.size()}, output_binding{out.Get(), 0, output_bytes};
        DML_BINDING_DESC input_desc{DML_BINDING_TYPE_BUFFER, &input_binding}, output_desc{DML_BINDING_TYPE_BUFFER, &output_binding};
        table->BindInputs(1, &input_desc);
        table->BindOutputs(1, &output_desc);
        if (persistent) table->BindPersistentResource(&persistent_desc);
        if (exec.TemporaryResourceSize) table->BindTemporaryResource(&temporary_desc);
        list_->SetDescriptorHeaps(1, heaps);
        recorder_->RecordDispatch(list_.Get(), compiled.Get(), table.Get());
        transition(out.Get(), D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
        list_->CopyBufferRegion(readback.Get(), 0, out.Get(), 0, output_bytes);
        submit();
        check(readback->Map(0, nullptr, &mapped), "Map readback");
        std::vector<unsigned char> result(static_cast<unsigned char*>(mapped), static_cast<unsigned char*>(mapped) + output_bytes);
        readback->Unmap(0, nullptr);
        return result;
    }

private:
    void transition(ID3D12Resource* resource, D3D12_RESOURCE_STATES before, D3D12_RESOURCE_STATES after) {
        D3D12_RESOURCE_BARRIER barrier{};
        barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
        barrier.Transition.pResource = resource;
        barrier.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
        barrier.Transition.StateBefore = before;
        barrier.Transition.StateAfter = after;
        list_->ResourceBarrier(1, &barrier);
    }
    void submit() {
        check(list_->Close(), "Close");
        ID3D12CommandList* lists[] = {list_.Get()};
        queue_->ExecuteCommandLists(1, lists);
        check(queue_->Signal(fence_.Get(), ++fence_value_), "Signal");
        HANDLE event = CreateEventA(nullptr, FALSE, FALSE, nullptr);
        check(fence_->SetEventOnCompletion(fence_value_, event), "SetEventOnCompletion");
        const DWORD waited = WaitForSingleObject(event, 60'000);
        CloseHandle(event);
        if (waited != WAIT_OBJECT_0) throw Failure{"GPU work did not finish within 60 s", E_FAIL};
        check(allocator_->Reset(), "CommandAllocator::Reset");
        check(list_->Reset(allocator_.Get(), nullptr), "CommandList::Reset");
    }

    ComPtr<ID3D12Device> device_;
    ComPtr<IDMLDevice> dml_;
    ComPtr<IDMLCommandRecorder> recorder_;
    ComPtr<ID3D12CommandQueue> queue_;
    ComPtr<ID3D12CommandAllocator> allocator_;
    ComPtr<ID3D12GraphicsCommandList> list_;
    ComPtr<ID3D12Fence> fence_;
    ComPtr<ID3D12DescriptorHeap> heap_;
    uint64_t fence_value_ = 0;
};

DML_BUFFER_TENSOR_DESC tensor(DML_TENSOR_DATA_TYPE type, const UINT* sizes, uint64_t bytes) {
    return {type, DML_TENSOR_FLAG_NONE, 4, sizes, nullptr, (bytes + 3) & ~uint64_t{3}, 0};
}

// The DirectML documentation's DEPTH_TO_SPACE1 example: FLOAT32 {1,8,2,3} -> {1,2,4,6}, block 2, DCR.
bool depth_to_space_example(Device& device) {
    const UINT in_sizes[4] = {1, 8, 2, 3}, out_sizes[4] = {1, 2, 4, 6};
    std::vector<float> input(48);
    for (size_t i = 0; i < input.size(); ++i) input[i] = float(i);
    DML_BUFFER_TENSOR_DESC in = tensor(DML_TENSOR_DATA_TYPE_FLOAT32, in_sizes, 192), out = tensor(DML_TENSOR_DATA_TYPE_FLOAT32, out_sizes, 192);
    DML_TENSOR_DESC in_t{DML_TENSOR_TYPE_BUFFER, &in}, out_t{DML_TENSOR_TYPE_BUFFER, &out};
    DML_DEPTH_TO_SPACE1_OPERATOR_DESC d2s{&in_t, &out_t, 2, DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW};
    std::vector<unsigned char> bytes(192);
    std::memcpy(bytes.data(), input.data(), 192);
    const auto result = device.run({DML_OPERATOR_DEPTH_TO_SPACE1, &d2s}, bytes, 192);
    int wrong = 0;
    for (UINT c = 0; c < 2; ++c)
        for (UINT h = 0; h < 4; ++h)
            for (UINT w = 0; w < 6; ++w) {
                // DCR: input channel = (h % 2 * 2 + w % 2) * 2 + c, at (h / 2, w / 2).
                const float expected = input[(((h % 2) * 2 + w % 2) * 2 + c) * 6 + (h / 2) * 3 + w / 2];
                float got;
                std::memcpy(&got, result.data() + ((c * 4 + h) * 6 + w) * 4, 4);
                wrong += got != expected;
            }
    std::printf("DEPTH_TO_SPACE1 doc example (FLOAT32 {1,8,2,3}, block 2, DCR): %d of 48 elements wrong\n", wrong);
    return wrong == 0;
}

// RESAMPLE nearest along one axis: which input index each output element takes, and which rule that matches.
void resample_nearest_rules(Device& device, DML_TENSOR_DATA_TYPE type, const char* type_name, UINT n, UINT m, float scale) {
    const UINT element = type == DML_TENSOR_DATA_TYPE_FLOAT32 ? 4 : type == DML_TENSOR_DATA_TYPE_FLOAT16 ? 2 : 1;
    const UINT in_sizes[4] = {1, 1, 1, n}, out_sizes[4] = {1, 1, 1, m};
    std::vector<unsigned char> input((n * element + 3) & ~3u);
    for (UINT i = 0; i < n; ++i) {
        const float value = float(i + 10);
        if (element == 4) std::memcpy(&input[i * 4], &value, 4);
        if (element == 2) {  // small integers are exact in float16: exponent and 10-bit mantissa
            const int exponent = int(std::floor(std::log2(value)));
            const uint16_t half = uint16_t(((exponent + 15) << 10) | uint16_t((value / std::ldexp(1.0f, exponent) - 1.0f) * 1024.0f));
            std::memcpy(&input[i * 2], &half, 2);
        }
        if (element == 1) input[i] = static_cast<unsigned char>(i + 10);
    }
    DML_BUFFER_TENSOR_DESC in = tensor(type, in_sizes, input.size()), out = tensor(type, out_sizes, m * element);
    DML_TENSOR_DESC in_t{DML_TENSOR_TYPE_BUFFER, &in}, out_t{DML_TENSOR_TYPE_BUFFER, &out};
    const FLOAT scales[4] = {1, 1, 1, scale};
    DML_RESAMPLE_OPERATOR_DESC resample{&in_t, &out_t, DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR, 4, scales};
    const auto result = device.run({DML_OPERATOR_RESAMPLE, &resample}, input, (m * element + 3) & ~3u);
    std::vector<int> picked(m);
    for (UINT o = 0; o < m; ++o) {
        float value = 0;
        if (element == 4) std::memcpy(&value, &result[o * 4], 4);
        if (element == 2) {
            uint16_t half;
            std::memcpy(&half, &result[o * 2], 2);
            value = std::ldexp(1.0f + float(half & 0x3ff) / 1024.0f, int((half >> 10) & 0x1f) - 15);
        }
        if (element == 1) value = float(result[o]);
        picked[o] = int(value) - 10;
    }
    // Candidate rules (spec §6.6), float32 with separate roundings, clamped to [0, n-1].
    const float inv = 1.0f / scale;
    auto clamp = [n](float x) { return int(std::min<float>(std::max<float>(x, 0.0f), float(n - 1))); };
    struct Rule {
        const char* name;
        float (*index)(float, float);
    };
    const Rule rules[] = {
        {"A literal floor((o+1)/s-0.5)", [](float o, float v) { return std::floor((o + 1.0f) * v - 0.5f); }},
        {"B half-up floor((o+0.5)/s)", [](float o, float v) { return std::floor((o + 0.5f) * v); }},
        {"C half-down ceil((o+0.5)/s-1)", [](float o, float v) { return std::ceil((o + 0.5f) * v - 1.0f); }},
        {"D floor of the half-pixel coordinate floor((o+0.5)/s-0.5)", [](float o, float v) { return std::floor((o + 0.5f) * v - 0.5f); }},
    };
    std::string matches;
    for (const Rule& rule : rules) {
        bool all = true;
        for (UINT o = 0; o < m; ++o) all &= picked[o] == clamp(rule.index(float(o), inv));
        if (all) matches += std::string(matches.empty() ? "" : ", ") + rule.name;
    }
    std::string indices;
    for (int p : picked) indices += std::to_string(p) + " ";
    std::printf("RESAMPLE nearest %-7s %2u -> %2u (scale %.2f): indices %s-> %s\n", type_name, n, m, scale, indices.c_str(),
                matches.empty() ? "no candidate rule" : matches.c_str());
}

// QUANTIZED_LINEAR_CONVOLUTION: does CreateOperator accept the desc? (dmltool validates all four as legal.)
struct TensorSpec {
    DML_TENSOR_DATA_TYPE type;
    std::vector<UINT> sizes;
};

void convolution_acceptance(Device& device, const char* name, const std::vector<TensorSpec>& tensors,
                            const std::vector<UINT>& start_padding, const std::vector<UINT>& end_padding) {
    // tensors: Input, InputScale, InputZeroPoint, Filter, FilterScale, FilterZeroPoint, Bias, OutputScale,
    // OutputZeroPoint, Output; an empty `sizes` means the optional tensor is absent.
    std::vector<DML_BUFFER_TENSOR_DESC> buffers(tensors.size());
    std::vector<DML_TENSOR_DESC> descs(tensors.size());
    std::vector<const DML_TENSOR_DESC*> pointers(tensors.size(), nullptr);
    for (size_t i = 0; i < tensors.size(); ++i) {
        if (tensors[i].sizes.empty()) continue;
        uint64_t elements = 1;
        for (UINT size : tensors[i].sizes) elements *= size;
        const uint64_t element = tensors[i].type == DML_TENSOR_DATA_TYPE_FLOAT32 || tensors[i].type == DML_TENSOR_DATA_TYPE_INT32 ? 4 : 1;
        buffers[i] = {tensors[i].type, DML_TENSOR_FLAG_NONE, UINT(tensors[i].sizes.size()), tensors[i].sizes.data(), nullptr,
                      (elements * element + 3) & ~uint64_t{3}, 0};
        descs[i] = {DML_TENSOR_TYPE_BUFFER, &buffers[i]};
        pointers[i] = &descs[i];
    }
    const UINT ones[2] = {1, 1};
    DML_QUANTIZED_LINEAR_CONVOLUTION_OPERATOR_DESC conv{pointers[0], pointers[1], pointers[2], pointers[3], pointers[4],
                                                       pointers[5], pointers[6], pointers[7], pointers[8], pointers[9],
                                                       2, ones, ones, start_padding.data(), end_padding.data(), 1};
    DML_OPERATOR_DESC desc{DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION, &conv};
    ComPtr<IDMLOperator> op;
    const HRESULT hr = device.dml()->CreateOperator(&desc, dml::iid_of<IDMLOperator>(), reinterpret_cast<void**>(op.GetAddressOf()));
    std::printf("QUANTIZED_LINEAR_CONVOLUTION %-40s CreateOperator: %s\n", name,
                SUCCEEDED(hr) ? "accepted" : hr == E_INVALIDARG ? "E_INVALIDARG (0x80070057)" : "failed");
}

}  // namespace

int main(int argc, char** argv) {
    try {
        Device device(argc > 1 ? argv[1] : "DirectML.dll");
        std::printf("DirectML device: max feature level 0x%04x\n", device.max_feature_level());
        const bool d2s_ok = depth_to_space_example(device);
        const struct {
            DML_TENSOR_DATA_TYPE type;
            const char* name;
        } types[] = {{DML_TENSOR_DATA_TYPE_FLOAT32, "FLOAT32"}, {DML_TENSOR_DATA_TYPE_FLOAT16, "FLOAT16"},
                     {DML_TENSOR_DATA_TYPE_UINT8, "UINT8"}, {DML_TENSOR_DATA_TYPE_INT8, "INT8"}};
        const struct {
            UINT n, m;
            float scale;
        } shapes[] = {{5, 12, 2.5f}, {8, 16, 2.0f}, {4, 3, 0.75f}, {5, 2, 0.5f}, {3, 7, 2.5f}};
        for (const auto& t : types)
            for (const auto& s : shapes) resample_nearest_rules(device, t.type, t.name, s.n, s.m, s.scale);
        const auto F = DML_TENSOR_DATA_TYPE_FLOAT32, U8 = DML_TENSOR_DATA_TYPE_UINT8, S8 = DML_TENSOR_DATA_TYPE_INT8,
                   I32 = DML_TENSOR_DATA_TYPE_INT32;
        const std::vector<UINT> scalar{1, 1, 1, 1};
        // The bundled cases' descs (cases/quantized_linear_convolution.json), and a u8/u8/u8 baseline.
        convolution_acceptance(device, "baseline u8_u8_u8 per-tensor", {{U8, {1, 3, 8, 8}}, {F, scalar}, {U8, scalar}, {U8, {4, 3, 3, 3}},
                               {F, scalar}, {U8, scalar}, {I32, {}}, {F, scalar}, {U8, scalar}, {U8, {1, 4, 6, 6}}}, {0, 0}, {0, 0});
        convolution_acceptance(device, "qlconv/types/s8_s8_u8", {{S8, {1, 3, 8, 6}}, {F, scalar}, {S8, {}}, {S8, {4, 3, 2, 3}},
                               {F, {1, 4, 1, 1}}, {S8, scalar}, {I32, {}}, {F, scalar}, {U8, scalar}, {U8, {1, 4, 8, 6}}}, {1, 0}, {0, 2});
        convolution_acceptance(device, "qlconv/filter_zp_1d", {{S8, {1, 2, 7, 5}}, {F, scalar}, {S8, scalar}, {U8, {3, 2, 2, 2}},
                               {F, {1, 3, 1}}, {U8, {3}}, {I32, {}}, {F, scalar}, {S8, scalar}, {S8, {1, 3, 6, 4}}}, {0, 0}, {0, 0});
        convolution_acceptance(device, "qlconv/filter_scale_1d_per_channel", {{U8, {1, 3, 6, 7}}, {F, scalar}, {U8, scalar},
                               {U8, {5, 3, 3, 3}}, {F, {5}}, {U8, {}}, {I32, {1, 5, 1, 1}}, {F, scalar}, {U8, scalar},
                               {U8, {1, 5, 4, 5}}}, {0, 0}, {0, 0});
        // One change at a time, to name what DirectML refuses.
        convolution_acceptance(device, "s8_s8_u8 with OutputZeroPoint+Output INT8", {{S8, {1, 3, 8, 6}}, {F, scalar}, {S8, {}},
                               {S8, {4, 3, 2, 3}}, {F, {1, 4, 1, 1}}, {S8, scalar}, {I32, {}}, {F, scalar}, {S8, scalar},
                               {S8, {1, 4, 8, 6}}}, {1, 0}, {0, 2});
        convolution_acceptance(device, "s8_s8_u8 with an InputZeroPoint", {{S8, {1, 3, 8, 6}}, {F, scalar}, {S8, scalar},
                               {S8, {4, 3, 2, 3}}, {F, {1, 4, 1, 1}}, {S8, scalar}, {I32, {}}, {F, scalar}, {U8, scalar},
                               {U8, {1, 4, 8, 6}}}, {1, 0}, {0, 2});
        convolution_acceptance(device, "s8_s8_u8 without padding", {{S8, {1, 3, 8, 6}}, {F, scalar}, {S8, {}},
                               {S8, {4, 3, 2, 3}}, {F, {1, 4, 1, 1}}, {S8, scalar}, {I32, {}}, {F, scalar}, {U8, scalar},
                               {U8, {1, 4, 7, 4}}}, {0, 0}, {0, 0});
        convolution_acceptance(device, "s8_s8_u8 with per-tensor FilterScale", {{S8, {1, 3, 8, 6}}, {F, scalar}, {S8, {}},
                               {S8, {4, 3, 2, 3}}, {F, scalar}, {S8, scalar}, {I32, {}}, {F, scalar}, {U8, scalar},
                               {U8, {1, 4, 8, 6}}}, {1, 0}, {0, 2});
        convolution_acceptance(device, "s8_s8_u8 with FilterZeroPoint {1,4,1,1}", {{S8, {1, 3, 8, 6}}, {F, scalar}, {S8, {}},
                               {S8, {4, 3, 2, 3}}, {F, {1, 4, 1, 1}}, {S8, {1, 4, 1, 1}}, {I32, {}}, {F, scalar}, {U8, scalar},
                               {U8, {1, 4, 8, 6}}}, {1, 0}, {0, 2});
        convolution_acceptance(device, "s8_s8_u8 with a UINT8 filter", {{S8, {1, 3, 8, 6}}, {F, scalar}, {S8, {}},
                               {U8, {4, 3, 2, 3}}, {F, {1, 4, 1, 1}}, {U8, scalar}, {I32, {}}, {F, scalar}, {U8, scalar},
                               {U8, {1, 4, 8, 6}}}, {1, 0}, {0, 2});
        convolution_acceptance(device, "s8_s8_u8 with a UINT8 input", {{U8, {1, 3, 8, 6}}, {F, scalar}, {U8, {}},
                               {S8, {4, 3, 2, 3}}, {F, {1, 4, 1, 1}}, {S8, scalar}, {I32, {}}, {F, scalar}, {U8, scalar},
                               {U8, {1, 4, 8, 6}}}, {1, 0}, {0, 2});
        convolution_acceptance(device, "filter_zp_1d with FilterZeroPoint {1,3,1,1}", {{S8, {1, 2, 7, 5}}, {F, scalar}, {S8, scalar},
                               {U8, {3, 2, 2, 2}}, {F, {1, 3, 1}}, {U8, {1, 3, 1, 1}}, {I32, {}}, {F, scalar}, {S8, scalar},
                               {S8, {1, 3, 6, 4}}}, {0, 0}, {0, 0});
        convolution_acceptance(device, "filter_zp_1d with FilterScale {1,3,1,1}", {{S8, {1, 2, 7, 5}}, {F, scalar}, {S8, scalar},
                               {U8, {3, 2, 2, 2}}, {F, {1, 3, 1, 1}}, {U8, {3}}, {I32, {}}, {F, scalar}, {S8, scalar},
                               {S8, {1, 3, 6, 4}}}, {0, 0}, {0, 0});
        convolution_acceptance(device, "filter_zp_1d with both 4-D", {{S8, {1, 2, 7, 5}}, {F, scalar}, {S8, scalar},
                               {U8, {3, 2, 2, 2}}, {F, {1, 3, 1, 1}}, {U8, {1, 3, 1, 1}}, {I32, {}}, {F, scalar}, {S8, scalar},
                               {S8, {1, 3, 6, 4}}}, {0, 0}, {0, 0});
        convolution_acceptance(device, "filter_scale_1d with FilterScale {1,5,1,1}", {{U8, {1, 3, 6, 7}}, {F, scalar}, {U8, scalar},
                               {U8, {5, 3, 3, 3}}, {F, {1, 5, 1, 1}}, {U8, {}}, {I32, {1, 5, 1, 1}}, {F, scalar}, {U8, scalar},
                               {U8, {1, 5, 4, 5}}}, {0, 0}, {0, 0});
        return d2s_ok ? 0 : 1;
    } catch (const Failure& failure) {
        std::printf("dml_wine_probe: %s failed: HRESULT 0x%08lx\n", failure.what.c_str(), static_cast<unsigned long>(failure.hr));
        return 2;
    }
}
