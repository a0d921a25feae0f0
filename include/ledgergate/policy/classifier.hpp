// The merge gate's path classifier (spec §7): is a changed path *ledger*
// (safe to land without a human) or *code* (a human's call)? Default deny.
// Pure functions over a Policy. The built-in policies are the reference's
// versions (spec §7.3: LM-P1, LM-P2, LM-P3, LM-T, LM-R1, LM-R2); which one
// judges follows the profile of the target tree (policy_for_profile).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lg::policy {

struct Policy {
  std::string name = "LM-R2";                           // the built-in version it starts from
  std::vector<std::string> ledger_dirs = {"projects/"};
  std::vector<std::string> ledger_files = {"checkin.yaml", "dashboard.md", "dashboard.html"};
  std::vector<std::string> excluded_names = {"conftest.py", "test_*.py", "*_test.py", "AGENTS.md", "TEMPLATE.md"};
  std::vector<std::string> frozen_dirs = {"archive/"};  // code for every status (named in the reason)
  std::vector<std::string> append_only_dirs;            // ledger only when added
  bool birth_exception = true;                          // projects.yaml rows born with their ledger
};

// The reference's newest policy (LM-R2).
Policy builtin_policy();

// A built-in policy by version name ("LM-P1", "LM-P2", "LM-P3", "LM-T",
// "LM-R1", "LM-R2"); nullopt for any other name.
std::optional<Policy> builtin_policy(std::string_view name);
std::vector<std::string_view> builtin_policy_names();

// The built-in policy a check profile implies (spec §7.3): cortex-phases →
// LM-P3 (the newest of that layout), pinned @p1, @p1a, @p1b, @p1c → LM-P1,
// @p2 → LM-P2, @p3 → LM-P3; cortex-tasks (@t1, @t2) → LM-T;
// cortex-projects@r1 → LM-R1; every other profile (cortex-projects,
// open-requirements, "", "auto") → LM-R2. A "+open-requirements" suffix is
// ignored. nullopt for an unknown sub-era ("cortex-phases@p9").
std::optional<std::string_view> policy_for_profile(std::string_view profile);

enum class PathClass { ledger, code };

struct PathVerdict {
  PathClass cls = PathClass::code;
  std::string reason;  // why: "ledger dir projects/", "dot-path", "traversal", ...
};

// §7.2 is_ledger_path, with the reason that decided it.
PathVerdict classify_path(const Policy& policy, std::string_view path);

// What a diff says about one path (git mode).
enum class FileKind { file, executable, symlink, submodule, none };
struct Change {
  std::string status;  // "A", "M", "D", "R100", "C75", "T", ...
  std::string path;
  FileKind new_kind = FileKind::file;  // the path's kind after the change
};

struct Classified {
  std::string path;
  PathClass cls = PathClass::code;
  std::string reason;
};

struct Classification {
  std::vector<Classified> paths;  // de-duplicated, first occurrence wins, order kept
  std::string policy;             // the judging policy's name (Policy::name)
  std::size_t ledger_count() const;
  std::size_t code_count() const;
};

// §7.4 over status-less paths (arguments, stdin): blank entries dropped,
// de-duplicated, judged by the path rule alone.
Classification classify_paths(const Policy& policy, const std::vector<std::string>& paths);

// §7.4 over a diff's entries: the path rule plus append-only and frozen dirs,
// and beyond the reference, symlinks, submodules, executables and type
// changes under ledger dirs are code. `birth` makes projects.yaml ledger.
Classification classify_changes(const Policy& policy, const std::vector<Change>& changes, bool birth);

}  // namespace lg::policy
