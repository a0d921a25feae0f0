// Installing ledgergate's git hooks: where git looks for hooks (core.hooksPath,
// linked worktrees, bare repositories), one-line shims that carry a marker,
// and a foreign hook kept beside ours (`<hook>.ledgergate-orig`) so that it
// still runs first and `uninstall` puts it back byte for byte. Every write is
// a temporary file renamed into place; installing twice changes nothing.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/git/repository.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::hooks {

// The comment line that makes a hook file ours.
inline constexpr std::string_view k_marker = "# ledgergate: managed hook";
// A foreign hook found at install time is kept at `<hook>` + this suffix.
inline constexpr std::string_view k_original_suffix = ".ledgergate-orig";

// The hooks `hooks run` knows, in git's order of use.
std::span<const std::string_view> known_hooks();
bool is_known_hook(std::string_view name);
// What `hooks install` installs without --hook: pre-commit, pre-merge-commit
// and pre-push in a repository with a working tree; pre-receive and update
// in a bare one.
std::vector<std::string> default_hooks(bool bare);

// The folder git runs `repo`'s hooks from, with a trailing '/': core.hooksPath
// when set (`~/` expanded; a relative path taken from the working tree's root,
// or from the git dir of a bare repository, as git does), else `hooks/` in the
// common git dir (shared by every linked worktree). Errors: unreadable config.
Result<std::string> hooks_dir(const git::Repository& repo);

// The line of a shim that records the binary it runs (then shell-quoted).
inline constexpr std::string_view k_recorded_prefix = "recorded=";

// The shim for `hook`: runs `binary` (shell-quoted on its `recorded=` line)
// when it is an absolute path to an executable, else the first `ledgergate`
// on PATH, else refuses (exit 2) with a message naming the fix:
//   #!/bin/sh
//   # ledgergate: managed hook ...
//   recorded='<binary>'
//   if [ "${recorded#/}" != "$recorded" ] && [ -x "$recorded" ]; then lg="$recorded"
//   elif lg="$(command -v ledgergate)"; then :
//   else echo "ledgergate <hook>: refused: ...hooks install..." >&2; exit 2; fi
//   exec "$lg" hooks run <hook> "$@"
std::string render_shim(std::string_view hook, std::string_view binary);

// True when `text` is a hook file we wrote (it carries the marker line).
bool is_our_shim(std::string_view text);

enum class HookState {
  absent,   // no hook file
  ours,     // our shim
  foreign,  // someone else's hook, not chained
};

struct HookStatus {
  std::string name;
  HookState state = HookState::absent;
  std::string path;      // the hook file
  std::string binary;    // ours: the binary the shim recorded
  bool chained = false;  // ours: an original hook is kept beside and runs first
  bool binary_runs = false;  // ours: `binary` is an absolute path to an executable file
  std::string fallback;  // ours, `binary` gone: the ledgergate on PATH the shim runs instead ("" none)
};

enum class Action {
  installed,    // a new shim (nothing was there)
  chained,      // a new shim; the foreign hook was kept beside and runs first
  updated,      // our shim rewritten (it ran another binary)
  unchanged,    // our shim, already identical
  removed,      // our shim deleted (nothing was there before)
  restored,     // our shim replaced by the original hook it chained
  not_ours,     // uninstall left a foreign hook alone
  not_present,  // uninstall found nothing
};
std::string_view to_string(Action a);

struct HookChange {
  std::string name;
  Action action = Action::unchanged;
  std::string path;
};

// Installs the shim for `name` in `dir` (created if missing). A foreign hook
// is kept at `<hook>.ledgergate-orig` (a hard link, else an exact copy) before
// the shim is renamed over it. Errors: I/O, or a kept original already there
// beside a foreign hook (it is never overwritten).
Result<HookChange> install_hook(const std::string& dir, std::string_view name, std::string_view binary);

// Removes our shim for `name`, putting back the hook it chained exactly as
// it was (bytes, mode, symlink). A foreign hook is left alone.
Result<HookChange> uninstall_hook(const std::string& dir, std::string_view name);

Result<HookStatus> hook_status(const std::string& dir, std::string_view name);

// The path of the original hook our shim for `name` chains, when one is kept.
std::string original_path(const std::string& dir, std::string_view name);

// The file that runs as `name`'s original: the kept original (a symlink is
// kept as the symlink it was, so uninstall puts it back exactly), followed
// where it leads to one of our shims — a hook kept as a link to another
// hook (`pre-merge-commit -> pre-push`, relative) leads to that hook's shim
// once it is installed — to the original that shim keeps, and so on. ""
// when nothing is kept, or the chain ends at a shim that keeps none.
// Errors: unreadable files, a chain of links that loops.
Result<std::string> original_to_run(const std::string& dir, std::string_view name);

}  // namespace lg::hooks
