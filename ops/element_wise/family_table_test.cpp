// The element-wise and activation families as tables: every forward DML_OPERATOR_ELEMENT_WISE_* and
// DML_OPERATOR_ACTIVATION_* type of the DirectML facts is a registry entry; and for every row, random descs from
// its generator parse, derive their minimum feature level, and the reference runs on the generator's inputs with
// its own rounded output inside its own error bound (a reference whose exact values and rounding disagree fails).
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "core/case_generator.h"
#include "core/case_spec.h"
#include "core/tensor_source.h"
#include "ops/element_wise/dml_facts.h"
#include "ops/element_wise/engine.h"
#include "ops/element_wise/family_testing.h"

namespace dmltool::ops::element_wise {
namespace {

using nlohmann::json;

bool in_family(std::string_view name) {
    return name.substr(0, 13) == "ELEMENT_WISE_" || name.substr(0, 11) == "ACTIVATION_";
}

TEST(FamilyTable, EveryForwardTypeOfTheFactsIsRegistered) {
    const OpRegistry registry = make_builtin_registry();
    size_t forward = 0;
    for (const dml_facts::OperatorFacts& facts : dml_facts::kOperators) {
        if (facts.role != dml_facts::Role::kForward) continue;
        ++forward;
        EXPECT_NE(registry.find(facts.name), nullptr) << facts.name << " has no registry entry";
    }
    EXPECT_GE(forward, 75u);
    size_t registered = 0;
    std::set<std::string_view> names;
    for (const auto& op : registry.ops()) {
        if (!in_family(op->name())) continue;
        ++registered;
        EXPECT_TRUE(names.insert(op->name()).second) << op->name() << " twice";
    }
    EXPECT_EQ(registered, forward);
}

TEST(FamilyTable, EveryRowHasMembersFeatureLevelsAndMath) {
    for (const auto* table : {&element_wise_functions(), &activation::activation_functions()})
        for (const FunctionSpec& f : *table) {
            EXPECT_FALSE(f.members.empty()) << f.name;
            EXPECT_FALSE(f.feature_levels.empty()) << f.name;
            EXPECT_FALSE(f.formula.empty()) << f.name;
            EXPECT_FALSE(f.kernel_body.empty()) << f.name;
            ASSERT_NE(f.math, nullptr) << f.name;
            EXPECT_FALSE(f.math->bound_source.empty()) << f.name;
            EXPECT_TRUE(f.math->exact || f.math->integer || f.math->lane) << f.name;
            size_t outputs = 0;
            for (const MemberSpec& m : f.members) outputs += m.kind == MemberKind::kOutputTensor;
            EXPECT_EQ(outputs, 1u) << f.name;
            // Every tensor the feature-level table names is a member.
            for (const FeatureLevelRow& row : f.feature_levels)
                for (const TensorSupport& s : row.tensors) EXPECT_NE(f.member(s.field), nullptr) << f.name << " " << s.field;
        }
}

// The generator's cases of every row load, and the reference's own output passes its own bound.
TEST(FamilyTable, GeneratedCasesRunAndTheReferencePassesItsOwnBound) {
    const OpRegistry registry = make_builtin_registry();
    for (const auto& op : registry.ops()) {
        if (!in_family(op->name())) continue;
        for (uint64_t index = 0; index < 6; ++index) {
            auto generated = generate_case_json(*op, 38, index);
            ASSERT_TRUE(generated.is_ok()) << op->name() << ": " << generated.status().message();
            const json file = {{"cases", json::array({*generated})}};
            CaseFile loaded = load_case_text(file.dump(), "generated.json", registry);
            ASSERT_TRUE(loaded.status.is_ok()) << loaded.status.message();
            ASSERT_EQ(loaded.cases.size(), 1u);
            const LoadedCase& c = loaded.cases[0];
            ASSERT_TRUE(c.status.is_ok()) << c.status.message();
            std::vector<HostTensor> storage;
            std::vector<const HostTensor*> inputs;
            const auto slots = op->tensors(*c.spec.desc);
            storage.reserve(slots.size());
            for (const TensorSlot& slot : slots) {
                if (slot.role != TensorRole::kInput) continue;
                if (!slot.desc) {
                    inputs.push_back(nullptr);
                    continue;
                }
                auto tensor = materialize_source(c.spec.inputs.at(slot.name), *slot.desc, c.spec.base_dir, {});
                ASSERT_TRUE(tensor.is_ok()) << tensor.status().message();
                storage.push_back(from_physical(*slot.desc, to_physical(*tensor)));
                inputs.push_back(&storage.back());
            }
            const testing::Judged j = testing::reference_of(*op, *c.spec.desc, inputs);
            const CompareResult verdict = testing::judge(j, j.reference);
            EXPECT_NE(verdict.verdict, Verdict::kFailed)
                << c.spec.name << ": " << verdict.reason
                << (verdict.mismatches.empty() ? "" : "; " + format_mismatch(verdict.mismatches[0]));
        }
    }
}

}  // namespace
}  // namespace dmltool::ops::element_wise
