#include <cstdio>
#include <exception>

#include "app/cli.h"

int main(int argc, char** argv) {
    try {
        return dmltool::app::run_cli(argc, argv);
    } catch (const std::exception& e) {
        // Errors travel as Status; reaching this is a bug, still reported on one line.
        std::fprintf(stderr, "dmltool: internal error: %s\n", e.what());
        return 3;
    }
}
