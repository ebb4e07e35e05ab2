#include "app/cli_errors.h"

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <map>
#include <regex>

namespace dmltool::app {
namespace {

// The unit of the numeric options that have one: "expected seconds as a number" says at once that "0.2s" has
// one character too many.
const std::map<std::string, std::string>& option_units() {
    static const std::map<std::string, std::string> units = {
        {"--max-time", "seconds"},           {"--max-case-file-size", "MiB"}, {"--max-host-memory", "MiB"},
        {"--max-device-memory", "MiB"},      {"--roofline-mib", "MiB"},       {"--flush-mib", "MiB"},
        {"--max-noise", "a percentage"},     {"--threshold", "a percentage"}, {"--throttle-threshold", "a percentage"},
    };
    return units;
}

// "86400.000000" -> "86400".
std::string trim_number(std::string text) {
    if (text.find('.') == std::string::npos) return text;
    while (!text.empty() && text.back() == '0') text.pop_back();
    if (!text.empty() && text.back() == '.') text.pop_back();
    return text;
}

bool is_number(const std::string& text, bool whole) {
    if (text.empty()) return false;
    char* end = nullptr;
    if (whole) {
        if (text.find_first_not_of("0123456789") != std::string::npos) return false;
        std::strtoull(text.c_str(), &end, 10);
    } else {
        std::strtod(text.c_str(), &end);
    }
    return end && *end == '\0';
}

}  // namespace

std::string see_help(const std::string& subcommand) {
    return " (see dmltool " + (subcommand.empty() ? std::string() : subcommand + " ") + "--help)";
}

std::string parse_error_text(const CLI::App& app, const CLI::ParseError& error, const std::string& subcommand) {
    const std::string text = error.what();
    // CLI11's two wordings of a value that is not a number of the option's type (a range check converts first).
    static const std::regex range(R"(^(--[A-Za-z0-9-]+): Value (.*) not in range (\S+) to (\S+)$)");
    static const std::regex conversion(R"(^Could not convert: (--[A-Za-z0-9-]+) = (.*)$)");
    std::smatch m;
    std::string name, value, low, high;
    if (std::regex_match(text, m, range)) {
        name = m[1], value = m[2], low = trim_number(m[3]), high = trim_number(m[4]);
    } else if (std::regex_match(text, m, conversion)) {
        name = m[1], value = m[2];
    } else {
        return text;
    }
    const CLI::App* owner = &app;
    if (!subcommand.empty()) {
        try {
            owner = app.get_subcommand(subcommand);
        } catch (const CLI::OptionNotFound&) {
        }
    }
    const CLI::Option* option = owner->get_option_no_throw(name);
    if (!option) return text;
    const std::string type = option->get_type_name();
    const bool whole = type.rfind("UINT", 0) == 0 || type.rfind("INT", 0) == 0;
    const std::string kind = whole ? "a whole number" : "a number";
    const auto unit = option_units().find(name);
    const std::string what = unit == option_units().end() ? kind : unit->second + " as " + kind;
    if (!low.empty() && is_number(value, whole))
        return name + ": expected " + what + " from " + low + " to " + high + ", found " + value;
    return name + ": expected " + what + ", found '" + value + "'";
}

}  // namespace dmltool::app
