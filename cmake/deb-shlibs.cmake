# CPack pre-build script (cmake/install.cmake): before the DEB generator runs
# dpkg-shlibdeps in the staging folder, gives it a debian/shlibs.local (dpkg's
# package-local override of what a shared library needs) raising libc6 to
# CPACK_LEDGERGATE_LIBC6_MIN, so the one libc6 entry of Depends carries the
# version the binary needs beyond its symbols (glibc 2.36 for packed relative
# relocations).
if(CPACK_LEDGERGATE_LIBC6_MIN)
  file(WRITE "${CPACK_TEMPORARY_DIRECTORY}/debian/shlibs.local"
       "libc 6 libc6 (>= ${CPACK_LEDGERGATE_LIBC6_MIN})\n")
endif()
