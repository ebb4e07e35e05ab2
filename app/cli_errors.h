// Usage-error lines for what CLI11 rejects, in dmltool's style: one line naming the option, what it expects and
// what it found, and the subcommand's --help to read.
#pragma once

#include <string>

namespace CLI {
class App;
class ParseError;
}  // namespace CLI

namespace dmltool::app {

// `dmltool ... --max-time 0.2s`: "--max-time: expected seconds as a number, found '0.2s'" where CLI11 said
// "--max-time: Value 0.2s not in range 0.000000 to 86400.000000"; other errors keep CLI11's text.
std::string parse_error_text(const CLI::App& app, const CLI::ParseError& error, const std::string& subcommand);

// " (see dmltool SUBCOMMAND --help)", or " (see dmltool --help)" without a subcommand.
std::string see_help(const std::string& subcommand);

}  // namespace dmltool::app
