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
else()
  target_link_libraries(lg_yaml_cpp INTERFACE yaml-cpp)
  target_link_libraries(lg_fmt INTERFACE fmt::fmt)
endif()
message(STATUS "C++ runtime, yaml-cpp and fmt: linked ${LEDGERGATE_RUNTIME_LINKAGE}")
