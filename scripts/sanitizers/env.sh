# Sourced by scripts/test_sanitized.sh and scripts/fuzz.sh: how sanitizer reports behave in build-sanitize/.
# Every report is fatal: ASan aborts on its first error, UBSan is built unrecoverable (halt_on_error would
# also stop a check someone makes recoverable), LeakSanitizer fails the process at exit. The suppression files
# next to this one exempt single frames of uninstrumented system code, each with its reason.
supp_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-14/bin/llvm-symbolizer
export ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1"
export LSAN_OPTIONS="suppressions=$supp_dir/lsan.supp:print_suppressions=0"
# Shared libraries stay mapped until exit (keep_libraries_loaded.c says why: lavapipe's statics would otherwise
# look like leaks once the Vulkan loader unloads it).
keep_loaded="${DMLTOOL_SANITIZE_BUILD_DIR:-$supp_dir/../../build-sanitize}/keep_libraries_loaded.so"
if [ -f "$keep_loaded" ]; then
  export LD_PRELOAD="$(cd "$(dirname "$keep_loaded")" && pwd)/keep_libraries_loaded.so${LD_PRELOAD:+ $LD_PRELOAD}"
fi
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$supp_dir/ubsan.supp"
