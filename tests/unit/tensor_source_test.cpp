#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>

#include "core/hdf5_io.h"
#include "core/tensor_source.h"
#include "temp_dir.h"
#include "tests/testing/op_testing.h"

namespace dmltool {
namespace {

using testing::TempDir;

TensorDesc desc_of(DataType type, Dims sizes) { return testing::packed_desc(type, std::move(sizes)); }

ScalarValue s_int(int64_t v) { return {ScalarValue::Kind::kSigned, v, 0, 0}; }
ScalarValue s_uint(uint64_t v) { return {ScalarValue::Kind::kUnsigned, 0, v, 0}; }
ScalarValue s_float(double v) { return {ScalarValue::Kind::kFloat, 0, 0, v}; }

TensorSource source(decltype(TensorSource::kind) kind) { return TensorSource{std::move(kind), "/inputs/X"}; }

Result<HostTensor> make(const TensorSource& src, const TensorDesc& desc, const std::filesystem::path& base = ".",
                        bool allow_outside = false) {
    return materialize_source(src, desc, base, SourceOptions{allow_outside});
}

std::string error_of(const Result<HostTensor>& r) {
    EXPECT_FALSE(r.is_ok()) << "expected an error";
    return r.is_ok() ? std::string() : r.status().message();
}

TEST(ValuesSource, StoresRowMajor) {
    auto t = make(source(ValuesSource{{s_int(-1), s_uint(2), s_float(3.0), s_int(4)}}), desc_of(DataType::kInt16, {2, 2}));
    ASSERT_TRUE(t.is_ok()) << t.status().message();
    EXPECT_EQ(t->get<int16_t>(0), -1);
    EXPECT_EQ(t->get<int16_t>(1), 2);
    EXPECT_EQ(t->get<int16_t>(2), 3);
    EXPECT_EQ(t->get<int16_t>(3), 4);
}

TEST(ValuesSource, CountMustMatch) {
    EXPECT_EQ(error_of(make(source(ValuesSource{{s_int(1), s_int(2), s_int(3)}}), desc_of(DataType::kInt8, {2, 2}))),
              "/inputs/X/values: expected 4 values (Sizes {2,2}), found 3");
}

TEST(ValuesSource, IntegerRangesPerType) {
    struct Case {
        DataType type;
        ScalarValue value;
        const char* message;
    };
    const Case cases[] = {
        {DataType::kUint8, s_int(256), "expected an integer in [0, 255] for UINT8, found 256"},
        {DataType::kUint8, s_int(-1), "expected an integer in [0, 255] for UINT8, found -1"},
        {DataType::kInt8, s_int(-129), "expected an integer in [-128, 127] for INT8, found -129"},
        {DataType::kInt8, s_int(128), "expected an integer in [-128, 127] for INT8, found 128"},
        {DataType::kUint16, s_int(65536), "expected an integer in [0, 65535] for UINT16, found 65536"},
        {DataType::kInt16, s_int(-32769), "expected an integer in [-32768, 32767] for INT16, found -32769"},
        {DataType::kUint32, s_int(4294967296), "expected an integer in [0, 4294967295] for UINT32, found 4294967296"},
        {DataType::kInt32, s_int(2147483648), "expected an integer in [-2147483648, 2147483647] for INT32, found 2147483648"},
        {DataType::kInt64, s_uint(9223372036854775808ull),
         "expected an integer in [-9223372036854775808, 9223372036854775807] for INT64, found 9223372036854775808"},
        {DataType::kUint64, s_int(-1), "expected an integer in [0, 18446744073709551615] for UINT64, found -1"},
        {DataType::kInt8, s_float(1.5), "expected an integer for INT8, found 1.5"},
        {DataType::kUint32, s_float(std::numeric_limits<double>::quiet_NaN()), "expected an integer for UINT32, found nan"},
    };
    for (const Case& c : cases) {
        const std::string message = error_of(make(source(ValuesSource{{c.value}}), desc_of(c.type, {1})));
        EXPECT_EQ(message, std::string("/inputs/X/values[0]: ") + c.message) << data_type_name(c.type);
    }
}

TEST(ValuesSource, IntegerLimitsAreAccepted) {
    auto u8 = make(source(ValuesSource{{s_int(0), s_int(255)}}), desc_of(DataType::kUint8, {2}));
    ASSERT_TRUE(u8.is_ok());
    EXPECT_EQ(u8->get<uint8_t>(1), 255);
    auto i8 = make(source(ValuesSource{{s_int(-128), s_float(127.0)}}), desc_of(DataType::kInt8, {2}));
    ASSERT_TRUE(i8.is_ok());
    EXPECT_EQ(i8->get<int8_t>(0), -128);
    EXPECT_EQ(i8->get<int8_t>(1), 127);
}

// 64-bit integers must not pass through double: 2^53 + 1 and the extremes keep every bit.
TEST(ValuesSource, SixtyFourBitValuesAreExact) {
    auto u64 = make(source(ValuesSource{{s_uint(18446744073709551615ull), s_uint(9007199254740993ull)}}),
                    desc_of(DataType::kUint64, {2}));
    ASSERT_TRUE(u64.is_ok()) << u64.status().message();
    EXPECT_EQ(u64->get<uint64_t>(0), 18446744073709551615ull);
    EXPECT_EQ(u64->get<uint64_t>(1), 9007199254740993ull);
    auto i64 = make(source(ValuesSource{{s_int(std::numeric_limits<int64_t>::min()), s_int(-9007199254740993ll),
                                         s_uint(9223372036854775807ull)}}),
                    desc_of(DataType::kInt64, {3}));
    ASSERT_TRUE(i64.is_ok()) << i64.status().message();
    EXPECT_EQ(i64->get<int64_t>(0), std::numeric_limits<int64_t>::min());
    EXPECT_EQ(i64->get<int64_t>(1), -9007199254740993ll);
    EXPECT_EQ(i64->get<int64_t>(2), std::numeric_limits<int64_t>::max());
}

TEST(ValuesSource, FloatRanges) {
    EXPECT_EQ(error_of(make(source(ValuesSource{{s_float(65505.0)}}), desc_of(DataType::kFloat16, {1}))),
              "/inputs/X/values[0]: expected a value representable as FLOAT16 (|x| <= 65504), found 65505");
    EXPECT_NE(error_of(make(source(ValuesSource{{s_float(-1e39)}}), desc_of(DataType::kFloat32, {1})))
                  .find("representable as FLOAT32"),
              std::string::npos);
    auto f16 = make(source(ValuesSource{{s_float(65504.0), s_float(-0.0)}}), desc_of(DataType::kFloat16, {2}));
    ASSERT_TRUE(f16.is_ok());
    EXPECT_EQ(f16->get<uint16_t>(0), 0x7bff);
    EXPECT_EQ(f16->get<uint16_t>(1), 0x8000);  // the sign of zero survives
    auto f64 = make(source(ValuesSource{{s_float(1e300)}}), desc_of(DataType::kFloat64, {1}));
    ASSERT_TRUE(f64.is_ok());
    EXPECT_EQ(f64->get<double>(0), 1e300);
}

// "nan"/"inf" strings only exist in the JSON form, so this goes through the case loader.
TEST(ValuesSource, NanAndInfStringsFromJson) {
    TempDir dir;
    const std::string file = dir.write("c.json", R"({"name": "n", "operator": {"type": "DEPTH_TO_SPACE1", "desc": {
        "InputTensor": {"DataType": "FLOAT32", "Sizes": [1, 1, 2, 3]},
        "OutputTensor": {"DataType": "FLOAT32", "Sizes": [1, 1, 2, 3]}, "BlockSize": 1, "Order": "DEPTH_COLUMN_ROW"}},
        "inputs": {"InputTensor": {"values": [["nan", "NaN", "inf"], ["-inf", "Infinity", -2.5]]}}})");
    const OpRegistry registry = make_builtin_registry();
    CaseFile f = load_case_file(file, registry);
    ASSERT_TRUE(f.status.is_ok()) << f.status.message();
    ASSERT_TRUE(f.cases.at(0).status.is_ok()) << f.cases[0].status.message();
    const CaseSpec& spec = f.cases[0].spec;
    const TensorDesc& input = *spec.op->tensors(*spec.desc).at(0).desc;
    auto t = make(spec.inputs.at("InputTensor"), input);
    ASSERT_TRUE(t.is_ok()) << t.status().message();
    EXPECT_TRUE(std::isnan(t->get<float>(0)));
    EXPECT_TRUE(std::isnan(t->get<float>(1)));
    EXPECT_EQ(t->get<float>(2), INFINITY);
    EXPECT_EQ(t->get<float>(3), -INFINITY);
    EXPECT_EQ(t->get<float>(4), INFINITY);
    EXPECT_EQ(t->get<float>(5), -2.5f);
    // The same strings are not integers.
    TensorDesc u8 = desc_of(DataType::kUint8, {1, 1, 2, 3});
    EXPECT_EQ(error_of(make(spec.inputs.at("InputTensor"), u8)),
              "/inputs/InputTensor/values[0]: expected an integer for UINT8, found nan");
}

TEST(RandomBits, IsSplitMix64) {
    // SplitMix64's first output for state 0 (a published test vector of the generator).
    EXPECT_EQ(random_bits(0, 0), 0xe220a8397b1dcdafull);
    EXPECT_NE(random_bits(0, 1), random_bits(0, 0));
    EXPECT_NE(random_bits(1, 0), random_bits(0, 0));
    EXPECT_EQ(random_float_element(7, 3, 2.0, 2.0), 2.0);
    const double unit = random_float_element(7, 3, 0.0, 1.0);
    EXPECT_EQ(unit, double(random_bits(7, 3) >> 11) * 0x1.0p-53);
}

TEST(RandomSource, DeterministicAndSeedDependent) {
    const TensorDesc desc = desc_of(DataType::kFloat32, {64});
    auto a = make(source(RandomSource{7, s_float(-1), s_float(1)}), desc);
    auto b = make(source(RandomSource{7, s_float(-1), s_float(1)}), desc);
    auto c = make(source(RandomSource{8, s_float(-1), s_float(1)}), desc);
    ASSERT_TRUE(a.is_ok() && b.is_ok() && c.is_ok());
    EXPECT_TRUE(std::equal(a->bytes().begin(), a->bytes().end(), b->bytes().begin()));
    EXPECT_FALSE(std::equal(a->bytes().begin(), a->bytes().end(), c->bytes().begin()));
    for (uint64_t i = 0; i < 64; ++i) {
        EXPECT_EQ(a->get<float>(i), float(random_float_element(7, i, -1, 1))) << i;
        EXPECT_GE(a->get<float>(i), -1.0f);
        EXPECT_LE(a->get<float>(i), 1.0f);
    }
}

TEST(RandomSource, IntegersCoverInclusiveRange) {
    auto t = make(source(RandomSource{3, s_int(-2), s_int(1)}), desc_of(DataType::kInt8, {1000}));
    ASSERT_TRUE(t.is_ok());
    std::set<int> seen;
    for (uint64_t i = 0; i < 1000; ++i) seen.insert(t->get<int8_t>(i));
    EXPECT_EQ(seen, (std::set<int>{-2, -1, 0, 1}));
    // Element i is min + bits % width, as documented for other tools to reproduce.
    EXPECT_EQ(t->get<int8_t>(5), int8_t(-2 + int(random_bits(3, 5) % 4)));
}

TEST(RandomSource, FullRangeSixtyFourBit) {
    auto u = make(source(RandomSource{11, s_uint(0), s_uint(std::numeric_limits<uint64_t>::max())}),
                  desc_of(DataType::kUint64, {16}));
    ASSERT_TRUE(u.is_ok()) << u.status().message();
    for (uint64_t i = 0; i < 16; ++i) EXPECT_EQ(u->get<uint64_t>(i), random_bits(11, i)) << i;
    auto s = make(source(RandomSource{11, s_int(std::numeric_limits<int64_t>::min()),
                                      s_int(std::numeric_limits<int64_t>::max())}),
                  desc_of(DataType::kInt64, {16}));
    ASSERT_TRUE(s.is_ok()) << s.status().message();
    for (uint64_t i = 0; i < 16; ++i)
        EXPECT_EQ(uint64_t(s->get<int64_t>(i)), random_bits(11, i) + 0x8000000000000000ull) << i;
}

TEST(RandomSource, RangeErrors) {
    EXPECT_EQ(error_of(make(source(RandomSource{1, s_int(5), s_int(4)}), desc_of(DataType::kInt32, {2}))),
              "/inputs/X/random: expected min <= max, found min 5 and max 4");
    EXPECT_EQ(error_of(make(source(RandomSource{1, s_float(1.5), s_float(-1)}), desc_of(DataType::kFloat32, {2}))),
              "/inputs/X/random: expected min <= max, found min 1.5 and max -1");
    EXPECT_EQ(error_of(make(source(RandomSource{1, s_int(0), s_int(300)}), desc_of(DataType::kUint8, {2}))),
              "/inputs/X/random/max: expected an integer in [0, 255] for UINT8, found 300");
    EXPECT_EQ(error_of(make(source(RandomSource{1, s_float(0.5), s_int(3)}), desc_of(DataType::kUint8, {2}))),
              "/inputs/X/random/min: expected an integer for UINT8, found 0.5");
    EXPECT_NE(error_of(make(source(RandomSource{1, s_int(0), s_float(1e5)}), desc_of(DataType::kFloat16, {2})))
                  .find("/inputs/X/random/max: expected a value representable as FLOAT16"),
              std::string::npos);
}

TEST(SequenceSource, IntegersWrap) {
    auto u8 = make(source(SequenceSource{s_int(250), s_int(3)}), desc_of(DataType::kUint8, {4}));
    ASSERT_TRUE(u8.is_ok());
    EXPECT_EQ(u8->get<uint8_t>(0), 250);
    EXPECT_EQ(u8->get<uint8_t>(1), 253);
    EXPECT_EQ(u8->get<uint8_t>(2), 0);
    EXPECT_EQ(u8->get<uint8_t>(3), 3);
    auto i8 = make(source(SequenceSource{s_int(126), s_int(1)}), desc_of(DataType::kInt8, {3}));
    ASSERT_TRUE(i8.is_ok());
    EXPECT_EQ(i8->get<int8_t>(2), -128);
    auto down = make(source(SequenceSource{s_int(1), s_int(-1)}), desc_of(DataType::kUint16, {3}));
    ASSERT_TRUE(down.is_ok());
    EXPECT_EQ(down->get<uint16_t>(2), 65535);
    EXPECT_EQ(error_of(make(source(SequenceSource{s_float(0.5), s_int(1)}), desc_of(DataType::kInt32, {2}))),
              "/inputs/X/sequence/start: expected an integer for INT32, found 0.5");
}

TEST(SequenceSource, FloatsAndOverflow) {
    auto f = make(source(SequenceSource{s_float(-1), s_float(0.25)}), desc_of(DataType::kFloat32, {5}));
    ASSERT_TRUE(f.is_ok());
    EXPECT_EQ(f->get<float>(4), 0.0f);
    EXPECT_EQ(f->get<float>(1), -0.75f);
    EXPECT_NE(error_of(make(source(SequenceSource{s_int(65000), s_int(1000)}), desc_of(DataType::kFloat16, {3})))
                  .find("/inputs/X/sequence: expected every element representable as FLOAT16 (|x| <= 65504), "
                        "found element 2 = 67000"),
              std::string::npos);
}

TEST(ConstantSource, FillsEveryElement) {
    auto t = make(source(ConstantSource{s_float(0.5)}), desc_of(DataType::kFloat16, {3, 5}));
    ASSERT_TRUE(t.is_ok());
    for (uint64_t i = 0; i < 15; ++i) EXPECT_EQ(t->get<uint16_t>(i), 0x3800) << i;
    EXPECT_EQ(error_of(make(source(ConstantSource{s_int(300)}), desc_of(DataType::kUint8, {2}))),
              "/inputs/X/constant: expected an integer in [0, 255] for UINT8, found 300");
}

TEST(Hdf5Source, PathsThatLeaveTheCaseDirectoryAreRefused) {
    TempDir dir;
    const TensorDesc desc = desc_of(DataType::kUint8, {2});
    const std::string climbs = error_of(make(source(Hdf5Source{"../x.h5", "/d"}), desc, dir.path()));
    EXPECT_EQ(climbs, "/inputs/X/hdf5: expected a path inside the case file's directory, found '../x.h5', which "
                      "climbs out of it (pass --allow-outside-paths to permit it)");
    // Climbing out through a subfolder is still climbing out.
    EXPECT_NE(error_of(make(source(Hdf5Source{"data/../../x.h5", "/d"}), desc, dir.path())).find("climbs out of it"),
              std::string::npos);
    const std::string absolute = error_of(make(source(Hdf5Source{"/tmp/x.h5", "/d"}), desc, dir.path()));
    EXPECT_EQ(absolute, "/inputs/X/hdf5: expected a path relative to the case file, found absolute path '/tmp/x.h5' "
                        "(pass --allow-outside-paths to permit it)");
}

TEST(Hdf5Source, PathsAreJudgedWhereTheyLeadNotHowTheyAreSpelled) {
    TempDir dir;
    std::filesystem::create_directories(dir.path() / "cases" / "sub");
    HostTensor data(desc_of(DataType::kUint8, {2}));
    data.set<uint8_t>(1, 7);
    ASSERT_TRUE(write_hdf5_tensor(dir.path() / "cases" / "x.h5", "/d", data).is_ok());
    const TensorDesc desc = desc_of(DataType::kUint8, {2});
    // Climbs out of cases/ and back in: inside.
    for (const char* spelling : {"../cases/x.h5", "sub/../../cases/x.h5", "sub/../x.h5"}) {
        auto t = make(source(Hdf5Source{spelling, "/d"}), desc, dir.path() / "cases");
        ASSERT_TRUE(t.is_ok()) << spelling << ": " << t.status().message();
        EXPECT_EQ(t->get<uint8_t>(1), 7) << spelling;
    }
    // Out and not back in: refused, whatever the spelling.
    EXPECT_NE(error_of(make(source(Hdf5Source{"../cases2/x.h5", "/d"}), desc, dir.path() / "cases")).find("climbs out"),
              std::string::npos);
}

TEST(Hdf5Source, AllowedPathsReachTheFile) {
    TempDir dir;
    std::filesystem::create_directories(dir.path() / "cases");
    HostTensor data(desc_of(DataType::kUint8, {2}));
    data.set<uint8_t>(0, 4);
    data.set<uint8_t>(1, 9);
    ASSERT_TRUE(write_hdf5_tensor(dir.path() / "data.h5", "/g/d", data).is_ok());
    const std::filesystem::path base = dir.path() / "cases";
    const TensorSource outside = source(Hdf5Source{"../data.h5", "/g/d"});
    EXPECT_FALSE(make(outside, data.desc(), base).is_ok());
    auto allowed = make(outside, data.desc(), base, true);
    ASSERT_TRUE(allowed.is_ok()) << allowed.status().message();
    EXPECT_EQ(allowed->get<uint8_t>(1), 9);
    // A path that wanders but stays inside is fine; errors from the file name the source.
    auto inside = make(source(Hdf5Source{"sub/../data.h5", "/g/d"}), data.desc(), dir.path());
    ASSERT_TRUE(inside.is_ok()) << inside.status().message();
    auto missing = make(source(Hdf5Source{"none.h5", "/g/d"}), data.desc(), dir.path());
    ASSERT_FALSE(missing.is_ok());
    EXPECT_EQ(missing.status().code(), ErrorCode::kIo);
    EXPECT_EQ(missing.status().message().rfind("/inputs/X: HDF5 file '", 0), 0u) << missing.status().message();
    EXPECT_NE(missing.status().message().find("none.h5': no such file"), std::string::npos);
}

}  // namespace
}  // namespace dmltool
