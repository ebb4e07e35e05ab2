# Sanitizer and fuzzing instrumentation (docs/testing.md: Sanitizers and fuzzing).
#
# DMLTOOL_SANITIZE: AddressSanitizer + UndefinedBehaviorSanitizer on every target. UBSan normally reports and
# carries on, which would let a test pass over a finding; -fno-sanitize-recover=all makes every report abort.
# cmake/sanitize_ignorelist.txt exempts D3D12 COM calls (gpu/) from the vptr check; GCC has no ignore lists,
# so there vptr is off altogether.
# DMLTOOL_FUZZ: also builds fuzz/ (libFuzzer, clang only). Every library is compiled with
# -fsanitize=fuzzer-no-link so the fuzzer sees coverage of core/ and ops/; only the fuzz target links libFuzzer's
# main. One build tree then serves both the sanitized test suite and the fuzzer (CI builds it once).
if(DMLTOOL_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined -fno-sanitize-recover=all)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    add_compile_options(-fsanitize-ignorelist=${CMAKE_CURRENT_LIST_DIR}/sanitize_ignorelist.txt)
  else()
    add_compile_options(-fno-sanitize=vptr)
  endif()
endif()
if(DMLTOOL_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "DMLTOOL_FUZZ needs clang (libFuzzer), found ${CMAKE_CXX_COMPILER_ID}: "
                        "configure with -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++")
  endif()
  if(NOT DMLTOOL_SANITIZE)
    message(WARNING "DMLTOOL_FUZZ without DMLTOOL_SANITIZE finds only crashes, not memory errors or UB")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
