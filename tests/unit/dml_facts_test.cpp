// The typed view of ops/element_wise/dml_facts.inc: the X-macro rows expand into the tables, the words map to
// their enumerators, and the lookups find an operator's members in DirectML's order. (Internal consistency of
// the rows is scripts/check_dml_facts.py's job, run by ctest as dml_facts_consistent.)
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "ops/element_wise/dml_facts.h"

namespace dmltool::dml_facts {
namespace {

// Built at compile time: a row the helpers cannot map fails the build, not a test.
static_assert(find_operator("ELEMENT_WISE_IDENTITY")->type_value == 1);
static_assert(members_of("ELEMENT_WISE_ADD1").size() == 4);

TEST(DmlFacts, EveryRowMapsToKnownWords) {
    for (const OperatorFacts& op : kOperators) {
        EXPECT_NE(op.role, Role::kUnknown) << op.name;
        EXPECT_NE(op.in_place, InPlace::kUnknown) << op.name;
    }
    for (const MemberFacts& member : kMembers) {
        EXPECT_NE(member.kind, MemberKind::kUnknown) << member.op << "." << member.name;
        EXPECT_NE(member.type, MemberType::kUnknown) << member.op << "." << member.name;
        EXPECT_NE(find_operator(member.op), nullptr) << member.op;
    }
}

TEST(DmlFacts, CountsAndUniqueValues) {
    size_t forward = 0;
    std::set<uint32_t> values;
    for (const OperatorFacts& op : kOperators) {
        forward += op.role == Role::kForward;
        EXPECT_TRUE(values.insert(op.type_value).second) << op.name;
    }
    EXPECT_EQ(forward, 89u);
    EXPECT_EQ(std::size(kOperators) - forward, 3u);
}

TEST(DmlFacts, MembersInDirectMlOrder) {
    const auto clip1 = members_of("ELEMENT_WISE_CLIP1");
    std::string names;
    for (const MemberFacts& member : clip1) names += std::string(member.name) + " ";
    EXPECT_EQ(names, "InputTensor OutputTensor ScaleBias MinMaxDataType Min Max ");
    EXPECT_EQ(clip1[0].kind, MemberKind::kInput);
    EXPECT_EQ(clip1[1].kind, MemberKind::kOutput);
    EXPECT_TRUE(clip1[2].optional);
    EXPECT_EQ(clip1[2].type, MemberType::kScaleBias);
    EXPECT_EQ(clip1[3].c_type, "DML_TENSOR_DATA_TYPE");
    EXPECT_EQ(clip1[4].type, MemberType::kScalarUnion);

    const auto add1 = members_of("ELEMENT_WISE_ADD1");
    EXPECT_EQ(add1.back().name, "FusedActivation");
    EXPECT_EQ(add1.back().type, MemberType::kOperatorDesc);

    const auto qadd = members_of("ELEMENT_WISE_QUANTIZED_LINEAR_ADD");
    ASSERT_EQ(qadd.size(), 9u);
    EXPECT_EQ(qadd[6].name, "OutputScaleTensor");
    EXPECT_EQ(qadd[6].kind, MemberKind::kInput);  // an input despite its name
    EXPECT_TRUE(qadd[7].optional);

    EXPECT_TRUE(members_of("ELEMENT_WISE_NOT_AN_OPERATOR").empty());
    EXPECT_EQ(find_operator("ELEMENT_WISE_NOT_AN_OPERATOR"), nullptr);
}

TEST(DmlFacts, ValuesOfSelectedOperators) {
    // Spot checks against DirectML.h's enum positions, and the header block each was declared in.
    EXPECT_EQ(find_operator("ELEMENT_WISE_ADD1")->type_value, 89u);
    EXPECT_EQ(find_operator("ELEMENT_WISE_QUANTIZED_LINEAR_ADD")->type_value, 147u);
    EXPECT_EQ(find_operator("ACTIVATION_GELU")->type_value, 157u);
    EXPECT_EQ(find_operator("ACTIVATION_HARD_SWISH")->type_value, 168u);
    EXPECT_EQ(find_operator("ACTIVATION_GELU")->introduced, fl(5, 1));
    EXPECT_EQ(find_operator("ACTIVATION_RELU_GRAD")->role, Role::kGradient);
    EXPECT_EQ(find_operator("ACTIVATION_SWISH")->in_place, InPlace::kNotListed);
}

TEST(DmlFacts, DataTypeWords) {
    constexpr DataTypeSet types = detail::data_types_of("FLOAT16 INT8");
    static_assert(types.contains(DataType::kFloat16) && types.contains(DataType::kInt8));
    static_assert(!types.contains(DataType::kUint8) && !types.contains(DataType::kFloat32));
    static_assert(!types.contains(DataType::kUnknown));
    static_assert(!detail::data_types_of("").contains(DataType::kUnknown));
    EXPECT_EQ(detail::data_types_of("UINT8 INT64 FLOAT64").to_string(), "UINT8, FLOAT64, INT64");
}

TEST(DmlFacts, SupportTablesAsFeatureLevelTables) {
    // ELEMENT_WISE_ADD's page: levels 1.0, 2.1, 3.0, 4.1, 5.1; INT32 from 2.1, 1 to 8 dims from 3.0, INT64 from
    // 4.1, INT8 from 5.1.
    const FeatureLevelTable add = feature_level_table("ELEMENT_WISE_ADD");
    ASSERT_EQ(add.size(), 5u);
    EXPECT_EQ(add.front().level, fl(1, 0));
    EXPECT_EQ(add.back().level, fl(5, 1));
    for (const FeatureLevelRow& row : add) {
        ASSERT_EQ(row.tensors.size(), 3u);
        EXPECT_EQ(row.tensors[0].field, "ATensor");
        EXPECT_EQ(row.tensors[2].field, "OutputTensor");
    }
    EXPECT_FALSE(add[0].tensors[0].types.contains(DataType::kInt32));
    EXPECT_EQ(add[0].tensors[0].ranks.min, 4u);
    EXPECT_EQ(add[0].tensors[0].ranks.max, 5u);
    EXPECT_TRUE(add[1].tensors[0].types.contains(DataType::kInt32));
    EXPECT_EQ(add[2].tensors[0].ranks.min, 1u);
    EXPECT_FALSE(add[2].tensors[0].types.contains(DataType::kInt64));
    EXPECT_TRUE(add[3].tensors[0].types.contains(DataType::kInt64));
    EXPECT_FALSE(add[3].tensors[0].types.contains(DataType::kInt8));
    EXPECT_TRUE(add[4].tensors[2].types.contains(DataType::kInt8));
    EXPECT_TRUE(feature_level_table("ELEMENT_WISE_NOT_AN_OPERATOR").empty());

    // ZeroPointTensor turns optional at 6.2.
    const auto quantize = rows_of(kSupport, "ELEMENT_WISE_QUANTIZE_LINEAR");
    for (const SupportFacts& row : quantize) {
        if (row.member == "ZeroPointTensor") {
            EXPECT_EQ(row.kind, row.level >= fl(6, 2) ? SupportKind::kOptionalInput : SupportKind::kInput);
        }
    }
    for (const SupportFacts& row : kSupport) {
        EXPECT_NE(row.kind, SupportKind::kUnknown) << row.op;
        EXPECT_NE(row.types.to_string(), "") << row.op << "." << row.member;
    }
}

TEST(DmlFacts, FormulasConstraintsNotesFusable) {
    for (const OperatorFacts& op : kOperators) EXPECT_FALSE(formula_of(op.name).empty()) << op.name;
    EXPECT_EQ(formula_of("ELEMENT_WISE_SUBTRACT"), "y = a - b");

    const auto same = rows_of(kSame, "ELEMENT_WISE_ADD1");
    ASSERT_EQ(same.size(), 3u);
    EXPECT_EQ(same[0].property, SameProperty::kDataType);
    EXPECT_EQ(same[0].members, "ATensor BTensor OutputTensor");
    for (const SameFacts& row : kSame) EXPECT_NE(row.property, SameProperty::kUnknown) << row.op;

    bool log_special = false;
    for (const NoteFacts& note : rows_of(kNotes, "ELEMENT_WISE_LOG")) log_special |= note.kind == NoteKind::kSpecialValues;
    EXPECT_TRUE(log_special);
    for (const NoteFacts& note : kNotes) EXPECT_NE(note.kind, NoteKind::kUnknown) << note.op;

    EXPECT_TRUE(is_fusable("ACTIVATION_GELU"));
    EXPECT_TRUE(is_fusable("ACTIVATION_RELU"));
    EXPECT_FALSE(is_fusable("ACTIVATION_SOFTMAX"));
    EXPECT_FALSE(is_fusable("ELEMENT_WISE_CLIP"));  // Convolution and GEMM only
    EXPECT_EQ(std::size(kFusable), 17u);
}

TEST(DmlFacts, EnumValues) {
    std::string rounding;
    for (const EnumValueFacts& value : kEnumValues)
        if (value.enum_name == "DML_ROUNDING_MODE") rounding += std::string(value.enumerator) + "=" + std::to_string(value.value) + " ";
    EXPECT_EQ(rounding, "HALVES_TO_NEAREST_EVEN=0 TOWARD_ZERO=1 TOWARD_INFINITY=2 ");
}

}  // namespace
}  // namespace dmltool::dml_facts
