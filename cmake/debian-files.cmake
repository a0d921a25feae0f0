# The Debian package's copyright and changelog, made from the repository's own
# LICENSE and CHANGELOG.md (cmake/install.cmake runs it at build time):
#   cmake -DSOURCE_DIR=... -DOUT_DIR=... -DPACKAGE=ledgergate -DDEB_VERSION=0.1.0-1
#         -DMAINTAINER="Name <address>" -DGZIP=/usr/bin/gzip -P debian-files.cmake
# OUT_DIR/copyright: the machine-readable format (DEP-5) with LICENSE's text as
# the Expat licence. OUT_DIR/changelog.Debian.gz: one entry per release of
# CHANGELOG.md (a "## X.Y.Z — YYYY-MM-DD" heading), each "- " item of it one
# "  * " line wrapped at 78 columns. OUT_DIR/changelog.gz: CHANGELOG.md as it
# is. Both compressed with gzip -9n (best compression, no name or time in the
# header: the same bytes on every build).
cmake_minimum_required(VERSION 3.20)
foreach(var SOURCE_DIR OUT_DIR PACKAGE DEB_VERSION MAINTAINER GZIP)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "debian-files.cmake: -D${var}=... is required")
  endif()
endforeach()
file(MAKE_DIRECTORY "${OUT_DIR}")

# The lines of a text file as a CMake list. `;`, `[` and `]` (which a list
# would split on or group by) stand in as control characters until
# restore_text() puts them back.
string(ASCII 1 k_semicolon)
string(ASCII 2 k_open)
string(ASCII 3 k_close)
function(read_lines path out)
  file(READ "${path}" text)
  string(REPLACE ";" "${k_semicolon}" text "${text}")
  string(REPLACE "[" "${k_open}" text "${text}")
  string(REPLACE "]" "${k_close}" text "${text}")
  string(REGEX REPLACE "\n$" "" text "${text}")
  string(REPLACE "\n" ";" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()
function(restore_text var)
  set(text "${${var}}")
  string(REPLACE "${k_semicolon}" ";" text "${text}")
  string(REPLACE "${k_open}" "[" text "${text}")
  string(REPLACE "${k_close}" "]" text "${text}")
  set(${var} "${text}" PARENT_SCOPE)
endfunction()

# --- copyright
read_lines("${SOURCE_DIR}/LICENSE" license_lines)
list(GET license_lines 0 title)
if(NOT title STREQUAL "MIT License")
  message(FATAL_ERROR "debian-files.cmake: LICENSE is not the MIT licence (its first line: ${title})")
endif()
set(holder "")
set(body "")
foreach(line IN LISTS license_lines)
  if(line MATCHES "^Copyright \\(c\\) (.+)$")
    set(holder "${CMAKE_MATCH_1}")
  elseif(holder AND NOT line STREQUAL "" AND NOT line STREQUAL title)
    string(APPEND body " ${line}\n")
  elseif(holder AND line STREQUAL "" AND NOT body STREQUAL "")
    string(APPEND body " .\n")
  endif()
endforeach()
if(holder STREQUAL "")
  message(FATAL_ERROR "debian-files.cmake: no `Copyright (c) ...` line in LICENSE")
endif()
restore_text(body)
file(WRITE "${OUT_DIR}/copyright"
  "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
  "Upstream-Name: ${PACKAGE}\n"
  "Upstream-Contact: ${MAINTAINER}\n"
  "\n"
  "Files: *\n"
  "Copyright: ${holder}\n"
  "License: Expat\n"
  "\n"
  "License: Expat\n"
  "${body}")

# --- changelog
# RFC 2822 date of YYYY-MM-DD at midnight UTC (Sakamoto's weekday).
function(rfc2822_date iso out)
  string(REGEX MATCH "^([0-9][0-9][0-9][0-9])-([0-9][0-9])-([0-9][0-9])$" _ "${iso}")
  if(NOT CMAKE_MATCH_0)
    message(FATAL_ERROR "debian-files.cmake: `${iso}` is not a YYYY-MM-DD date")
  endif()
  set(y ${CMAKE_MATCH_1})
  math(EXPR m "${CMAKE_MATCH_2}")
  math(EXPR d "${CMAKE_MATCH_3}")
  set(offsets 0 3 2 5 0 3 5 1 4 6 2 4)
  math(EXPR mi "${m} - 1")
  list(GET offsets ${mi} t)
  set(yy ${y})
  if(m LESS 3)
    math(EXPR yy "${y} - 1")
  endif()
  math(EXPR dow "(${yy} + ${yy} / 4 - ${yy} / 100 + ${yy} / 400 + ${t} + ${d}) % 7")
  set(days Sun Mon Tue Wed Thu Fri Sat)
  set(months Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec)
  list(GET days ${dow} day)
  list(GET months ${mi} month)
  set(${out} "${day}, ${CMAKE_MATCH_3} ${month} ${y} 00:00:00 +0000" PARENT_SCOPE)
endfunction()

# Appends ITEM to VAR as a "  * " entry, words wrapped at 78 columns.
function(append_item var item)
  string(REGEX REPLACE "[ \t]+" ";" words "${item}")
  set(text "${${var}}")
  set(line "  *")
  foreach(w IN LISTS words)
    string(LENGTH "${line} ${w}" n)
    if(n GREATER 78 AND NOT line STREQUAL "  *" AND NOT line STREQUAL "   ")
      string(APPEND text "${line}\n")
      set(line "   ")
    endif()
    string(APPEND line " ${w}")
  endforeach()
  string(APPEND text "${line}\n")
  set(${var} "${text}" PARENT_SCOPE)
endfunction()

read_lines("${SOURCE_DIR}/CHANGELOG.md" changelog_lines)
set(changelog "")
set(release "")
set(item "")
set(entries "")
macro(finish_item)
  if(NOT item STREQUAL "")
    append_item(entries "${item}")
    set(item "")
  endif()
endmacro()
macro(finish_release)
  finish_item()
  if(NOT release STREQUAL "")
    if(entries STREQUAL "")
      message(FATAL_ERROR "debian-files.cmake: CHANGELOG.md's ${release} lists no `- ` item")
    endif()
    string(APPEND changelog "${PACKAGE} (${release_version}) unstable; urgency=medium\n\n${entries}\n"
                            " -- ${MAINTAINER}  ${release_date}\n\n")
    set(entries "")
  endif()
endmacro()
foreach(line IN LISTS changelog_lines)
  if(line MATCHES "^## ([0-9]+\\.[0-9]+\\.[0-9]+) — ([0-9-]+)$")
    finish_release()
    set(release "${CMAKE_MATCH_1}")
    rfc2822_date("${CMAKE_MATCH_2}" release_date)
    # The newest release is the package's version (with its Debian revision).
    if(changelog STREQUAL "")
      set(release_version "${DEB_VERSION}")
      string(FIND "${DEB_VERSION}" "${release}" at)
      if(NOT at EQUAL 0)
        message(FATAL_ERROR "debian-files.cmake: the package is ${DEB_VERSION} but CHANGELOG.md's newest release is ${release}")
      endif()
    else()
      set(release_version "${release}")
    endif()
  elseif(release STREQUAL "")
  elseif(line MATCHES "^- (.*)$")
    finish_item()
    set(item "${CMAKE_MATCH_1}")
  elseif(line MATCHES "^  +(.*)$" AND NOT item STREQUAL "")
    string(APPEND item " ${CMAKE_MATCH_1}")
  else()
    finish_item()
  endif()
endforeach()
finish_release()
if(changelog STREQUAL "")
  message(FATAL_ERROR "debian-files.cmake: CHANGELOG.md holds no `## X.Y.Z — YYYY-MM-DD` release")
endif()
string(REGEX REPLACE "\n\n$" "\n" changelog "${changelog}")
restore_text(changelog)
file(WRITE "${OUT_DIR}/changelog.Debian" "${changelog}")
# The upstream changelog is CHANGELOG.md itself, as changelog.gz.
file(COPY_FILE "${SOURCE_DIR}/CHANGELOG.md" "${OUT_DIR}/changelog")
foreach(name changelog.Debian changelog)
  execute_process(COMMAND "${GZIP}" -9nf "${OUT_DIR}/${name}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "debian-files.cmake: gzip ${name} failed (${rc})")
  endif()
endforeach()
