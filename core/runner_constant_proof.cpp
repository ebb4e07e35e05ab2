#include "core/runner_constant_proof.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "core/backend.h"

namespace dmltool {

// Proves that a producer (the reference, or the device) wrote every element of outputs whose expectation is
// constant, which a single comparison cannot tell from a producer that leaves a buffer holding that constant:
// the outputs are produced with two fill patterns that each fail the comparison at every element (so an
// element left unwritten fails in both runs), and both runs must match the expectation.
// `first` was produced with the first candidate fill (the reference's zero-filled outputs, the device's
// kDefaultOutputPoison); `rerun` produces the outputs again with another fill.
void prove_constant_outputs(const std::vector<Judgement>& judgements, int producer, const std::vector<HostTensor>& first,
                            CaseResult& r, const std::function<Result<std::vector<HostTensor>>(std::byte)>& rerun) {
    std::vector<const Judgement*> pending;
    for (const Judgement& j : judgements)
        if (j.producer == producer && r.outputs[j.report].result.verdict == Verdict::kMistrusted &&
            r.outputs[j.report].result.expected_constant)
            pending.push_back(&j);
    if (pending.empty()) return;
    const bool device = producer >= 0;
    const std::byte first_fill = device ? kDefaultOutputPoison : std::byte{0};
    const std::byte candidates[] = {first_fill, std::byte{0x5a}, std::byte{0xa5}, std::byte{0x3c}, std::byte{0xc3},
                                    std::byte{0xff}, std::byte{0x00}, std::byte{0x7e}, std::byte{0x81}};
    std::vector<std::byte> fills;
    for (std::byte fill : candidates) {
        if (fills.size() == 2) break;
        if (std::find(fills.begin(), fills.end(), fill) != fills.end()) continue;
        bool fails_everywhere = true;
        for (const Judgement* j : pending) {
            HostTensor filled(first[j->output].desc());
            std::memset(filled.bytes().data(), int(fill), filled.bytes().size());
            const CompareResult c = j->judge(filled);
            fails_everywhere &= c.mismatch_count == c.element_count;
        }
        if (fails_everywhere) fills.push_back(fill);
    }
    auto hex = [](std::byte b) {
        char text[8];
        std::snprintf(text, sizeof text, "0x%02x", unsigned(b));
        return std::string(text);
    };
    std::string unproven;
    if (fills.size() < 2) unproven = "no two fill patterns fail the comparison everywhere";
    for (size_t k = 0; k < fills.size() && unproven.empty(); ++k) {
        Result<std::vector<HostTensor>> again = fills[k] == first_fill ? Result<std::vector<HostTensor>>(first)
                                                                        : rerun(fills[k]);
        if (!again.is_ok()) {
            unproven = "the run with fill " + hex(fills[k]) + " failed: " + again.status().message();
            break;
        }
        for (const Judgement* j : pending)
            if (j->judge(again.value()[j->output]).verdict == Verdict::kFailed) {
                unproven = "with the outputs filled with " + hex(fills[k]) + " first, " + r.outputs[j->report].output +
                           " does not match (elements left unwritten)";
                break;
            }
    }
    for (const Judgement* j : pending) {
        CompareResult& result = r.outputs[j->report].result;
        if (!unproven.empty()) {
            result.reason += " (writes not proven: " + unproven + ")";
            continue;
        }
        result.verdict = Verdict::kPassed;
        result.reason.clear();
        r.outputs[j->report].note = "constant expectation, writes proven with two poison patterns (" + hex(fills[0]) +
                                    ", " + hex(fills[1]) + ")";
    }
}

}  // namespace dmltool
