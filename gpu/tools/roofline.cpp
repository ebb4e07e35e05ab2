// dmltool_roofline [copy MiB] [adapter substring]: every roofline probe figure on one adapter, each copy
// variant on its own line (`dmltool bench` reports only the best). For tuning kernels against the copy roofline.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "gpu/roofline_probe.h"

int main(int argc, char** argv) {
    using namespace dmltool;
    gpu::RooflineProbeOptions options;
    if (argc > 1) options.copy_bytes = std::strtoull(argv[1], nullptr, 10) << 20;
    gpu::GpuContextOptions context_options;
    if (argc > 2) context_options.adapter_name_contains = argv[2];
    auto context = gpu::GpuContext::create(context_options);
    if (!context.is_ok()) {
        std::fprintf(stderr, "dmltool_roofline: %s\n", context.status().message().c_str());
        return 3;
    }
    std::printf("adapter: %s, copy of %llu bytes\n", (*context)->adapter().name.c_str(),
                static_cast<unsigned long long>(options.copy_bytes));
    auto copies = gpu::measure_copies(**context, options);
    if (!copies.is_ok()) {
        std::fprintf(stderr, "dmltool_roofline: %s\n", copies.status().message().c_str());
        return 3;
    }
    for (const gpu::CopyMeasurement& copy : *copies)
        std::printf("copy %-52s %8.1f GB/s\n", copy.method.c_str(), copy.bytes_per_second / 1e9);
    for (bool floating_point : {false, true}) {
        auto rate = gpu::measure_multiply_adds(**context, floating_point, options);
        if (!rate.is_ok()) {
            std::fprintf(stderr, "dmltool_roofline: %s\n", rate.status().message().c_str());
            return 3;
        }
        std::printf("%s %.3g per second\n", floating_point ? "float32 mad" : "int32 imad", *rate);
    }
    return 0;
}
