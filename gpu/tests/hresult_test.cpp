#include <gtest/gtest.h>

#include "gpu/hresult.h"

namespace dmltool::gpu {
namespace {

Status failing_call() {
    DMLTOOL_TRY_HR(static_cast<HRESULT>(0x80070057));
    return Status::ok();
}

TEST(Hresult, NamesCommonCodes) {
    EXPECT_EQ(hresult_name(E_INVALIDARG), "E_INVALIDARG");
    EXPECT_EQ(hresult_name(E_OUTOFMEMORY), "E_OUTOFMEMORY");
    EXPECT_EQ(hresult_name(static_cast<HRESULT>(0x887a0005)), "DXGI_ERROR_DEVICE_REMOVED");
    EXPECT_EQ(hresult_name(static_cast<HRESULT>(0x12345678)), "HRESULT 0x12345678");
    EXPECT_TRUE(is_device_removal(static_cast<HRESULT>(0x887a0006)));
    EXPECT_FALSE(is_device_removal(E_FAIL));
}

TEST(Hresult, TryHrReturnsDeviceStatusNamingTheCall) {
    const Status status = failing_call();
    EXPECT_EQ(status.code(), ErrorCode::kDevice);
    EXPECT_NE(status.message().find("static_cast<HRESULT>(0x80070057)"), std::string::npos) << status.message();
    EXPECT_NE(status.message().find("E_INVALIDARG (0x80070057)"), std::string::npos) << status.message();
    EXPECT_NE(status.message().find("hresult_test.cpp:"), std::string::npos) << status.message();
}

}  // namespace
}  // namespace dmltool::gpu
