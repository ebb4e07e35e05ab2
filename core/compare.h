// Element-wise comparison of two logical tensors under an operator's Tolerance, with the zero-trust rule:
// an output that is constant (all zeros, or an untouched poison fill) while the expectation is not never
// passes, and a constant expectation cannot prove anything, so neither yields PASSED.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/op.h"
#include "core/tensor.h"

namespace dmltool {

struct Mismatch {
    uint64_t index = 0;
    std::vector<uint32_t> coordinates;
    std::string expected;  // value text (with hex bits for floats)
    std::string got;
    double abs_error = 0;
    uint64_t ulp_error = 0;  // UINT64_MAX for NaN vs number
};

enum class Verdict { kPassed, kFailed, kMistrusted };

struct CompareResult {
    Verdict verdict = Verdict::kPassed;
    std::string reason;  // one line when not passed
    uint64_t element_count = 0;
    uint64_t mismatch_count = 0;
    double max_abs_error = 0;
    uint64_t max_ulp_error = 0;
    std::vector<Mismatch> mismatches;  // the first few, in index order
};

// ULP distance between two values of a float type given as raw bits (0 for +0 vs -0; UINT64_MAX when
// exactly one is NaN). For integer types: |a - b| saturated to UINT64_MAX.
uint64_t ulp_distance(DataType type, uint64_t a_bits, uint64_t b_bits);

CompareResult compare_tensors(const HostTensor& expected, const HostTensor& got, const Tolerance& tolerance,
                              size_t max_reported = 8);

std::string describe_tolerance(const Tolerance& tolerance);  // "bit-exact", "ulp <= 4 or |diff| <= 1e-06"
// One line per mismatch: "[0,1,2,3] expected 1.5 (0x3fc00000) got 1.75 (0x3fe00000) |diff| 0.25, 2097152 ulp"
std::string format_mismatch(const Mismatch& m);

}  // namespace dmltool
