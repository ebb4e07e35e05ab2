// load_case_text: the in-memory twin of load_case_file (the fuzzer's entry). It must judge text exactly as the
// file loader does and name the given path wherever a file's messages would.
#include <gtest/gtest.h>

#include "core/case_spec.h"
#include "temp_dir.h"

namespace dmltool {
namespace {

constexpr const char* kTwoCases = R"({"cases": [
  {"name": "ok", "operator": {"type": "DEPTH_TO_SPACE1", "desc": {
     "InputTensor": {"DataType": "UINT8", "Sizes": [1, 4, 1, 1]},
     "OutputTensor": {"DataType": "UINT8", "Sizes": [1, 1, 2, 2]}, "BlockSize": 2, "Order": "DEPTH_COLUMN_ROW"}},
   "inputs": {"InputTensor": {"sequence": {"start": 0, "step": 1}}}},
  {"name": "bad", "operator": {"type": "DEPTH_TO_SPACE1", "desc": {
     "InputTensor": {"DataType": "UINT8", "Sizes": [1, 4, 1, 1]},
     "OutputTensor": {"DataType": "UINT8", "Sizes": [1, 1, 2, 2]}, "BlockSize": 3, "Order": "DEPTH_COLUMN_ROW"}},
   "inputs": {"InputTensor": {"constant": 1}}}]})";

TEST(LoadCaseText, JudgesTextAsTheFileLoaderDoes) {
    const OpRegistry registry = make_builtin_registry();
    testing::TempDir dir;
    const std::string path = dir.write("sub/two.json", kTwoCases);
    const CaseFile from_file = load_case_file(path, registry);
    const CaseFile from_text = load_case_text(kTwoCases, path, registry);
    ASSERT_TRUE(from_text.status.is_ok()) << from_text.status.message();
    ASSERT_EQ(from_text.cases.size(), 2u);
    ASSERT_EQ(from_file.cases.size(), 2u);
    for (size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(from_text.cases[i].spec.name, from_file.cases[i].spec.name);
        EXPECT_EQ(from_text.cases[i].status.is_ok(), from_file.cases[i].status.is_ok());
        EXPECT_EQ(from_text.cases[i].status.message(), from_file.cases[i].status.message());
        EXPECT_EQ(from_text.cases[i].spec.base_dir, dir.path() / "sub");
    }
    EXPECT_TRUE(from_text.cases[0].status.is_ok());
    // The case context and JSON pointer come from the given path and the case's place in the file.
    EXPECT_EQ(from_text.cases[1].status.message().rfind(path + ": case 'bad': /cases/1/operator/desc/", 0), 0u)
        << from_text.cases[1].status.message();
}

TEST(LoadCaseText, NamesTheVirtualPathInFileLevelErrors) {
    const OpRegistry registry = make_builtin_registry();
    const CaseFile file = load_case_text("{\"cases\": [1,", "virtual/dir/x.json", registry);
    EXPECT_FALSE(file.status.is_ok());
    EXPECT_EQ(file.path, "virtual/dir/x.json");
    EXPECT_EQ(file.status.message().rfind("virtual/dir/x.json: malformed JSON at line 1, column ", 0), 0u)
        << file.status.message();
}

}  // namespace
}  // namespace dmltool
