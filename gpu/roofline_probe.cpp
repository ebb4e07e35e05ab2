#include "gpu/roofline_probe.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "gpu/compute_kernel.h"
#include "gpu/roofline_probe_kernels.h"
#include "shaders/elements.h"

namespace dmltool::gpu {
namespace {

// Byte addresses in the kernels are 32-bit.
constexpr uint64_t kMaxCopyBytes = (uint64_t{1} << 32) - 256;

uint32_t views_for(uint64_t bytes) { return uint32_t((bytes + kMaxViewBytes - 1) / kMaxViewBytes); }

Result<ComputeKernel> make_kernel(GpuContext& context, Result<std::vector<uint8_t>> blob, const KernelLayout& layout,
                                  const std::string& name) {
    if (!blob.is_ok()) return blob.status().with_context(name);
    return ComputeKernel::create(context, *blob, layout, name);
}

// Median over options.samples submissions of the mean time of options.batch back-to-back executions, after a
// warm-up submission (pipeline first use, clocks ramping).
Result<double> median_batch_seconds(GpuContext& context, const RooflineProbeOptions& options,
                                    const std::function<Status()>& record_one) {
    auto warm_up = context.time_gpu(std::max(1u, options.batch / 4), record_one);
    if (!warm_up.is_ok()) return warm_up.status();
    std::vector<double> means;
    for (uint32_t s = 0; s < std::max(1u, options.samples); ++s) {
        DMLTOOL_ASSIGN_OR_RETURN(const double mean, context.time_gpu(std::max(1u, options.batch), record_one));
        means.push_back(mean);
    }
    std::sort(means.begin(), means.end());
    const double median = means[means.size() / 2];
    if (!(median > 0)) return device_error("roofline probe: GPU timestamps measured no time");
    return median;
}

std::vector<BufferView> views_of(GpuBuffer& buffer, uint64_t bytes, bool typed = false) {
    auto views = split_into_views(buffer, 0, bytes);
    if (!views.is_ok()) return {};
    for (BufferView& view : *views) view.typed_uint4 = typed;
    return *views;
}

void uav_barrier(GpuContext& context) {
    D3D12_RESOURCE_BARRIER barrier{};
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
    barrier.UAV.pResource = nullptr;
    context.command_list()->ResourceBarrier(1, &barrier);
}

Status record_copy_buffer_region(GpuContext& context, GpuBuffer& source, GpuBuffer& destination, uint64_t bytes) {
    ID3D12GraphicsCommandList* list = context.command_list();
    source.transition(list, D3D12_RESOURCE_STATE_COPY_SOURCE);
    destination.transition(list, D3D12_RESOURCE_STATE_COPY_DEST);
    list->CopyBufferRegion(destination.resource(), 0, source.resource(), 0, bytes);
    context.keep_alive(source.resource());
    context.keep_alive(destination.resource());
    uav_barrier(context);  // successive copies into one buffer stay ordered, like successive dispatches
    return Status::ok();
}

}  // namespace

Status verify_copy(GpuContext& context, GpuBuffer& source, GpuBuffer& destination, uint64_t bytes,
                   const std::string& method, const std::function<Status()>& record_copy) {
    if (bytes == 0 || bytes % 4 != 0 || bytes > kMaxCopyBytes || bytes > source.size() || bytes > destination.size())
        return invalid_input("verify_copy: " + std::to_string(bytes) + " bytes do not fit the buffers");
    const uint32_t views = views_for(bytes);
    const uint64_t words = bytes / 4;
    DMLTOOL_ASSIGN_OR_RETURN(ComputeKernel fill, make_kernel(context, build_pattern_fill_kernel(views),
                                                             {3, 0, views}, "roofline pattern fill"));
    DMLTOOL_ASSIGN_OR_RETURN(ComputeKernel check, make_kernel(context, build_pattern_check_kernel(views),
                                                              {3, views, 1}, "roofline pattern check"));
    DMLTOOL_ASSIGN_OR_RETURN(GpuBuffer counter, GpuBuffer::create(context, MemoryKind::kDevice, 16, "mismatch count"));
    DMLTOOL_RETURN_IF_ERROR(upload(context, counter, 0, std::vector<std::byte>(16, std::byte{0})));
    const shaders::DispatchGrid grid = shaders::plan_dispatch(words, kProbeThreadsPerGroup);
    const std::vector<BufferView> source_views = views_of(source, bytes);
    const std::vector<BufferView> destination_views = views_of(destination, bytes);
    constexpr uint32_t kSourceSeed = 0x1234567u, kPoisonSeed = 0x7654321u;
    auto fill_with = [&](const std::vector<BufferView>& target, uint32_t seed) {
        const uint32_t constants[] = {uint32_t(words), grid.threads_per_row, seed};
        return fill.record_dispatch(context, {constants, {}, target, grid.groups_x, grid.groups_y});
    };
    DMLTOOL_RETURN_IF_ERROR(fill_with(source_views, kSourceSeed));
    DMLTOOL_RETURN_IF_ERROR(fill_with(destination_views, kPoisonSeed));
    DMLTOOL_RETURN_IF_ERROR(record_copy());
    const uint32_t constants[] = {uint32_t(words), grid.threads_per_row, kSourceSeed};
    const BufferView counter_view{&counter, 0, 16};
    DMLTOOL_RETURN_IF_ERROR(
        check.record_dispatch(context, {constants, destination_views, {&counter_view, 1}, grid.groups_x, grid.groups_y}));
    DMLTOOL_RETURN_IF_ERROR(context.submit_and_wait());
    DMLTOOL_ASSIGN_OR_RETURN(std::vector<std::byte> count_bytes, download(context, counter, 0, 4));
    uint32_t mismatches = 0;
    std::memcpy(&mismatches, count_bytes.data(), 4);
    if (mismatches != 0)
        return device_error("roofline copy probe '" + method + "': " + std::to_string(mismatches) + " of " +
                            std::to_string(words) + " words differ from the source after the copy");
    return Status::ok();
}

Result<std::vector<CopyMeasurement>> measure_copies(GpuContext& context, const RooflineProbeOptions& options) {
    const uint64_t bytes = options.copy_bytes & ~uint64_t(15);
    if (bytes == 0 || bytes > kMaxCopyBytes)
        return invalid_input("roofline copy probe: copy size must be 16 bytes .. 4 GiB, got " +
                             std::to_string(options.copy_bytes));
    DMLTOOL_ASSIGN_OR_RETURN(GpuBuffer source, GpuBuffer::create(context, MemoryKind::kDevice, bytes, "probe source"));
    DMLTOOL_ASSIGN_OR_RETURN(GpuBuffer destination,
                             GpuBuffer::create(context, MemoryKind::kDevice, bytes, "probe destination"));
    const std::vector<BufferView> source_views = views_of(source, bytes);
    const std::vector<BufferView> destination_views = views_of(destination, bytes);
    std::vector<CopyMeasurement> results;
    auto measure = [&](const std::string& method, const std::function<Status()>& record_one) -> Status {
        DMLTOOL_RETURN_IF_ERROR(verify_copy(context, source, destination, bytes, method, record_one));
        DMLTOOL_ASSIGN_OR_RETURN(double seconds, median_batch_seconds(context, options, record_one));
        results.push_back({method, 2.0 * double(bytes) / seconds});
        return Status::ok();
    };

    DMLTOOL_RETURN_IF_ERROR(measure("CopyBufferRegion", [&] {
        return record_copy_buffer_region(context, source, destination, bytes);
    }));
    const std::vector<BufferView> typed_source_views = views_of(source, bytes, true);
    const std::vector<BufferView> typed_destination_views = views_of(destination, bytes, true);
    std::vector<CopyVariant> variants;
    for (uint32_t dwords : {1u, 2u, 4u})
        for (uint32_t per_thread : {1u, 2u, 4u}) variants.push_back({dwords, per_thread, views_for(bytes)});
    for (uint32_t per_thread : {1u, 2u, 4u}) variants.push_back({4, per_thread, views_for(bytes), true});
    for (const CopyVariant& variant : variants) {
        {
            const uint32_t dwords = variant.dwords;
            const std::string method = variant.name();
            DMLTOOL_ASSIGN_OR_RETURN(ComputeKernel kernel,
                                     make_kernel(context, build_copy_variant_kernel(variant),
                                                 {2, variant.views, variant.views}, "roofline " + method));
            const uint64_t count = bytes / (4 * dwords);
            const shaders::DispatchGrid grid =
                shaders::plan_dispatch(copy_variant_threads(variant, count), kProbeThreadsPerGroup);
            const uint32_t constants[] = {uint32_t(count), grid.threads_per_row};
            DMLTOOL_RETURN_IF_ERROR(measure(method, [&] {
                return kernel.record_dispatch(context, {constants, variant.typed ? typed_source_views : source_views,
                                                        variant.typed ? typed_destination_views : destination_views,
                                                        grid.groups_x, grid.groups_y});
            }));
        }
    }
    return results;
}

Result<double> measure_multiply_adds(GpuContext& context, bool floating_point, const RooflineProbeOptions& options) {
    const std::string name = floating_point ? "roofline float32 mad chains" : "roofline int32 imad chains";
    DMLTOOL_ASSIGN_OR_RETURN(ComputeKernel kernel,
                             make_kernel(context, build_multiply_add_kernel(floating_point), {4, 0, 1}, name));
    const uint32_t max_groups = std::clamp(options.max_alu_groups, 1u, 65535u);
    DMLTOOL_ASSIGN_OR_RETURN(GpuBuffer sink, GpuBuffer::create(context, MemoryKind::kDevice,
                                                               uint64_t{max_groups} * kProbeThreadsPerGroup * 4, name));
    float a_float = 0.9999f, b_float = 0.5f;  // converges to 5000: no overflow, no subnormals
    uint32_t a = 0x01000193u, b = 0x9E3779B9u;
    if (floating_point) {
        std::memcpy(&a, &a_float, 4);
        std::memcpy(&b, &b_float, 4);
    }
    uint32_t groups = std::min(64u, max_groups), iterations = 1;
    auto record = [&] {
        const uint32_t constants[] = {groups * kProbeThreadsPerGroup, iterations, a, b};
        const BufferView view{&sink, 0, uint64_t{groups} * kProbeThreadsPerGroup * 4};
        return kernel.record_dispatch(context, {constants, {}, {&view, 1}, groups, 1});
    };
    // Grow the grid first (occupancy), then the trip count, until one dispatch is long enough to time.
    // lavapipe ends loops after 65535 trips, so the count stays below that.
    constexpr uint32_t kMaxIterations = 32768;
    for (;;) {
        DMLTOOL_ASSIGN_OR_RETURN(const double seconds, context.time_gpu(1, record));
        if (seconds >= options.min_dispatch_seconds) break;
        if (groups < max_groups) groups = std::min(max_groups, groups * 2);
        else if (iterations < kMaxIterations) iterations *= 2;
        else break;
    }
    DMLTOOL_ASSIGN_OR_RETURN(double seconds, median_batch_seconds(context, options, record));
    const double operations = double(groups) * kProbeThreadsPerGroup * kMultiplyAddChains * kMultiplyAddUnroll * iterations;
    return operations / seconds;
}

Result<DeviceRoofline> measure_roofline(GpuContext& context, const RooflineProbeOptions& options) {
    DeviceRoofline roofline;
    const AdapterInfo& adapter = context.adapter();
    char ids[64];
    std::snprintf(ids, sizeof ids, " (vendor 0x%04x, device 0x%04x)", adapter.vendor_id, adapter.device_id);
    roofline.adapter = adapter.name + ids;
    DMLTOOL_ASSIGN_OR_RETURN(std::vector<CopyMeasurement> copies, measure_copies(context, options));
    for (const CopyMeasurement& copy : copies) {
        if (copy.bytes_per_second > roofline.copy_bytes_per_second) {
            roofline.copy_bytes_per_second = copy.bytes_per_second;
            roofline.copy_method = copy.method;
        }
    }
    DMLTOOL_ASSIGN_OR_RETURN(roofline.int_multiply_adds_per_second, measure_multiply_adds(context, false, options));
    DMLTOOL_ASSIGN_OR_RETURN(roofline.float_fmas_per_second, measure_multiply_adds(context, true, options));
    return roofline;
}

}  // namespace dmltool::gpu
