// apply_as_commit: the branch tip's tree in, a commit over it out, the ref
// moved by compare-and-swap; a lost race is run again on the new tip after
// a jittered backoff, while the time budget lasts. A branch checked out in
// a working tree has that tree's index and files brought up to date too
// (checkout.hpp).
#include <chrono>
#include <random>
#include <thread>

#include "ledgergate/git/checkout.hpp"
#include "ledgergate/git/commit.hpp"
#include "ledgergate/git/objects.hpp"
#include "ledgergate/git/refs.hpp"
#include "ledgergate/util/backoff.hpp"
#include "ledgergate/write/apply.hpp"
#include "apply_steps.hpp"
#include "checkout.hpp"

namespace lg::write {

namespace {

using Clock = std::chrono::steady_clock;

// The file mode an edited path keeps in `tree` (an executable stays one).
Result<git::FileMode> mode_in(const git::Repository& repo, const git::ObjectId& tree, const std::string& path) {
  LG_TRY(const auto item, git::tree_entry_at(repo, tree, path));
  return item && item->mode == git::FileMode::executable ? git::FileMode::executable : git::FileMode::blob;
}

// The blobs of `change` written, with the modes they get over `tree`.
Result<std::vector<CommittedFile>> write_blobs(const git::Repository& repo, const git::ObjectId& tree,
                                               const Change& change) {
  std::vector<CommittedFile> out;
  for (const FileEdit& f : change.files) {
    LG_TRY(const git::ObjectId blob, git::write_blob(repo, f.bytes));
    LG_TRY(const git::FileMode mode, mode_in(repo, tree, f.path));
    out.push_back(CommittedFile{f.path, f.bytes, blob, mode});
  }
  return out;
}

// The commit of `files` over `tip` (whose tree is `tree`).
Result<git::ObjectId> commit_files(const git::Repository& repo, const git::ObjectId& tip, const git::ObjectId& tree,
                                   const std::vector<CommittedFile>& files, const std::string& text) {
  std::vector<git::TreeUpdate> updates;
  for (const CommittedFile& f : files) updates.push_back(git::TreeUpdate{f.path, f.blob, f.mode});
  LG_TRY(const git::ObjectId new_tree, git::update_tree(repo, tree, updates));
  return git::write_commit(repo, new_tree, {tip}, text);
}

// The reflog's one line: the commit message's first line.
std::string reflog_line(const Change& change, const std::string& message) {
  const std::string& text = message.empty() ? change.message : message;
  return "ledgergate: " + text.substr(0, text.find('\n'));
}

std::string seconds(std::chrono::milliseconds d) {
  const long long tenths = (d.count() + 50) / 100;
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + "s";
}

}  // namespace

Result<Applied> apply_as_commit(const git::Repository& repo, const std::string& branch, const Editor& editor,
                                const std::string& message, const ApplyOptions& options) {
  const auto found = git::find_local_branch(repo, branch);
  if (!found || !found->tip) return make_error(ErrorKind::usage, "no branch " + branch);
  const std::string ref = found->ref_name;
  const auto start = Clock::now();
  std::mt19937 rng{std::random_device{}()};
  for (int attempt = 1;; ++attempt) {
    const std::optional<git::ObjectId> tip = git::ref_target(repo, ref);
    if (!tip) return make_error(ErrorKind::not_found, "branch " + branch + " no longer exists");
    LG_TRY(const git::ObjectId tree, repo.commit_tree(*tip));
    LG_TRY(const auto source, git::open_tree_source(repo, tree, branch));
    LG_TRY(Applied applied, edit_validated(*source, editor, options, attempt));
    const Change* change = to_write(applied);
    if (change == nullptr) return applied;
    // A working tree with the branch checked out: locked and checked clean
    // for the edited paths before anything is written.
    LG_TRY(const std::vector<git::Checkout> checkouts, git::checkouts_of(repo, ref));
    std::unique_ptr<CheckoutUpdate> update;
    if (!checkouts.empty()) {
      std::vector<std::string> paths;
      for (const FileEdit& f : change->files) paths.push_back(f.path);
      LG_TRY(auto prepared, CheckoutUpdate::prepare(repo, ref, *tip, tree, checkouts, paths));
      if (auto* refusal = std::get_if<Refusal>(&prepared)) {
        applied.outcome = std::move(*refusal);
        return applied;
      }
      if (auto* ready = std::get_if<std::unique_ptr<CheckoutUpdate>>(&prepared)) update = std::move(*ready);
    }
    // No update for a checked-out branch: it moved before its checkouts were
    // locked, a lost race.
    if (checkouts.empty() || update) {
      LG_TRY(const std::vector<CommittedFile> files, write_blobs(repo, tree, *change));
      std::string text = message.empty() ? change->message : message;
      if (text.empty() || text.back() != '\n') text += '\n';
      LG_TRY(const git::ObjectId commit, commit_files(repo, *tip, tree, files, text));
      if (update) {
        if (auto ok = update->stage(files, staging::RefUpdate{ref, tip->hex(), commit.hex()}); !ok) return ok.error();
      }
      LG_TRY(const bool moved, git::update_ref_if(repo, ref, commit, *tip, reflog_line(*change, message)));
      if (moved) {
        if (update) {
          if (auto ok = update->apply(); !ok) {
            return ok.error().with_context("committed " + commit.short_hex() + " on " + branch +
                                           ", but its working tree was not brought up to date (the next "
                                           "ledgergate write, or `ledgergate recover`, finishes it)");
          }
        }
        for (const FileEdit& f : change->files) applied.written.push_back(f.path);
        applied.commit = commit;
        return applied;
      }
    }
    update.reset();  // a lost race's staged files and locks removed
    // Another writer landed first (or holds the ref's lock): back off, as
    // `land` does (jittered, doubling up to a cap), then edit its tip.
    const auto delay = util::backoff_delay(attempt, options.retry_delay, options.retry_delay_cap,
                                           std::uniform_real_distribution<double>(0.0, 1.0)(rng));
    const auto spent = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
    const bool out_of_attempts = options.max_attempts > 0 && attempt >= options.max_attempts;
    if (out_of_attempts || spent + delay > options.retry_for) {
      return make_error(ErrorKind::git, branch + " kept moving: the edit lost the race " + std::to_string(attempt) +
                                            " times in " + seconds(spent));
    }
    std::this_thread::sleep_for(delay);
  }
}

}  // namespace lg::write
