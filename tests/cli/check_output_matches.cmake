# Runs dmltool and compares its standard output with a golden file, byte for byte (carriage returns dropped).
#   cmake -DDMLTOOL=path/to/dmltool "-DARGS=list;a.json" -DEXPECTED=golden.txt -DACTUAL=scratch.txt
#         -DREGENERATE="how to regenerate" -P check_output_matches.cmake
cmake_minimum_required(VERSION 3.20)
execute_process(COMMAND "${DMLTOOL}" ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REPLACE "\r" "" out "${out}")
file(WRITE "${ACTUAL}" "${out}")
file(READ "${EXPECTED}" expected)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "dmltool ${ARGS} exited with '${rc}': ${out}${err}")
endif()
if(NOT out STREQUAL expected)
  message(FATAL_ERROR "dmltool ${ARGS}: output (${ACTUAL}) differs from ${EXPECTED}; if the change is intended, "
                      "regenerate it: ${REGENERATE}")
endif()
