// The zero-trust rule's second half for the runner (core/compare.h, apply_zero_trust): a comparison whose
// expectation is constant passes only once the producer is proven to write every element. Internal to
// core/runner.cpp.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "core/compare.h"
#include "core/runner.h"
#include "core/status.h"
#include "core/tensor.h"

namespace dmltool {

// One comparison of CaseResult::outputs: its index there, the output slot, whether the device produced the
// judged output (else the reference), and the same judgement applied to another output of that producer.
struct Judgement {
    size_t report;
    size_t output;
    int producer;  // -1: the CPU reference; k: the k-th device backend of the run
    std::function<CompareResult(const HostTensor&)> judge;
};

// Proves that a producer (the reference, or the device) wrote every element of outputs whose expectation is
// constant, which a single comparison cannot tell from a producer that leaves a buffer holding that constant:
// the outputs are produced with two fill patterns that each fail the comparison at every element (so an
// element left unwritten fails in both runs), and both runs must match the expectation.
// `first` was produced with the first candidate fill (the reference's zero-filled outputs, the device's
// kDefaultOutputPoison); `rerun` produces the outputs again with another fill.
void prove_constant_outputs(const std::vector<Judgement>& judgements, int producer, const std::vector<HostTensor>& first,
                            CaseResult& r, const std::function<Result<std::vector<HostTensor>>(std::byte)>& rerun);

}  // namespace dmltool
