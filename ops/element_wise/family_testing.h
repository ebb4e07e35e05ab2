// Test helpers of the element-wise / activation families (ops/element_wise/*_test.cpp): run a row's reference with
// its exact values on given inputs, and judge an implementation (a function computing each output element) by the
// row's default tolerance, as the runner would.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/compare.h"
#include "core/op_registry.h"
#include "core/thread_pool.h"
#include "ops/element_wise/desc.h"
#include "tests/testing/op_testing.h"

namespace dmltool::ops::element_wise::testing {

struct Judged {
    HostTensor reference;
    ExactOutput exact;
    Tolerance tolerance;
};

// The reference's output and exact values of `desc` on `inputs` (input slot order; null for absent ones).
inline Judged reference_of(const Op& op, const OpDesc& desc, const std::vector<const HostTensor*>& inputs) {
    const auto& d = static_cast<const ElementWiseDesc&>(desc);
    Judged j{HostTensor(d.output), {}, op.default_tolerance(desc, 0)};
    ThreadPool pool(2);
    SemanticsOptions semantics;
    std::vector<ExactOutput> exact(1);
    HostTensor* outputs[] = {&j.reference};
    Status ran = op.run_reference(desc, inputs, outputs, ReferenceContext{pool, semantics, &exact});
    EXPECT_TRUE(ran.is_ok()) << ran.message();
    j.exact = std::move(exact[0]);
    return j;
}

// The verdict on an implementation's output `got` (logical, the output's desc).
inline CompareResult judge(const Judged& j, const HostTensor& got) {
    if (j.tolerance.error_bound) return compare_to_exact(j.exact, got, j.tolerance);
    return compare_tensors(j.reference, got, j.tolerance);
}

// An implementation's output: element i = impl(i) (a double holding the implementation's float32 or integer result).
inline HostTensor output_of(const ElementWiseDesc& d, const std::function<double(uint64_t)>& impl) {
    HostTensor got(d.output);
    for (uint64_t i = 0; i < got.element_count(); ++i) got.set_from_double(i, impl(i));
    return got;
}

// One element of an operator's desc (`desc_json`: every member, tensors of one element) on `inputs`, judged: whether an
// implementation's output value passes, as the runner would decide.
class OneElement {
public:
    OneElement(const char* op, const nlohmann::json& desc_json, std::vector<HostTensor> inputs)
        : registry_(make_builtin_registry()), inputs_(std::move(inputs)) {
        op_ = registry_.find(op);
        auto parsed = dmltool::testing::parse_desc(*op_, desc_json.dump());
        EXPECT_TRUE(parsed.is_ok()) << parsed.status().message();
        desc_ = std::move(parsed).value();
        std::vector<const HostTensor*> pointers;
        for (const HostTensor& t : inputs_) pointers.push_back(&t);
        judged_ = reference_of(*op_, *desc_, pointers);
    }
    bool passes(double v) const {
        const HostTensor got = output_of(static_cast<const ElementWiseDesc&>(*desc_), [&](uint64_t) { return v; });
        return judge(judged_, got).verdict != Verdict::kFailed;
    }

private:
    OpRegistry registry_;
    const Op* op_ = nullptr;
    std::unique_ptr<OpDesc> desc_;
    std::vector<HostTensor> inputs_;
    Judged judged_;
};

}  // namespace dmltool::ops::element_wise::testing
