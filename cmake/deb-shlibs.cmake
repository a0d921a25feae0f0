# CPack pre-build script (cmake/install.cmake): before the DEB generator runs
# dpkg-shlibdeps in the staging folder, gives it a debian/shlibs.local (dpkg's
# package-local override of what a shared library needs) raising libc6 to
# CPACK_LEDGERGATE_LIBC6_MIN, so the one libc6 entry of Depends carries the
# version the binary needs beyond its symbols (glibc 2.36 for packed relative
# relocations). Every library of the libc6 package gets the line, not libc
# alone: a build that links libm, libpthread, libdl or librt directly (the
# sanitizer runtimes do), or the dynamic loader itself (a statically linked
# libstdc++ calls its __tls_get_addr: cmake/runtime.cmake), would otherwise
# add a second, lower libc6 entry.
if(CPACK_LEDGERGATE_LIBC6_MIN)
  set(dep "libc6 (>= ${CPACK_LEDGERGATE_LIBC6_MIN})")
  file(WRITE "${CPACK_TEMPORARY_DIRECTORY}/debian/shlibs.local"
       "libc 6 ${dep}\nlibm 6 ${dep}\nlibpthread 0 ${dep}\nlibdl 2 ${dep}\nlibrt 1 ${dep}\nlibresolv 2 ${dep}\n"
       "ld-linux-x86-64 2 ${dep}\n")
endif()
