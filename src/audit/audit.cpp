// The history walk: revwalk oldest first, each commit against its first
// parent, findings matched across commits by (rule, path, message).
#include "ledgergate/audit/audit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <mutex>
#include <thread>
#include <fstream>
#include <map>
#include <memory>
#include <cstdint>
#include <functional>
#include <set>
#include <unordered_map>

#include "ledgergate/audit/invariants.hpp"
#include "projects_state.hpp"
#include "pt_history.hpp"
#include "ledger_blob.hpp"
#include "result_cache.hpp"
#include "tree_changes.hpp"
#include "ledgergate/git/diff.hpp"
#include "ledgergate/git/libgit2.hpp"  // libgit2 directly, until audit moves onto lg::git
#include "ledgergate/git/pack_pages.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/git/trial_repo.hpp"
#include "ledgergate/ledger/open_requirements.hpp"
#include "ledgergate/ledger/project_ledger.hpp"
#include "ledgergate/merge/trial_merge.hpp"
#include "ledgergate/policy/policy_file.hpp"
#include "ledgergate/rules/check.hpp"
#include "ledgergate/rules/registry.hpp"

namespace lg::audit {

bool AuditReport::failed() const {
  return std::any_of(findings.begin(), findings.end(),
                     [](const AuditFinding& f) { return f.finding.severity == diag::Severity::error; });
}

bool made_by_ledger_merge(std::string_view message) {
  for (std::string_view marker : {std::string_view("ledger-merge"), std::string_view("Landed by ledgergate land"),
                                  std::string_view("into _ledger_merge")}) {
    if (message.find(marker) != std::string_view::npos) return true;
  }
  return false;
}

Result<long long> parse_since(std::string_view date) {
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
  const std::string text(date);
  char tail = '\0';
  const bool day_only = text.size() == 10 && std::sscanf(text.c_str(), "%4d-%2d-%2d", &y, &mo, &d) == 3;
  const bool with_time =
      !day_only && (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%c", &y, &mo, &d, &h, &mi, &s, &tail) == 7 ||
                    std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d%c", &y, &mo, &d, &h, &mi, &tail) == 6) &&
      tail == 'Z';
  if ((!day_only && !with_time) || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) {
    return make_error(ErrorKind::usage, "--since '" + text + "' is not YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS]Z");
  }
  // Days from the civil date (Howard Hinnant's algorithm), UTC.
  const long long yy = mo <= 2 ? y - 1 : y;
  const long long era = (yy >= 0 ? yy : yy - 399) / 400;
  const long long yoe = yy - era * 400;
  const long long doy = (153LL * (mo > 2 ? mo - 3 : mo + 9) + 2) / 5 + d - 1;
  const long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  const long long days = era * 146097 + doe - 719468;
  return days * 86400 + h * 3600LL + mi * 60LL + s;
}

namespace {

using RevwalkPtr = git::Owned<git_revwalk, git_revwalk_free>;

std::string short_id(const std::string& hex) { return hex.substr(0, 12); }

std::string drift_key(const diag::Finding& f) {
  std::string key = f.rule;
  key += '\0';
  key += f.location.path;
  key += '\0';
  key += f.message;
  return key;
}

bool under(std::string_view path, std::string_view dir) {
  return path.size() > dir.size() && path.substr(0, dir.size()) == dir && path[dir.size()] == '/';
}

// An input the walk cannot read (a missing object, a file over the size
// limit) stops the audit: exit 2. A ledger that is not UTF-8 was readable,
// so it stays an error finding of its commit.
bool unreadable(const diag::Finding& f) { return f.cannot_judge && f.rule != "input-not-utf8"; }

Result<std::string> shallow_note(const git::Repository& repo) {
  std::ifstream in(repo.git_dir() + "/shallow");
  std::string first;
  std::getline(in, first);
  if (first.empty()) return std::string("cannot judge: the clone is shallow; earlier history is missing");
  return "cannot judge: the clone is shallow; the parents of " + first +
         " are missing (git fetch --unshallow, then audit again)";
}

Result<std::vector<git_oid>> walk_commits(const git::Repository& repo, const AuditOptions& options) {
  git_revwalk* raw = nullptr;
  if (int rc = git_revwalk_new(&raw, repo.raw()); rc < 0) return git::libgit2_error(rc, "revwalk");
  RevwalkPtr walk(raw);
  git_revwalk_sorting(walk.get(), GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
  if (options.first_parent) {
    if (int rc = git_revwalk_simplify_first_parent(walk.get()); rc < 0) return git::libgit2_error(rc, "revwalk");
  }
  if (options.range.find("..") != std::string::npos) {
    if (options.range.find("...") != std::string::npos) {
      return make_error(ErrorKind::usage, "range '" + options.range + "': use A..B (A...B is not supported)");
    }
    const std::size_t dots = options.range.find("..");
    LG_TRY(const git::ObjectId from_id, repo.resolve_commit(options.range.substr(0, dots)));
    LG_TRY(const git::ObjectId to_id, repo.resolve_commit(options.range.substr(dots + 2).empty() ? "HEAD"
                                                                                     : options.range.substr(dots + 2)));
    const git_oid from = git::to_git(from_id), to = git::to_git(to_id);
    if (int rc = git_revwalk_push(walk.get(), &to); rc < 0) return git::libgit2_error(rc, "revwalk");
    if (int rc = git_revwalk_hide(walk.get(), &from); rc < 0) return git::libgit2_error(rc, "revwalk");
  } else {
    LG_TRY(const git::ObjectId tip_id, repo.resolve_commit(options.range.empty() ? "HEAD" : options.range));
    const git_oid tip = git::to_git(tip_id);
    if (int rc = git_revwalk_push(walk.get(), &tip); rc < 0) return git::libgit2_error(rc, "revwalk");
  }
  std::vector<git_oid> out;
  git_oid oid;
  int rc = 0;
  while ((rc = git_revwalk_next(&oid, walk.get())) == 0) out.push_back(oid);
  if (rc != GIT_ITEROVER) return git::libgit2_error(rc, "cannot judge: walking the history");
  return out;
}

// What the walk keeps of each commit (20,000 of them at once: kept small;
// the summary is moved into the report when the commit is visited).
struct CommitFacts {
  git_oid id{};
  std::string summary;
  git_oid tree{};
  std::vector<git_oid> parents;
  long long time = 0;
  std::string hex() const { return git::oid_hex(id); }
};

Result<CommitFacts> read_commit(const git::Repository& repo, const git_oid& id) {
  git_commit* raw = nullptr;
  CommitFacts facts;
  facts.id = id;
  if (int rc = git_commit_lookup(&raw, repo.raw(), &id); rc < 0) {
    return git::libgit2_error(rc, "cannot judge: commit " + facts.hex() + " is missing");
  }
  git::CommitPtr commit(raw);
  const char* summary = git_commit_summary(commit.get());
  facts.summary = summary ? summary : "";
  facts.tree = *git_commit_tree_id(commit.get());
  facts.time = static_cast<long long>(git_commit_time(commit.get()));
  const unsigned n = git_commit_parentcount(commit.get());
  for (unsigned i = 0; i < n; ++i) facts.parents.push_back(*git_commit_parent_id(commit.get(), i));
  return facts;
}

std::string full_message(const git::Repository& repo, const git_oid& id) {
  git_commit* raw = nullptr;
  if (git_commit_lookup(&raw, repo.raw(), &id) < 0) return "";
  git::CommitPtr commit(raw);
  const char* message = git_commit_message(commit.get());
  return message ? message : "";
}

// The read-ahead of the walk: a thread with its own repository handle
// (libgit2 objects are not shared across threads) that diffs each commit
// against its first parent, at most k_depth commits ahead, and with the time
// left reads and parses the ledger versions those diffs changed, the walk's
// next commits first. The walk takes each commit's diff from it, and each
// ledger version it asks for: parsed by the read-ahead already, being parsed
// (it waits), or not yet claimed (it parses it itself), so the two threads
// share the parsing whichever is ahead. A diff the read-ahead could not make
// (an error, one that may hold renames, a root commit) is marked not ok, and
// a version it could not read is left to the walk: the walk then computes it
// as without the read-ahead, errors included.
class Prefetcher {
 public:
  struct Blob {
    std::string id;  // raw blob id
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

  Prefetcher(std::string git_dir, const std::vector<CommitFacts>& commits)
      : m_git_dir(std::move(git_dir)), m_commits(commits), m_thread([this] { run(); }) {}
  Prefetcher(const Prefetcher&) = delete;
  Prefetcher& operator=(const Prefetcher&) = delete;
  ~Prefetcher() {
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      m_stop = true;
    }
    m_wake.notify_all();
    m_thread.join();
  }

  // The item of commit `index` (items before it are dropped); nullopt when
  // the read-ahead has ended without it.
  std::optional<Item> take(std::size_t index) {
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

  // Parks the read-ahead outside libgit2 (returns once it is parked or has
  // ended) until resume(): for what must not run beside it.
  void pause() {
    std::unique_lock<std::mutex> lock(m_mutex);
    m_pause = true;
    m_wake.notify_all();
    m_ready.wait(lock, [&] { return m_parked || m_done; });
  }
  void resume() {
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      m_pause = false;
    }
    m_wake.notify_all();
  }

  // The parse of `blob`: the read-ahead's (waited for), else nullptr after
  // claiming it, for the caller to parse itself.
  LedgerPtr claim(Blob& blob) {
    std::unique_lock<std::mutex> lock(m_mutex);
    m_ready.wait(lock, [&] { return blob.state != Blob::State::parsing; });
    if (blob.state == Blob::State::parsed) return blob.ledger;
    blob.state = Blob::State::failed;  // the caller's from now on
    return nullptr;
  }

 private:
  static constexpr std::size_t k_depth = 64;

  void run() {
    auto repo = git::Repository::open(m_git_dir, false);
    if (repo) {
      TreeReader trees(repo->raw());
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
        auto parsed = read_ledger_blob(repo->raw(), blob->id);
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
  std::shared_ptr<Blob> unclaimed() {
    for (const Item& item : m_queue) {
      for (const std::shared_ptr<Blob>& blob : item.blobs) {
        if (blob->state == Blob::State::unclaimed) return blob;
      }
    }
    return nullptr;
  }

  // Commit `index`'s diff against its first parent (what the walk's
  // changes() computes when it finds no possible rename), and the ledger
  // versions parse_changed_ledgers() may read, or an item not ok.
  Item make(const git::Repository& repo, TreeReader& trees, std::size_t index) const {
    Item item;
    item.index = index;
    const CommitFacts& c = m_commits[index];
    if (c.parents.empty()) return item;
    auto parent = read_commit(repo, c.parents.front());
    if (!parent) return item;
    auto walked = tree_changes(trees, &parent->tree, &c.tree);
    trees.next_generation();
    if (!walked || may_have_renames(*walked)) return item;
    for (const git::DiffEntry& e : *walked) {
      if ((e.status != "M" && e.status != "A") || !ledger::is_project_ledger_path(e.path) || e.new_id.empty() ||
          (e.new_kind != git::EntryKind::file && e.new_kind != git::EntryKind::executable)) {
        continue;
      }
      auto blob = std::make_shared<Blob>();
      blob->id = e.new_id;
      item.blobs.push_back(std::move(blob));
    }
    item.parent = std::move(*parent);
    item.diff = std::move(*walked);
    item.ok = true;
    return item;
  }

  std::string m_git_dir;
  const std::vector<CommitFacts>& m_commits;
  std::mutex m_mutex;
  std::condition_variable m_wake;   // the read-ahead: room in the queue, or stop
  std::condition_variable m_ready;  // the walk: an item queued, a version parsed, or the end
  std::deque<Item> m_queue;
  bool m_stop = false, m_done = false;
  bool m_pause = false, m_parked = false;
  std::thread m_thread;
};

using PathFindings = std::map<std::string, std::vector<diag::Finding>>;

bool same_finding(const diag::Finding& a, const diag::Finding& b) {
  return a.rule == b.rule && a.severity == b.severity && a.location.path == b.location.path &&
         a.location.line == b.location.line && a.location.column == b.location.column && a.message == b.message &&
         a.peer == b.peer && a.cannot_judge == b.cannot_judge;
}

bool same_findings(const std::vector<diag::Finding>& a, const std::vector<diag::Finding>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), same_finding);
}

void apply_severities(diag::Finding& f, const rules::CheckOptions& options) {
  if (auto it = options.severities.find(f.rule); it != options.severities.end()) f.severity = it->second;
}

PathFindings by_path(std::vector<diag::Finding> findings) {
  PathFindings out;
  for (diag::Finding& f : findings) {
    std::string path = f.location.path;
    out[path].push_back(std::move(f));
  }
  return out;
}

bool touches_policy(const std::vector<git::DiffEntry>& diff) {
  return std::any_of(diff.begin(), diff.end(), [](const git::DiffEntry& e) {
    return e.path == policy::k_policy_path || e.old_path == policy::k_policy_path;
  });
}

std::string describe(const diag::Finding& f) {
  return fmt::format("{}:{}: {} [{}]", f.location.path, f.location.line, f.message, f.rule);
}

class Auditor {
 public:
  Auditor(const git::Repository& repo, const AuditOptions& options) : m_repo(repo), m_options(options) {}

  Result<AuditReport> run() {
    if (m_repo.is_shallow()) {
      LG_TRY(std::string note, shallow_note(m_repo));
      return make_error(ErrorKind::not_found, note);
    }
    if (!m_options.cache_dir.empty() && m_options.incremental) {
      m_results.emplace(m_options.cache_dir, cache_fingerprint(m_options.first_parent));
    }
    LG_TRY(std::vector<git_oid> ids, walk_commits(m_repo, m_options));
    std::vector<CommitFacts> commits;
    commits.reserve(ids.size());
    m_report.commits.reserve(ids.size());
    for (const git_oid& id : ids) {
      LG_TRY(CommitFacts facts, read_commit(m_repo, id));
      if (m_options.since && facts.time < *m_options.since) continue;
      commits.push_back(std::move(facts));
    }
    if (!commits.empty() && !commits.front().parents.empty()) {
      if (auto r = baseline(commits.front()); !r) return r.error();
    }
    // The read-ahead reads `commits`: it ends before they do, errors included.
    struct EndPrefetch {
      std::unique_ptr<Prefetcher>& prefetch;
      ~EndPrefetch() { prefetch.reset(); }
    } end_prefetch{m_prefetch};
    if (m_options.pipeline && !m_options.verify && commits.size() > 1) {
      m_prefetch = std::make_unique<Prefetcher>(m_repo.git_dir(), commits);
    }
    for (std::size_t i = 0; i < commits.size(); ++i) {
      if (auto r = visit(commits[i], i); !r) return r.error();
      if (m_read_much || i % k_drop_pages_every == 0) drop_pack_pages();
      if (m_options.progress) m_options.progress(i + 1, commits.size());
    }
    m_prefetch.reset();
    // Open findings were seen last at the last commit judged (their paths'
    // findings did not change after their last update).
    for (const auto& [key, open] : m_open) {
      for (std::size_t index : open) m_report.findings[index].finding.location.rev = short_id(m_last_judged);
    }
    return std::move(m_report);
  }

 private:
  // Every so many commits, and after a commit that read much (checked in
  // full, or a diff of many paths), the pack pages read so far are given
  // back (git/pack_pages.hpp), the read-ahead parked meanwhile: the walk's
  // peak memory no longer grows with the pack.
  static constexpr std::size_t k_drop_pages_every = 1000;
  static constexpr std::size_t k_many_changes = 256;
  void drop_pack_pages() {
    if (m_prefetch) m_prefetch->pause();
    git::drop_pack_pages();
    if (m_prefetch) m_prefetch->resume();
    m_read_much = false;
  }

  struct Checked {
    std::string profile;
    std::vector<diag::Finding> findings;  // all of them (a full check)
    rules::CheckOptions options;
    // The findings of the paths whose findings may have changed since the
    // commit judged before (an empty list: none left), severities applied.
    PathFindings changed;
  };

  Result<std::unique_ptr<git::TreeSource>> open_tree(const git_oid& tree, const std::string& hex) {
    auto source = git::open_tree_source(m_repo, git::from_git(tree), short_id(hex));
    if (!source) return source.error().with_context("cannot judge: the tree of commit " + hex);
    return source;
  }

  static Result<void> refuse_unreadable(const std::vector<diag::Finding>& findings, const std::string& hex) {
    for (const diag::Finding& f : findings) {
      if (unreadable(f)) {
        return make_error(ErrorKind::not_found, "cannot judge: commit " + hex + ": " + f.location.path + ": " +
                                                    f.message);
      }
    }
    return {};
  }

  // Whether the era-R incremental check takes a tree of `profile` (detected)
  // under `options`: the cortex-projects profile, detected or forced.
  static bool projects_engine_applies(const rules::CheckOptions& options, const std::string& profile) {
    return options.profile == "cortex-projects" || (options.profile == "auto" && profile == "cortex-projects");
  }

  // A full check of `tree`: the policy, the profile, then the era-R state
  // rebuilt (incremental mode) or check_tree.
  Result<Checked> check(git::TreeSource& tree, const std::string& hex, const git_oid& commit) {
    Checked out;
    m_projects.reset();
    auto policy = policy::load_policy(tree);
    out.options = policy ? policy::check_options(*policy) : rules::CheckOptions{};
    auto layout = ledger::detect_layout(tree);
    if (!layout) return layout.error().with_context("cannot judge: commit " + hex);
    out.profile = ledger::layout_name(*layout);
    ++m_report.full_checks;
    if (m_options.incremental && projects_engine_applies(out.options, out.profile)) {
      auto state = std::make_unique<ProjectsState>();
      if (auto r = state->rebuild(tree, out.options, m_cache); !r) {
        return r.error().with_context("cannot judge: commit " + hex);
      }
      out.profile = state->profile();
      out.findings = state->findings();
      for (diag::Finding& f : out.findings) apply_severities(f, out.options);
      if (auto lg_r = refuse_unreadable(out.findings, hex); !lg_r) return lg_r.error();
      m_projects = std::move(state);
      m_projects_commit = commit;
      trim_cache();
      return out;
    }
    auto report = rules::check_tree(tree, out.options, m_cache);
    trim_cache();
    if (!report) {
      if (report.error().kind == ErrorKind::invalid_input &&
          report.error().message.rfind("no ledger found", 0) == 0) {
        return out;  // nothing to check yet (or any more)
      }
      return report.error().with_context("cannot judge: commit " + hex);
    }
    out.profile = report->profile;
    out.findings = std::move(report->findings);
    if (auto lg_r = refuse_unreadable(out.findings, hex); !lg_r) return lg_r.error();
    return out;
  }

  // The parse caches serve one check (and the commits sharing its blobs);
  // a long history must not keep every version of every file.
  void trim_cache() {
    if (m_cache.ledgers.size() > 4096) m_cache.ledgers.clear();
    if (m_cache.projects_yaml.size() > 8) m_cache.projects_yaml.clear();
    if (m_cache.pt_files.size() > 16384) m_cache.pt_files.clear();
    if (m_cache.open_requirements.size() > 1024) m_cache.open_requirements.clear();
    if (m_cache.glob_walks.size() > 4096) m_cache.glob_walks.clear();
  }

  // The paths whose findings differ between the last judged commit and `all`.
  PathFindings changed_paths(const std::vector<diag::Finding>& all) const {
    PathFindings now = by_path(all);
    PathFindings out;
    for (auto& [path, list] : now) {
      auto it = m_state.find(path);
      if (it == m_state.end() || !same_findings(it->second, list)) out.emplace(path, std::move(list));
    }
    for (const auto& [path, list] : m_state) {
      if (now.count(path) == 0) out.emplace(path, std::vector<diag::Finding>{});
    }
    return out;
  }

  // `c` checked from its first parent's state, when that is the state held
  // and only what the era-R check follows changed. nullopt: check in full.
  Result<std::optional<Checked>> check_incremental(const CommitFacts& c, git::TreeSource& tree,
                                                   const std::vector<git::DiffEntry>& diff) {
    if (!m_options.incremental || !m_projects || c.parents.empty() ||
        git_oid_cmp(&m_projects_commit, &c.parents.front()) != 0 || m_last_judged != git::oid_hex(c.parents.front()) ||
        touches_policy(diff)) {
      return std::optional<Checked>();
    }
    std::set<std::string> touched;
    auto updated = m_projects->update(tree, diff, m_cache, touched);
    if (!updated) return updated.error().with_context("cannot judge: commit " + c.hex());
    if (!*updated) {
      m_projects.reset();
      return std::optional<Checked>();
    }
    m_projects_commit = c.id;
    Checked out;
    out.profile = m_projects->profile();
    out.options = m_projects->options();
    for (const std::string& path : touched) {
      std::vector<diag::Finding> list = m_projects->findings_at(path);
      for (diag::Finding& f : list) apply_severities(f, out.options);
      if (auto lg_r = refuse_unreadable(list, c.hex()); !lg_r) return lg_r.error();
      auto it = m_state.find(path);
      if (it == m_state.end() ? list.empty() : same_findings(it->second, list)) continue;
      out.changed.emplace(path, std::move(list));
    }
    if (m_options.verify) {
      if (auto r = verify(c, tree); !r) return r.error();
    }
    return std::optional<Checked>(std::move(out));
  }

  // The differential check: the incremental state against check_tree.
  Result<void> verify(const CommitFacts& c, git::TreeSource& tree) {
    rules::CheckCache cache;
    auto report = rules::check_tree(tree, m_projects->options(), cache);
    if (!report) return report.error().with_context("verify: commit " + c.hex());
    std::vector<diag::Finding> mine = m_projects->findings();
    for (diag::Finding& f : mine) apply_severities(f, m_projects->options());
    if (report->profile != m_projects->profile()) {
      return make_error(ErrorKind::internal, "verify: commit " + c.hex() + ": profile " + m_projects->profile() +
                                                 ", check_tree says " + report->profile);
    }
    for (std::size_t i = 0; i < std::max(mine.size(), report->findings.size()); ++i) {
      if (i < mine.size() && i < report->findings.size() && same_finding(mine[i], report->findings[i])) continue;
      return make_error(ErrorKind::internal,
                        fmt::format("verify: commit {}: finding {} differs: incremental '{}', check_tree '{}'", c.hex(),
                                    i, i < mine.size() ? describe(mine[i]) : "(none)",
                                    i < report->findings.size() ? describe(report->findings[i]) : "(none)"));
    }
    return {};
  }

  Result<void> baseline(const CommitFacts& first) {
    LG_TRY(CommitFacts parent, read_commit(m_repo, first.parents.front()));
    LG_TRY(auto tree, open_tree(parent.tree, parent.hex()));
    LG_TRY(Checked checked, check(*tree, parent.hex(), parent.id));
    m_last_judged = parent.hex();
    for (diag::Finding& f : checked.findings) {
      f.location.rev = short_id(parent.hex());
      m_state[f.location.path].push_back(f);
      m_open[drift_key(f)].push_back(m_report.findings.size());
      m_report.findings.push_back(AuditFinding{std::move(f), parent.hex(), std::nullopt, true});
    }
    return {};
  }

  void event(diag::Finding f, const CommitFacts& c, const rules::CheckOptions& options) {
    if (auto it = options.severities.find(f.rule); it != options.severities.end()) f.severity = it->second;
    f.location.rev = short_id(c.hex());
    m_report.findings.push_back(AuditFinding{std::move(f), c.hex(), std::nullopt, false});
  }

  // The findings seen at `c`, by drift key: an open one takes its latest
  // location, a new one is opened (introduced at `c`).
  void open_findings(std::map<std::string, std::vector<diag::Finding*>>& now, const CommitFacts& c) {
    for (auto& [key, list] : now) {
      std::vector<std::size_t>& open = m_open[key];
      for (std::size_t i = 0; i < list.size(); ++i) {
        diag::Finding& f = *list[i];
        f.location.rev = short_id(c.hex());
        if (i < open.size()) {
          m_report.findings[open[i]].finding.location = f.location;  // the latest line
        } else {
          open.push_back(m_report.findings.size());
          m_report.findings.push_back(AuditFinding{f, c.hex(), std::nullopt, false});
        }
      }
    }
  }

  // Drift: open findings keyed by (rule, path, message), so a line shift is
  // not a fix plus a new finding.
  void drift(std::vector<diag::Finding> findings, const CommitFacts& c) {
    std::map<std::string, std::vector<diag::Finding*>> now;
    for (diag::Finding& f : findings) now[drift_key(f)].push_back(&f);
    for (auto it = m_open.begin(); it != m_open.end();) {
      auto found = now.find(it->first);
      const std::size_t keep = found == now.end() ? 0 : found->second.size();
      while (it->second.size() > keep) {
        m_report.findings[it->second.back()].fixed_in = c.hex();
        it->second.pop_back();
      }
      it = it->second.empty() ? m_open.erase(it) : std::next(it);
    }
    open_findings(now, c);
  }

  // Drift over the paths whose findings changed, the rest standing: the same
  // bookkeeping as drift() over a full list, at the cost of what changed.
  void drift_paths(PathFindings changed, const CommitFacts& c) {
    std::map<std::string, std::vector<diag::Finding*>> now;
    for (auto& [path, list] : changed) {
      for (diag::Finding& f : list) now[drift_key(f)].push_back(&f);
    }
    for (const auto& [path, list] : changed) {
      auto before = m_state.find(path);
      if (before == m_state.end()) continue;
      std::set<std::string> keys;
      for (const diag::Finding& f : before->second) keys.insert(drift_key(f));
      for (const std::string& key : keys) {
        auto it = m_open.find(key);
        if (it == m_open.end()) continue;
        auto found = now.find(key);
        const std::size_t keep = found == now.end() ? 0 : found->second.size();
        while (it->second.size() > keep) {
          AuditFinding& fixed = m_report.findings[it->second.back()];
          fixed.fixed_in = c.hex();
          fixed.finding.location.rev = short_id(m_last_judged);  // seen last at the commit judged before
          it->second.pop_back();
        }
        if (it->second.empty()) m_open.erase(it);
      }
    }
    open_findings(now, c);
    for (auto& [path, list] : changed) {
      if (list.empty()) {
        m_state.erase(path);
      } else {
        m_state[path] = std::move(list);
      }
    }
  }

  // One version of a ledger, read by blob id and parsed in full.
  Result<LedgerPtr> parse_blob(const std::string& id, const std::string& rev, const std::string& path) {
    if (auto it = m_prefetched.find(id); it != m_prefetched.end()) {
      std::shared_ptr<Prefetcher::Blob> blob = std::move(it->second);
      m_prefetched.erase(it);
      if (LedgerPtr ledger = m_prefetch->claim(*blob)) return ledger;
    }
    auto parsed = read_ledger_blob(m_repo.raw(), id);
    if (!parsed) return parsed.error().with_context("cannot judge: " + rev + ":" + path);
    return parsed;
  }

  // What compare_ledgers reads of a version, kept per ledger path between
  // commits and so kept small (2,000 ledgers' logs at once): per run its
  // ident and line; per log entry its line and hashes of its date and kind
  // and of its text (with the text's size). A rebuilt version takes the
  // texts, dates and kinds themselves from the version after it.
  struct Fingerprint {
    struct Entry {
      std::uint64_t head = 0;  // date and kind
      std::uint64_t hash = 0;  // text
      std::uint32_t size = 0;
      int line = 0;
    };
    struct Run {
      std::string ident;
      int line = 0;
    };
    std::vector<Entry> log;
    std::vector<Run> runs;
  };

  static std::uint64_t text_hash(std::string_view text) { return std::hash<std::string_view>{}(text); }
  static std::uint64_t head_hash(const ledger::LogEntry& e) {
    return text_hash(e.date) * 0x9E3779B97F4A7C15ULL ^ text_hash(e.kind);
  }

  static Fingerprint fingerprint(const ledger::ProjectLedger& full) {
    Fingerprint fp;
    fp.runs.reserve(full.runs.size());
    for (const ledger::RunLine& r : full.runs) fp.runs.push_back({r.ident, r.line});
    fp.log.reserve(full.log.size());
    for (const ledger::LogEntry& e : full.log) {
      fp.log.push_back({head_hash(e), text_hash(e.text), static_cast<std::uint32_t>(e.text.size()), e.line});
    }
    return fp;
  }

  // The version a fingerprint describes, when `after` only prepended log
  // entries to it: its entries are then `after`'s last ones (equal hashes
  // and sizes), at their old lines. nullptr otherwise: the caller reads the
  // old version. The rebuilt runs carry only what compare_ledgers reads of
  // an old version's runs: ident and line.
  static LedgerPtr rebuild_before(const Fingerprint& fp, const ledger::ProjectLedger& after) {
    if (after.log.size() < fp.log.size()) return nullptr;
    const std::size_t k = after.log.size() - fp.log.size();
    auto before = std::make_shared<ledger::ProjectLedger>();
    before->runs.reserve(fp.runs.size());
    for (const Fingerprint::Run& r : fp.runs) {
      ledger::RunLine run;
      run.ident = r.ident;
      run.line = r.line;
      before->runs.push_back(std::move(run));
    }
    before->log.reserve(fp.log.size());
    for (std::size_t i = 0; i < fp.log.size(); ++i) {
      const Fingerprint::Entry& old = fp.log[i];
      const ledger::LogEntry& now = after.log[k + i];
      if (old.size != now.text.size() || old.hash != text_hash(now.text) || old.head != head_hash(now)) {
        return nullptr;
      }
      before->log.push_back(ledger::LogEntry{now.date, now.kind, now.text, old.line});
    }
    return before;
  }

  // The versions of the ledgers `diff` changes, parsed once for the check
  // (a compact copy in the check's cache) and the invariants (the full parse
  // of a ledger edited in place, for compare_versions; an added ledger's is
  // dropped at once: a commit may add thousands).
  void parse_changed_ledgers(const std::vector<git::DiffEntry>& diff, const std::string& rev) {
    for (const git::DiffEntry& e : diff) {
      if ((e.status != "M" && e.status != "A") || !ledger::is_project_ledger_path(e.path) || e.new_id.empty() ||
          (e.new_kind != git::EntryKind::file && e.new_kind != git::EntryKind::executable) ||
          m_cache.ledgers.count(e.new_id) != 0) {
        continue;
      }
      LedgerPtr full;
      if (auto fresh = m_fresh.find(e.new_id); fresh != m_fresh.end()) {
        full = fresh->second;
      } else {
        auto parsed = parse_blob(e.new_id, rev, e.path);
        if (!parsed) continue;  // the check reads it again and reports what is wrong
        full = std::move(*parsed);
        if (e.status == "M") m_fresh.emplace(e.new_id, full);
      }
      auto compact = std::make_shared<ledger::ProjectLedger>(*full);
      compact->compact();
      m_cache.ledgers.emplace(e.new_id, std::move(compact));
    }
  }

  // A ledger edited in place: its version after (this commit's) and before
  // (rebuilt from the fingerprint seen last at that path, else read).
  Result<void> compare_versions(const CommitFacts& c, const CommitFacts& parent, const git::DiffEntry& e,
                                const rules::CheckOptions& options) {
    LedgerPtr after;
    if (auto it = m_fresh.find(e.new_id); it != m_fresh.end()) {
      after = it->second;
    } else {
      LG_TRY(after, parse_blob(e.new_id, short_id(c.hex()), e.path));
    }
    LedgerPtr before;
    if (auto it = m_seen.find(e.path); it != m_seen.end() && it->second.first == e.old_id) {
      before = rebuild_before(it->second.second, *after);
    }
    if (!before) {
      LG_TRY(before, parse_blob(e.old_id, short_id(parent.hex()), e.path));
    }
    for (diag::Finding& f : compare_ledgers(*before, *after, e.path)) event(std::move(f), c, options);
    m_seen[e.path] = {e.new_id, fingerprint(*after)};
    return {};
  }

  Result<std::optional<ledger::ProjectLedger>> parse_at(git::TreeSource& tree, const std::string& path) {
    auto bytes = git::read_regular_file(tree, path);
    if (!bytes) return bytes.error().with_context("cannot judge: " + tree.rev() + ":" + path);
    if (!*bytes) return std::optional<ledger::ProjectLedger>();
    return std::optional<ledger::ProjectLedger>(ledger::parse_project_ledger(**bytes));
  }

  Result<bool> is_dir(git::TreeSource& tree, const std::string& path) {
    LG_TRY(auto entry, tree.stat(path));
    return entry && entry->kind == git::EntryKind::directory;
  }

  // The cross-commit invariants from the first parent's tree to `c`'s.
  Result<void> invariants(const CommitFacts& c, git::TreeSource& tree, const Checked& checked,
                          const CommitFacts& parent, const std::vector<git::DiffEntry>& changes) {
    if (changes.empty()) return {};
    LG_TRY(auto before, open_tree(parent.tree, parent.hex()));
    LG_TRY(bool had_archive, is_dir(*before, "archive"));
    std::set<std::string> deleted;
    for (const git::DiffEntry& e : changes) {
      if (e.status == "D") deleted.insert(e.path);
    }
    bool orl_changed = false;
    const bool projects_era = checked.profile.rfind("cortex-projects", 0) == 0;
    for (const git::DiffEntry& e : changes) {
      const bool renamed = e.status[0] == 'R';
      const std::string& old_path = renamed ? e.old_path : e.path;
      if (ledger::orl_glob_match(checked.options.open_requirements_glob, e.path) ||
          (renamed && ledger::orl_glob_match(checked.options.open_requirements_glob, e.old_path))) {
        orl_changed = true;
      }
      const bool new_in_archive = under(e.path, "archive");
      const bool old_in_archive = under(old_path, "archive");
      bool moved_edited = false;
      if (new_in_archive && !old_in_archive && (renamed || e.status == "A")) {
        // A move into archive/: by rename detection, or a delete of the same relative path.
        const std::string from = renamed ? e.old_path : e.path.substr(8);
        if (renamed || deleted.count(from) != 0) {
          LG_TRY(auto old_id, git::entry_id(*before, from));
          LG_TRY(auto new_id, git::entry_id(tree, e.path));
          if (old_id != new_id) {
            moved_edited = true;
            event(rules::make_finding("audit-archive-move-edited", e.path, 0,
                                      fmt::format("moved from {} into archive/ with changed content", from),
                                      diag::PeerForm::none),
                  c, checked.options);
          }
        }
      }
      if (had_archive && !moved_edited && (new_in_archive || old_in_archive)) {
        std::string what = e.status == "A"   ? "added"
                           : e.status == "D" ? "deleted"
                           : renamed         ? "renamed from " + e.old_path
                                             : "modified";
        event(rules::make_finding("audit-archive-changed", e.path, 0,
                                  fmt::format("{} after archive/ was created (archive/ never changes)", what),
                                  diag::PeerForm::none),
              c, checked.options);
      }
      if (projects_era && e.status == "M" && ledger::is_project_ledger_path(e.path) && !e.old_id.empty() &&
          !e.new_id.empty()) {
        // M keeps the kind of object: both versions are files, or neither is.
        if (e.new_kind == git::EntryKind::file || e.new_kind == git::EntryKind::executable) {
          if (auto r = compare_versions(c, parent, e, checked.options); !r) return r.error();
        }
      } else if (projects_era && (e.status == "M" || renamed) && ledger::is_project_ledger_path(e.path) &&
                 ledger::is_project_ledger_path(old_path)) {
        LG_TRY(auto old_ledger, parse_at(*before, old_path));
        LG_TRY(auto new_ledger, parse_at(tree, e.path));
        if (old_ledger && new_ledger) {
          for (diag::Finding& f : compare_ledgers(*old_ledger, *new_ledger, e.path)) {
            event(std::move(f), c, checked.options);
          }
        }
      }
    }
    LG_TRY(ledger::Layout before_layout, ledger::detect_layout(*before));
    const std::string before_profile(ledger::layout_name(before_layout));
    LG_TRY(auto pt_events, pt_commit_events(*before, tree, before_profile, checked.profile, changes, m_pt_history));
    for (diag::Finding& f : pt_events) event(std::move(f), c, checked.options);
    if (orl_changed) {
      auto found = rules::check_open_requirements_between(*before, tree, checked.options);
      if (!found) return found.error().with_context("cannot judge: commit " + c.hex());
      for (diag::Finding& f : *found) event(std::move(f), c, checked.options);
    }
    return {};
  }

  Result<void> judge_merge(const CommitFacts& c, const git_oid& id, const rules::CheckOptions& options) {
    if (!m_trial) {
      auto trial = git::TrialRepo::open(m_repo);
      if (!trial) return trial.error().with_context("cannot judge: merge " + c.hex());
      m_trial.emplace(std::move(*trial));
    }
    const bool by_job = made_by_ledger_merge(full_message(m_repo, id));
    merge::TrialMergeOptions trial_options;
    trial_options.check = by_job;
    auto report = merge::trial_merge(m_repo, *m_trial, git::from_git(c.parents[0]), git::from_git(c.parents[1]),
                                     trial_options);
    if (!report) {
      diag::Finding f = rules::make_finding("audit-not-checked", "", 0,
                                            "merge not judged: " + report.error().message, diag::PeerForm::none);
      event(std::move(f), c, options);
      return {};
    }
    if (report->nothing_to_merge) return {};
    const bool differs = !report->merge.conflicts.empty() || report->merge.tree != git::from_git(c.tree);
    if (differs) {
      const std::string how = report->merge.conflicts.empty()
                                  ? std::string("its tree differs from the clean merge of its parents")
                                  : fmt::format("the merge of its parents conflicts in {} path{} (first: {})",
                                                report->merge.conflicts.size(),
                                                report->merge.conflicts.size() == 1 ? "" : "s",
                                                report->merge.conflicts.front().path);
      event(rules::make_finding("audit-merge-manual-resolution", "", 0, "manual resolution: " + how,
                                diag::PeerForm::none),
            c, options);
    }
    if (by_job && !report->pass()) {
      std::vector<std::string> why;
      if (!report->merge.conflicts.empty()) why.push_back("the merge conflicts");
      if (report->classification.code_count() > 0) {
        std::string first;
        for (const policy::Classified& p : report->classification.paths) {
          if (p.cls == policy::PathClass::code) {
            first = p.path;
            break;
          }
        }
        why.push_back(fmt::format("{} non-ledger path{} (first: {})", report->classification.code_count(),
                                  report->classification.code_count() == 1 ? "" : "s", first));
      }
      if (!report->semantic.empty()) why.push_back(report->semantic.front().message);
      const auto errors = std::count_if(report->findings.begin(), report->findings.end(), [](const diag::Finding& f) {
        return f.severity == diag::Severity::error;
      });
      if (errors > 0) why.push_back(fmt::format("the merged tree has {} check error{}", errors, errors == 1 ? "" : "s"));
      if (why.empty()) why.push_back("the trial merge does not pass");
      std::string joined;
      for (const std::string& w : why) joined += (joined.empty() ? "" : "; ") + w;
      event(rules::make_finding("audit-ledger-merge-unclean", "", 0,
                                "made by the ledger-merge job but not landable: " + joined,
                                diag::PeerForm::none),
            c, options);
    }
    return {};
  }

  // The changes from `parent`'s tree to `c`'s: the tree walk, or libgit2's
  // rename-aware diff when a file was both added and deleted.
  Result<std::vector<git::DiffEntry>> changes(const CommitFacts& c, const CommitFacts& parent) {
    auto walked = tree_changes(m_trees, &parent.tree, &c.tree);
    m_trees.next_generation();
    if (!walked) return walked.error().with_context("cannot judge: diffing commit " + c.hex());
    if (!may_have_renames(*walked) && !m_options.verify) return walked;
    const git::ObjectId from = git::from_git(parent.tree), to = git::from_git(c.tree);
    auto diff = git::diff_trees(m_repo, &from, &to);
    if (!diff) return diff.error().with_context("cannot judge: diffing commit " + c.hex());
    if (m_options.verify && !may_have_renames(*walked)) {
      const auto same = [](const git::DiffEntry& a, const git::DiffEntry& b) {
        return a.status == b.status && a.path == b.path && a.old_path == b.old_path && a.new_kind == b.new_kind &&
               a.has_new == b.has_new && a.old_id == b.old_id && a.new_id == b.new_id;
      };
      if (walked->size() != diff->size() || !std::equal(walked->begin(), walked->end(), diff->begin(), same)) {
        return make_error(ErrorKind::internal, "verify: commit " + c.hex() + ": the tree walk differs from libgit2's diff");
      }
    }
    return diff;
  }

  // A commit's result from the cache: false when there is none, or when it
  // is a change from a first parent that is not the commit judged last.
  bool replay(CommitFacts& c) {
    std::optional<CachedCommit> entry = m_results->load(c.hex());
    if (!entry) return false;
    if (entry->delta && (c.parents.empty() || m_last_judged != git::oid_hex(c.parents.front()))) {
      return false;
    }
    m_report.commits.push_back(AuditCommit{c.hex(), std::move(c.summary), entry->profile, c.parents.size() > 1});
    for (diag::Finding& f : entry->events) m_report.findings.push_back(AuditFinding{std::move(f), c.hex(), std::nullopt, false});
    m_pt_history.deleted_ruling_ids.insert(entry->deleted_ruling_ids.begin(), entry->deleted_ruling_ids.end());
    PathFindings changed;
    if (entry->delta) {
      changed = std::move(entry->findings);
    } else {
      std::vector<diag::Finding> all;
      for (auto& [path, list] : entry->findings) all.insert(all.end(), list.begin(), list.end());
      changed = changed_paths(all);
    }
    drift_paths(std::move(changed), c);
    m_last_judged = c.hex();
    for (diag::Finding& f : entry->merge_events) {
      m_report.findings.push_back(AuditFinding{std::move(f), c.hex(), std::nullopt, false});
    }
    return true;
  }

  static std::vector<diag::Finding> findings_between(const AuditReport& report, std::size_t from, std::size_t to) {
    std::vector<diag::Finding> out;
    for (std::size_t i = from; i < to; ++i) out.push_back(report.findings[i].finding);
    return out;
  }

  Result<void> visit(CommitFacts& c, std::size_t index) {
    if (m_results && replay(c)) return {};
    CachedCommit entry;
    if (auto r = visit_live(c, index, entry); !r) return r.error();
    if (m_results) {
      if (auto r = m_results->store(c.hex(), entry); !r && m_report.cache_warning.empty()) {
        m_report.cache_warning = r.error().message;
      }
    }
    return {};
  }

  Result<void> visit_live(CommitFacts& c, std::size_t index, CachedCommit& entry) {
    m_fresh.clear();
    m_prefetched.clear();
    std::optional<Prefetcher::Item> ahead;
    if (m_prefetch) ahead = m_prefetch->take(index);
    LG_TRY(auto tree, open_tree(c.tree, c.hex()));
    std::optional<CommitFacts> parent;
    std::vector<git::DiffEntry> diff;
    if (!c.parents.empty() && ahead && ahead->ok) {
      parent = std::move(ahead->parent);
      diff = std::move(ahead->diff);
      for (std::shared_ptr<Prefetcher::Blob>& blob : ahead->blobs) m_prefetched.emplace(blob->id, std::move(blob));
    } else if (!c.parents.empty()) {
      LG_TRY(parent, read_commit(m_repo, c.parents.front()));
      LG_TRY(diff, changes(c, *parent));
    }
    ++m_report.commits_checked;
    if (diff.size() >= k_many_changes) m_read_much = true;
    if (m_projects) parse_changed_ledgers(diff, short_id(c.hex()));
    std::optional<Checked> incremental;
    if (parent) {
      LG_TRY(incremental, check_incremental(c, *tree, diff));
    }
    Checked checked;
    if (incremental) {
      checked = std::move(*incremental);
    } else {
      LG_TRY(checked, check(*tree, c.hex(), c.id));
      m_read_much = true;
      if (m_options.incremental) checked.changed = changed_paths(checked.findings);
    }
    m_report.commits.push_back(AuditCommit{c.hex(), std::move(c.summary), checked.profile, c.parents.size() > 1});
    entry.profile = checked.profile;
    const std::size_t events_from = m_report.findings.size();
    m_pt_history.deleted_now.clear();
    if (!c.parents.empty() && (c.parents.size() == 1 || m_options.first_parent)) {
      if (auto r = invariants(c, *tree, checked, *parent, diff); !r) return r.error();
    }
    // The cached form of the check: a change from the first parent when that
    // was the commit judged last, else every finding.
    entry.delta = m_results && !c.parents.empty() && m_last_judged == git::oid_hex(c.parents.front());
    if (m_results) {
      entry.events = findings_between(m_report, events_from, m_report.findings.size());
      entry.deleted_ruling_ids = m_pt_history.deleted_now;
      if (entry.delta) entry.findings = checked.changed;
    }
    if (m_options.incremental) {
      drift_paths(std::move(checked.changed), c);
    } else {
      drift(std::move(checked.findings), c);
    }
    if (m_results && !entry.delta) entry.findings = m_state;
    m_last_judged = c.hex();
    const std::size_t merge_from = m_report.findings.size();
    if (c.parents.size() > 1) {
      if (auto r = judge_merge(c, c.id, checked.options); !r) return r.error();
    }
    if (m_results) entry.merge_events = findings_between(m_report, merge_from, m_report.findings.size());
    return {};
  }

  const git::Repository& m_repo;
  const AuditOptions& m_options;
  rules::CheckCache m_cache;
  TreeReader m_trees{m_repo.raw()};
  std::optional<git::TrialRepo> m_trial;
  std::unordered_map<std::string, LedgerPtr> m_fresh;  // this commit's ledger versions, by blob id
  std::unique_ptr<Prefetcher> m_prefetch;               // the read-ahead (pipeline), while walking
  // The ledger versions this commit changed, by blob id, each taken once:
  // parsed by the read-ahead, or claimed and parsed here.
  std::unordered_map<std::string, std::shared_ptr<Prefetcher::Blob>> m_prefetched;
  // Per ledger path, the version seen last: its blob id and fingerprint.
  std::unordered_map<std::string, std::pair<std::string, Fingerprint>> m_seen;
  PtHistory m_pt_history;                // eras P and T: ruling ids deleted so far
  std::optional<ResultCache> m_results;  // --cache
  std::unique_ptr<ProjectsState> m_projects;  // the era-R state of m_projects_commit (incremental mode)
  git_oid m_projects_commit{};
  bool m_read_much = false;   // since the last drop_pack_pages()
  std::string m_last_judged;  // the commit judged last (full hex), "" before any
  PathFindings m_state;       // its findings by path, severities applied
  AuditReport m_report;
  std::map<std::string, std::vector<std::size_t>> m_open;  // drift key → open findings, oldest first
};

}  // namespace

Result<AuditReport> audit_history(const git::Repository& repo, const AuditOptions& options) {
  Auditor auditor(repo, options);
  return auditor.run();
}

}  // namespace lg::audit
