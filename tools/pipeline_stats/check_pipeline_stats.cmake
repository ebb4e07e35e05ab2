# Runs dmltool_pipeline_stats on one driver and checks that every dispatch it reports has at least one
# statistic, in the console and in the --json file. Prints "PIPELINE_STATS_SKIP" (the test's
# SKIP_REGULAR_EXPRESSION) when the driver is not installed or lacks VK_KHR_pipeline_executable_properties (exit 3).
# -DTOOL= -DENV=VAR=value;... -DCASES= -DFILTER= -DJSON=
foreach(assignment IN LISTS ENV)
  # Two ifs: ${CMAKE_MATCH_1} is expanded before the condition that sets it is evaluated.
  if(assignment MATCHES "^VK_DRIVER_FILES=(.*)$")
    if(NOT EXISTS "${CMAKE_MATCH_1}")
      message("PIPELINE_STATS_SKIP: Vulkan driver manifest ${CMAKE_MATCH_1} not installed")
      return()
    endif()
  endif()
endforeach()
file(REMOVE "${JSON}")
execute_process(COMMAND ${CMAKE_COMMAND} -E env ${ENV} VKD3D_SHADER_DEBUG=none
                        "${TOOL}" "${CASES}" --filter "${FILTER}" --variants --json "${JSON}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(rc EQUAL 3)
  message("PIPELINE_STATS_SKIP: the driver lacks the extension (${err})")
  return()
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "expected exit code 0, found ${rc}")
endif()

# Console: every "dispatch N '...'" block has at least one "name = value" line before the next block.
string(REGEX MATCHALL "[^\n]*  dispatch [0-9]+ '[^\n]*" blocks "${out}")
list(LENGTH blocks block_count)
if(block_count EQUAL 0)
  message(FATAL_ERROR "expected at least one dispatch block in the output")
endif()
string(REPLACE ";" "," flat "${out}")  # CMake lists: keep the text one element
string(REGEX REPLACE "\n[^\n]*  dispatch [0-9]+ '" "\n@@" marked "\n${flat}")
string(REPLACE "@@" ";" pieces "${marked}")
list(REMOVE_AT pieces 0)  # the device line before the first block
foreach(piece IN LISTS pieces)
  if(NOT piece MATCHES "\n    [^\n]+ = [^\n]+")
    message(FATAL_ERROR "a dispatch block has no statistic: '${piece}'")
  endif()
endforeach()

# JSON: the same dispatches, each with an executable that has statistics.
file(READ "${JSON}" json)
string(JSON count LENGTH "${json}" dispatches)
if(NOT count EQUAL block_count)
  message(FATAL_ERROR "--json holds ${count} dispatches, the console ${block_count}")
endif()
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
  string(JSON label GET "${json}" dispatches ${i} label)
  string(JSON executables LENGTH "${json}" dispatches ${i} executables)
  if(executables EQUAL 0)
    message(FATAL_ERROR "dispatch ${i} '${label}': no executable in --json")
  endif()
  string(JSON statistics LENGTH "${json}" dispatches ${i} executables 0 statistics)
  if(statistics EQUAL 0)
    message(FATAL_ERROR "dispatch ${i} '${label}': no statistic in --json")
  endif()
endforeach()
message("checked ${count} dispatches, each with statistics")
