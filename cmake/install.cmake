# Installation and packaging: the binary, the man pages and shell completions
# the binary generates from its own CLI definitions (`ledgergate __docs`, run
# after every link into ${PROJECT_BINARY_DIR}/man and .../completions: the
# ledgergate_docs target in src/CMakeLists.txt; the pages installed
# compressed), the docs, the Debian copyright and changelogs made from
# LICENSE and CHANGELOG.md (cmake/debian-files.cmake), and CPack's .deb.
#   cmake --install build --prefix P [--strip]
#   cpack --config build/CPackConfig.cmake -G DEB -B build/package
include(GNUInstallDirs)

set(LEDGERGATE_MAINTAINER "ledgergate maintainers <maintainers@ledgergate.dev>")
# The package's version: the release and its Debian revision (the first
# packaging of the release is -1; CHANGELOG.md's newest release must match).
set(LEDGERGATE_DEB_RELEASE 1)
set(LEDGERGATE_DEB_FILES ${PROJECT_BINARY_DIR}/debian/copyright ${PROJECT_BINARY_DIR}/debian/changelog.Debian.gz
  ${PROJECT_BINARY_DIR}/debian/changelog.gz)
add_custom_command(OUTPUT ${LEDGERGATE_DEB_FILES}
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DOUT_DIR=${PROJECT_BINARY_DIR}/debian
          -DPACKAGE=ledgergate -DDEB_VERSION=${PROJECT_VERSION}-${LEDGERGATE_DEB_RELEASE}
          -DMAINTAINER=${LEDGERGATE_MAINTAINER} -DGZIP=${LEDGERGATE_GZIP}
          -P ${PROJECT_SOURCE_DIR}/cmake/debian-files.cmake
  DEPENDS ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/CHANGELOG.md ${PROJECT_SOURCE_DIR}/cmake/debian-files.cmake
  VERBATIM)
add_custom_target(ledgergate_debian_files ALL DEPENDS ${LEDGERGATE_DEB_FILES})

install(TARGETS ledgergate RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_BINARY_DIR}/man/man1 DESTINATION ${CMAKE_INSTALL_MANDIR}
  FILES_MATCHING PATTERN "*.1.gz")
install(FILES ${PROJECT_BINARY_DIR}/completions/ledgergate
  DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES ${PROJECT_BINARY_DIR}/completions/_ledgergate
  DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
install(FILES ${PROJECT_BINARY_DIR}/completions/ledgergate.fish
  DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)
# CHANGELOG.md goes in as changelog.gz, the name Debian gives a package's
# own (upstream) changelog; changelog.Debian.gz is the packaging's.
install(FILES README.md ARCHITECTURE.md ${LEDGERGATE_DEB_FILES} DESTINATION ${CMAKE_INSTALL_DOCDIR})
# What lintian reports on purpose, with the reason (docs/packaging.md).
set(LEDGERGATE_LINTIAN_OVERRIDES
  "# Not uploaded to Debian: there is no ITP bug for the first entry to close.\n"
  "ledgergate: initial-upload-closes-no-bugs [usr/share/doc/ledgergate/changelog.Debian.gz:1]\n")
if(LEDGERGATE_LIBGIT2_LINKAGE STREQUAL "static")
  list(APPEND LEDGERGATE_LINTIAN_OVERRIDES
    "# libgit2 and the libraries it needs are linked from Debian's own static\n"
    "# archives on purpose (cmake/libgit2.cmake, and docs/performance.md, \"Start-up\"):\n"
    "# a fix to them reaches ledgergate when it is rebuilt. Their network layers\n"
    "# (libssh2, mbedTLS's TLS) are not linked in: ledgergate opens no connection.\n")
  foreach(lib zlib)
    list(APPEND LEDGERGATE_LINTIAN_OVERRIDES "ledgergate: embedded-library ${lib} [usr/bin/ledgergate]\n")
  endforeach()
endif()
string(JOIN "" LEDGERGATE_LINTIAN_OVERRIDES ${LEDGERGATE_LINTIAN_OVERRIDES})
file(WRITE ${PROJECT_BINARY_DIR}/debian/lintian-overrides "${LEDGERGATE_LINTIAN_OVERRIDES}")
install(FILES ${PROJECT_BINARY_DIR}/debian/lintian-overrides
  DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides RENAME ledgergate)
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES .pre-commit-hooks.yaml DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)
install(FILES .github/workflows/ledger-merge.yml DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)

set(CPACK_PACKAGE_NAME ledgergate)
set(CPACK_PACKAGE_VENDOR "ledgergate")
set(CPACK_PACKAGE_CONTACT "${LEDGERGATE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "guards ledgers kept in git: check, merge gate, hooks, audit")
set(CPACK_PACKAGE_DESCRIPTION "ledgergate checks ledgers kept in git repositories: folders of markdown and
YAML records (a research group's project pages with their runs and logs,
rulings, an obligations list) where every change is a commit. It reads the
records straight from git's objects and checks them against their schema and
the rules that tie files together.

It stops bad changes as git hooks (pre-commit, pre-push, server-side), as a
merge gate that lands ledger-only branches after a trial merge, and as an
audit of the whole history. It also writes records through verbs that keep
them well-formed, renders a board of every project's state, and prints JSON
and SARIF for other tools.

It reproduces the checker and merge gate of PyAutoCortex in every schema era
of its ledgers, and checks the open-requirements ledger format.")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_DEBIAN_PACKAGE_RELEASE ${LEDGERGATE_DEB_RELEASE})
set(CPACK_GENERATOR DEB)
set(CPACK_STRIP_FILES ON)  # the package's binary is stripped
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)  # libc (and yaml-cpp, fmt, libstdc++, libgit2 when linked shared) from dpkg-shlibdeps
set(CPACK_DEBIAN_PACKAGE_DEPENDS "git")  # land, the hooks and merge drivers drive the git CLI
if(LEDGERGATE_HAS_RELR)
  # Packed relative relocations (cmake/settings.cmake) need glibc 2.36's
  # loader (GLIBC_ABI_DT_RELR), a version need dpkg-shlibdeps does not turn
  # into a dependency: its libc6 line is raised to 2.36 (cmake/deb-shlibs.cmake),
  # so Depends names libc6 once.
  set(CPACK_LEDGERGATE_LIBC6_MIN 2.36)
  set(CPACK_PRE_BUILD_SCRIPTS ${PROJECT_SOURCE_DIR}/cmake/deb-shlibs.cmake)
endif()
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "bash-completion, pre-commit")
include(CPack)
