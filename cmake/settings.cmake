# ldg_settings / ldg_warnings: interface targets linked PRIVATE into our own
# targets only, never into third-party code.
add_library(ldg_settings INTERFACE)
target_compile_features(ldg_settings INTERFACE cxx_std_20)
target_compile_definitions(ldg_settings INTERFACE $<$<CONFIG:Debug>:_GLIBCXX_ASSERTIONS>)
if(LEDGERGATE_SANITIZE)
  string(REPLACE ";" "," _san "${LEDGERGATE_SANITIZE}")
  target_compile_options(ldg_settings INTERFACE -fsanitize=${_san} -fno-omit-frame-pointer)
  target_link_options(ldg_settings INTERFACE -fsanitize=${_san})
endif()

add_library(ldg_warnings INTERFACE)
target_compile_options(ldg_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion -Wold-style-cast
  -Wnon-virtual-dtor -Woverloaded-virtual -Wextra-semi -Wcast-align
  $<$<CXX_COMPILER_ID:GNU>:-Wduplicated-cond -Wlogical-op>
  $<$<BOOL:${LEDGERGATE_WERROR}>:-Werror>
  # GCC 12 at -O3 (CMAKE_BUILD_TYPE=Release) reports false -Wrestrict overlaps
  # inside std::string's inlined copies (GCC bug 105329): kept as a warning.
  $<$<CXX_COMPILER_ID:GNU>:-Wno-error=restrict>
  # GCC's manual: sanitizers "tend to increase the rate of false positive
  # warnings, most notably those around -Wmaybe-uninitialized" (GCC 12 reports
  # std::optional<std::string> moved out of a Result in pt_history.cpp). The
  # unsanitized GCC and clang builds keep it an error.
  $<$<AND:$<CXX_COMPILER_ID:GNU>,$<BOOL:${LEDGERGATE_SANITIZE}>>:-Wno-error=maybe-uninitialized>)

# Relative relocations packed (DT_RELR, glibc >= 2.36, binutils >= 2.38): the
# position-independent executable's ~21,000 relative relocations (most of
# them the pointer tables of the statically linked libgit2, mbedTLS and
# libcrypto, cmake/libgit2.cmake) are a 7 KiB bitmap instead of a 527 KiB
# table the loader reads at every start (docs/performance.md, "Start-up").
include(CheckLinkerFlag)
check_linker_flag(CXX "LINKER:-z,pack-relative-relocs" LEDGERGATE_HAS_RELR)
if(LEDGERGATE_HAS_RELR)
  target_link_options(ldg_settings INTERFACE "LINKER:-z,pack-relative-relocs")
endif()
