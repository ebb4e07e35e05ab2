#include "tests/testing/gpu_testing.h"

#include <algorithm>

#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>

#include "core/compare.h"
#include "core/hdf5_io.h"
#include "core/op_registry.h"
#include "core/tensor_source.h"
#include "core/thread_pool.h"

namespace dmltool::testing {

const Op& builtin_op(std::string_view name) {
    static const OpRegistry registry = make_builtin_registry();
    return *registry.find(name);
}

gpu::GpuBackend* test_gpu_backend(std::string* why) {
    // One backend per test binary: tests are single-threaded and device creation dominates their cost.
    // The static is initialized with the created backend, not created empty and assigned later: static destructors
    // and exit handlers run in the reverse order of their registration, so it is destroyed before the exit handlers
    // the Vulkan driver registers while the device is created. Destroyed after them (the empty-then-assigned form),
    // it crashed the test binaries at exit on the NVIDIA driver.
    static std::string failure;
    static const std::unique_ptr<gpu::GpuBackend> backend = [] {
        auto created = gpu::GpuBackend::create({}, {});
        if (created.is_ok()) return std::move(created).value();
        failure = created.status().message();
        return std::unique_ptr<gpu::GpuBackend>();
    }();
    if (why) *why = failure;
    return backend.get();
}

HostTensor random_tensor(DataType type, Dims sizes, uint64_t seed, double lo, double hi) {
    TensorDesc desc;
    desc.data_type = type;
    desc.sizes = std::move(sizes);
    (void)validate_tensor_desc(desc, TensorRole::kInput, false);
    HostTensor t(desc);
    for (uint64_t i = 0; i < t.element_count(); ++i) {
        if (is_float(type)) {
            t.set_from_double(i, random_float_element(seed, i, lo, hi));
        } else {
            // Clamped to the type's range: a caller's [-128, 255] means "all of int8 or uint8", and a value outside
            // the type would be undefined on conversion (UBSan caught the QLMM and pooling GPU tests doing it).
            const double low = std::max(lo, double(integer_min(type))), high = std::min(hi, double(integer_max(type)));
            const uint64_t width = uint64_t(high - low) + 1;
            t.set_from_double(i, low + double(random_bits(seed, i) % width));
        }
    }
    return t;
}

namespace {

// Writes the case as failures/<name>.json + .h5 (relative to the working directory); returns the JSON path.
std::string write_failure(const Op& op, const OpDesc& desc, const DifferentialCase& c,
                          const std::vector<HostTensor>& reference) {
    std::string stem = c.name;
    for (char& ch : stem)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    const std::filesystem::path dir = std::filesystem::absolute("failures");
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    const std::filesystem::path h5 = dir / (stem + ".h5");
    std::filesystem::remove(h5, ec);
    nlohmann::json inputs = nlohmann::json::object(), expected = nlohmann::json::object();
    size_t input_index = 0, output_index = 0;
    for (const TensorSlot& slot : op.tensors(desc)) {
        if (!slot.desc) {
            if (slot.role == TensorRole::kInput) ++input_index;
            continue;
        }
        const bool is_input = slot.role == TensorRole::kInput;
        const HostTensor& tensor = is_input ? c.inputs[input_index++] : reference[output_index++];
        const std::string dataset = std::string(is_input ? "/inputs/" : "/expected/") + slot.name;
        if (!write_hdf5_tensor(h5, dataset, tensor).is_ok()) continue;
        nlohmann::json source = {{"hdf5", stem + ".h5"}, {"dataset", dataset}};
        nlohmann::json& target = is_input ? inputs : expected;
        if (slot.name != slot.field) target[std::string(slot.field)].push_back(source);
        else target[slot.name] = source;
    }
    nlohmann::json root = {{"name", c.name},
                           {"description", "differential test failure (seed " + std::to_string(c.seed) + ")"},
                           {"operator", {{"type", c.op_type}, {"desc", nlohmann::json::parse(c.desc_json)}}},
                           {"inputs", inputs},
                           {"expected", expected},
                           {"tags", {"differential"}}};
    const std::filesystem::path json_path = dir / (stem + ".json");
    std::ofstream(json_path) << root.dump(2) << "\n";
    return json_path.string();
}

}  // namespace

DifferentialResult run_differential(const Op& op, const DifferentialCase& c) {
    DifferentialResult result;
    const std::string where = c.name + " (seed " + std::to_string(c.seed) + ")";
    std::string why;
    gpu::GpuBackend* backend = test_gpu_backend(&why);
    if (!backend) {
        result.message = "no GPU: " + why;
        return result;
    }
    const nlohmann::json desc_json = nlohmann::json::parse(c.desc_json);
    JsonObjectReader reader(desc_json, "/operator/desc");
    auto desc = op.parse(reader);
    if (!desc.is_ok()) {
        result.message = where + ": desc does not parse: " + desc.status().message();
        return result;
    }
    std::vector<const HostTensor*> inputs;
    for (const HostTensor& t : c.inputs) inputs.push_back(t.element_count() ? &t : nullptr);
    std::vector<HostTensor> reference;
    std::vector<TensorSlot> outputs;
    for (const TensorSlot& slot : op.tensors(**desc))
        if (slot.role == TensorRole::kOutput) {
            outputs.push_back(slot);
            reference.emplace_back(*slot.desc);
        }
    std::vector<HostTensor*> reference_ptrs;
    for (auto& t : reference) reference_ptrs.push_back(&t);
    ThreadPool pool(2);
    // Outputs judged by an error bound need the reference's exact values and error scales (as the runner does).
    std::vector<ExactOutput> exact(outputs.size());
    bool wants_exact = false;
    for (size_t i = 0; i < outputs.size(); ++i) wants_exact |= op.default_tolerance(**desc, i).error_bound;
    Status ran = op.run_reference(**desc, inputs, reference_ptrs,
                                  ReferenceContext{pool, c.semantics, wants_exact ? &exact : nullptr});
    if (!ran.is_ok()) {
        result.message = where + ": reference failed: " + ran.message();
        return result;
    }
    backend->set_semantics(c.semantics);
    auto gpu_outputs = backend->execute(op, **desc, inputs, nullptr);
    bool passed = gpu_outputs.is_ok();
    std::string message;
    if (!gpu_outputs.is_ok()) {
        message = "GPU failed: " + gpu_outputs.status().message() + "\n";
    } else {
        for (size_t i = 0; i < outputs.size(); ++i) {
            const Tolerance tolerance = op.default_tolerance(**desc, i);
            CompareResult compared = tolerance.error_bound && !exact[i].exact.empty()
                                         ? compare_to_exact(exact[i], (*gpu_outputs)[i], tolerance)
                                         : compare_tensors(reference[i], (*gpu_outputs)[i], tolerance);
            // A constant expectation is the test's weakness, not the kernel's; everything else must pass.
            if (compared.verdict == Verdict::kPassed ||
                (compared.verdict == Verdict::kMistrusted && compared.reason.rfind("expected output is constant", 0) == 0))
                continue;
            passed = false;
            message += outputs[i].name + ": " + compared.reason + "\n";
            for (const Mismatch& m : compared.mismatches) message += "  " + format_mismatch(m) + "\n";
        }
    }
    result.passed = passed;
    if (!passed)
        result.message = where + ": GPU differs from the CPU reference\n" + message +
                         "case written to " + write_failure(op, **desc, c, reference);
    return result;
}

}  // namespace dmltool::testing
