// DMLTOOL_TEST_SLOWDOWN=CASE_REGEX:FACTOR — a test-only hook (like DMLTOOL_TEST_SLOW_PROBE): `dmltool bench` makes
// every case whose name matches CASE_REGEX (ECMAScript, searched as --filter is) FACTOR times slower, so that the
// regression gate (`dmltool compare`, docs/compare-gate.md) can be shown to catch a slowdown of a known size in a
// known case. Never set it outside tests: a report measured with it says so in its options ("test_slowdown").
//
// How the slowdown is made: on the CPU reference the timed batch itself is extended by spinning for (FACTOR - 1)
// times the batch's measured time inside the timed interval, so the planted time meets the same preemptions as
// the real work. A device's samples are GPU timestamps that host spinning cannot lengthen: they are multiplied by
// FACTOR, and the host spins for the same extra time so that the run's wall time still grows as a real slowdown's.
#pragma once

#include <optional>
#include <regex>
#include <string>

#include "bench/host_timer.h"
#include "core/status.h"

namespace dmltool::app {

struct TestSlowdown {
    std::string text;  // the variable's value, for notes and the report
    std::regex pattern;
    double factor = 1;
    bool matches(const std::string& case_name) const { return std::regex_search(case_name, pattern); }
};

// Parses the value ("REGEX:FACTOR", split at the last ':'; FACTOR a number from 1 to 100). kInvalidInput naming the
// variable, what was expected and what was found.
Result<TestSlowdown> parse_test_slowdown(const std::string& value);

// The slowdown DMLTOOL_TEST_SLOWDOWN asks for; nullopt when it is unset or empty.
Result<std::optional<TestSlowdown>> test_slowdown_from_environment();

// Busy-waits `seconds` on `timer` (spinning, not sleeping: a sleep's wake-up granularity would dominate
// microsecond batches; on the CPU timer the spin is measured like the work it lengthens).
void spin_for(double seconds, HostTimer timer = HostTimer::kWall);

}  // namespace dmltool::app
