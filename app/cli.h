// Command-line entry point: parses argv with CLI11 and runs one subcommand. Returns the exit code.
#pragma once

namespace dmltool::app {
int run_cli(int argc, char** argv);
}
