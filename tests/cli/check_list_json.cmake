# `dmltool list --json CASE` writes the expanded cases as a document that `dmltool validate` accepts, with as many
# valid cases as `dmltool list CASE` lists.
#   cmake -DDMLTOOL=path/to/dmltool -DCASE=file.json -DOUT=scratch.json -DCOUNT=N -P check_list_json.cmake
cmake_minimum_required(VERSION 3.20)
execute_process(COMMAND "${DMLTOOL}" list --json "${CASE}" RESULT_VARIABLE rc OUTPUT_FILE "${OUT}" ERROR_VARIABLE err)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "dmltool list --json ${CASE} exited with '${rc}': ${err}")
endif()
execute_process(COMMAND "${DMLTOOL}" validate "${OUT}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(FIND "${out}" "validated ${COUNT} cases: ${COUNT} valid, 0 unsupported, 0 invalid" found)
if(NOT rc STREQUAL "0" OR found EQUAL -1)
  message(FATAL_ERROR "dmltool validate of the expansion (${OUT}) exited with '${rc}', expected ${COUNT} valid cases:\n${out}${err}")
endif()
