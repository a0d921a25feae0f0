# libgit2, and how it is linked: the `lg_libgit2` target every libgit2 user
# links (ledgergate_core, the fuzz core).
#
# Static by default (LEDGERGATE_STATIC_LIBGIT2): Debian's libgit2-dev ships
# libgit2.a, and its dependencies' -dev packages ship theirs. Linked shared,
# libgit2 brings 21 shared libraries into every process (mbedTLS, libssh2,
# OpenSSL's libcrypto, PCRE2, http-parser, zlib, and GSSAPI's six Kerberos
# libraries), and binding their symbols at load time was most of a
# ledgergate process's start (10 of 18 M instructions, and about 8 ms, of a
# pre-commit hook at 2,000 projects: docs/performance.md, "Start-up").
# Linked static, the link editor binds them once, at build time.
#
# The network layers are not linked in: ledgergate never opens a connection.
# src/git/link/no_network.cpp stands in (--wrap) for libgit2's SSH transport
# and its mbedTLS stream, whose objects nothing then refers to: libssh2,
# OpenSSL's libcrypto and mbedTLS's TLS stay out of the binary, and their
# set-up (the CA bundle's parse, the random generator's seeding, OpenSSL's
# initialisation) never runs. It stands in for GSSAPI too, which is then not
# linked at all. The archives stay on the link line: the link editor takes
# nothing from them unless something refers to it.
#
# Where an archive is missing (a distribution without static libraries), or
# a probe program linked with them does not link and run, the build says so
# and links libgit2 shared, as LEDGERGATE_STATIC_LIBGIT2=OFF
# does; the executable then stands in for the same calls by interposition.
pkg_check_modules(LIBGIT2 REQUIRED IMPORTED_TARGET libgit2>=1.5)
option(LEDGERGATE_STATIC_LIBGIT2 "Link libgit2 and its dependencies statically (libgit2.a)" ON)

add_library(lg_libgit2 INTERFACE)
set(LEDGERGATE_LIBGIT2_LINKAGE shared)
# The calls libgit2.a makes that go to no_network.cpp's __wrap_ stand-ins.
set(_wrapped git_transport_ssh_global_init git_smart_subtransport_ssh
  git_mbedtls_stream_global_init git_mbedtls_stream_new git_mbedtls_stream_wrap git_mbedtls__set_cert_location)
list(TRANSFORM _wrapped PREPEND "LINKER:--wrap=" OUTPUT_VARIABLE _wrap_options)
if(LEDGERGATE_STATIC_LIBGIT2)
  # libgit2.pc's own libraries (Libs.private, Requires.private), then what
  # libssh2 needs in turn and libgit2.pc does not carry: OpenSSL's libcrypto
  # (libssh2's crypto backend), and zlib again, after it. With the stand-ins,
  # nothing is taken from libssh2, libcrypto, libmbedtls or libmbedx509.
  set(_archives)
  set(_system)
  set(_missing)
  foreach(_name IN LISTS LIBGIT2_STATIC_LIBRARIES ITEMS crypto z)
    if(_name MATCHES "^(rt|dl|pthread|m)$")
      list(APPEND _system ${_name})
      continue()
    endif()
    find_library(LEDGERGATE_ARCHIVE_${_name} NAMES lib${_name}.a HINTS ${LIBGIT2_STATIC_LIBRARY_DIRS})
    if(LEDGERGATE_ARCHIVE_${_name})
      list(APPEND _archives ${LEDGERGATE_ARCHIVE_${_name}})
    else()
      list(APPEND _missing lib${_name}.a)
    endif()
  endforeach()
  if(_missing)
    message(STATUS "libgit2: ${_missing} not found: linking libgit2 shared")
  else()
    # A probe program must link and run (another libgit2.a may call a GSSAPI
    # or network function the stand-ins lack, or need another archive): else
    # shared, said at configure time rather than a failed link later.
    ldg_probe_runs(LEDGERGATE_LIBGIT2_STATIC_LINKS
      SOURCE_FILE ${PROJECT_SOURCE_DIR}/src/git/link/no_network.cpp
      CODE "#include <git2.h>
int main() { return git_libgit2_init() == 1 && git_libgit2_shutdown() == 0 ? 0 : 1; }"
      INCLUDES ${LIBGIT2_INCLUDE_DIRS}
      LIBRARIES ${_archives} ${_system} Threads::Threads
      LINK_OPTIONS ${_wrap_options}
      FLAGS -DLEDGERGATE_STATIC_LIBGIT2=1)
    if(LEDGERGATE_LIBGIT2_STATIC_LINKS)
      set(LEDGERGATE_LIBGIT2_LINKAGE static)
    else()
      message(STATUS "libgit2: a program linked with libgit2.a did not link or run: linking libgit2 shared")
    endif()
  endif()
endif()

if(LEDGERGATE_LIBGIT2_LINKAGE STREQUAL "static")
  add_library(lg_no_network OBJECT ${PROJECT_SOURCE_DIR}/src/git/link/no_network.cpp)
  target_compile_definitions(lg_no_network PRIVATE LEDGERGATE_STATIC_LIBGIT2=1)
  target_link_libraries(lg_no_network PRIVATE ldg_settings ldg_warnings)
  target_include_directories(lg_no_network PRIVATE ${LIBGIT2_INCLUDE_DIRS})
  target_include_directories(lg_libgit2 INTERFACE ${LIBGIT2_INCLUDE_DIRS})
  # The stand-ins' object goes on every link line that has libgit2.a on it
  # (an archive member would come too late: libgit2.a is what refers to it).
  target_link_libraries(lg_libgit2 INTERFACE $<TARGET_OBJECTS:lg_no_network> ${_archives} ${_system} Threads::Threads)
  target_link_options(lg_libgit2 INTERFACE ${_wrap_options})
else()
  target_link_libraries(lg_libgit2 INTERFACE PkgConfig::LIBGIT2)
endif()
message(STATUS "libgit2 ${LIBGIT2_VERSION}: linked ${LEDGERGATE_LIBGIT2_LINKAGE}")
