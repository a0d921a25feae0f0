# Installation and packaging: the binary, the man pages and shell completions
# the binary generates from its own CLI definitions (`ledgergate __docs`, run
# after every link into ${PROJECT_BINARY_DIR}/man and .../completions: the
# POST_BUILD step in src/CMakeLists.txt), the docs, and CPack's .deb.
#   cmake --install build --prefix P [--strip]
#   cpack --config build/CPackConfig.cmake -G DEB -B build/package
include(GNUInstallDirs)

install(TARGETS ledgergate RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_BINARY_DIR}/man/man1 DESTINATION ${CMAKE_INSTALL_MANDIR})
install(FILES ${PROJECT_BINARY_DIR}/completions/ledgergate
  DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES ${PROJECT_BINARY_DIR}/completions/_ledgergate
  DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
install(FILES ${PROJECT_BINARY_DIR}/completions/ledgergate.fish
  DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)
install(FILES README.md ARCHITECTURE.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES .pre-commit-hooks.yaml DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)
install(FILES .github/workflows/ledger-merge.yml DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)

set(CPACK_PACKAGE_NAME ledgergate)
set(CPACK_PACKAGE_VENDOR "ledgergate")
set(CPACK_PACKAGE_CONTACT "ledgergate maintainers <ledgergate@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Guards ledgers kept in git: check, trial-merge, land, hooks, audit")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_STRIP_FILES ON)  # the package's binary is stripped
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)  # yaml-cpp, fmt, libstdc++ (and libgit2, linked shared) from dpkg-shlibdeps
set(CPACK_DEBIAN_PACKAGE_DEPENDS "git")  # land, the hooks and merge drivers drive the git CLI
if(LEDGERGATE_HAS_RELR)
  # Packed relative relocations (cmake/settings.cmake) need glibc 2.36's
  # loader (GLIBC_ABI_DT_RELR), a version need dpkg-shlibdeps does not turn
  # into a dependency.
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", libc6 (>= 2.36)")
endif()
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "bash-completion, pre-commit")
include(CPack)
