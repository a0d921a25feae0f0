# Compresses every man page in DIR beside its roff (DIR/x.1 → DIR/x.1.gz),
# with gzip -9n: best compression, no name or time in the header, so the
# same page gives the same bytes on every build (what Debian asks of
# installed pages). The build runs it after `ledgergate __docs`.
#   cmake -DDIR=build/man/man1 -DGZIP=/usr/bin/gzip -P gzip-man.cmake
file(GLOB pages "${DIR}/*.1")
if(NOT pages)
  message(FATAL_ERROR "gzip-man.cmake: no man page in ${DIR}")
endif()
foreach(page IN LISTS pages)
  execute_process(COMMAND "${GZIP}" -9nkf "${page}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gzip-man.cmake: gzip ${page} failed (${rc})")
  endif()
endforeach()
