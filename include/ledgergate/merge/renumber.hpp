// `renumber`: re-assigns a ruling id on a branch — the answer to the ruling-id
// race (two branches filing `R-20260901-03`). The plan is pure over tree
// sources: it moves `rulings/YYYY/MM/OLD.md` to the new id's path, rewrites
// its title (`# OLD` / `# OLD — summary`) and every structured reference the
// branch holds — a task's or phase's `Ruling:` header, a ruling's
// `Supersedes:`, a run's `ruled:` continuation, and the id in a task's or
// phase's `## Ruling` body (`<id> — <verb>`, `(supersedes <id>)`) — and
// refuses, with the reason, when the id is already public (the ruling or a
// reference to it exists in the merge base with the upstream branch) or when
// the result would add check findings. Writing the plan is separate: one
// commit on the branch moved by compare-and-swap (`--rev`), or the working
// tree's files each replaced through a temporary file and rename.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/rules/check.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::merge {

// One reference to a ruling id inside a ledger file.
struct RulingRef {
  std::string path;
  int line = 0;      // 1-based
  std::string kind;  // "title", "Ruling:", "Supersedes:", "ruled:", "## Ruling"
};

// The structured references to `id` in one file's bytes, by the file's kind
// (its path: tasks/ or phases/ file, or a ruling under rulings/); the title
// counts only in the ruling filed as `id` itself.
std::vector<RulingRef> find_ruling_refs(std::string_view path, std::string_view bytes, std::string_view id);

// `bytes` with `old_id` replaced by `new_id` at each of `refs` (refs of this
// file). Every other byte is kept, line endings included.
std::string rewrite_ruling_refs(std::string_view bytes, const std::vector<RulingRef>& refs, std::string_view old_id,
                                std::string_view new_id);

// Every reference to `id` in `tree`'s tasks/, phases/ and rulings/ files,
// sorted by path then line.
Result<std::vector<RulingRef>> ruling_refs_in_tree(git::TreeSource& tree, std::string_view id);

struct FileEdit {
  std::string path;
  std::optional<std::string> text;  // nullopt: the path is removed
  std::vector<std::string> kinds;   // the references rewritten ("title", "Ruling:", ...)
};

struct RenumberPlan {
  std::string old_id, new_id;
  std::string old_path, new_path;  // the ruling file before and after
  std::vector<FileEdit> edits;     // the new ruling first, then the rewritten files by path, then the removal
  std::string refusal;             // non-empty: refused (nothing may be written), the reason
  std::vector<diag::Finding> added_findings;  // what the result would add to the branch's check
  bool refused() const { return !refusal.empty(); }
};

struct RenumberRequest {
  std::string id;           // the id to re-assign
  std::string to = "next";  // a new id, or "next": the lowest free number of the id's day
  std::string upstream_label = "main";  // names the upstream in messages
  std::string branch_label = "the branch";
};

// Plans the renumbering of `request.id` on `branch`. `upstream` is the tree
// of the branch it races with (its ids are taken too); `merge_base` the tree
// of their merge base (an id cited there is public). `check` are the branch's
// check settings; the result's findings are compared with the branch's own.
// Errors: unreadable trees, a check that cannot run or cannot judge.
Result<RenumberPlan> plan_renumber(git::TreeSource& branch, git::TreeSource& upstream, git::TreeSource& merge_base,
                                   const RenumberRequest& request, const rules::CheckOptions& check);

// `--rev`: writes one commit on the local branch `ref_name` (parent
// `expected_tip`, its tree = the tip's tree with the plan's edits, committer
// and author as `trial-merge --commit` chooses them) and moves the ref only
// if it still points at `expected_tip` (compare-and-swap). No index, no
// working tree. Returns the new commit. Errors: the ref moved meanwhile.
Result<git::ObjectId> commit_renumber(const git::Repository& repo, const std::string& ref_name, const git::ObjectId& expected_tip,
                                const RenumberPlan& plan);

// `--worktree`: writes the plan's files under `root` (each through a
// temporary file renamed into place, the new ruling first) and removes the
// old ruling last.
Result<void> write_renumber(const std::string& root, const RenumberPlan& plan);

// The commit message: "renumber OLD → NEW".
std::string renumber_message(const RenumberPlan& plan);

}  // namespace lg::merge
