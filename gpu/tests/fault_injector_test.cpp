// The fault-injection test hook itself (no device needed): the DMLTOOL_INJECT_FAULT grammar and when each
// injected HRESULT fires.
#include <gtest/gtest.h>

#include "gpu/fault_injector.h"
#include "gpu/hresult.h"

namespace dmltool::gpu {
namespace {

TEST(FaultPlan, Parses) {
    auto plan = parse_fault_plan("create");
    ASSERT_TRUE(plan.is_ok()) << plan.status().message();
    EXPECT_EQ(plan->fail_creation_at, 1u);
    EXPECT_EQ(plan->out_of_memory_at, 0u);
    EXPECT_EQ(plan->removed_at, 0u);

    plan = parse_fault_plan("removed@2,create@2,oom@7");
    ASSERT_TRUE(plan.is_ok()) << plan.status().message();
    EXPECT_EQ(plan->fail_creation_at, 2u);
    EXPECT_EQ(plan->out_of_memory_at, 7u);
    EXPECT_EQ(plan->removed_at, 2u);

    plan = parse_fault_plan("");
    ASSERT_TRUE(plan.is_ok());
    EXPECT_TRUE(plan->empty());
}

TEST(FaultPlan, RejectsWithTheOffendingItem) {
    for (const char* text : {"oom", "removed", "oom@0", "oom@", "oom@x", "oom@1x", "create@-1", "frob@1", "oom@1,,",
                             "oom@99999999999"}) {
        auto plan = parse_fault_plan(text);
        ASSERT_FALSE(plan.is_ok()) << text;
        EXPECT_EQ(plan.status().code(), ErrorCode::kInvalidInput);
        EXPECT_NE(plan.status().message().find("DMLTOOL_INJECT_FAULT: expected create[@K], oom@N or removed@N"),
                  std::string::npos)
            << plan.status().message();
        EXPECT_NE(plan.status().message().find(std::string("in '") + text + "'"), std::string::npos)
            << plan.status().message();
    }
}

TEST(FaultInjector, CreationFailsOnlyTheChosenOne) {
    FaultInjector injector({.fail_creation_at = 2});
    EXPECT_EQ(injector.on_device_creation(), S_OK);
    EXPECT_EQ(hresult_name(injector.on_device_creation()), "E_FAIL");
    EXPECT_EQ(injector.on_device_creation(), S_OK);
}

TEST(FaultInjector, OutOfMemoryOnceInTheChosenExecution) {
    FaultInjector injector({.out_of_memory_at = 2});
    EXPECT_EQ(injector.on_device_allocation(), S_OK);  // before any execution (e.g. device set-up)
    injector.begin_execution();
    EXPECT_EQ(injector.on_device_allocation(), S_OK);
    injector.begin_execution();
    EXPECT_EQ(hresult_name(injector.on_device_allocation()), "E_OUTOFMEMORY");
    EXPECT_EQ(injector.on_device_allocation(), S_OK);  // once: the case releases and the run goes on
    EXPECT_EQ(injector.on_submission(), S_OK);
    injector.begin_execution();
    EXPECT_EQ(injector.on_device_allocation(), S_OK);
}

TEST(FaultInjector, RemovalOnceInTheChosenExecution) {
    FaultInjector injector({.removed_at = 1});
    EXPECT_EQ(injector.on_submission(), S_OK);
    injector.begin_execution();
    EXPECT_EQ(hresult_name(injector.on_submission()), "DXGI_ERROR_DEVICE_REMOVED");
    EXPECT_TRUE(is_device_removal(static_cast<HRESULT>(0x887a0005u)));
    EXPECT_EQ(injector.on_submission(), S_OK);
    EXPECT_EQ(injector.on_device_allocation(), S_OK);
}

}  // namespace
}  // namespace dmltool::gpu
