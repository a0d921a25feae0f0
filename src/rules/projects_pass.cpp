// The cortex-projects pass (check_pass.hpp): projects.yaml, file names,
// each ledger in listing order, then the active rows without a ledger.
// With the persistent cache, the projects memo answers first
// (projects_memo_pass.cpp); else a ledger whose (path, blob, row inputs)
// the facts pack or the memo's journal holds is not read, and the pass's
// results are kept as the memo a later pass answers from.
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
  std::vector<std::string> miss_keys;   // per miss, its key in the pack; "" = not cached persistently
  std::vector<std::string> row_inputs;  // per ledger, for the memo
  std::vector<LedgerFile> misses;
};

// Without the persistent cache every ledger is read: the first chunk's reads
// and parses start on the other cores before projects.yaml is validated on
// this thread (its findings still come first); `first` holds the chunk.
std::unique_ptr<LedgerPrefetch> read_ahead(Pass& pass, std::vector<LedgerFile>& first) {
  if (pass.persistent) return nullptr;
  Pass quiet{pass.tree, pass.cache, {}};  // the listing's findings are reported later, in their place
  auto listed = list_ledger_entries(quiet);
  if (!listed) return nullptr;
  for (std::size_t i = 0; i < std::min(k_ledger_chunk, listed->ledgers.size()); ++i) first.push_back(listed->file(i));
  return std::make_unique<LedgerPrefetch>(pass, first, true);
}

class FullPass {
 public:
  explicit FullPass(Pass& pass)
      : m_pass(pass), m_ahead(read_ahead(pass, m_first)), m_projects(pass), m_p(pass.persistent) {
    if (m_ahead) m_fetched_ahead = m_ahead->finish();
    m_ahead.reset();
  }

  Result<void> run() {
    LG_TRY(m_listing, list_ledger_entries(m_pass));
    // The memo of this pass, when all it found can be kept.
    if (m_p && !m_projects.id().empty() && !has_unreadable(m_projects.findings())) {
      m_memo.emplace(m_projects.id(), m_projects.findings());
    }
    if (m_p) load_memo_journal(*m_p);  // what passes by the memo read: the pack lacks it
    const std::size_t count = m_listing.ledgers.size();
    for (std::size_t from = 0; from < count; from += k_ledger_chunk) {
      Chunk chunk;
      chunk.from = from;
      chunk.n = std::min(k_ledger_chunk, count - from);
      look_up(chunk);
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

  void look_up(Chunk& c) {
    c.hits.assign(c.n, nullptr);
    c.row_inputs.resize(m_memo ? c.n : 0);
    for (std::size_t i = 0; i < c.n; ++i) {
      const git::EntryView entry = m_listing.entry(c.from + i);
      std::string miss_key;
      m_inputs.clear();
      if (m_p) m_projects.append_row_inputs(m_inputs, m_listing.key(c.from + i));
      if (m_p && is_readable_kind(entry.kind) && entry.has_id) c.hits[i] = cached(entry, miss_key);
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
    std::vector<git::ObjectId> fresh;  // the blobs to read the parse cache lacked
    if (c.from == 0) fresh = std::move(m_fetched_ahead);
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
    if (m_pass.cache.ledgers().size() > m_pass.cache.budget().ledgers) {
      for (const git::ObjectId& id : fresh) m_pass.cache.ledgers().forget(id);
    }
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
    keep_facts(*m_p, std::move(miss_key), {mine.begin(), mine.end()});
  }

  Pass& m_pass;
  std::vector<LedgerFile> m_first;  // read ahead (read_ahead)
  std::unique_ptr<LedgerPrefetch> m_ahead;
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
