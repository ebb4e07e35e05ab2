// Autotuning's device-independent half (core/plan_tuning.h): the winner rule, the plan fingerprint and the tuning
// cache file (round trip, merging concurrent writers, ignoring and replacing a file that is not a cache).
#include "core/plan_tuning.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>

#include "tests/unit/temp_dir.h"

namespace dmltool {
namespace {

HostTensor tensor_of(DataType type, const std::vector<double>& values) {
    TensorDesc d;
    d.data_type = type;
    d.sizes = {uint32_t(values.size())};
    EXPECT_TRUE(validate_tensor_desc(d, TensorRole::kOutput, false).is_ok());
    HostTensor t(d);
    for (uint64_t i = 0; i < t.element_count(); ++i) t.set_from_double(i, values[i]);
    return t;
}

// A variant must reproduce the heuristic plan's values: any difference fails it, but a NaN's sign or payload and
// the sign of zero are evaluation-order artefacts, not differences.
TEST(PlanTuning, VariantOutputsMustHaveTheSameValues) {
    for (DataType type : {DataType::kFloat32, DataType::kFloat16}) {
        const std::vector<HostTensor> expected = {tensor_of(type, {1.0, -0.0, NAN, 3.5})};
        EXPECT_EQ(variant_output_difference(expected, expected), "");
        EXPECT_EQ(variant_output_difference(expected, {tensor_of(type, {1.0, 0.0, -NAN, 3.5})}), "");
        // One ulp off, a number for a NaN, a NaN for a number, an infinity: differences, with where.
        const double next = type == DataType::kFloat32 ? 3.5 + 0x1p-22 : 3.5 + 0x1p-9;
        EXPECT_EQ(variant_output_difference(expected, {tensor_of(type, {1.0, -0.0, NAN, next})}).rfind(
                      "output 0 element 3: expected ", 0), 0u);
        EXPECT_NE(variant_output_difference(expected, {tensor_of(type, {1.0, -0.0, 0.0, 3.5})}), "");
        EXPECT_NE(variant_output_difference(expected, {tensor_of(type, {NAN, -0.0, NAN, 3.5})}), "");
        EXPECT_NE(variant_output_difference(expected, {tensor_of(type, {1.0, -0.0, NAN, INFINITY})}), "");
    }
    // Integers: every bit counts; and output counts and shapes must match.
    const std::vector<HostTensor> bytes = {tensor_of(DataType::kInt8, {1, -2, 3})};
    EXPECT_EQ(variant_output_difference(bytes, {tensor_of(DataType::kInt8, {1, -2, 3})}), "");
    EXPECT_NE(variant_output_difference(bytes, {tensor_of(DataType::kInt8, {1, -2, 4})}), "");
    EXPECT_NE(variant_output_difference(bytes, {}), "");
    EXPECT_NE(variant_output_difference(bytes, {tensor_of(DataType::kInt8, {1, -2, 3, 0})}), "");
}

TEST(PlanTuning, ModeNamesRoundTrip) {
    for (TuningMode mode : {TuningMode::kOff, TuningMode::kCached, TuningMode::kTune})
        EXPECT_EQ(parse_tuning_mode(tuning_mode_name(mode)), mode);
    EXPECT_FALSE(parse_tuning_mode("on").has_value());
    EXPECT_FALSE(parse_tuning_mode("").has_value());
}

TEST(PlanTuning, ChoosesTheFastestBeyondTheMargin) {
    EXPECT_EQ(choose_variant({}), 0u);
    EXPECT_EQ(choose_variant({{"", 1.0}, {"a", 0.90}, {"b", 0.95}}), 1u);
    // 1% faster than the heuristic is within the 2% margin: the heuristic stays.
    EXPECT_EQ(choose_variant({{"", 1.0}, {"a", 0.99}}), 0u);
    EXPECT_EQ(choose_variant({{"", 1.0}, {"a", 0.99}}, 0.0), 1u);
    // A candidate without a time (failed, skipped) never wins, even against an unmeasured heuristic.
    EXPECT_EQ(choose_variant({{"", 1.0}, {"a", 0.0}, {"b", -1.0}}), 0u);
    EXPECT_EQ(choose_variant({{"", 0.0}, {"a", 2.0}}), 1u);
    EXPECT_EQ(choose_variant({{"", 1.0}, {"a", 2.0}, {"b", 3.0}}), 0u);
}

// settle_clocks on scripted batches: (mean, device seconds) in order; counts the batches it asked for.
struct ScriptedBatches {
    std::vector<TimedBatch> script;
    std::vector<double> previous_means;  // what each call was given
    Result<double> settle() {
        return settle_clocks([this](double previous_mean) -> Result<TimedBatch> {
            previous_means.push_back(previous_mean);
            if (previous_means.size() > script.size()) return internal_error("script exhausted");
            return script[previous_means.size() - 1];
        });
    }
};

TEST(PlanTuning, SettlesAfterHalfASecondAndTwoAgreeingBatches) {
    // Agreement within 2% before 0.5 s of device time does not settle (a steady slow state); after it, it does, and
    // the lower of the two agreeing means is returned.
    ScriptedBatches slow_then_fast{{{2.0, 0.2}, {2.0, 0.2}, {1.0, 0.2}, {1.01, 0.2}}};
    auto settled = slow_then_fast.settle();
    ASSERT_TRUE(settled.is_ok()) << settled.status().message();
    EXPECT_DOUBLE_EQ(*settled, 1.0);
    EXPECT_EQ(slow_then_fast.previous_means, (std::vector<double>{0, 2.0, 2.0, 1.0}));
    // 3% apart is not agreement.
    ScriptedBatches apart{{{1.0, 0.6}, {1.03, 0.6}, {1.03, 0.6}}};
    EXPECT_DOUBLE_EQ(apart.settle().value(), 1.03);
    EXPECT_EQ(apart.previous_means.size(), 3u);
    // A batch that takes no device time ends the wait with the mean before it; an error is passed on.
    ScriptedBatches frozen{{{1.0, 0}, {3.0, 0}}};
    EXPECT_DOUBLE_EQ(frozen.settle().value(), 1.0);
    EXPECT_EQ(frozen.previous_means.size(), 2u);
    ScriptedBatches failing{{{1.0, 0.1}}};
    EXPECT_FALSE(failing.settle().is_ok());
}

TEST(PlanTuning, SpeedupIsTheHeuristicsTimeOverTheWinners) {
    PlanChoice choice;
    EXPECT_EQ(choice.speedup(), 1.0);
    choice.candidates = {{"", 2.0}, {"a", 1.0}, {"b", 0.5}};
    choice.variant = "a";
    EXPECT_DOUBLE_EQ(choice.speedup(), 2.0);
    choice.variant = "";
    EXPECT_DOUBLE_EQ(choice.speedup(), 1.0);
}

DevicePlan sample_plan() {
    DevicePlan plan;
    plan.auxiliary_buffers.push_back(std::vector<std::byte>(8, std::byte{1}));
    KernelDispatch d;
    d.dxbc = std::make_shared<const std::vector<uint8_t>>(std::vector<uint8_t>{1, 2, 3, 4});
    d.root_constants = {7, 8};
    d.srvs = {BufferBinding{BufferBinding::Source::kInput, 0, 0, 0}};
    d.uavs = {BufferBinding{BufferBinding::Source::kOutput, 0, 0, 0}};
    d.group_count = {4, 1, 1};
    plan.dispatches.push_back(d);
    return plan;
}

TEST(PlanTuning, FingerprintChangesWithWhatWouldRun) {
    const std::vector<std::string> variants = {"a", "b"};
    const std::string base = plan_fingerprint("OP", sample_plan(), variants);
    EXPECT_EQ(base.size(), 16u);
    EXPECT_EQ(plan_fingerprint("OP", sample_plan(), variants), base);
    EXPECT_NE(plan_fingerprint("OTHER", sample_plan(), variants), base);
    EXPECT_NE(plan_fingerprint("OP", sample_plan(), {"a"}), base);
    EXPECT_NE(plan_fingerprint("OP", sample_plan(), {"ab", ""}), plan_fingerprint("OP", sample_plan(), {"a", "b"}));
    const auto changed = [&](auto&& edit) {
        DevicePlan plan = sample_plan();
        edit(plan);
        return plan_fingerprint("OP", plan, variants);
    };
    EXPECT_NE(changed([](DevicePlan& p) {
                  p.dispatches[0].dxbc = std::make_shared<const std::vector<uint8_t>>(std::vector<uint8_t>{1, 2, 3, 5});
              }), base);
    EXPECT_NE(changed([](DevicePlan& p) { p.dispatches[0].root_constants[1] = 9; }), base);
    EXPECT_NE(changed([](DevicePlan& p) { p.dispatches[0].group_count[0] = 5; }), base);
    EXPECT_NE(changed([](DevicePlan& p) { p.dispatches[0].srvs[0].index = 1; }), base);
    EXPECT_NE(changed([](DevicePlan& p) { p.dispatches[0].uavs[0].byte_offset = 256; }), base);
    EXPECT_NE(changed([](DevicePlan& p) { p.auxiliary_buffers[0].push_back(std::byte{0}); }), base);
    EXPECT_NE(changed([](DevicePlan& p) { p.auxiliary_buffers[0][3] = std::byte{2}; }), base);
}

PlanChoice sample_choice(std::string variant) {
    PlanChoice choice;
    choice.source = "tuned";
    choice.variant = std::move(variant);
    choice.candidates = {{"", 2e-3}, {"fast", 1e-3}, {"slow", 4e-3}};
    return choice;
}

TEST(PlanTuning, CacheRoundTrip) {
    testing::TempDir dir;
    const auto path = dir.path() / "sub" / "tuning.json";
    std::string warning;
    TuningCache cache = TuningCache::load(path, &warning);
    EXPECT_TRUE(warning.empty());
    EXPECT_FALSE(cache.find("dev", "plan").has_value());
    cache.store("dev", "plan", "OP 1x2", sample_choice("fast"));
    ASSERT_TRUE(cache.find("dev", "plan").has_value());  // visible before saving
    ASSERT_TRUE(cache.save().is_ok());

    const TuningCache again = TuningCache::load(path, &warning);
    EXPECT_TRUE(warning.empty());
    const std::optional<PlanChoice> found = again.find("dev", "plan");
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->variant, "fast");
    EXPECT_EQ(found->source, "cache");
    ASSERT_EQ(found->candidates.size(), 3u);
    EXPECT_EQ(found->candidates[2].variant, "slow");
    EXPECT_DOUBLE_EQ(found->candidates[1].seconds, 1e-3);
    EXPECT_DOUBLE_EQ(found->speedup(), 2.0);
    EXPECT_FALSE(again.find("dev", "other plan").has_value());
    EXPECT_FALSE(again.find("other device", "plan").has_value());
}

TEST(PlanTuning, SavingMergesWithWhatAnotherRunSaved) {
    testing::TempDir dir;
    const auto path = dir.path() / "tuning.json";
    TuningCache first = TuningCache::load(path, nullptr);
    TuningCache second = TuningCache::load(path, nullptr);  // loaded before the first saved
    first.store("dev", "p1", "one", sample_choice("fast"));
    second.store("dev", "p2", "two", sample_choice(""));
    ASSERT_TRUE(first.save().is_ok());
    ASSERT_TRUE(second.save().is_ok());
    const TuningCache merged = TuningCache::load(path, nullptr);
    ASSERT_TRUE(merged.find("dev", "p1").has_value());
    ASSERT_TRUE(merged.find("dev", "p2").has_value());
    EXPECT_EQ(merged.find("dev", "p2")->variant, "");
    // No temporary file is left behind.
    size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir.path())) files += entry.is_regular_file();
    EXPECT_EQ(files, 1u);
}

TEST(PlanTuning, AFileThatIsNotACacheIsIgnoredWithAWarningAndReplaced) {
    testing::TempDir dir;
    for (const std::string text : {"not json", "[1, 2]", R"({"format": "other", "devices": {}})",
                                   R"({"format": "dmltool-tuning-cache/1"})"}) {
        const std::string path = dir.write("tuning.json", text);
        std::string warning;
        TuningCache cache = TuningCache::load(path, &warning);
        EXPECT_NE(warning.find("tuning cache ignored"), std::string::npos) << text;
        EXPECT_NE(warning.find("tuning.json"), std::string::npos) << warning;
        cache.store("dev", "plan", "label", sample_choice("fast"));
        ASSERT_TRUE(cache.save().is_ok());
        std::string after;
        EXPECT_TRUE(TuningCache::load(path, &after).find("dev", "plan").has_value()) << text;
        EXPECT_TRUE(after.empty()) << after;
    }
    // Entries of the wrong shape are skipped, not trusted.
    const std::string path = dir.write(
        "odd.json", R"({"format": "dmltool-tuning-cache/1", "devices": {"dev": {"p": {"variant": 3}, "q": []}}})");
    const TuningCache odd = TuningCache::load(path, nullptr);
    EXPECT_FALSE(odd.find("dev", "p").has_value());
    EXPECT_FALSE(odd.find("dev", "q").has_value());
}

TEST(PlanTuning, NothingIsWrittenWithoutAPathOrNewEntries) {
    testing::TempDir dir;
    EXPECT_TRUE(TuningCache().save().is_ok());
    const auto path = dir.path() / "tuning.json";
    EXPECT_TRUE(TuningCache::load(path, nullptr).save().is_ok());
    EXPECT_FALSE(std::filesystem::exists(path));
}

}  // namespace
}  // namespace dmltool
