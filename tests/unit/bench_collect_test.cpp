// bench/collect.h: Google Benchmark's "built as DEBUG" warning replaced by what it means for dmltool's figures.
#include "bench/collect.h"

#include <gtest/gtest.h>

namespace dmltool::app {
namespace {

TEST(ExplainLibraryBuildWarning, ReplacesTheWarningLineOnly) {
    const std::string context = "Run on (2 X 2793 MHz CPU s)\n"
                                "***WARNING*** Library was built as DEBUG. Timings may be affected.\n"
                                "Load Average: 1.00\n";
    const std::string explained = explain_library_build_warning(context);
    EXPECT_EQ(explained.find("***WARNING***"), std::string::npos) << explained;
    EXPECT_EQ(explained,
              "Run on (2 X 2793 MHz CPU s)\n"
              "note: Google Benchmark's library was built without NDEBUG (as Debian's package is); dmltool times every "
              "sample itself, so that build does not change the figures\n"
              "Load Average: 1.00\n");
}

TEST(ExplainLibraryBuildWarning, LeavesOtherContextsAlone) {
    const std::string context = "Run on (2 X 2793 MHz CPU s)\n***WARNING*** CPU scaling is enabled\n";
    EXPECT_EQ(explain_library_build_warning(context), context);
}

}  // namespace
}  // namespace dmltool::app
