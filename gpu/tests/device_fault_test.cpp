// Device faults through the real GpuBackend and Runner on lavapipe, with the fault injector making the real code
// paths see the HRESULTs: creation failure, E_OUTOFMEMORY in one case (the run goes on), device removal (the
// device is recreated once; if that fails the rest of the run is CPU-reference-only), and the up-front limits,
// which refuse a case with the numbers before anything is allocated.
#include <gtest/gtest.h>

#include "gpu/gpu_backend.h"
#include "gpu/platform.h"  // DeviceFactory::create_call: the runtime call the message names
#include "gpu/tests/case_runner_support.h"
#include "gpu/tests/gpu_test_support.h"

namespace dmltool {
namespace {

using gpu_case_testing::CaseRunner;
using gpu_case_testing::d2s_case;

constexpr const char* kOutOfMemory = "failed: E_OUTOFMEMORY (0x8007000e) [injected fault]";
constexpr const char* kRemoved = "failed: DXGI_ERROR_DEVICE_REMOVED (0x887a0005) [injected fault]";
constexpr const char* kCreationFailed = "failed: E_FAIL (0x80004005) [injected fault]";

// A backend on the default adapter with `plan` injected, or null with a skip reason when there is no device.
std::unique_ptr<gpu::GpuBackend> make_backend(const gpu::GpuBackendOptions& options, std::string* skip) {
    auto adapters = gpu::list_adapters();
    if (!adapters.is_ok() || adapters->empty()) {
        *skip = "no Vulkan device on this machine";
        return nullptr;
    }
    auto backend = gpu::GpuBackend::create({}, {}, options);
    if (!backend.is_ok()) {
        ADD_FAILURE() << backend.status().message();
        return nullptr;
    }
    return std::move(backend).value();
}

#define BACKEND_OR_SKIP(var, ...)                           \
    std::string var##_skip;                                 \
    auto var = make_backend(__VA_ARGS__, &var##_skip);      \
    if (!var) {                                             \
        if (!var##_skip.empty()) GTEST_SKIP() << var##_skip; \
        return;                                             \
    }

std::unique_ptr<OpDesc> parse_desc(const Op& op, const nlohmann::json& desc) {
    JsonObjectReader reader(desc, "/operator/desc");
    auto parsed = op.parse(reader);
    EXPECT_TRUE(parsed.is_ok()) << parsed.status().message();
    return parsed.is_ok() ? std::move(parsed).value() : nullptr;
}

int exit_code(const std::vector<CaseResult>& results) { return exit_code_for(summarize(results, 0)); }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(DeviceFaults, CreationFailureIsAnHresultError) {
    std::string skip;
    if (!make_backend({}, &skip)) GTEST_SKIP() << skip;
    auto backend = gpu::GpuBackend::create({}, {}, {.faults = {.fail_creation_at = 1}});
    ASSERT_FALSE(backend.is_ok());
    EXPECT_EQ(backend.status().code(), ErrorCode::kDevice);
    EXPECT_TRUE(contains(backend.status().message(), std::string(gpu::DeviceFactory::create_call()) + " on adapter 0 '"))
        << backend.status().message();
    EXPECT_TRUE(contains(backend.status().message(), kCreationFailed)) << backend.status().message();
}

TEST(DeviceFaults, OutOfMemoryFailsOneCaseAndTheRunGoesOn) {
    BACKEND_OR_SKIP(backend, {.faults = {.out_of_memory_at = 2}});
    CaseRunner runner;
    auto results = runner.run({d2s_case("first"), d2s_case("second"), d2s_case("third")}, backend.get());
    ASSERT_EQ(results.size(), 3u);
    EXPECT_EQ(results[0].status, CaseStatus::kPassed) << results[0].reason;
    EXPECT_EQ(results[1].status, CaseStatus::kFailed);
    EXPECT_TRUE(results[1].device_error);
    // One line: the case, the failing call and the HRESULT.
    EXPECT_TRUE(contains(results[1].reason, "case 'second': gpu (")) << results[1].reason;
    EXPECT_TRUE(contains(results[1].reason, "CreateCommittedResource for buffer 'input 0' (32 bytes) " +
                                                std::string(kOutOfMemory)))
        << results[1].reason;
    EXPECT_EQ(results[1].reason.find('\n'), std::string::npos);
    EXPECT_FALSE(backend->lost());  // out of memory does not lose the device
    EXPECT_EQ(results[2].status, CaseStatus::kPassed) << results[2].reason;
    EXPECT_FALSE(results[2].device_error);
    EXPECT_EQ(exit_code(results), 3);  // a device fault decides the exit code even though other cases passed
}

TEST(DeviceFaults, RemovedDeviceIsRecreatedForTheNextCase) {
    BACKEND_OR_SKIP(backend, {.faults = {.removed_at = 1}});
    CaseRunner runner;
    auto results = runner.run({d2s_case("first"), d2s_case("second")}, backend.get());
    ASSERT_EQ(results.size(), 2u);
    EXPECT_EQ(results[0].status, CaseStatus::kFailed);
    EXPECT_TRUE(results[0].device_error);
    EXPECT_TRUE(contains(results[0].reason, "case 'first': gpu (")) << results[0].reason;
    EXPECT_TRUE(contains(results[0].reason, kRemoved)) << results[0].reason;
    EXPECT_EQ(results[1].status, CaseStatus::kPassed) << results[1].reason;
    EXPECT_FALSE(backend->lost());
    EXPECT_EQ(exit_code(results), 3);
}

TEST(DeviceFaults, FailedRecreationLeavesTheCpuReferenceParts) {
    BACKEND_OR_SKIP(backend, {.faults = {.fail_creation_at = 2, .removed_at = 1}});
    nlohmann::json wrong = d2s_case("wrong_expectation");
    wrong["expected"]["OutputTensor"]["values"][6] = 99;
    nlohmann::json no_expected = d2s_case("no_expected");
    no_expected.erase("expected");
    CaseRunner runner;
    auto results = runner.run({d2s_case("lost"), d2s_case("after"), wrong, no_expected}, backend.get());
    ASSERT_EQ(results.size(), 4u);
    EXPECT_EQ(results[0].status, CaseStatus::kFailed);
    EXPECT_TRUE(contains(results[0].reason, kRemoved)) << results[0].reason;
    // The case that tried to recreate the device reports why that failed; its reference part still ran.
    EXPECT_EQ(results[1].status, CaseStatus::kSkipped);
    EXPECT_TRUE(results[1].device_error);
    EXPECT_TRUE(contains(results[1].reason, "case 'after': gpu (")) << results[1].reason;
    EXPECT_TRUE(contains(results[1].reason, ") not run: recreating the device after it was lost (")) << results[1].reason;
    EXPECT_TRUE(contains(results[1].reason, kCreationFailed)) << results[1].reason;
    EXPECT_TRUE(contains(results[1].reason, "; the CPU reference matches the expected outputs")) << results[1].reason;
    ASSERT_EQ(results[1].outputs.size(), 1u);
    EXPECT_EQ(results[1].outputs[0].comparison, "reference vs expected");
    // A finding of the reference part stands, with the reason the device part did not run.
    EXPECT_EQ(results[2].status, CaseStatus::kFailed);
    EXPECT_FALSE(results[2].device_error);
    EXPECT_TRUE(contains(results[2].reason, "OutputTensor (reference vs expected): 1 of 8 elements")) << results[2].reason;
    EXPECT_TRUE(contains(results[2].reason, " not run: recreating the device")) << results[2].reason;
    EXPECT_EQ(results[3].status, CaseStatus::kSkipped);
    EXPECT_TRUE(contains(results[3].reason, " not run: recreating the device")) << results[3].reason;
    EXPECT_TRUE(backend->lost());
    EXPECT_EQ(exit_code(results), 3);
}

// A case that fails half-way leaves commands recorded; discard_recording() drops them, so the next submit
// does not run them (here: a copy that would overwrite a buffer). The control shows the copy does run when
// submitted.
TEST(DeviceFaults, DiscardedRecordingNeverRuns) {
    DMLTOOL_GPU_CONTEXT_OR_SKIP(context);
    auto copy_over = [&](bool discard) -> std::vector<std::byte> {
        auto target = gpu::GpuBuffer::create(*context, gpu::MemoryKind::kDevice, 16, "target");
        auto source = gpu::GpuBuffer::create(*context, gpu::MemoryKind::kDevice, 16, "source");
        EXPECT_TRUE(target.is_ok() && source.is_ok());
        EXPECT_TRUE(upload(*context, *target, 0, std::vector<std::byte>(16, std::byte{1})).is_ok());
        EXPECT_TRUE(upload(*context, *source, 0, std::vector<std::byte>(16, std::byte{2})).is_ok());
        ID3D12GraphicsCommandList* list = context->command_list();
        source->transition(list, D3D12_RESOURCE_STATE_COPY_SOURCE);
        list->CopyBufferRegion(target->resource(), 0, source->resource(), 0, 16);
        context->keep_alive(target->resource());
        context->keep_alive(source->resource());
        if (discard) {
            EXPECT_TRUE(context->discard_recording().is_ok());
        }
        EXPECT_TRUE(context->submit_and_wait().is_ok());
        auto bytes = download(*context, *target, 0, 16);
        EXPECT_TRUE(bytes.is_ok());
        return bytes.is_ok() ? *bytes : std::vector<std::byte>{};
    };
    EXPECT_EQ(copy_over(true), std::vector<std::byte>(16, std::byte{1}));
    EXPECT_EQ(copy_over(false), std::vector<std::byte>(16, std::byte{2}));
    EXPECT_FALSE(context->is_lost());
}

// The limits come first: with an allocation failure armed for the first execution, a case over the budget is
// UNSUPPORTED with the numbers, never an E_OUTOFMEMORY (nothing was allocated).
TEST(DeviceLimits, BudgetRefusesBeforeAnyAllocation) {
    BACKEND_OR_SKIP(backend, {.max_device_bytes = 48, .faults = {.out_of_memory_at = 1}});
    EXPECT_EQ(backend->max_device_bytes(), 48u);
    CaseRunner runner;
    auto results = runner.run({d2s_case("too_big")}, backend.get());
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0].status, CaseStatus::kUnsupported);
    EXPECT_FALSE(results[0].backend_ms.has_value());  // the device never ran it
    EXPECT_EQ(results[0].reference_ms, 0);            // refused before the reference work, too
    EXPECT_TRUE(contains(results[0].reason, "case 'too_big': gpu (")) << results[0].reason;
    EXPECT_TRUE(contains(results[0].reason, "): needs 64 bytes of device memory (InputTensor 32 bytes, OutputTensor "
                                            "32 bytes), more than the 48 bytes allowed on '"))
        << results[0].reason;
    EXPECT_TRUE(contains(results[0].reason, "(--max-device-memory)")) << results[0].reason;
    EXPECT_EQ(exit_code(results), 5);  // a run of only UNSUPPORTED cases tested nothing (docs/cli.md: exit codes)

    // Called directly (the first execution, with the failure armed), execute() refuses before allocating too.
    const Op& op = *runner.registry().find("DEPTH_TO_SPACE1");
    auto desc = parse_desc(op, d2s_case("direct")["operator"]["desc"]);
    ASSERT_TRUE(desc);
    HostTensor input(*op.tensors(*desc).at(0).desc);
    auto executed = backend->execute(op, *desc, {&input}, nullptr);
    ASSERT_FALSE(executed.is_ok());
    EXPECT_EQ(executed.status().code(), ErrorCode::kUnsupported) << executed.status().message();
    EXPECT_TRUE(contains(executed.status().message(), "more than the 48 bytes allowed")) << executed.status().message();
}

// lavapipe allows 2 GiB per buffer (maxMemoryAllocationSize): a 3 GiB tensor is refused from the plan alone, with
// the numbers, before any host or device memory is spent on it. (Allocated for real, vkd3d's
// CreateCommittedResource fails only once lavapipe's allocation does: see docs/robustness.md.)
TEST(DeviceLimits, BufferBeyondTheDeviceLimitIsRefusedFromThePlan) {
    BACKEND_OR_SKIP(backend, {.max_device_bytes = uint64_t{1} << 20, .faults = {}});
    const uint64_t max_buffer = backend->context().max_buffer_bytes();
    const OpRegistry registry = make_builtin_registry();
    const Op& op = *registry.find("DEPTH_TO_SPACE1");
    nlohmann::json desc_json = d2s_case("x")["operator"]["desc"];
    desc_json["InputTensor"] = nlohmann::json::parse(R"({"DataType": "UINT8", "Sizes": [1, 4, 32768, 24576]})");  // 3 GiB
    desc_json["OutputTensor"] = nlohmann::json::parse(R"({"DataType": "UINT8", "Sizes": [1, 1, 65536, 49152]})");
    auto desc = parse_desc(op, desc_json);
    ASSERT_TRUE(desc);
    Status fits = backend->check_capacity(op, *desc);
    EXPECT_EQ(fits.code(), ErrorCode::kUnsupported) << fits.message();
    if (max_buffer != 0 && max_buffer < (uint64_t{3} << 30)) {
        EXPECT_TRUE(contains(fits.message(), "InputTensor needs a buffer of 3221225472 bytes (3.00 GiB), more than the " +
                                                 std::to_string(max_buffer) + " bytes"))
            << fits.message();
    } else {  // a device with larger buffers: the 1 MiB budget refuses it
        EXPECT_TRUE(contains(fits.message(), "needs 6.00 GiB of device memory (InputTensor 3.00 GiB, OutputTensor "
                                             "3.00 GiB"))
            << fits.message();
    }
}

}  // namespace
}  // namespace dmltool
