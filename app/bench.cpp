// `dmltool bench`: correctness first (only cases that pass are timed), then Google Benchmark measures each
// case on the CPU reference (real time: it is multithreaded) and on the GPU (manual time from GPU
// timestamps), and a closing table reports throughput per DirectML feature level.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <map>

#include "app/commands.h"
#include "app/device.h"
#include "core/report.h"

namespace dmltool::app {
namespace {

struct Measured {
    std::string backend;
    FeatureLevel level;
    double seconds_per_iteration = 0;
    uint64_t bytes = 0;
};

// Forwards to the console reporter and keeps every per-iteration run for the feature-level table.
class CollectingReporter : public benchmark::ConsoleReporter {
public:
    explicit CollectingReporter(std::map<std::string, Measured>* sink) : sink_(sink) {}
    void ReportRuns(const std::vector<Run>& runs) override {
        ConsoleReporter::ReportRuns(runs);
        for (const Run& run : runs) {
            if (run.run_type != Run::RT_Iteration || run.error_occurred) continue;
            auto it = sink_->find(run.run_name.function_name);
            if (it == sink_->end()) continue;
            it->second.seconds_per_iteration = run.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(run.time_unit);
        }
    }

private:
    std::map<std::string, Measured>* sink_;
};

void print_feature_level_table(const std::map<std::string, Measured>& measured) {
    // backend -> level -> (bytes, seconds, cases)
    std::map<std::string, std::map<FeatureLevel, std::tuple<double, double, size_t>>> table;
    for (const auto& [name, m] : measured) {
        if (m.seconds_per_iteration <= 0) continue;
        auto& cell = table[m.backend][m.level];
        std::get<0>(cell) += double(m.bytes);
        std::get<1>(cell) += m.seconds_per_iteration;
        ++std::get<2>(cell);
    }
    std::printf("\nThroughput per feature level (sum of logical bytes / sum of times, GB = 1e9 bytes):\n");
    for (const auto& [backend, levels] : table)
        for (const auto& [level, cell] : levels)
            std::printf("  %-4s FL %s: %3zu cases, %10.3f GB/s\n", backend.c_str(), level.to_string().c_str(),
                        std::get<2>(cell), std::get<0>(cell) / std::get<1>(cell) / 1e9);
}

}  // namespace

int bench_command(const BenchCommandOptions& options, const OpRegistry& registry) {
    auto selected = select_cases(options.selection, registry);
    if (!selected.is_ok()) return report_error(selected.status(), 2);
    auto opened = open_backend(options.run, options.device);
    if (!opened.is_ok()) return report_error(opened.status(), 3);
    std::unique_ptr<Backend> backend = std::move(opened).value();
    ThreadPool pool(options.threads);
    Runner runner(options.run, pool, backend.get());
    const bool with_cpu = options.run.backend != BackendChoice::kGpu;
    std::map<std::string, Measured> measured;
    // Inputs must outlive the benchmark registrations that capture them.
    std::vector<std::unique_ptr<std::vector<HostTensor>>> prepared;
    size_t skipped = 0;
    for (const LoadedCase* c : selected->cases) {
        CaseResult check = runner.run(*c);
        if (check.status != CaseStatus::kPassed) {
            ++skipped;
            std::printf("[not benchmarked: %s] %s :: %s: %s\n", case_status_name(check.status), check.file.c_str(),
                        check.name.c_str(), check.reason.c_str());
            continue;
        }
        auto inputs = runner.prepare_inputs(c->spec);
        if (!inputs.is_ok()) continue;
        prepared.push_back(std::make_unique<std::vector<HostTensor>>(std::move(inputs).value()));
        const std::vector<HostTensor>* owned = prepared.back().get();
        const CaseSpec* spec = &c->spec;
        std::vector<const HostTensor*> input_ptrs;
        for (const HostTensor& t : *owned) input_ptrs.push_back(t.element_count() ? &t : nullptr);
        const std::string base = std::string(spec->op->name()) + "/FL" + spec->min_feature_level.to_string() + "/" +
                                 spec->name;
        const WorkEstimate work = spec->op->work(*spec->desc);
        auto add_counters = [work](benchmark::State& state) {
            state.counters["bytes_per_second"] =
                benchmark::Counter(double(work.bytes), benchmark::Counter::kIsIterationInvariantRate);
            if (work.ops)
                state.counters["ops_per_second"] =
                    benchmark::Counter(double(work.ops), benchmark::Counter::kIsIterationInvariantRate);
        };
        if (with_cpu) {
            const std::string name = base + "/cpu";
            measured[name] = {"cpu", spec->min_feature_level, 0, work.bytes};
            benchmark::RegisterBenchmark(name.c_str(), [spec, input_ptrs, &pool, &options, add_counters](benchmark::State& state) {
                std::vector<HostTensor> outputs;
                for (const TensorSlot& slot : spec->op->tensors(*spec->desc))
                    if (slot.role == TensorRole::kOutput) outputs.emplace_back(*slot.desc);
                std::vector<HostTensor*> output_ptrs;
                for (auto& t : outputs) output_ptrs.push_back(&t);
                for (auto _ : state) {
                    Status s = spec->op->run_reference(*spec->desc, input_ptrs, output_ptrs,
                                                       ReferenceContext{pool, options.run.semantics});
                    if (!s.is_ok()) {
                        state.SkipWithError(s.message().c_str());
                        break;
                    }
                }
                add_counters(state);
                state.SetLabel("FL " + spec->min_feature_level.to_string());
            })->UseRealTime()->Unit(benchmark::kMicrosecond);
        }
        if (backend) {
            const std::string name = base + "/gpu";
            measured[name] = {"gpu", spec->min_feature_level, 0, work.bytes};
            Backend* device = backend.get();
            const unsigned batch = options.gpu_batch;
            benchmark::RegisterBenchmark(name.c_str(), [spec, input_ptrs, device, add_counters, batch](benchmark::State& state) {
                // GPUs lower their clocks while idle: a warm-up batch first, then each iteration times `batch`
                // back-to-back executions in one submission and reports their mean, so submission gaps and
                // clock ramps stay out of the figure.
                auto warm = device->time_executions(*spec->op, *spec->desc, input_ptrs, batch);
                if (!warm.is_ok()) {
                    state.SkipWithError(warm.status().message().c_str());
                    return;
                }
                for (auto _ : state) {
                    auto times = device->time_executions(*spec->op, *spec->desc, input_ptrs, batch);
                    if (!times.is_ok()) {
                        state.SkipWithError(times.status().message().c_str());
                        break;
                    }
                    double total = 0;
                    for (double t : *times) total += t;
                    state.SetIterationTime(total / double(times->size()));
                }
                add_counters(state);
                state.SetLabel("FL " + spec->min_feature_level.to_string());
            })->UseManualTime()->Unit(benchmark::kMicrosecond);
        }
    }
    std::vector<std::string> args_storage = {"dmltool bench"};
    args_storage.insert(args_storage.end(), options.benchmark_args.begin(), options.benchmark_args.end());
    std::vector<char*> argv;
    for (auto& a : args_storage) argv.push_back(a.data());
    int argc = int(argv.size());
    benchmark::Initialize(&argc, argv.data());
    if (argc > 1) {
        std::fprintf(stderr, "dmltool: error: unrecognized benchmark option '%s'\n", argv[1]);
        return 2;
    }
    CollectingReporter reporter(&measured);
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();
    print_feature_level_table(measured);
    if (skipped) std::printf("%zu selected cases were not benchmarked (they did not pass)\n", skipped);
    return (selected->broken.empty() && skipped == 0) ? 0 : 1;
}

}  // namespace dmltool::app
