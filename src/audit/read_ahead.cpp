// The read-ahead thread: diffs and ledger parses ahead of the walk.
#include "read_ahead.hpp"

namespace lg::audit {

ReadAhead::ReadAhead(std::string repo_path, const std::vector<CommitFacts>& commits)
    : m_repo_path(std::move(repo_path)), m_commits(commits), m_thread([this] { run(); }) {}

ReadAhead::~ReadAhead() {
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_stop = true;
  }
  m_wake.notify_all();
  m_thread.join();
}

std::optional<ReadAhead::Item> ReadAhead::take(std::size_t index) {
  std::unique_lock<std::mutex> lock(m_mutex);
  while (true) {
    while (!m_queue.empty() && m_queue.front().index < index) m_queue.pop_front();
    if (!m_queue.empty() || m_done) break;
    m_wake.notify_all();
    m_ready.wait(lock);
  }
  if (m_queue.empty() || m_queue.front().index != index) return std::nullopt;
  Item item = std::move(m_queue.front());
  m_queue.pop_front();
  lock.unlock();
  m_wake.notify_all();
  return item;
}

void ReadAhead::pause() {
  std::unique_lock<std::mutex> lock(m_mutex);
  m_pause = true;
  m_wake.notify_all();
  m_ready.wait(lock, [&] { return m_parked || m_done; });
}

void ReadAhead::resume() {
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_pause = false;
  }
  m_wake.notify_all();
}

LedgerPtr ReadAhead::claim(Blob& blob) {
  std::unique_lock<std::mutex> lock(m_mutex);
  m_ready.wait(lock, [&] { return blob.state != Blob::State::parsing; });
  if (blob.state == Blob::State::parsed) return blob.ledger;
  blob.state = Blob::State::failed;  // the caller's from now on
  return nullptr;
}

void ReadAhead::run() {
  auto repo = git::Repository::open(m_repo_path, false);
  if (repo) {
    git::TreeDiffer trees(*repo);
    std::size_t next = 0;
    std::unique_lock<std::mutex> lock(m_mutex);
    while (!m_stop) {
      if (m_pause) {
        m_parked = true;
        m_ready.notify_all();
        m_wake.wait(lock, [&] { return !m_pause || m_stop; });
        m_parked = false;
        continue;
      }
      if (next < m_commits.size() && m_queue.size() < k_depth) {
        lock.unlock();
        Item item = make(*repo, trees, next++);
        lock.lock();
        m_queue.push_back(std::move(item));
        m_ready.notify_all();
        continue;
      }
      std::shared_ptr<Blob> blob = unclaimed();
      if (!blob) {
        if (next >= m_commits.size()) break;
        m_wake.wait(lock);
        continue;
      }
      blob->state = Blob::State::parsing;
      lock.unlock();
      auto parsed = read_ledger_blob(*repo, blob->id);
      lock.lock();
      if (parsed) {
        blob->ledger = std::move(*parsed);
        blob->state = Blob::State::parsed;
      } else {
        blob->state = Blob::State::failed;  // the walk reads it again and says why
      }
      m_ready.notify_all();
    }
  }
  std::lock_guard<std::mutex> guard(m_mutex);
  m_done = true;
  m_ready.notify_all();
}

// The first version not claimed yet in the queue (the mutex held).
std::shared_ptr<ReadAhead::Blob> ReadAhead::unclaimed() {
  for (const Item& item : m_queue) {
    for (const std::shared_ptr<Blob>& blob : item.blobs) {
      if (blob->state == Blob::State::unclaimed) return blob;
    }
  }
  return nullptr;
}

// Commit `index`'s diff against its first parent (what commit_changes()
// computes when it finds no possible rename), and the ledger versions
// LedgerVersions::parse_changed() may read, or an item not ok.
ReadAhead::Item ReadAhead::make(const git::Repository& repo, git::TreeDiffer& trees, std::size_t index) const {
  Item item;
  item.index = index;
  const CommitFacts& c = m_commits[index];
  if (c.parents.empty()) return item;
  auto parent = commit_facts(repo, c.parents.front());
  if (!parent) return item;
  auto walked = trees.changes(&parent->tree, &c.tree);
  trees.next_generation();
  if (!walked || git::may_have_renames(*walked)) return item;
  for (const git::DiffEntry& e : *walked) {
    if (!is_new_ledger_version(e)) continue;
    auto blob = std::make_shared<Blob>();
    blob->id = *e.new_id;  // a new ledger version has one
    item.blobs.push_back(std::move(blob));
  }
  item.parent = std::move(*parent);
  item.diff = std::move(*walked);
  item.ok = true;
  return item;
}

}  // namespace lg::audit
