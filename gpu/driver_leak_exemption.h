// LeakSanitizer builds only: exempts allocations a Vulkan driver makes inside a scope from the leak check.
//
// Why: Debian 12's lavapipe (mesa-vulkan-drivers 22.3.6-1+deb12u2, a June 2026 security update) allocates a
// 128-byte block in a pthread_once during vkEnumeratePhysicalDevices and keeps it in a static of
// libvulkan_lvp.so. The Vulkan loader dlcloses the driver at vkDestroyInstance, so at exit LeakSanitizer finds
// the block unreachable, with a stack it cannot symbolize (the module is gone): no suppression file pattern can
// match it ("leak:<unknown module>" is not matched), and unwinding slowly on every malloc to reach a
// symbolizable frame makes the sanitized suite several times slower. Keeping the driver loaded instead
// deadlocks ASan at exit. The exemption covers driver code only; dmltool's own allocations are made elsewhere.
#pragma once

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(leak_sanitizer)
#define DMLTOOL_LEAK_CHECKED_BUILD 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define DMLTOOL_LEAK_CHECKED_BUILD 1
#endif

#if defined(DMLTOOL_LEAK_CHECKED_BUILD)
#include <sanitizer/lsan_interface.h>
#endif

namespace dmltool::gpu {

class DriverAllocationsExemptFromLeakCheck {
public:
    DriverAllocationsExemptFromLeakCheck() {
#if defined(DMLTOOL_LEAK_CHECKED_BUILD)
        __lsan_disable();
#endif
    }
    ~DriverAllocationsExemptFromLeakCheck() {
#if defined(DMLTOOL_LEAK_CHECKED_BUILD)
        __lsan_enable();
#endif
    }
    DriverAllocationsExemptFromLeakCheck(const DriverAllocationsExemptFromLeakCheck&) = delete;
    DriverAllocationsExemptFromLeakCheck& operator=(const DriverAllocationsExemptFromLeakCheck&) = delete;
};

}  // namespace dmltool::gpu
