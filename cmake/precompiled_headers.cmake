# Precompiled headers (DMLTOOL_PCH, off by default; scripts/build_sanitized.sh turns them on).
#
# Why: part of a translation unit's front-end time here is parsing the same heavy headers: <nlohmann/json.hpp> alone
# costs 1-2 s per TU, <gtest/gtest.h> ~1.3 s, the common STL headers ~0.9 s, in TUs of 2-15 s.
# Measured (2026-11-30, shared 2-core machine, ccache off; docs/testing.md, "CI stages and their times"): per TU,
# clang with ASan + UBSan + fuzzer instrumentation -17% of user CPU time (5 TUs, 34.3 -> 28.6 s), so the sanitized
# build uses them; g++ -O3 only -12% per TU (optimization dominates; GCC pays ~0.3 s to load its 110 MB .gch even in
# TUs that do not use json) and the whole native Release build took 1104 s before and 1111 s after, with 32 new
# false-positive warnings from libstdc++ (below): the g++ builds (native, MinGW-w64) leave them off.
#
# How: two precompiled headers, each compiled once per build tree by a small donor target and reused by every
# target (REUSE_FROM) rather than recompiled per target:
# - dmltool_pch_lib: nlohmann/json and the STL headers the project uses most, for every library and executable;
# - dmltool_pch_gtest: the same plus <gtest/gtest.h>, for the GoogleTest executables (the targets linking GTest).
# REUSE_FROM needs the consumer's compile flags to match the donor's. Every flag here is set for the whole project
# (add_compile_options before the add_subdirectory calls: warnings, -ffp-contract=off, sanitizers, fuzzer
# instrumentation), and the donors carry the same usage requirements as their consumers (nlohmann_json; GTest's
# -DGTEST_HAS_PTHREAD=1). Targets' own definitions (DMLTOOL_SOURCE_DIR, DMLTOOL_HAVE_SQLITE, ...) come on top:
# clang accepts command-line macros the PCH did not have, and GCC only rejects a PCH over macros the headers use.
# GCC falls back to parsing the header when a PCH does not fit (CMake adds -Winvalid-pch, which says so); clang
# stops with an error, so a mismatch cannot go unnoticed in either.
#
# Side effect seen with GCC 12 (native) when turned on: 28 -Wstringop-overflow and 4 -Warray-bounds in libstdc++'s
# std::string code (the false-positive family of GCC bug 105329, for which -Wno-restrict is already set) that
# the build without PCH does not print; warnings only, the flags are left as they were.
#
# The sources still include what they use: the PCH only comes first (an -include). A build with
# -DDMLTOOL_PCH=OFF checks that nothing leans on it.
#
# ccache: ccache caches PCH builds only with `sloppiness = pch_defines,time_macros` (ccache.conf or
# CCACHE_SLOPPINESS); without it every TU that uses a PCH is compiled uncached (correct, just slow). With clang the
# PCH must also be made without its timestamp, which is added below when the compiler launcher is ccache.
option(DMLTOOL_PCH "Precompile the common heavy headers (nlohmann/json, GoogleTest, STL) once per build tree" OFF)

set(DMLTOOL_PCH_HEADERS
    <nlohmann/json.hpp>
    <algorithm> <array> <bit> <chrono> <cmath> <cstddef> <cstdint> <cstdio> <cstdlib> <cstring> <filesystem>
    <fstream> <functional> <limits> <map> <memory> <optional> <random> <set> <span> <sstream> <string>
    <string_view> <utility> <vector>)

# dmltool_precompiled_headers(): call once, at the end of the top-level CMakeLists.txt, after every target exists.
# Gives every C++ library and executable of the project one of the two shared PCHs.
function(dmltool_precompiled_headers)
  if(NOT DMLTOOL_PCH OR MSVC)  # the MSVC build (vcpkg) is not a CI build and not tried with PCH
    return()
  endif()
  set(anchor ${CMAKE_BINARY_DIR}/pch/pch_anchor.cpp)
  file(CONFIGURE OUTPUT ${anchor} CONTENT "// The donor target's one source: the target exists to build the PCH.\n")
  add_library(dmltool_pch_lib OBJECT ${anchor})
  target_link_libraries(dmltool_pch_lib PRIVATE nlohmann_json::nlohmann_json)
  target_precompile_headers(dmltool_pch_lib PRIVATE ${DMLTOOL_PCH_HEADERS})
  set(donors dmltool_pch_lib)
  if(BUILD_TESTING)
    add_library(dmltool_pch_gtest OBJECT ${anchor})
    target_link_libraries(dmltool_pch_gtest PRIVATE nlohmann_json::nlohmann_json GTest::gtest)
    target_precompile_headers(dmltool_pch_gtest PRIVATE ${DMLTOOL_PCH_HEADERS} <gtest/gtest.h>)
    target_compile_options(dmltool_pch_gtest PRIVATE $<$<CONFIG:Release>:-O1>)  # as dmltool_add_gtests' targets
    list(APPEND donors dmltool_pch_gtest)
  endif()
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang" AND CMAKE_CXX_COMPILER_LAUNCHER MATCHES "ccache")
    # ccache hashes the PCH file; clang's default timestamp in it would make every PCH build a new input.
    foreach(donor IN LISTS donors)
      target_compile_options(${donor} PRIVATE "SHELL:-Xclang -fno-pch-timestamp")
    endforeach()
  endif()

  # Every target of the project, walking the directory tree.
  set(dirs ${PROJECT_SOURCE_DIR})
  set(targets "")
  while(dirs)
    list(POP_FRONT dirs dir)
    get_property(sub DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
    get_property(dir_targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
    list(APPEND dirs ${sub})
    list(APPEND targets ${dir_targets})
  endwhile()
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(NOT type MATCHES "^(STATIC_LIBRARY|OBJECT_LIBRARY|EXECUTABLE)$" OR target IN_LIST donors)
      continue()
    endif()
    get_target_property(sources ${target} SOURCES)
    if(NOT sources MATCHES "\\.cpp(;|$)")  # e.g. case_file_fuzzer: only the objects of another target
      continue()
    endif()
    get_target_property(libraries ${target} LINK_LIBRARIES)
    if(BUILD_TESTING AND libraries MATCHES "(^|;)GTest::")
      target_precompile_headers(${target} REUSE_FROM dmltool_pch_gtest)
    else()
      target_precompile_headers(${target} REUSE_FROM dmltool_pch_lib)
    endif()
  endforeach()
endfunction()
