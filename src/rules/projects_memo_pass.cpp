// The cortex-projects pass from the projects memo (projects_memo.hpp;
// docs/cache.md): when the memo was built against this tree's
// projects.yaml, each ledger whose name, kind and blob it (or its journal)
// holds has its findings, the others are checked, and the active-row
// findings stand unless the set of ledgers changed. A memo that does not
// read exactly (malformed, names out of order) is declined whole: what it
// reported is taken back and the caller runs the pass.
#include <optional>

#include "projects_step.hpp"

namespace lg::rules::steps {

namespace {

// The memo of `listing` once every ledger is in the memo or its journal
// (the journal folded in); nullopt when one is in neither.
std::optional<std::string> fold_memo(const CheckCache::Persistent& p, const LedgerListing& listing,
                                     const std::vector<diag::Finding>& active) {
  MemoReader memo(p.memo);
  MemoWriter out(memo.yaml_id(), memo.yaml_findings());
  MemoRecord rec;
  bool have = memo.next(rec);
  for (std::size_t i = 0; i < listing.ledgers.size(); ++i) {
    const git::EntryView entry = listing.entry(i);
    while (have && rec.name < entry.name) have = memo.next(rec);
    if (have && rec.matches(entry)) {
      out.add_encoded(rec.encoded);
    } else if (const MemoRecord* known = journal_record(p, entry)) {
      out.add_encoded(known->encoded);
    } else {
      return std::nullopt;
    }
  }
  if (!memo.ok()) return std::nullopt;
  return out.finish(active);
}

// One pass by the memo: the listing and the memo walked side by side, both
// in name order. Each step returns false when the memo turns out not to
// read exactly (the pass then declines).
class MemoPass {
 public:
  MemoPass(Pass& pass, MemoReader memo, std::string yaml_id)
      : m_pass(pass),
        m_p(*pass.persistent),
        m_yaml_id(std::move(yaml_id)),
        m_memo(std::move(memo)),
        m_behind(m_p.memo_file) {}

  // Reports the memo's answer (true), or nothing (false: declined).
  Result<bool> run(const git::ObjectId& yaml_blob) {
    m_start = m_pass.sink.findings().size();
    for (const diag::Finding& f : m_memo.yaml_findings()) m_pass.sink.report(f);
    vouch(m_pass, yaml_blob);
    LG_TRY(m_listing, list_ledger_entries(m_pass));
    m_have = m_memo.next(m_rec);
    std::string_view previous;
    for (std::size_t i = 0; i < m_listing.ledgers.size(); ++i) {
      const git::EntryView entry = m_listing.entry(i);
      if (i > 0 && !(previous < entry.name)) return decline();
      previous = entry.name;
      if (!step(i, entry)) return decline();
    }
    while (m_have) {
      m_keys_changed = true;
      if (!advance()) return decline();
    }
    std::vector<diag::Finding> active = m_memo.active();
    if (!m_memo.ok()) return decline();
    m_behind.finish();
    report_active(active);
    // The pack, when loaded (for another pass, or a key the memo lacked),
    // was not asked for the ledgers the memo answered: they stay in it.
    if (m_p.loaded) m_p.pack.hold_unused();
    if (m_journaled) write_back(active);
    return true;
  }

 private:
  bool decline() {
    m_pass.sink.truncate(m_start);
    decline_memo(m_p);
    return false;
  }

  // The memo's next record; false when names do not rise (the walk relies on it).
  bool advance() {
    const std::string_view was = m_rec.name;
    m_have = m_memo.next(m_rec);
    m_behind.passed(m_memo.position());
    return !m_have || was < m_rec.name;
  }

  // The ledger `entry` (the listing's i-th): the memo's or the journal's
  // findings when either holds it, else checked.
  bool step(std::size_t i, const git::EntryView& entry) {
    while (m_have && m_rec.name < entry.name) {
      m_keys_changed = true;
      if (!advance()) return false;
    }
    if (!m_memo.ok()) return false;
    const bool same_name = m_have && m_rec.name == entry.name;
    if (!same_name || is_readable_kind(m_rec.kind) != is_readable_kind(entry.kind)) m_keys_changed = true;
    const MemoRecord* known = same_name && m_rec.matches(entry) ? &m_rec : journal_record(m_p, entry);
    if (known) {
      if (known == &m_rec && !m_rec.decode_findings()) return false;
      for (const diag::Finding& f : known->findings) m_pass.sink.report(f);
      if (entry.has_id) vouch(m_pass, entry.id);
    } else {
      check_unknown(i, entry, same_name);
    }
    return !same_name || advance();
  }

  // A ledger neither the memo nor its journal holds: from the facts pack
  // when this check has it loaded anyway (a tree's glob walk), else read
  // and checked; what it found goes to the journal (and the pack).
  void check_unknown(std::size_t i, const git::EntryView& entry, bool same_name) {
    m_inputs.clear();
    if (same_name) {
      m_inputs = m_rec.inputs;  // the same projects.yaml: the same row
    } else {
      yaml_input().append_row_inputs(m_inputs, m_listing.key(i));
    }
    const bool packed = m_p.loaded && is_readable_kind(entry.kind) && entry.has_id;
    if (packed) ledger_fact_key(m_fact_key, entry, m_inputs);
    const std::vector<diag::Finding>* hit = packed ? m_p.pack.find(m_fact_key) : nullptr;
    const std::size_t before = m_pass.sink.findings().size();
    if (hit) {
      for (const diag::Finding& f : *hit) m_pass.sink.report(f);
      vouch(m_pass, entry.id);
    } else {
      const LedgerFile lf = m_listing.file(i);
      const bool rebuilt = table_from_inputs(lf.key(), m_inputs, m_one);
      check_ledger_file(m_pass, lf, rebuilt ? m_one : yaml_input().table());
    }
    const auto mine = reported_since(m_pass, before);
    if (!entry.has_id || has_unreadable(mine)) return;
    auto owned = std::make_shared<const std::string>(
        MemoWriter::record(entry.name, entry.kind, entry.id.raw(), m_inputs, mine));
    const std::string_view bytes = *owned;
    m_journaled = add_journal_record(m_p, std::move(owned), bytes) || m_journaled;
    if (packed && !hit) keep_facts(m_p, m_fact_key, {mine.begin(), mine.end()});
  }

  // The memo's active-row findings, or (a ledger added, removed or made
  // (un)readable) the active rows judged again against the listing, into `active`.
  void report_active(std::vector<diag::Finding>& active) {
    if (!m_keys_changed) {
      for (const diag::Finding& f : active) m_pass.sink.report(f);
      return;
    }
    const std::size_t before = m_pass.sink.findings().size();
    yaml_input().report_active_without_ledger(keys_of(m_listing));
    const auto now = reported_since(m_pass, before);
    active.assign(now.begin(), now.end());
  }

  // What this pass read goes to the journal; a journal grown past its
  // bound is folded into a new memo of this listing.
  void write_back(const std::vector<diag::Finding>& active) {
    if (m_p.journal.size() <= k_memo_journal_max) return write_memo_journal(m_p, m_yaml_id);
    if (auto folded = fold_memo(m_p, m_listing, active)) {
      keep_memo(m_p, std::move(*folded));
    } else {  // a ledger that cannot be kept (unreadable): the journal starts again
      remove_memo_journal(m_p);
    }
  }

  // projects.yaml's facts, for a key the memo lacks.
  ProjectsYamlInput& yaml_input() {
    if (!m_projects) m_projects.emplace(m_pass, false);
    return *m_projects;
  }

  Pass& m_pass;
  CheckCache::Persistent& m_p;
  std::string m_yaml_id;
  MemoReader m_memo;
  // The memo's pages behind the walk go back to the system (20,000
  // records: 1.5 MB the hook would otherwise hold to its end).
  util::PagesBehind m_behind;
  std::size_t m_start = 0;
  LedgerListing m_listing;
  std::optional<ProjectsYamlInput> m_projects;
  bool m_keys_changed = false;  // a ledger added, removed or made (un)readable: the active rows are judged again
  bool m_journaled = false;     // a record added to the journal
  MemoRecord m_rec;
  bool m_have = false;
  ProjectsTable m_one;
  std::string m_inputs;
  std::string m_fact_key;
};

}  // namespace

Result<bool> check_projects_by_memo(Pass& pass) {
  CheckCache::Persistent& p = *pass.persistent;
  const auto yaml = pass.tree.stat(k_projects_yaml);
  if (!yaml || !*yaml || !is_readable_kind((*yaml)->kind) || !(*yaml)->content_id) return false;
  load_memo(p);
  if (p.memo.empty()) return false;
  std::string yaml_id = (*yaml)->content_id->hex();
  MemoReader memo(p.memo);
  if (!memo.ok() || memo.yaml_id() != yaml_id) return false;
  load_memo_journal(p);
  if (p.journal_yaml != yaml_id) {  // records judged with another projects.yaml: a new journal for this one
    clear_memo_journal(p);
    p.journal_yaml = yaml_id;
  }
  const git::ObjectId blob = *(*yaml)->content_id;
  return MemoPass(pass, std::move(memo), std::move(yaml_id)).run(blob);
}

}  // namespace lg::rules::steps
