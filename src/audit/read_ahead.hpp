// The audit's read-ahead: a thread with its own repository handle (libgit2
// objects are not shared across threads) that diffs each commit against its
// first parent, at most k_depth commits ahead of the walk, and with the time
// left reads and parses the ledger versions those diffs changed, the walk's
// next commits first. The walk takes each commit's diff from it, and each
// ledger version it asks for: parsed by the read-ahead already, being parsed
// (it waits), or not yet claimed (it parses it itself), so the two threads
// share the parsing whichever is ahead. A diff the read-ahead could not make
// (an error, one that may hold renames, a root commit) is marked not ok, and
// a version it could not read is left to the walk: the walk then computes it
// as without the read-ahead, errors included. Private to audit/.
#pragma once

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "ledger_blob.hpp"
#include "ledgergate/git/tree_diff.hpp"
#include "walk.hpp"

namespace lg::audit {

class ReadAhead {
 public:
  struct Blob {
    git::ObjectId id;  // the blob
    enum class State { unclaimed, parsing, parsed, failed } state = State::unclaimed;
    LedgerPtr ledger;
  };
  struct Item {
    std::size_t index = 0;
    bool ok = false;
    CommitFacts parent;
    std::vector<git::DiffEntry> diff;
    std::vector<std::shared_ptr<Blob>> blobs;  // the changed ledger versions, in diff order
  };

  // Reads `commits` (which must outlive it) from the repository at `repo_path`.
  ReadAhead(std::string repo_path, const std::vector<CommitFacts>& commits);
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;
  ~ReadAhead();

  // The item of commit `index` (items before it are dropped); nullopt when
  // the read-ahead has ended without it.
  std::optional<Item> take(std::size_t index);

  // Parks the read-ahead outside libgit2 (returns once it is parked or has
  // ended) until resume(): for what must not run beside it.
  void pause();
  void resume();

  // The parse of `blob`: the read-ahead's (waited for), else nullptr after
  // claiming it, for the caller to parse itself.
  LedgerPtr claim(Blob& blob);

 private:
  static constexpr std::size_t k_depth = 64;

  void run();
  std::shared_ptr<Blob> unclaimed();
  Item make(const git::Repository& repo, git::TreeDiffer& trees, std::size_t index) const;

  std::string m_repo_path;
  const std::vector<CommitFacts>& m_commits;
  std::mutex m_mutex;
  std::condition_variable m_wake;   // the read-ahead: room in the queue, or stop
  std::condition_variable m_ready;  // the walk: an item queued, a version parsed, or the end
  std::deque<Item> m_queue;
  bool m_stop = false, m_done = false;
  bool m_pause = false, m_parked = false;
  std::thread m_thread;
};

}  // namespace lg::audit
