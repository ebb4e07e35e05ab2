#include "bench/slowdown.h"

#include <cmath>
#include <cstdlib>

namespace dmltool::app {

namespace {
constexpr const char* kVariable = "DMLTOOL_TEST_SLOWDOWN";
constexpr double kMaxFactor = 100;  // beyond this a test would only wait longer
}  // namespace

Result<TestSlowdown> parse_test_slowdown(const std::string& value) {
    auto bad = [&](const std::string& expected) {
        return invalid_input(std::string(kVariable) + ": expected " + expected + ", found '" + value + "'");
    };
    const size_t colon = value.rfind(':');
    if (colon == std::string::npos || colon == 0) return bad("CASE_REGEX:FACTOR (e.g. 'perf/d2s:1.3')");
    const std::string factor_text = value.substr(colon + 1);
    char* end = nullptr;
    const double factor = std::strtod(factor_text.c_str(), &end);
    if (factor_text.empty() || end != factor_text.c_str() + factor_text.size() || !std::isfinite(factor) ||
        factor < 1 || factor > kMaxFactor)
        return bad("a FACTOR from 1 to 100 after the last ':'");
    TestSlowdown slowdown;
    slowdown.text = value;
    slowdown.factor = factor;
    try {
        slowdown.pattern = std::regex(value.substr(0, colon), std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
        return bad(std::string("a valid regular expression before the last ':' (") + e.what() + ")");
    }
    return slowdown;
}

Result<std::optional<TestSlowdown>> test_slowdown_from_environment() {
    const char* value = std::getenv(kVariable);
    if (!value || !*value) return std::optional<TestSlowdown>();
    DMLTOOL_ASSIGN_OR_RETURN(TestSlowdown slowdown, parse_test_slowdown(value));
    return std::optional<TestSlowdown>(std::move(slowdown));
}

void spin_for(double seconds, HostTimer timer) {
    if (!(seconds > 0)) return;
    const double until = host_now(timer) + seconds;
    while (host_now(timer) < until) {
    }
}

}  // namespace dmltool::app
