// The name a writer gives the temporary file it stages beside a target
// (".NAME.ledgergate-PID-N") when it cannot stage it in the git directory,
// and the test that recognises one: the writers make them, the checker
// reports one that was committed (rule input-writer-temp-file).
#pragma once

#include <string>
#include <string_view>

namespace lg::util {

// ".NAME.ledgergate-PID-N" for the file NAME.
std::string writer_temp_name(std::string_view name, long pid, unsigned long n);

// Whether `name` (a last path component) has that shape: a dot, a name,
// ".ledgergate-", digits, "-", digits.
bool is_writer_temp_name(std::string_view name);

// The PID in such a name; 0 when `name` is not one.
long writer_temp_pid(std::string_view name);

}  // namespace lg::util
