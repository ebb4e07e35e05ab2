// A per-test scratch directory under the system temp dir, removed on destruction, plus a file writer.
// Tests that load case files or HDF5 data need real files: the loader resolves paths against the file's folder.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/platform.h"

namespace dmltool::testing {

class TempDir {
public:
    TempDir() {
        static std::atomic<unsigned> counter{0};
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        std::string name = info ? std::string(info->test_suite_name()) + "_" + info->name() : "dmltool";
        for (char& c : name)
            if (c == '/') c = '_';
        path_ = std::filesystem::temp_directory_path() /
                ("dmltool_unit_" + std::to_string(platform::process_id()) + "_" + std::to_string(counter++) + "_" + name);
        std::filesystem::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& path() const { return path_; }

    // Writes `text` to `relative` (creating folders) and returns the full path.
    std::string write(const std::string& relative, const std::string& text) const {
        const std::filesystem::path file = path_ / relative;
        std::filesystem::create_directories(file.parent_path());
        std::ofstream out(file, std::ios::binary);
        out << text;
        return file.string();
    }

private:
    std::filesystem::path path_;
};

}  // namespace dmltool::testing
