# ldg_probe_runs(<result> SOURCE_FILE <file> CODE <text>
#                [INCLUDES ...] [LIBRARIES ...] [LINK_OPTIONS ...] [FLAGS ...]):
# whether a program made of the file's text followed by CODE compiles, links
# with those libraries and options, and runs returning 0; <result> is the
# cache variable check_cxx_source_runs keeps. How cmake/libgit2.cmake and
# cmake/runtime.cmake ask whether an archive links before they choose it
# (else they link shared and say so), with no CMAKE_REQUIRED_* left behind.
include(CheckCXXSourceRuns)
include(CMakePushCheckState)

function(ldg_probe_runs result)
  cmake_parse_arguments(PARSE_ARGV 1 P "" "SOURCE_FILE;CODE" "INCLUDES;LIBRARIES;LINK_OPTIONS;FLAGS")
  file(READ ${P_SOURCE_FILE} _source)
  cmake_push_check_state(RESET)
  set(CMAKE_REQUIRED_INCLUDES ${P_INCLUDES})
  set(CMAKE_REQUIRED_LIBRARIES ${P_LIBRARIES})
  set(CMAKE_REQUIRED_LINK_OPTIONS ${P_LINK_OPTIONS})
  set(CMAKE_REQUIRED_FLAGS ${P_FLAGS})
  set(CMAKE_REQUIRED_QUIET ON)
  check_cxx_source_runs("${_source}\n${P_CODE}" ${result})
  cmake_pop_check_state()
endfunction()
