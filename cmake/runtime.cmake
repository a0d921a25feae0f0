# The C++ runtime, yaml-cpp and fmt, and how they are linked: the `lg_yaml_cpp`
# and `lg_fmt` targets every user of them links (ledgergate_core, the fuzz
# core), and the `ldg_static_runtime` options the ledgergate executable links.
#
# Static by default (LEDGERGATE_STATIC_RUNTIME), as libgit2 is
# (cmake/libgit2.cmake): linked shared, libstdc++, libyaml-cpp and libfmt are
# three shared libraries whose symbols the dynamic linker binds at every
# start, about half of a `merge-file` process (2.1 of 4.5 M instructions:
# docs/performance.md, "Start-up"). Linked static, the link editor binds
# them once; the executable then loads only libc and libm.
# - yaml-cpp: Debian's libyaml-cpp-dev ships libyaml-cpp.a.
# - fmt: libfmt-dev ships no archive, but its headers hold the whole
#   implementation: src/util/link/fmt_format.cpp compiles it once (the
#   `lg_fmt_impl` object library), and every other translation unit includes
#   <fmt/format.h> as it would with the shared library.
# - libstdc++ and libgcc: -static-libstdc++ -static-libgcc, on the executable
#   only (the test programs keep the shared runtime; they link the same
#   yaml-cpp and fmt objects).
# - libm: libstdc++'s floating-point from_chars and to_chars (the YAML
#   reader's numbers) call fegetround and fesetround, the only two libm
#   symbols the executable refers to. Their two objects are taken out of
#   glibc's libm.a and linked in (leaf functions that read and set the x87
#   and SSE rounding modes, calling nothing in libc but the stack
#   protector's __stack_chk_fail), so libm.so is not loaded: one shared library fewer to map and relocate, its
#   IFUNC resolvers not run (23 k instructions and 8-11 page faults of a
#   `merge-file` process: docs/performance.md, "Start-up"). Where libm.a is
#   missing or the probe does not run, libm stays shared.
# Off under the sanitizers (their runtimes replace operator new and delete,
# which a static libstdc++ would also define) and for the fuzz build. Where
# an archive is missing, or a probe program linked that way does not link and
# run, the build says so and links all three shared, as
# LEDGERGATE_STATIC_RUNTIME=OFF does.
option(LEDGERGATE_STATIC_RUNTIME "Link libstdc++, yaml-cpp and fmt statically into the executable" ON)

add_library(lg_yaml_cpp INTERFACE)
add_library(lg_fmt INTERFACE)
add_library(ldg_static_runtime INTERFACE)
set(LEDGERGATE_RUNTIME_LINKAGE shared)
set(LEDGERGATE_LIBM_LINKAGE shared)  # libm's fegetround and fesetround (below)
if(LEDGERGATE_STATIC_RUNTIME AND NOT LEDGERGATE_SANITIZE)
  find_library(LEDGERGATE_ARCHIVE_yaml-cpp NAMES libyaml-cpp.a)
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libstdc++.a
                  OUTPUT_VARIABLE _libstdcxx OUTPUT_STRIP_TRAILING_WHITESPACE)
  get_target_property(_fmt_includes fmt::fmt INTERFACE_INCLUDE_DIRECTORIES)
  get_target_property(_yaml_includes yaml-cpp INTERFACE_INCLUDE_DIRECTORIES)
  if(NOT LEDGERGATE_ARCHIVE_yaml-cpp)
    message(STATUS "runtime: libyaml-cpp.a not found: linking the C++ runtime, yaml-cpp and fmt shared")
  elseif(NOT IS_ABSOLUTE "${_libstdcxx}")
    message(STATUS "runtime: ${CMAKE_CXX_COMPILER} has no libstdc++.a: linking the C++ runtime, yaml-cpp and fmt shared")
  else()
    # The probe: fmt's implementation and yaml-cpp's archive, linked with the
    # static runtime, format (locale-dependent too) and parse.
    ldg_probe_runs(LEDGERGATE_STATIC_RUNTIME_LINKS
      SOURCE_FILE ${PROJECT_SOURCE_DIR}/src/util/link/fmt_format.cpp
      CODE "#include <fmt/format.h>
#include <yaml-cpp/yaml.h>
int main() {
  const YAML::Node n = YAML::Load(\"a: [1, 2]\");
  return fmt::format(\"{:L}|{}|{:.2f}\", 1234, n[\"a\"][1].as<int>(), 0.5) == \"1234|2|0.50\" ? 0 : 1;
}"
      INCLUDES ${_fmt_includes} ${_yaml_includes}
      LIBRARIES ${LEDGERGATE_ARCHIVE_yaml-cpp}
      LINK_OPTIONS -static-libstdc++ -static-libgcc
      FLAGS -std=c++20)
    if(LEDGERGATE_STATIC_RUNTIME_LINKS)
      set(LEDGERGATE_RUNTIME_LINKAGE static)
    else()
      message(STATUS "runtime: a program linked with the static runtime did not link or run: linking it shared")
    endif()
  endif()
endif()

if(LEDGERGATE_RUNTIME_LINKAGE STREQUAL "static")
  target_include_directories(lg_yaml_cpp INTERFACE ${_yaml_includes})
  target_link_libraries(lg_yaml_cpp INTERFACE ${LEDGERGATE_ARCHIVE_yaml-cpp})
  add_library(lg_fmt_impl OBJECT ${PROJECT_SOURCE_DIR}/src/util/link/fmt_format.cpp)
  target_include_directories(lg_fmt_impl PRIVATE ${_fmt_includes})
  target_compile_features(lg_fmt_impl PRIVATE cxx_std_20)
  target_include_directories(lg_fmt INTERFACE ${_fmt_includes})
  target_link_libraries(lg_fmt INTERFACE $<TARGET_OBJECTS:lg_fmt_impl>)
  target_link_options(ldg_static_runtime INTERFACE -static-libstdc++ -static-libgcc)
  # libm's rounding-mode pair, the two objects taken out of libm's archive
  # and linked as objects: the link editor then takes nothing else from
  # libm.a (any other libm function a build refers to, a Debug build's
  # out-of-line ceil say, still comes from libm.so, which the as-needed
  # link then keeps), and libm.so, supplying nothing, is dropped.
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libm.a
                  OUTPUT_VARIABLE _libm OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(IS_ABSOLUTE "${_libm}" AND EXISTS "${_libm}")
    # Debian's libm.a is a linker script naming the archive (GROUP ( .../libm-2.36.a ... )).
    file(READ "${_libm}" _libm_head LIMIT 512)
    if(NOT _libm_head MATCHES "^!<arch>" AND _libm_head MATCHES "GROUP *\\( *([^ )]+libm[^ )]*\\.a)")
      set(_libm "${CMAKE_MATCH_1}")
    endif()
  endif()
  set(_libm_objects ${PROJECT_BINARY_DIR}/libm-rounding/fegetround.o ${PROJECT_BINARY_DIR}/libm-rounding/fesetround.o)
  set(_libm_extracted FALSE)
  if(IS_ABSOLUTE "${_libm}" AND EXISTS "${_libm}")
    file(MAKE_DIRECTORY ${PROJECT_BINARY_DIR}/libm-rounding)
    execute_process(COMMAND ${CMAKE_AR} x "${_libm}" fegetround.o fesetround.o
                    WORKING_DIRECTORY ${PROJECT_BINARY_DIR}/libm-rounding RESULT_VARIABLE _ar_rc
                    OUTPUT_QUIET ERROR_QUIET)
    if(_ar_rc EQUAL 0 AND EXISTS "${PROJECT_BINARY_DIR}/libm-rounding/fegetround.o"
       AND EXISTS "${PROJECT_BINARY_DIR}/libm-rounding/fesetround.o")
      set(_libm_extracted TRUE)
    endif()
  endif()
  if(_libm_extracted)
    ldg_probe_runs(LEDGERGATE_LIBM_ROUNDING_LINKS
      SOURCE_FILE ${PROJECT_SOURCE_DIR}/src/util/link/fmt_format.cpp
      CODE "#include <cfenv>
#include <charconv>
#include <cstring>
int main() {
  double d = 0;
  const char* s = \"0.1\";
  char out[32] = {};
  const bool parsed = std::from_chars(s, s + 3, d).ec == std::errc();
  std::to_chars(out, out + sizeof out, d, std::chars_format::general);
  const bool upward = fesetround(FE_UPWARD) == 0 && fegetround() == FE_UPWARD;
  fesetround(FE_TONEAREST);
  return parsed && upward && fegetround() == FE_TONEAREST && std::strcmp(out, \"0.1\") == 0 ? 0 : 1;
}"
      INCLUDES ${_fmt_includes}
      LIBRARIES ${_libm_objects}
      LINK_OPTIONS -static-libstdc++ -static-libgcc
      FLAGS -std=c++20)
  endif()
  if(LEDGERGATE_LIBM_ROUNDING_LINKS)
    target_link_libraries(ldg_static_runtime INTERFACE ${_libm_objects})
    set(LEDGERGATE_LIBM_LINKAGE static)
    message(STATUS "runtime: libm's fegetround and fesetround linked static (libm.so not loaded)")
  else()
    message(STATUS "runtime: libm.a's fegetround and fesetround not found, or a probe linked with them did not run: libm stays shared")
  endif()
else()
  target_link_libraries(lg_yaml_cpp INTERFACE yaml-cpp)
  target_link_libraries(lg_fmt INTERFACE fmt::fmt)
endif()
message(STATUS "C++ runtime, yaml-cpp and fmt: linked ${LEDGERGATE_RUNTIME_LINKAGE}")
