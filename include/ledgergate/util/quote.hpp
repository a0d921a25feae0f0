// Quoting of file names and other untrusted text for output, so that no
// name can add a line, a colour or a cursor move (docs/hardening.md).
#pragma once

#include <string>
#include <string_view>

namespace lg::util {

// A path as git prints it with core.quotePath (quote.c's quote_c_style):
// unchanged when nothing in it needs quoting, else in double quotes with
// \a \b \t \n \v \f \r \" \\ and octal \ooo for the other control bytes
// (C0, DEL). Unlike git's default, valid UTF-8 stays readable; a byte that
// is not valid UTF-8, and the C1 controls U+0080..U+009F (a terminal acts on
// them), are octal. No file name can add a line, a colour or a cursor move.
std::string quote_path(std::string_view path);
// The same escapes for text that is not a path (a message quoting what a file
// holds): control bytes, C1 controls and invalid UTF-8 escaped, no quotes
// added, '"' and '\\' kept.
std::string escape_controls(std::string_view s);
// The reference's bytes (`--format cortex`), with only what could forge or
// hide output escaped as escape_controls does: LF, CR, ESC and the other C0
// controls but TAB, DEL, the C1 controls and bytes that are not UTF-8. A
// TAB, a backslash and a quote print as they are, and nothing is quoted.
std::string escape_cortex(std::string_view s);
// A path for a URL or URI reference: RFC 3986's unreserved characters and
// '/' as they are, every other byte percent-encoded ("%2F" style, upper case).
std::string percent_encode_path(std::string_view path);

}  // namespace lg::util
