# dmltool_add_gtests(TARGET LABEL [SHARDS N] [TIMEOUT S]): registers a GoogleTest executable's tests with ctest.
# - Native builds: each GoogleTest test is a ctest test (gtest_discover_tests), selectable by name and label.
# - The Windows cross build: one ctest test per executable (or per shard of it) through scripts/gtest_once.py, all
#   its tests in one Wine process. One Wine process per test cost about a second each and made the Windows ctest
#   stage 770 s (docs/testing.md: CI time); gtest_once.py keeps the per-test verdicts, the rerun-alone policy for
#   tests that fail once under Wine, and runs on past a crashing test. GTEST_FILTER in the environment narrows it
#   (scripts/test_windows.sh passes the known Wine gaps that way). SHARDS splits a long executable over several
#   ctest tests (GoogleTest's GTEST_TOTAL_SHARDS / GTEST_SHARD_INDEX), so that ctest -j runs them side by side.
find_program(DMLTOOL_GTEST_PYTHON3 NAMES python3)
function(dmltool_add_gtests target label)
  cmake_parse_arguments(arg "" "SHARDS;TIMEOUT" "" ${ARGN})
  # The tests' own translation units at -O1 in Release builds (the last -O wins): the code they test lives in the
  # libraries, which keep -O3. Compiling test files is mostly optimization time (a 5-15 s file gains little from a
  # precompiled header), and they are about 55% of a Release build's compile time, done twice in CI (native and the
  # Windows cross build); -O1 took 30-35% off a test file (14.7 s -> 9.6 s, 13.3 s -> 9.6 s, g++ 12, 2026-11-30).
  target_compile_options(${target} PRIVATE $<$<CONFIG:Release>:-O1>)
  if(NOT (CMAKE_CROSSCOMPILING AND CMAKE_CROSSCOMPILING_EMULATOR))
    gtest_discover_tests(${target} DISCOVERY_MODE PRE_TEST PROPERTIES LABELS ${label})
    return()
  endif()
  if(NOT arg_SHARDS)
    set(arg_SHARDS 1)
  endif()
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT 1200)
  endif()
  math(EXPR last "${arg_SHARDS} - 1")
  foreach(shard RANGE ${last})
    set(name ${target})
    if(arg_SHARDS GREATER 1)
      set(name ${target}_shard${shard})
    endif()
    add_test(NAME ${name}
             COMMAND ${DMLTOOL_GTEST_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/gtest_once.py
                     --exe $<TARGET_FILE:${target}> ${CMAKE_CROSSCOMPILING_EMULATOR})
    set_tests_properties(${name} PROPERTIES LABELS ${label} TIMEOUT ${arg_TIMEOUT})
    if(arg_SHARDS GREATER 1)
      set_tests_properties(${name} PROPERTIES ENVIRONMENT "GTEST_TOTAL_SHARDS=${arg_SHARDS};GTEST_SHARD_INDEX=${shard}")
    endif()
  endforeach()
endfunction()
