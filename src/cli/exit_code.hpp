// The exit codes every command shares (DESIGN.md): the reference's contract.
#pragma once

namespace lg::cli {

enum class ExitCode : int {
  pass = 0,   // ran; the verdict is pass
  fail = 1,   // ran; the verdict is fail (drift, code, conflict, violation)
  error = 2,  // could not run or cannot judge: usage, not a repository, unreadable input
};

inline int to_int(ExitCode c) { return static_cast<int>(c); }

}  // namespace lg::cli
