// The arguments of the `project` verbs, one struct per verb, filled by the
// CLI and bound into an editor. One place for every era: an era's own
// options are added as members of the verb they belong to (the era-T/P
// `new` and `retire` extend NewArgs and RetireArgs), so the CLI keeps one
// option set per verb whatever the layout.
#pragma once

#include <optional>
#include <string>

namespace lg::write {

struct NewArgs {
  std::string key;
  std::string summary;
  std::optional<std::string> issue;  // --issue REF (R); "" is none
  std::optional<std::string> now;    // --now TEXT (R); blank is the default text
  std::string today;                 // YYYY-MM-DD
};

struct RunArgs {
  std::string key, jobid, what;
  std::optional<std::string> partition;  // "" is the row's partition
  std::string today;
};

struct RunningArgs {
  std::string key, jobid;
};

struct DoneArgs {
  std::string key, jobid;
  bool failed = false;
  std::optional<std::string> wall;  // H:MM; "" is no wall
  std::optional<std::string> note;  // "" is no note
  std::string today;
};

struct LogArgs {
  std::string key, text;
  std::string kind = "note";  // note | result | lesson | run
  std::string today;
};

struct NowArgs {
  std::string key, text;
};

struct IssueArgs {
  std::string key;
  std::string count = "5";  // -n N as typed, read as Python's int() reads it (LOG_WINDOW = 5)
};

struct LinkArgs {
  std::string key, ref;
};

struct RetireArgs {
  std::string key, why;
  std::string today;
};

}  // namespace lg::write
