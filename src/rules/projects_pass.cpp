// The cortex-projects pass (check_pass.hpp): projects.yaml, file names,
// each ledger in listing order, then the active rows without a ledger.
// With the persistent cache, the projects memo answers first
// (projects_memo_pass.cpp); else a ledger whose (path, blob, row inputs)
// the facts pack or the memo's journal holds is not read, and the pass's
// results are kept as the memo a later pass answers from. Without it, the
// check cache's in-memory findings memo (same key) answers a ledger an
// earlier check of this process judged.
#include <memory>
#include <optional>

#include "projects_step.hpp"

namespace lg::rules::steps {

namespace {

// One chunk of the listing (k_ledger_chunk ledgers): per ledger, its
// findings when the persistent cache holds them, else it is a miss.
struct Chunk {
  std::size_t from = 0;
  std::size_t n = 0;
  std::vector<const std::vector<diag::Finding>*> hits;
  std::vector<std::shared_ptr<const std::vector<diag::Finding>>> remembered;  // keeps memo hits alive
  std::vector<std::string> miss_keys;   // per miss, its key in the pack; "" = not cached persistently
  std::vector<std::string> row_inputs;  // per ledger, for the memo
  std::vector<LedgerFile> misses;
  std::vector<git::ObjectId> fetched;  // the misses' parses read ahead into the parse cache
};

// The read-ahead of the pass's first chunk: check_tree's, started before
// its tree scan, else one started here (a no-op with the persistent cache).
LedgerReadAhead& read_ahead(Pass& pass, std::optional<LedgerReadAhead>& own) {
  if (pass.ahead) return *pass.ahead;
  own.emplace(pass);
  return *own;
}

class FullPass {
 public:
  // Without the persistent cache every ledger is read: the first chunk's
  // reads and parses run on the other cores while projects.yaml is
  // validated on this thread (its findings still come first).
  explicit FullPass(Pass& pass)
      : m_pass(pass), m_ahead(&read_ahead(pass, m_own_ahead)), m_projects(pass), m_p(pass.persistent) {
    m_fetched_ahead = m_ahead->finish();
  }

  Result<void> run() {
    LG_TRY(m_listing, list_ledger_entries(m_pass));
    // The memo of this pass, when all it found can be kept.
    if (m_p && !m_projects.id().empty() && !has_unreadable(m_projects.findings())) {
      m_memo.emplace(m_projects.id(), m_projects.findings());
    }
    if (m_p) load_memo_journal(*m_p);  // what passes by the memo read: the pack lacks it
    const std::size_t count = m_listing.ledgers.size();
    // Each ledger's blob is covered once (cover(), for the cache's entry):
    // the ids' room taken at once, not by doubling (at 20,000 ledgers 0.4
    // MB and a copy of it).
    if (m_p) m_pass.covered.reserve(m_pass.covered.size() + count);
    // Without the persistent cache, the next chunk is read and parsed on
    // the other cores while this thread checks the current one (the checks
    // stay in listing order on this thread; the workers only fill the
    // parse cache).
    const bool pipelined = m_p == nullptr;
    Chunk next;
    std::unique_ptr<LedgerPrefetch> next_read;
    for (std::size_t from = 0; from < count; from += k_ledger_chunk) {
      Chunk chunk;
      if (next_read) {
        chunk = std::move(next);  // the prefetch points into its misses' buffer, which the move keeps
        chunk.fetched = next_read->finish();
        next_read.reset();
      } else {
        chunk = make_chunk(from);
        if (from == 0) chunk.fetched = std::move(m_fetched_ahead);
      }
      if (pipelined && from + k_ledger_chunk < count) {
        next = make_chunk(from + k_ledger_chunk);
        next_read = std::make_unique<LedgerPrefetch>(m_pass, next.misses, true);
      }
      check(chunk);
    }
    m_keys.seal();
    const std::size_t before = m_pass.sink.findings().size();
    m_projects.report_active_without_ledger(m_keys);
    if (m_memo) {
      const auto active = reported_since(m_pass, before);
      keep_memo(*m_p, m_memo->finish({active.begin(), active.end()}));
    }
    return {};
  }

 private:
  // The findings of the ledger `entry` (with `m_inputs` its row's) the
  // persistent cache holds: the pack's, else the memo journal's (a pass by
  // the memo read it; its record holds its row's inputs). `miss_key` is set
  // to its key in the pack when neither does.
  const std::vector<diag::Finding>* cached(const git::EntryView& entry, std::string& miss_key) {
    ledger_fact_key(m_fact_key, entry, m_inputs);
    if (const auto* hit = find_facts(*m_p, m_fact_key)) return hit;
    const MemoRecord* j = journal_record(*m_p, entry);
    if (j && j->inputs == m_inputs) {
      keep_facts(*m_p, m_fact_key, j->findings);
      return &j->findings;
    }
    miss_key = m_fact_key;
    return nullptr;
  }

  // Without the persistent cache: the findings an earlier check of this
  // process kept for `entry` (with `m_inputs`), kept alive by `c`; else
  // `miss_key` is set to its key in the check cache.
  const std::vector<diag::Finding>* remembered(const git::EntryView& entry, Chunk& c, std::string& miss_key) {
    ledger_fact_key(m_fact_key, entry, m_inputs);
    auto hit = m_pass.cache.ledger_findings().find(m_fact_key);
    if (!hit) {
      miss_key = m_fact_key;
      return nullptr;
    }
    c.remembered.push_back(std::move(hit));
    return c.remembered.back().get();
  }

  Chunk make_chunk(std::size_t from) {
    Chunk c;
    c.from = from;
    c.n = std::min(k_ledger_chunk, m_listing.ledgers.size() - from);
    look_up(c);
    return c;
  }

  void look_up(Chunk& c) {
    c.hits.assign(c.n, nullptr);
    c.row_inputs.resize(m_memo ? c.n : 0);
    for (std::size_t i = 0; i < c.n; ++i) {
      const git::EntryView entry = m_listing.entry(c.from + i);
      std::string miss_key;
      m_inputs.clear();
      m_projects.append_row_inputs(m_inputs, m_listing.key(c.from + i));
      if (is_readable_kind(entry.kind) && entry.has_id) c.hits[i] = m_p ? cached(entry, miss_key) : remembered(entry, c, miss_key);
      if (m_memo) c.row_inputs[i] = m_inputs;
      if (!c.hits[i]) {
        c.misses.push_back(m_listing.file(c.from + i));
        c.miss_keys.push_back(std::move(miss_key));
      }
    }
  }

  // Reports each ledger of the chunk: a hit's findings, a miss checked
  // (and kept).
  void check(Chunk& c) {
    std::vector<git::ObjectId> fresh = std::move(c.fetched);  // the blobs to read the parse cache lacked
    for (const LedgerFile& lf : c.misses) {
      if (lf.entry.content_id && !m_pass.cache.ledgers().contains(*lf.entry.content_id)) {
        fresh.push_back(*lf.entry.content_id);
      }
    }
    prefetch_ledgers(m_pass, c.misses);
    std::size_t miss = 0;
    for (std::size_t i = 0; i < c.n; ++i) {
      const git::EntryView entry = m_listing.entry(c.from + i);
      // present, even when unreadable: no "has no ledger" on top
      if (is_readable_kind(entry.kind)) m_keys.add(m_listing.key(c.from + i));
      if (c.hits[i]) {
        for (const diag::Finding& f : *c.hits[i]) m_pass.sink.report(f);
        vouch(m_pass, entry.id);
        if (m_memo) m_memo->add(entry.name, entry.kind, entry.id.raw(), c.row_inputs[i], *c.hits[i]);
        continue;
      }
      check_miss(entry, c.misses[miss], c.miss_keys[miss], m_memo ? std::string_view(c.row_inputs[i]) : std::string_view());
      ++miss;
    }
    // The chunk's new parses go once it is checked: what they gave is kept
    // by key (path, blob, row inputs) in the facts pack, or without the
    // persistent cache in the check cache's findings memo, and a later check
    // of this process (BASE, the branch tip) asks that first. Kept up to the
    // cache's budget, 4,096 parses held some 10 MB through a cold check at
    // 20,000 projects that wrote the persistent cache, for no later reader:
    // peak 79 -> 65 MB, and 5% less time.
    for (const git::ObjectId& id : fresh) m_pass.cache.ledgers().forget(id);
  }

  void check_miss(const git::EntryView& entry, const LedgerFile& lf, std::string& miss_key,
                  std::string_view row_inputs) {
    const std::size_t before = m_pass.sink.findings().size();
    check_ledger_file(m_pass, lf, m_projects.table_for(lf.key()));
    const auto mine = reported_since(m_pass, before);
    const bool cacheable = !has_unreadable(mine);
    if (m_memo) {
      if (cacheable && entry.has_id) {
        m_memo->add(entry.name, entry.kind, entry.id.raw(), row_inputs, mine);
      } else {
        m_memo.reset();
      }
    }
    if (miss_key.empty() || !cacheable) return;
    if (!m_p) {
      m_pass.cache.ledger_findings().keep(miss_key, entry.id,
                                          std::make_shared<const std::vector<diag::Finding>>(mine.begin(), mine.end()));
      return;
    }
    keep_facts(*m_p, std::move(miss_key), {mine.begin(), mine.end()});
  }

  Pass& m_pass;
  std::optional<LedgerReadAhead> m_own_ahead;  // when check_tree started none
  LedgerReadAhead* m_ahead;
  std::vector<git::ObjectId> m_fetched_ahead;
  ProjectsYamlInput m_projects;
  CheckCache::Persistent* m_p;
  LedgerListing m_listing;
  std::optional<MemoWriter> m_memo;
  LedgerKeys m_keys;
  std::string m_fact_key;
  std::string m_inputs;
};

}  // namespace

Result<void> check_cortex_projects(Pass& pass) {
  if (pass.persistent) {
    LG_TRY(const bool done, check_projects_by_memo(pass));
    if (done) return {};
  }
  return FullPass(pass).run();
}

}  // namespace lg::rules::steps
