# Generates the C table of one xlat/NAME.in (a flag or value table, strace's
# format) so that the compiler checks every constant against the headers.
#   cmake -DIN=xlat/NAME.in -DOUT=build/xlat/NAME.c -P tools/xlat_gen.cmake
#
# NAME.in, one item a line:
#   NAME            the headers' constant NAME, printed "NAME"
#   NAME VALUE      printed "NAME" with VALUE; a compile-time assertion checks
#                   VALUE against the headers' NAME when they define it
#   "TEXT" VALUE    printed TEXT (not a C name: "A or B") with VALUE
#   #include <h>    a header the constants come from
#   #include? <h>   one that only some architectures have (x86's <asm/prctl.h>):
#                   where it is missing, the values are not checked
#   #default TEXT   the name printed in a comment after a value the table
#                   lacks (strace's "O_???")
#   /* comment */   a line of its own
# The order of the lines is the order the names are printed in.
cmake_minimum_required(VERSION 3.18)
get_filename_component(name "${IN}" NAME_WE)
get_filename_component(file "${IN}" NAME)
set(file "xlat/${file}")
file(STRINGS "${IN}" lines)
set(includes "")
set(checks "")
set(rows "")
set(dflt "NULL")
set(n 0)
foreach(line IN LISTS lines)
  math(EXPR n "${n} + 1")
  string(STRIP "${line}" line)
  if(line STREQUAL "" OR line MATCHES "^/\\*.*\\*/$")
    continue()
  elseif(line MATCHES "^#include +(<[^>]+>)$")
    string(APPEND includes "#include ${CMAKE_MATCH_1}\n")
  elseif(line MATCHES "^#include\\? +(<[^>]+>)$")
    string(APPEND includes "#if __has_include(${CMAKE_MATCH_1})\n#include ${CMAKE_MATCH_1}\n#endif\n")
  elseif(line MATCHES "^#default +([^ ]+)$")
    set(dflt "\"${CMAKE_MATCH_1}\"")
  elseif(line MATCHES "^([A-Za-z_][A-Za-z0-9_]*)$")
    string(APPEND rows "\t{ (unsigned long)(${CMAKE_MATCH_1}), \"${CMAKE_MATCH_1}\" },\n")
  elseif(line MATCHES "^([A-Za-z_][A-Za-z0-9_]*)[ \t]+([^ \t\"]+)$")
    set(c "${CMAKE_MATCH_1}")
    set(v "${CMAKE_MATCH_2}")
    string(APPEND checks "#ifdef ${c}\n_Static_assert((${c}) == (${v}), \"${file}:${n}: ${c} is not ${v} in the headers\");\n#endif\n")
    string(APPEND rows "\t{ (unsigned long)(${v}), \"${c}\" },\n")
  elseif(line MATCHES "^(\"[^\"]+\")[ \t]+([^ \t\"]+)$")
    string(APPEND rows "\t{ (unsigned long)(${CMAKE_MATCH_2}), ${CMAKE_MATCH_1} },\n")
  else()
    message(FATAL_ERROR "${IN}:${n}: not an xlat line: ${line}")
  endif()
endforeach()
if(rows STREQUAL "")
  message(FATAL_ERROR "${IN}: no constant")
endif()
set(text "/* Generated from ${file} by tools/xlat_gen.cmake: do not edit. */
${includes}
#include \"decode/xlat.h\"

${checks}
static const struct flag rows[] = {
${rows}};

const struct xlat xlat_${name} = { rows, sizeof(rows) / sizeof(rows[0]), ${dflt}, \"${name}\" };
")
file(WRITE "${OUT}" "${text}")
