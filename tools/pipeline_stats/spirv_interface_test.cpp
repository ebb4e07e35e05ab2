// The SPIR-V interface reader on real kernels: the QLinearConv plans of a bundled case, translated by
// vkd3d-shader exactly as dmltool_pipeline_stats does. The expected layout is dmltool's binding model
// (gpu/compute_kernel.h): SRVs t0.. then UAVs u0.. at set 0, bindings 0.., root constants as push constants.
#include "tools/pipeline_stats/spirv_interface.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <sstream>

#include "core/case_spec.h"
#include "core/op_registry.h"
#include "shaders/disasm.h"
#include "tools/pipeline_stats/dxbc_to_spirv.h"

namespace dmltool::pipeline_stats {
namespace {

// What the kernel's own declarations (read from the project's DXBC disassembly, an independent path) and
// dmltool's root signature (gpu/compute_kernel.h) say the SPIR-V must hold: each declared t<k> at binding k as a
// uniform texel buffer, each u<k> at binding (SRV count + k) as a storage texel buffer, cb0[n] as n 16-byte
// registers of push constants, dcl_thread_group as the local size.
struct DeclaredInterface {
    std::vector<SpirvBinding> bindings;
    uint32_t push_constant_bytes = 0;
    std::array<uint32_t, 3> local_size{0, 0, 0};
};

DeclaredInterface declared_interface(const KernelDispatch& dispatch) {
    DeclaredInterface out;
    auto listing = shaders::disassemble_container(*dispatch.dxbc);
    EXPECT_TRUE(listing.is_ok()) << listing.status().message();
    if (!listing.is_ok()) return out;
    std::smatch m;
    const std::regex resource(R"(^\s*dcl_(resource|uav)\w*[^\n]* ([tu])(\d+)\s*$)");
    const std::regex constants(R"(^\s*dcl_constantbuffer CB0\[(\d+)\])");
    const std::regex group(R"(^\s*dcl_thread_group (\d+), (\d+), (\d+))");
    std::istringstream lines(*listing);
    for (std::string line; std::getline(lines, line);) {
        if (std::regex_search(line, m, resource)) {
            const uint32_t reg = static_cast<uint32_t>(std::stoul(m[3]));
            const bool srv = m[2] == "t";
            out.bindings.push_back({0, srv ? reg : static_cast<uint32_t>(dispatch.srvs.size()) + reg,
                                    srv ? DescriptorKind::kUniformTexelBuffer : DescriptorKind::kStorageTexelBuffer,
                                    1});
        } else if (std::regex_search(line, m, constants)) {
            out.push_constant_bytes = 16 * static_cast<uint32_t>(std::stoul(m[1]));
        } else if (std::regex_search(line, m, group)) {
            out.local_size = {static_cast<uint32_t>(std::stoul(m[1])), static_cast<uint32_t>(std::stoul(m[2])),
                              static_cast<uint32_t>(std::stoul(m[3]))};
        }
    }
    std::sort(out.bindings.begin(), out.bindings.end(),
              [](const SpirvBinding& a, const SpirvBinding& b) { return a.binding < b.binding; });
    return out;
}

std::string describe(const std::vector<SpirvBinding>& bindings) {
    std::string text;
    for (const SpirvBinding& b : bindings)
        text += std::to_string(b.set) + "." + std::to_string(b.binding) + ":" +
                std::string(descriptor_kind_name(b.kind)) + "[" + std::to_string(b.count) + "] ";
    return text;
}

DevicePlan qlconv_plan(std::string_view case_name, std::string_view variant = {}) {
    const OpRegistry registry = make_builtin_registry();
    const CaseFile file =
        load_case_file(std::string(DMLTOOL_SOURCE_DIR) + "/cases/quantized_linear_convolution.json", registry);
    EXPECT_TRUE(file.status.is_ok()) << file.status.message();
    for (const LoadedCase& c : file.cases) {
        if (c.spec.name != case_name) continue;
        EXPECT_TRUE(c.status.is_ok()) << c.status.message();
        auto plan = variant.empty() ? c.spec.op->plan_device(*c.spec.desc, {})
                                    : c.spec.op->plan_device_variant(*c.spec.desc, {}, variant);
        EXPECT_TRUE(plan.is_ok()) << plan.status().message();
        return plan.is_ok() ? std::move(plan).value() : DevicePlan{};
    }
    ADD_FAILURE() << "no case " << case_name;
    return {};
}

void expect_dmltool_layout(const KernelDispatch& dispatch) {
    SCOPED_TRACE(dispatch.label);
    const KernelRegisters registers{static_cast<uint32_t>(dispatch.root_constants.size()),
                                    static_cast<uint32_t>(dispatch.srvs.size()),
                                    static_cast<uint32_t>(dispatch.uavs.size())};
    auto spirv = compile_dxbc_to_spirv(*dispatch.dxbc, registers, dispatch.label);
    ASSERT_TRUE(spirv.is_ok()) << spirv.status().message();
    auto interface = read_spirv_interface(*spirv);
    ASSERT_TRUE(interface.is_ok()) << interface.status().message();
    const DeclaredInterface declared = declared_interface(dispatch);
    EXPECT_FALSE(declared.bindings.empty());
    EXPECT_EQ(describe(interface->bindings), describe(declared.bindings));
    EXPECT_EQ(interface->push_constant_bytes, declared.push_constant_bytes);
    EXPECT_LE(interface->push_constant_bytes, (dispatch.root_constants.size() + 3) / 4 * 16);  // what the plan passes
    EXPECT_EQ(interface->local_size, declared.local_size);
}

TEST(SpirvInterface, QLinearConvHeuristicPlanMatchesTheBindingModel) {
    const DevicePlan plan = qlconv_plan("qlconv/types/u8_s8_u8");
    ASSERT_FALSE(plan.dispatches.empty());
    for (const KernelDispatch& dispatch : plan.dispatches) expect_dmltool_layout(dispatch);
}

TEST(SpirvInterface, QLinearConvPrepKernelHasItsKnownBindings) {
    // One kernel spelled out, so that the expectation does not only mirror the disassembly: the heuristic plan's
    // first dispatch (prep) of this case reads six SRVs and writes one UAV,
    // with 64 threads per group and 17 root constants (cb0[0..4]: the last is the Winograd filter sums' region).
    const DevicePlan plan = qlconv_plan("qlconv/types/u8_s8_u8");
    ASSERT_FALSE(plan.dispatches.empty());
    const KernelDispatch& prep = plan.dispatches.front();
    ASSERT_EQ(prep.label, "quantized_linear_convolution/prep");
    ASSERT_EQ(prep.srvs.size(), 6u);
    ASSERT_EQ(prep.uavs.size(), 1u);
    auto spirv =
        compile_dxbc_to_spirv(*prep.dxbc, {static_cast<uint32_t>(prep.root_constants.size()), 6, 1}, prep.label);
    ASSERT_TRUE(spirv.is_ok()) << spirv.status().message();
    auto interface = read_spirv_interface(*spirv);
    ASSERT_TRUE(interface.is_ok()) << interface.status().message();
    std::vector<SpirvBinding> expected;
    for (uint32_t i = 0; i < 6; ++i) expected.push_back({0, i, DescriptorKind::kUniformTexelBuffer, 1});
    expected.push_back({0, 6, DescriptorKind::kStorageTexelBuffer, 1});
    EXPECT_EQ(describe(interface->bindings), describe(expected));
    EXPECT_EQ(interface->push_constant_bytes, 80u);
    EXPECT_EQ(interface->local_size, (std::array<uint32_t, 3>{64, 1, 1}));
}

TEST(SpirvInterface, EveryQLinearConvVariantMatchesTheBindingModel) {
    const OpRegistry registry = make_builtin_registry();
    const CaseFile file =
        load_case_file(std::string(DMLTOOL_SOURCE_DIR) + "/cases/quantized_linear_convolution.json", registry);
    ASSERT_TRUE(file.status.is_ok());
    const LoadedCase& c = file.cases.front();
    ASSERT_TRUE(c.status.is_ok()) << c.status.message();
    for (const std::string& variant : c.spec.op->device_plan_variants(*c.spec.desc, {})) {
        SCOPED_TRACE(variant);
        for (const KernelDispatch& dispatch : qlconv_plan(c.spec.name, variant).dispatches)
            expect_dmltool_layout(dispatch);
    }
}

TEST(SpirvInterface, RejectsMalformedModules) {
    const std::vector<uint32_t> not_spirv{1, 2, 3, 4, 5, 6};
    auto bad_magic = read_spirv_interface(not_spirv);
    ASSERT_FALSE(bad_magic.is_ok());
    EXPECT_NE(bad_magic.status().message().find("magic number"), std::string::npos) << bad_magic.status().message();
    // Header, then an instruction claiming 9 words with 2 left.
    const std::vector<uint32_t> truncated{0x07230203, 0x00010000, 0, 10, 0, (9u << 16) | 71u, 1};
    auto cut = read_spirv_interface(truncated);
    ASSERT_FALSE(cut.is_ok());
    EXPECT_NE(cut.status().message().find("truncated instruction (opcode 71, 9 words) at word 5"), std::string::npos)
        << cut.status().message();
}

TEST(SpirvInterface, RejectsATypeWithMissingOperands) {
    // A uniform-constant variable whose pointer names an OpTypeImage that has only its sampled type.
    const std::vector<uint32_t> words{0x07230203, 0x00010000, 0, 10, 0,
                                      (3u << 16) | 25u, 1, 2,                // %1 = OpTypeImage %2 (operands cut)
                                      (4u << 16) | 32u, 3, 0, 1,             // %3 = OpTypePointer UniformConstant %1
                                      (4u << 16) | 59u, 3, 4, 0,             // %4 = OpVariable %3 UniformConstant
                                      (4u << 16) | 71u, 4, 34, 0,            // OpDecorate %4 DescriptorSet 0
                                      (4u << 16) | 71u, 4, 33, 0};           // OpDecorate %4 Binding 0
    auto read = read_spirv_interface(words);
    ASSERT_FALSE(read.is_ok());
    EXPECT_NE(read.status().message().find("cannot tell the descriptor type of variable %4"), std::string::npos)
        << read.status().message();
    // The same variable pointing at an OpTypeArray without its length operand: an error, not an exception.
    std::vector<uint32_t> array = words;
    array[5] = (3u << 16) | 28u;  // %1 = OpTypeArray %2 (length missing)
    auto cut = read_spirv_interface(array);
    ASSERT_FALSE(cut.is_ok());
    EXPECT_NE(cut.status().message().find("lacks operands"), std::string::npos) << cut.status().message();
}

}  // namespace
}  // namespace dmltool::pipeline_stats
