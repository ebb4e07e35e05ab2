// The fixture of the deviation tests (deviations_test.cpp, deviations_element_wise_test.cpp): a stand-in backend
// that computes the reference under a deviation model's semantics (plus a planted change), and a runner over one
// case with the shipped registry or none. Shared so that each file stays within the size the project keeps.
#pragma once

#include <gtest/gtest.h>

#include <deque>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/deviations.h"
#include "core/runner.h"
#include "temp_dir.h"
#include "tests/testing/op_testing.h"

namespace dmltool {

using nlohmann::json;

inline std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

inline const std::string kShippedRegistry = std::string(DMLTOOL_SOURCE_DIR) + "/gpu/directml/deviations/1.15.4.json";

// Stands in for DirectML: computes the reference under `semantics`, then lets the test plant a change. Or refuses
// every desc, as DirectML's CreateOperator does with E_INVALIDARG.
class ModelBackend : public Backend {
public:
    explicit ModelBackend(std::string label = "directml") : label_(std::move(label)) {}
    std::string name() const override { return label_ + " (model)"; }
    std::string label() const override { return label_; }
    Result<std::vector<HostTensor>> execute(const Op& op, const OpDesc& desc, const std::vector<const HostTensor*>& inputs,
                                            BackendTiming*, std::byte) override {
        if (refuse) return unsupported("DirectML " + std::string(kDescRejectedMarker) + ": CreateOperator: E_INVALIDARG");
        auto outputs = testing::run_reference(op, desc, inputs, semantics);
        if (!outputs.is_ok()) return outputs.status();
        if (compute) compute(*inputs.at(0), outputs->at(0));
        if (plant) plant(*outputs);
        return outputs;
    }
    Result<double> time_executions(const Op&, const OpDesc&, const std::vector<const HostTensor*>&, unsigned) override {
        return 0.0;
    }
    Result<DeviceRoofline> measure_roofline(uint64_t) override { return DeviceRoofline{}; }

    SemanticsOptions semantics;
    std::function<void(std::vector<HostTensor>&)> plant;
    // Replaces the outputs' values, from the inputs (an emulation of DirectML's own arithmetic).
    std::function<void(const HostTensor& input, HostTensor& output)> compute;
    bool refuse = false;

private:
    std::string label_;
};

class DeviationsTest : public ::testing::Test {
protected:
    void SetUp() override {
        auto parsed = parse_deviation_registry(read_text(kShippedRegistry), kShippedRegistry, registry_);
        ASSERT_TRUE(parsed.is_ok()) << parsed.status().message();
        shipped_ = std::move(parsed).value();
        options_.semantics.resample_nearest_rule = NearestRule::kHalfUp;  // the contract these tests hold
    }
    CaseResult run(const json& c, ModelBackend& backend, const DeviationRegistry* registry) {
        files_.push_back(load_case_file(dir_.write("c" + std::to_string(files_.size()) + ".json", c.dump()), registry_));
        EXPECT_TRUE(files_.back().status.is_ok()) << files_.back().status.message();
        Runner runner(options_, pool_, &backend);
        EXPECT_TRUE(runner.set_deviations(0, registry));
        return runner.run(files_.back().cases.at(0));
    }
    static bool has_id(const std::vector<CaseDeviation>& list, const std::string& id) {
        for (const CaseDeviation& d : list)
            if (d.id == id) return true;
        return false;
    }

    testing::TempDir dir_;
    OpRegistry registry_ = make_builtin_registry();
    ThreadPool pool_{2};
    RunOptions options_;
    DeviationRegistry shipped_;
    std::deque<CaseFile> files_;
};

}  // namespace dmltool
