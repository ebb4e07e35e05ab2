#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "app/cli.h"
#include "core/platform.h"

int main(int argc, char** argv) {
    dmltool::platform::prepare_console();
    try {
        // UTF-8 arguments on every platform (Windows' argv is in the ANSI code page).
        std::vector<std::string> arguments = dmltool::platform::utf8_arguments(argc, argv);
        std::vector<char*> pointers;
        for (std::string& argument : arguments) pointers.push_back(argument.data());
        pointers.push_back(nullptr);
        return dmltool::app::run_cli(argc, pointers.data());
    } catch (const std::exception& e) {
        // Errors travel as Status; reaching this is a bug, still reported on one line.
        std::fprintf(stderr, "dmltool: internal error: %s\n", e.what());
        return 3;
    }
}
