// How every write reaches the disk (private to src/write): a transaction
// stages each file's new content where git never sees it, records its
// intent, then renames. The staging area is a folder of the git directory
// of the working tree written (`<git dir>/ledgergate/write`; a folder
// outside any repository: `<folder>/.ledgergate-write`, removed when empty).
// A transaction is a folder of the area, flock-ed by its writer while it
// lives, holding
//   a0, a1, ...  the staged files (the area is on the target's filesystem);
//   staged       what the transaction put elsewhere, written before it does
//                so: its root, temporary files beside a target (when the
//                area is on another filesystem), lock files it holds;
//   intent       the commit point, written (synced, renamed into place)
//                once every staged file is synced: each target with the
//                identity of the file it replaces, and a commit's ref update.
// A transaction whose writer is gone (its flock is free) is rolled forward
// when it has an intent (each target that still holds the file it
// replaced gets its staged file; a commit's files only when the ref
// moved) and back when it has none (its staged files removed): recover().
#pragma once

#include <sys/stat.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/git/work_tree.hpp"
#include "ledgergate/util/fd.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::write::staging {

// Where the writes of a folder stage. With no folder (`dir` empty) a
// transaction stages beside each target, unrecorded, and cannot record an
// intent: a single file outside any repository (write_file_atomically).
struct Area {
  std::string dir;          // the area's folder (made on first use)
  bool in_git_dir = false;  // else `<folder>/.ledgergate-write`, removed when empty
};

// The area of the folder `folder`: its repository's (per-worktree) git
// directory when `folder` lies in a working tree, else the folder's own.
Area area_for(const std::string& folder);
// The same, from the repository already discovered from `folder`
// (git::discover_work_tree; nullopt: none).
Area area_for(const std::string& folder, const std::optional<git::WorkTree>& discovered);

// The exclusive flock on a folder's own descriptor that every writer of that
// folder holds (no lock file, nothing left behind; the lock goes with the
// descriptor). Errors: not a directory (usage), I/O.
Result<util::Fd> lock_folder(const std::string& folder);

// A commit's ref update, recorded in the intent so that recovery rolls
// the files forward only when the commit landed.
struct RefUpdate {
  std::string ref;
  std::string old_id, new_id;  // hex
};

class Transaction {
 public:
  // Begins a transaction in `area` for writes below `root` (open as `root_fd`).
  static Result<Transaction> begin(const Area& area, const std::string& root, int root_fd);
  Transaction(Transaction&& other) noexcept;
  Transaction& operator=(Transaction&&) = delete;
  Transaction(const Transaction&) = delete;
  ~Transaction();  // unless finished: rolled back (staged files, made folders, held locks removed)

  // Stages `bytes` as the new content of `rel` ('/'-separated, below the
  // root): the folders on the way are opened without following a symbolic
  // link (missing ones made), the target must not be a symlink or a
  // folder. The file keeps the permission bits of the one it replaces; a
  // new one gets `new_mode` less the umask. Errors name `shown` (default
  // `rel`) or the folder on its way, never the staged file. Staged beside
  // the target with no area, the staged files of that target's writers
  // that are gone (their process is not running) are removed first.
  Result<void> stage(const std::string& rel, std::string_view bytes, mode_t new_mode = 0644,
                     std::string_view shown = {});
  // No file staged from here on, nor apply()'s folders, is synced (a
  // single file whose writer leaves the flush to the system:
  // Durability::unsynced); never before commit_intent (a broken invariant).
  void skip_sync() { m_sync = false; }
  // The stat of the file staged `i`-th (its stat data once renamed, but the ctime).
  Result<struct stat> staged_stat(std::size_t i) const;

  // Takes git's lock on the file `target` (an absolute path): creates
  // `target`.lock exclusively, as git does, and returns its descriptor to
  // write the new content into. apply() renames it over `target`; a
  // transaction abandoned removes it. Errors: the lock exists (`busy`
  // set), I/O.
  Result<int> take_lock(const std::string& target, bool* busy);

  // The commit point: the intent, listing every staged file and lock (and
  // the ref update a commit made), synced into place. A single file needs
  // none (its rename is the commit point).
  Result<void> commit_intent(const std::optional<RefUpdate>& ref = std::nullopt);
  // Renames every staged file over its target and every lock over its
  // file, then syncs their folders.
  Result<void> apply();
  // Done: the transaction's folder is removed.
  void finish();
  // Rolled back now, even past its commit point (a commit whose ref update
  // lost the race): the intent goes first, then what was staged.
  void abandon();

  // A path in the transaction's folder for the caller's scratch file
  // (removed with the folder); "" with no area.
  std::string scratch(std::string_view name) const;

 private:
  struct File {
    std::string rel;        // the target, below the root
    util::Fd dir;           // its folder, opened without following a symlink
    std::string name;       // its last component
    std::string temp;       // the staged file's name: in the transaction's folder, or beside the target
    bool beside = false;    // staged beside the target (the area is on another filesystem)
    std::string was;        // the identity of the file it replaces ("-": none)
    util::Fd fd;            // the staged file, open until renamed
    bool renamed = false;
  };
  struct Lock {
    std::string target;
    util::Fd fd;
    dev_t dev = 0;
    ino_t ino = 0;
    bool renamed = false;
  };
  Transaction() = default;
  Result<void> note(const std::string& line);  // appended to `staged`
  void roll_back();

  Area m_area;
  std::string m_root;
  int m_root_fd = -1;
  std::string m_name;  // the transaction's folder in the area
  util::Fd m_dir;      // it, flock-ed
  std::vector<File> m_files;
  std::vector<Lock> m_locks;
  std::vector<std::string> m_made;  // folders made below the root, outermost first
  util::Fd m_staged;                // the `staged` record, once opened
  std::vector<std::string> m_records;  // the intent's lines for the files and locks
  bool m_intent = false;               // the commit point is passed
  bool m_sync = true;                  // the staged files and apply()'s folders are synced
  bool m_finished = false;
};

// What recover() did: interrupted writes finished (their targets written,
// and those left as they were because they changed after the write began)
// and writes discarded before their commit point.
struct Recovery {
  int finished = 0;
  int discarded = 0;
  std::vector<std::string> written;  // root-relative paths rolled forward
  std::vector<std::string> kept;     // targets changed since: left as they are
};

// Rolls every transaction of `area` whose writer is gone forward (it has
// an intent) or back (it has none). `held_root` is the folder whose lock
// (lock_folder) the caller holds; an intent for another folder is rolled
// forward only when that folder's lock is free now. Errors: I/O on the
// area (a transaction that cannot be finished is left for the next time).
Result<Recovery> recover(const Area& area, const std::string& held_root);

// An interrupted (or running) write with an intent in `area`: its root,
// the targets not yet renamed and those that are, and whether its writer
// still runs. Reads only.
struct Pending {
  std::string root;
  std::vector<std::string> pending, done;
  bool running = false;
};
Result<std::vector<Pending>> pending(const Area& area);

}  // namespace lg::write::staging
