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
    double bound = -1;       // error-bound comparisons: the element's bound (|diff| is then the error); else < 0
};

enum class Verdict { kPassed, kFailed, kMistrusted };

struct CompareResult {
    Verdict verdict = Verdict::kPassed;
    std::string reason;  // one line when not passed
    uint64_t element_count = 0;
    uint64_t mismatch_count = 0;
    double max_abs_error = 0;
    uint64_t max_ulp_error = 0;
    double max_bound_ratio = 0;      // error-bound comparisons: the largest |got - exact| / bound
    bool expected_constant = false;  // every expected element is the same value (zero trust: see apply_zero_trust)
    std::vector<Mismatch> mismatches;  // the first few, in index order
    // What each side of a mismatch is, for failure lines (set by the runner): "reference", "reference (exact)",
    // "gpu", "directml", "expected (file)", "deviation model ID". Empty: "expected" (or "exact") and "got".
    std::string expected_side, got_side;
};

// ULP distance between two values of a float type given as raw bits (0 for +0 vs -0; UINT64_MAX when
// exactly one is NaN). For integer types: |a - b| saturated to UINT64_MAX.
uint64_t ulp_distance(DataType type, uint64_t a_bits, uint64_t b_bits);

// `also_accepts` (ExactOutput::also_accepts, when set): an element whose two values differ still passes when both
// are right values of it (e.g. the two nearest elements at a tie).
CompareResult compare_tensors(const HostTensor& expected, const HostTensor& got, const Tolerance& tolerance,
                              size_t max_reported = 8, const AcceptsElement& also_accepts = {});

// Judges `got` against a reference's exact values under an error-bound tolerance (Tolerance::error_bound):
// element i passes when |got_i - exact_i| <= bound_factor * (c_i + half an ulp of got's float type at |exact_i| +
// c_i), c_i = 1.01 * u * scale_i + absolute_floor; for an integer type when |got_i - exact_i| < bound_factor *
// (1 + c_i) (got is then an integer between the floor and the ceiling of a value within c_i of exact_i: any
// conversion to an integer). A non-finite exact value must be matched exactly (NaN by any NaN). bound_factor 2
// judges two implementations that each stay within the bound of the same exact value.
CompareResult compare_to_exact(const ExactOutput& exact, const HostTensor& got, const Tolerance& tolerance,
                               size_t max_reported = 8, double bound_factor = 1.0);
// The values of `values` as the centre, with the scales of `like`: for judging one implementation against
// another's output (a device against a case's expected output, with bound_factor 2).
ExactOutput exact_output_from(const HostTensor& values, const ExactOutput& like);

// The zero-trust rule on a comparison without mismatches: a constant output while the expectation is not
// (an untouched poison fill or zeros) is MISTRUSTED, and so is a constant expectation, unless the caller
// proves the writes (Runner: two poison patterns). Sets result.expected_constant.
void apply_zero_trust(CompareResult& result, bool expected_constant, const std::string& expected_text,
                      const HostTensor& got);
// Whether every element of a logical tensor holds the same bits.
bool all_same_bits(const HostTensor& tensor);

std::string describe_tolerance(const Tolerance& tolerance);  // "bit-exact", "ulp <= 4 or |diff| <= 1e-06"
// One line per mismatch, each side named by its source (`sides`: CompareResult::expected_side, got_side):
// "[0,1,2,3] expected (file) 1.5 (0x3fc00000), reference 1.75 (0x3fe00000): |diff| 0.25, 2097152 ulp"; error-bound
// mismatches: "[0,1] reference (exact) 2.67028809e-05, gpu 2.47955322e-05 (0x37d00000): error 1.91e-06, bound
// 6.1e-08, ratio 31.3". Without names: "expected" (or "exact") and "got".
std::string format_mismatch(const Mismatch& m, const CompareResult& sides);
std::string format_mismatch(const Mismatch& m);

}  // namespace dmltool
