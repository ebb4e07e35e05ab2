# Runs `dmltool run --backend cpu CASE` and checks the bad-input contract: exit code 2 (not a crash, not an
# internal error), an [INVALID] report, and a one-line message matching the case's regex. Then the same for
# `dmltool validate CASE`, which must reach the same verdict with the same message (validate makes every check
# that run makes before executing: files, datasets, small inputs' values, limits).
#
#   cmake -DDMLTOOL=path/to/dmltool -DCASE=tests/bad_inputs/x.json [-DREGEX=...] [-DMANIFEST=expectations.txt]
#         [-DEXTRA_ARGS=--opt;value] -P check_bad_input.cmake
#   cmake -DMANIFEST=expectations.txt -DCORPUS_DIR=tests/bad_inputs -P check_bad_input.cmake   (manifest <-> files)
#
# Without REGEX the expectation is looked up in MANIFEST by the file's name ("file.json|regex" lines). Only string
# commands touch the manifest: CMake list commands would mangle regexes that contain brackets or semicolons.
cmake_minimum_required(VERSION 3.20)

function(fail message)
  message(FATAL_ERROR "${message}")
endfunction()

# The manifest with a leading newline so that every entry starts with "\n".
function(read_manifest out)
  if(NOT EXISTS "${MANIFEST}")
    fail("manifest '${MANIFEST}' not found")
  endif()
  file(READ "${MANIFEST}" text)
  set(${out} "\n${text}\n" PARENT_SCOPE)
endfunction()

if(DEFINED CORPUS_DIR AND NOT DEFINED CASE)
  # Every corpus file has exactly one entry and every entry has a file: a forgotten line cannot hide a file.
  read_manifest(text)
  string(REGEX MATCHALL "\n[^#\n|][^\n|]*\\|" entries "${text}")
  set(names "")
  foreach(entry IN LISTS entries)
    string(STRIP "${entry}" entry)
    string(REGEX REPLACE "\\|$" "" name "${entry}")
    if(NOT EXISTS "${CORPUS_DIR}/${name}")
      fail("${MANIFEST}: entry '${name}' has no file in ${CORPUS_DIR}")
    endif()
    if(name IN_LIST names)
      fail("${MANIFEST}: '${name}' is listed twice")
    endif()
    list(APPEND names "${name}")
  endforeach()
  file(GLOB files RELATIVE "${CORPUS_DIR}" "${CORPUS_DIR}/*.json")
  foreach(file IN LISTS files)
    if(NOT file IN_LIST names)
      fail("${CORPUS_DIR}/${file} has no line in ${MANIFEST}")
    endif()
  endforeach()
  list(LENGTH names count)
  message(STATUS "${count} corpus files, each listed once")
  return()
endif()

foreach(var DMLTOOL CASE)
  if(NOT DEFINED ${var})
    fail("pass -D${var}=...")
  endif()
endforeach()
get_filename_component(case_name "${CASE}" NAME)

if(NOT DEFINED REGEX)
  read_manifest(text)
  string(FIND "${text}" "\n${case_name}|" start)
  if(start EQUAL -1)
    fail("${case_name}: no line '${case_name}|regex' in ${MANIFEST}")
  endif()
  string(LENGTH "\n${case_name}|" key_length)
  math(EXPR start "${start} + ${key_length}")
  string(SUBSTRING "${text}" ${start} -1 rest)
  string(FIND "${rest}" "\n" end)
  string(SUBSTRING "${rest}" 0 ${end} REGEX)
  if(REGEX STREQUAL "")
    fail("${case_name}: empty regex in ${MANIFEST}")
  endif()
endif()
set(commands "run --backend cpu" "validate")

foreach(command IN LISTS commands)
  separate_arguments(command_args UNIX_COMMAND "${command}")
  execute_process(
    COMMAND "${DMLTOOL}" ${command_args} ${EXTRA_ARGS} "${CASE}"
    RESULT_VARIABLE rc
    OUTPUT_VARIABLE out
    ERROR_VARIABLE err
    TIMEOUT 60)
  set(all "${out}${err}")
  set(context "${case_name}: dmltool ${command} exited with '${rc}'; output:\n${all}")

  # A signal shows up as text ("Segmentation fault", "Child aborted"), never as 2.
  if(NOT rc STREQUAL "2")
    fail("expected exit code 2 (invalid input). ${context}")
  endif()
  foreach(crash_marker "internal error" "terminate called" "Assertion" "AddressSanitizer" "runtime error:")
    string(FIND "${all}" "${crash_marker}" found)
    if(NOT found EQUAL -1)
      fail("output contains '${crash_marker}'. ${context}")
    endif()
  endforeach()
  string(FIND "${out}" "[INVALID] " found)
  if(found EQUAL -1)
    fail("expected an [INVALID] report line. ${context}")
  endif()
  string(REGEX MATCH "${REGEX}" matched "${all}")
  if(matched STREQUAL "")
    fail("expected the output to match\n  ${REGEX}\n${context}")
  endif()
  # CMake's '.' also matches newlines: make sure the match is one line of output.
  string(FIND "${matched}" "\n" newline)
  if(NOT newline EQUAL -1)
    fail("the message matching the regex spans several lines:\n${matched}\n${context}")
  endif()
endforeach()
