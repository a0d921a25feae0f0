// The short lines commands print beside their reports: notes, refusals, the
// ids a command wrote, the audit's progress bar. Pure functions; the CLI
// decides when to print them and to which stream.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "ledgergate/git/object_id.hpp"
#include "ledgergate/write/recovery.hpp"

namespace lg::report {

// `check` of HEAD in a working tree whose ledgers have uncommitted changes.
std::string render_uncommitted_note();
// `check` of HEAD in a working tree whose `files` ledger files are more
// than `bound`: uncommitted changes were not looked for, and how to see
// them.
std::string render_uncommitted_not_looked_note(std::size_t files, std::size_t bound);
// `check` of HEAD in a working tree whose uncommitted changes could not be
// looked for (`why`: the error, a split index libgit2 cannot read among
// them): said, never left silent.
std::string render_uncommitted_unknown_note(std::string_view why);
// "ledgergate: note: NOTE", a persistent-cache entry that was not trusted
// (cache/store.hpp's notes).
std::string render_cache_note(std::string_view note);
// An error as the reference checker words it (`check --format cortex --root`).
std::string render_cortex_error(std::string_view message);

// "ledgergate HOOK: refused: WHY", a hook's last line when it stops git.
std::string render_hook_refusal(std::string_view hook, std::string_view why);
// The refusal when the hook that was there before ours exited `status` (> 0).
std::string render_original_hook_refusal(std::string_view hook, std::string_view path, int status);
// "ledgergate: req VERB: refused: WHY", nothing written.
std::string render_req_refusal(std::string_view verb, std::string_view why);
// The refusal when the edited ledger would break the rules printed above it.
std::string render_req_blocked(std::string_view verb, std::string_view path);
// "ledgergate: req summary: WHY", the ledger could not be summarised.
std::string render_req_summary_failure(std::string_view why);

// An object a command wrote (`trial-merge --write-tree`, `--commit`): its full id on one line.
std::string render_written_id(const git::ObjectId& id);
// `trial-merge --commit` with a fail verdict.
std::string render_merge_commit_refused();

// `renumber --worktree` after writing the plan's files.
std::string render_renumber_written();
// "commit ID on REF (was OLD)": the commit `renumber` wrote and the tip it replaced.
std::string render_renumber_commit(const git::ObjectId& commit, std::string_view ref, const git::ObjectId& was);

// What `ledgergate recover` did: the interrupted writes it finished (and
// the paths it wrote), those it discarded, the paths it left as they were,
// the dead writers' temporary files it removed.
std::string render_recovery(const write::RecoveryReport& r);

// "\r[#####.....] 120/2000 commits, 850/s", one redrawn stderr line; the last
// one (`done == total`) ends the line.
std::string render_progress(std::size_t done, std::size_t total, double per_second);

}  // namespace lg::report
