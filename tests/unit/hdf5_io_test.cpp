#include <gtest/gtest.h>

#include <cstring>
#include <limits>

#include "core/hdf5_io.h"
#include "temp_dir.h"
#include "tests/testing/op_testing.h"

namespace dmltool {
namespace {

using testing::TempDir;

TensorDesc desc_of(DataType type, Dims sizes) { return testing::packed_desc(type, std::move(sizes)); }

// Distinct bit patterns per element, including each type's extremes, so any byte swap or truncation shows.
HostTensor pattern(DataType type, Dims sizes) {
    HostTensor t(desc_of(type, std::move(sizes)));
    for (uint64_t i = 0; i < t.element_count(); ++i) {
        uint64_t bits = 0x0123456789abcdefull * (i + 1) ^ (i << 56);
        if (i == 0) bits = ~0ull;  // all ones: -1 / max / NaN
        if (i == 1) bits = 1ull << (element_size_in_bits(type) - 1);  // sign bit only: min / -0.0
        std::memcpy(t.element_ptr(i), &bits, t.element_bytes());
    }
    return t;
}

class Hdf5IoTest : public ::testing::TestWithParam<DataType> {};

TEST_P(Hdf5IoTest, RoundTripsEveryBit) {
    TempDir dir;
    const HostTensor written = pattern(GetParam(), {2, 3, 4});
    const auto file = dir.path() / "t.h5";
    ASSERT_TRUE(write_hdf5_tensor(file, "/group/sub/data", written).is_ok());
    auto read = read_hdf5_tensor(file, "/group/sub/data", written.desc());
    ASSERT_TRUE(read.is_ok()) << read.status().message();
    ASSERT_EQ(read->bytes().size(), written.bytes().size());
    EXPECT_EQ(std::memcmp(read->bytes().data(), written.bytes().data(), written.bytes().size()), 0);
    // The same data may be read as a 1-D dataset of the element count, and a 1-D dataset as any shape.
    auto flat = read_hdf5_tensor(file, "/group/sub/data", desc_of(GetParam(), {24}));
    EXPECT_FALSE(flat.is_ok());  // 3-D dataset is not 1-D: only the other direction is allowed
    HostTensor flat_written = pattern(GetParam(), {24});
    ASSERT_TRUE(write_hdf5_tensor(file, "flat", flat_written).is_ok());
    auto reshaped = read_hdf5_tensor(file, "flat", written.desc());
    ASSERT_TRUE(reshaped.is_ok()) << reshaped.status().message();
    EXPECT_EQ(std::memcmp(reshaped->bytes().data(), flat_written.bytes().data(), flat_written.bytes().size()), 0);
}

INSTANTIATE_TEST_SUITE_P(AllTypes, Hdf5IoTest, ::testing::ValuesIn(kAllTensorDataTypes),
                         [](const auto& info) { return std::string(data_type_name(info.param)); });

TEST(Hdf5Io, WriteReplacesExistingDataset) {
    TempDir dir;
    const auto file = dir.path() / "t.h5";
    HostTensor first(desc_of(DataType::kInt32, {2}));
    first.set<int32_t>(0, 1);
    ASSERT_TRUE(write_hdf5_tensor(file, "/d", first).is_ok());
    HostTensor second(desc_of(DataType::kFloat32, {3}));
    second.set<float>(2, 2.5f);
    ASSERT_TRUE(write_hdf5_tensor(file, "/d", second).is_ok());
    auto read = read_hdf5_tensor(file, "/d", second.desc());
    ASSERT_TRUE(read.is_ok()) << read.status().message();
    EXPECT_EQ(read->get<float>(2), 2.5f);
}

TEST(Hdf5Io, MissingFile) {
    TempDir dir;
    auto r = read_hdf5_tensor(dir.path() / "none.h5", "/d", desc_of(DataType::kInt8, {1}));
    ASSERT_FALSE(r.is_ok());
    EXPECT_EQ(r.status().code(), ErrorCode::kIo);
    EXPECT_EQ(r.status().message(), "HDF5 file '" + (dir.path() / "none.h5").generic_string() + "': no such file");
}

TEST(Hdf5Io, DirectoryIsNotAFile) {
    TempDir dir;
    auto r = read_hdf5_tensor(dir.path(), "/d", desc_of(DataType::kInt8, {1}));
    ASSERT_FALSE(r.is_ok());
    EXPECT_NE(r.status().message().find("': expected a file, found a directory"), std::string::npos);
}

TEST(Hdf5Io, NotAnHdf5File) {
    TempDir dir;
    const std::string garbage(2048, '\x5a');
    const std::string file = dir.write("junk.h5", garbage);
    auto r = read_hdf5_tensor(file, "/d", desc_of(DataType::kInt8, {1}));
    ASSERT_FALSE(r.is_ok());
    EXPECT_EQ(r.status().code(), ErrorCode::kIo);
    EXPECT_EQ(r.status().message(), "HDF5 file '" + std::filesystem::path(file).generic_string() +
                                        "': not an HDF5 file (corrupt or another format)");
    const std::string empty = dir.write("empty.h5", "");
    EXPECT_FALSE(read_hdf5_tensor(empty, "/d", desc_of(DataType::kInt8, {1})).is_ok());
}

class Hdf5ErrorsTest : public ::testing::Test {
protected:
    void SetUp() override {
        HostTensor t(desc_of(DataType::kFloat32, {2, 3}));
        ASSERT_TRUE(write_hdf5_tensor(file_, "/g/data", t).is_ok());
        HostTensor i(desc_of(DataType::kInt32, {6}));
        ASSERT_TRUE(write_hdf5_tensor(file_, "/g/ints", i).is_ok());
    }
    std::string error(const std::string& dataset, const TensorDesc& desc) {
        auto r = read_hdf5_tensor(file_, dataset, desc);
        EXPECT_FALSE(r.is_ok()) << dataset;
        if (r.is_ok()) return {};
        EXPECT_EQ(r.status().code(), ErrorCode::kInvalidInput) << r.status().message();
        return r.status().message();
    }
    std::string where(const std::string& dataset) const {
        return "HDF5 file '" + file_.generic_string() + "', dataset '" + dataset + "': ";
    }
    TempDir dir_;
    std::filesystem::path file_ = dir_.path() / "t.h5";
};

TEST_F(Hdf5ErrorsTest, MissingDataset) {
    EXPECT_EQ(error("/g/nope", desc_of(DataType::kFloat32, {2, 3})), where("/g/nope") + "no such dataset (missing '/g/nope')");
    // A missing intermediate group is named instead of HDF5 failing on the full path.
    EXPECT_EQ(error("/h/i/j", desc_of(DataType::kFloat32, {2, 3})), where("/h/i/j") + "no such dataset (missing '/h')");
    EXPECT_EQ(error("/g", desc_of(DataType::kFloat32, {2, 3})), where("/g") + "expected a dataset, found a group");
}

TEST_F(Hdf5ErrorsTest, WrongDtype) {
    EXPECT_EQ(error("/g/data", desc_of(DataType::kFloat64, {2, 3})),
              where("/g/data") + "expected FLOAT64 elements (the tensor's DataType), found float32");
    EXPECT_EQ(error("/g/data", desc_of(DataType::kInt32, {2, 3})),
              where("/g/data") + "expected INT32 elements (the tensor's DataType), found float32");
    // Signedness matters even at equal width.
    EXPECT_EQ(error("/g/ints", desc_of(DataType::kUint32, {6})),
              where("/g/ints") + "expected UINT32 elements (the tensor's DataType), found int32");
}

TEST_F(Hdf5ErrorsTest, WrongShape) {
    EXPECT_EQ(error("/g/data", desc_of(DataType::kFloat32, {3, 2})),
              where("/g/data") + "expected shape {3,2} (or 1-D with 6 elements), found {2,3}");
    EXPECT_EQ(error("/g/data", desc_of(DataType::kFloat32, {1, 2, 3})),
              where("/g/data") + "expected shape {1,2,3} (or 1-D with 6 elements), found {2,3}");
    EXPECT_EQ(error("/g/ints", desc_of(DataType::kInt32, {7})),
              where("/g/ints") + "expected shape {7} (or 1-D with 7 elements), found {6}");
}

}  // namespace
}  // namespace dmltool
