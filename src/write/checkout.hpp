// `--commit` to a branch that is checked out (private to src/write): what
// `git commit` does after writing the commit — the index entries and the
// files of the paths it changed brought up to date — in every working tree
// that has the branch checked out, so none is left with a staged or
// unstaged change that undoes the commit. Each working tree is held under
// its writers' lock and git's index.lock from the check that its paths are
// clean until its files and index are in place; its new files and index
// are staged, with an intent naming the ref update, before the ref moves
// (staging.hpp), so a crash after the ref moved is rolled forward by the
// next writer, and one before it rolled back.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "ledgergate/git/checkout.hpp"
#include "ledgergate/git/objects.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/util/result.hpp"
#include "ledgergate/write/edit.hpp"
#include "staging.hpp"

namespace lg::write {

// A path of the change as the commit writes it.
struct CommittedFile {
  std::string path;
  std::string bytes;
  git::ObjectId blob;
  git::FileMode mode = git::FileMode::blob;
};

class CheckoutUpdate {
 public:
  // The branch moved between reading its tip and locking its checkouts.
  struct Moved {};
  // Locks the working trees `checkouts` of `ref`, finishes what a writer
  // that died left in them, and checks that each path of `files` is, in
  // each index and each working tree, as tree `tip_tree` (the tip `tip`
  // the edit was made on) holds it: a Refusal naming the first path that
  // is not (staged or unstaged changes, a symlink on its way, a checkout
  // filter). Nothing is written but the locks (released on destruction).
  static Result<std::variant<std::unique_ptr<CheckoutUpdate>, Refusal, Moved>> prepare(
      const git::Repository& repo, const std::string& ref, const git::ObjectId& tip, const git::ObjectId& tip_tree,
      const std::vector<git::Checkout>& checkouts, const std::vector<std::string>& paths);

  // Stages each working tree's new files and index and records the intent
  // (the ref update `ref`), before the ref is moved.
  Result<void> stage(const std::vector<CommittedFile>& files, const staging::RefUpdate& ref);
  // After the ref moved: the files and the index renamed into place.
  Result<void> apply();
  // The ref update lost the race: everything staged is removed.
  void abandon();

  // Unless apply() began, abandon()s; then releases the locks.
  ~CheckoutUpdate();

 private:
  struct Tree {
    git::Checkout checkout;
    std::string root;  // the working tree's folder, no trailing '/'
    util::Fd lock;     // its writers' lock (staging::lock_folder)
    std::optional<staging::Transaction> tx;
    int index_lock = -1;  // the descriptor of its index.lock (the transaction owns it)
    std::string scratch;  // the index copy edited
  };
  CheckoutUpdate() = default;
  std::vector<Tree> m_trees;
  bool m_landed = false;  // the ref moved: apply() began
};

}  // namespace lg::write
