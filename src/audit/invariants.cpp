// Era-R ledger invariants between two versions (spec §6.3, §4.4).
#include "ledgergate/audit/invariants.hpp"

#include <fmt/format.h>

#include <set>
#include <string_view>

#include "ledgergate/rules/registry.hpp"

namespace lg::audit {
namespace {

using ledger::LogEntry;

bool same_entry(const LogEntry& a, const LogEntry& b) {
  return a.date == b.date && a.kind == b.kind && a.text == b.text;
}

std::string clip(std::string_view text) {
  constexpr std::size_t k_max = 60;
  if (text.size() <= k_max) return std::string(text);
  std::size_t cut = k_max;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0u) == 0x80u) --cut;  // UTF-8 boundary
  return std::string(text.substr(0, cut)) + "…";
}

bool utf8_cont(char c) { return (static_cast<unsigned char>(c) & 0xC0u) == 0x80u; }

// The part of `a` and `b` that differs, with a little context either side.
std::pair<std::string, std::string> difference(std::string_view a, std::string_view b) {
  constexpr std::size_t k_context = 12;
  std::size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) ++prefix;
  std::size_t suffix = 0;
  while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
         a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix]) {
    ++suffix;
  }
  std::size_t begin = prefix > k_context ? prefix - k_context : 0;
  while (begin > 0 && begin < a.size() && utf8_cont(a[begin])) --begin;
  std::size_t tail = suffix > k_context ? suffix - k_context : 0;
  auto cut = [&](std::string_view s) {
    std::size_t end = s.size() - tail;
    while (end < s.size() && utf8_cont(s[end])) ++end;
    return std::string(begin > 0 ? "…" : "") + clip(s.substr(begin, end - begin)) + (end < s.size() ? "…" : "");
  };
  return {cut(a), cut(b)};
}

std::string describe(const LogEntry& e) { return fmt::format("{} — {} — {}", e.date, e.kind, clip(e.text)); }

diag::Finding finding(rules::RuleId rule, const std::string& path, int line, std::string message) {
  return rules::make_finding(rule, path, line, std::move(message), diag::PeerForm::none);
}

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

// The new entries of `after` that answer a run change: a run entry whose text
// starts with "{id} {verb}".
bool has_run_entry(const std::vector<const LogEntry*>& added, const std::string& id,
                   std::initializer_list<std::string_view> verbs) {
  for (const LogEntry* e : added) {
    if (e->kind != "run") continue;
    for (std::string_view verb : verbs) {
      if (starts_with(e->text, id + " " + std::string(verb))) return true;
    }
  }
  return false;
}

}  // namespace

std::vector<diag::Finding> compare_ledgers(const ledger::ProjectLedger& before, const ledger::ProjectLedger& after,
                                           const std::string& path) {
  std::vector<diag::Finding> out;
  const std::vector<LogEntry>& old_log = before.log;
  const std::vector<LogEntry>& new_log = after.log;
  const std::size_t n_old = old_log.size();
  const std::size_t n_new = new_log.size();
  std::vector<bool> old_matched(n_old, false), new_matched(n_new, false);

  // Aligned from the end: prepending never moves an entry's distance from the bottom.
  for (std::size_t i = 0; i < n_old && i < n_new; ++i) {
    if (same_entry(old_log[n_old - 1 - i], new_log[n_new - 1 - i])) {
      old_matched[n_old - 1 - i] = true;
      new_matched[n_new - 1 - i] = true;
    }
  }
  // Entries kept but moved (an entry removed below them shifts them): equal text anywhere.
  for (std::size_t o = 0; o < n_old; ++o) {
    if (old_matched[o]) continue;
    for (std::size_t n = 0; n < n_new; ++n) {
      if (!new_matched[n] && same_entry(old_log[o], new_log[n])) {
        old_matched[o] = new_matched[n] = true;
        break;
      }
    }
  }
  // Edits: an unmatched old entry paired with an unmatched new one at the same
  // distance from the bottom, else one with the same date and kind.
  std::vector<std::pair<std::size_t, std::size_t>> edits;
  for (std::size_t o = 0; o < n_old; ++o) {
    if (old_matched[o]) continue;
    const std::size_t from_end = n_old - 1 - o;
    if (from_end < n_new && !new_matched[n_new - 1 - from_end]) {
      edits.emplace_back(o, n_new - 1 - from_end);
      old_matched[o] = new_matched[n_new - 1 - from_end] = true;
    }
  }
  for (std::size_t o = 0; o < n_old; ++o) {
    if (old_matched[o]) continue;
    for (std::size_t n = 0; n < n_new; ++n) {
      if (!new_matched[n] && new_log[n].date == old_log[o].date && new_log[n].kind == old_log[o].kind) {
        edits.emplace_back(o, n);
        old_matched[o] = new_matched[n] = true;
        break;
      }
    }
  }
  // The entries prepended: the unmatched block at the top of the new log.
  std::size_t head = 0;
  while (head < n_new && !new_matched[head]) ++head;
  std::vector<const LogEntry*> added;
  for (std::size_t n = 0; n < n_new; ++n) {
    if (!new_matched[n]) added.push_back(&new_log[n]);
  }

  for (const auto& [o, n] : edits) {
    const auto [was, now] = difference(old_log[o].text, new_log[n].text);
    out.push_back(finding("audit-log-entry-edited", path, new_log[n].line,
                          fmt::format("log entry '{} — {}' (line {} before) was edited: was '{}', now '{}'",
                                      old_log[o].date, old_log[o].kind, old_log[o].line, was, now)));
  }
  for (std::size_t o = 0; o < n_old; ++o) {
    if (!old_matched[o]) {
      out.push_back(finding("audit-log-entry-removed", path, 0,
                            fmt::format("log entry '{}' (line {} before) was removed", describe(old_log[o]),
                                        old_log[o].line)));
    }
  }
  for (std::size_t n = head; n < n_new; ++n) {
    if (!new_matched[n]) {
      out.push_back(finding("audit-log-entry-inserted", path, new_log[n].line,
                            fmt::format("log entry '{}' was added below the head of the log (entries are only "
                                        "prepended)",
                                        describe(new_log[n]))));
    }
  }
  if (n_old > 0) {
    const std::string& head_date = old_log.front().date;
    for (std::size_t n = 0; n < head; ++n) {
      if (new_log[n].date < head_date) {
        out.push_back(finding("audit-log-date-backwards", path, new_log[n].line,
                              fmt::format("new log entry dated {} is older than the previous head entry ({})",
                                          new_log[n].date, head_date)));
      }
    }
  }

  // Runs: appear with "submitted", leave with "finished" or "failed".
  std::set<std::string> old_runs, new_runs;
  for (const ledger::RunLine& r : before.runs) old_runs.insert(r.ident);
  for (const ledger::RunLine& r : after.runs) new_runs.insert(r.ident);
  for (const ledger::RunLine& r : after.runs) {
    if (old_runs.count(r.ident) != 0) continue;
    old_runs.insert(r.ident);  // report a duplicated new ident once
    if (!has_run_entry(added, r.ident, {"submitted"})) {
      out.push_back(finding("audit-run-without-log", path, r.line,
                            fmt::format("run {} was added without a new '{} submitted' log entry", r.ident,
                                        r.ident)));
    }
  }
  for (const ledger::RunLine& r : before.runs) {
    if (new_runs.count(r.ident) != 0) continue;
    new_runs.insert(r.ident);
    if (!has_run_entry(added, r.ident, {"finished", "failed"})) {
      out.push_back(finding("audit-run-removed-without-log", path, 0,
                            fmt::format("run {} (line {} before) was removed without a new '{} finished' or "
                                        "'{} failed' log entry",
                                        r.ident, r.line, r.ident, r.ident)));
    }
  }
  return out;
}

}  // namespace lg::audit
