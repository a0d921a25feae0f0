// apply_as_commit: the branch tip's tree in, a commit over it out, the ref
// moved by compare-and-swap; a lost race is run again on the new tip.
#include <chrono>
#include <thread>

#include "ledgergate/git/commit.hpp"
#include "ledgergate/git/objects.hpp"
#include "ledgergate/git/refs.hpp"
#include "ledgergate/write/apply.hpp"
#include "apply_steps.hpp"

namespace lg::write {

namespace {

// The file mode an edited path keeps in `tree` (an executable stays one).
Result<git::FileMode> mode_in(const git::Repository& repo, const git::ObjectId& tree, const std::string& path) {
  LG_TRY(const auto item, git::tree_entry_at(repo, tree, path));
  return item && item->mode == git::FileMode::executable ? git::FileMode::executable : git::FileMode::blob;
}

// The commit of `change` over `tip` (whose tree is `tree`).
Result<git::ObjectId> commit_change(const git::Repository& repo, const git::ObjectId& tip, const git::ObjectId& tree,
                                    const Change& change, const std::string& message) {
  std::vector<git::TreeUpdate> updates;
  for (const FileEdit& f : change.files) {
    LG_TRY(const git::ObjectId blob, git::write_blob(repo, f.bytes));
    LG_TRY(const git::FileMode mode, mode_in(repo, tree, f.path));
    updates.push_back(git::TreeUpdate{f.path, blob, mode});
  }
  LG_TRY(const git::ObjectId new_tree, git::update_tree(repo, tree, updates));
  std::string text = message.empty() ? change.message : message;
  if (text.empty() || text.back() != '\n') text += '\n';
  return git::write_commit(repo, new_tree, {tip}, text);
}

// The reflog's one line: the commit message's first line.
std::string reflog_line(const Change& change, const std::string& message) {
  const std::string& text = message.empty() ? change.message : message;
  return "ledgergate: " + text.substr(0, text.find('\n'));
}

}  // namespace

Result<Applied> apply_as_commit(const git::Repository& repo, const std::string& branch, const Editor& editor,
                                const std::string& message, const ApplyOptions& options) {
  const auto found = git::find_local_branch(repo, branch);
  if (!found || !found->tip) return make_error(ErrorKind::usage, "no branch " + branch);
  const std::string ref = found->ref_name;
  for (int attempt = 1; attempt <= options.max_attempts; ++attempt) {
    const std::optional<git::ObjectId> tip = git::ref_target(repo, ref);
    if (!tip) return make_error(ErrorKind::not_found, "branch " + branch + " no longer exists");
    LG_TRY(const git::ObjectId tree, repo.commit_tree(*tip));
    LG_TRY(const auto source, git::open_tree_source(repo, tree, branch));
    LG_TRY(Applied applied, edit_validated(*source, editor, options, attempt));
    const Change* change = to_write(applied);
    if (change == nullptr) return applied;
    LG_TRY(const git::ObjectId commit, commit_change(repo, *tip, tree, *change, message));
    LG_TRY(const bool moved, git::update_ref_if(repo, ref, commit, *tip, reflog_line(*change, message)));
    if (!moved) {
      // Another writer landed first (or holds the ref's lock): give it a
      // moment, then edit its tip instead.
      std::this_thread::sleep_for(std::chrono::milliseconds(5 * attempt));
      continue;
    }
    for (const FileEdit& f : change->files) applied.written.push_back(f.path);
    applied.commit = commit;
    return applied;
  }
  return make_error(ErrorKind::git, branch + " kept moving: the edit lost the race " +
                                        std::to_string(options.max_attempts) + " times");
}

}  // namespace lg::write
