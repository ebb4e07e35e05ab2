/* Preloaded into every process of the sanitized suite (scripts/sanitizers/env.sh; built by
 * scripts/build_sanitized.sh, uninstrumented): dlclose does nothing, so a shared library stays mapped until exit.
 *
 * Why: the Vulkan loader dlcloses the driver (Debian 12's lavapipe) at vkDestroyInstance. Blocks the driver
 * keeps in its own static variables (one-time initialisation, caches) then lose the only pointers to them, and
 * LeakSanitizer reports them at exit as direct leaks "allocated from <unknown module>": the driver is gone, so
 * no suppression pattern can name it. Seen in CI with mesa-vulkan-drivers 22.3.6-1+deb12u2: a 128-byte block
 * from a pthread_once in vkEnumeratePhysicalDevices in every GPU process, and a 7632-byte one in some. With the
 * driver kept mapped its statics are scanned as roots, so those blocks are reachable (not leaks), while a block
 * dmltool loses is reported as before. */
#include <stddef.h>

int dlclose(void* handle) {
    (void)handle;
    return 0;
}
