// validate_edit: the tree before and the tree the edit leaves, judged alike;
// what the after adds is the refusal. An edit of a cortex-projects ledger
// (projects.yaml, files directly in projects/) is judged on what it can
// change alone; anything else is checked whole on both sides.
#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <tuple>
#include <unordered_set>

#include "ledgergate/diag/rule_table.hpp"
#include "ledgergate/ledger/open_requirements.hpp"
#include "ledgergate/ledger/project_ledger.hpp"
#include "ledgergate/rules/check.hpp"
#include "ledgergate/util/text.hpp"
#include "ledgergate/write/apply.hpp"
#include "ledgergate/write/overlay.hpp"
#include "apply_steps.hpp"

namespace lg::write {

namespace {

// A finding as the comparison sees it: a line that moves is the same
// finding, so the finding's own line is left out of its message too (the
// reference's parse findings say "line 13: run line does not parse: ...").
using FindingKey = std::tuple<std::string, std::string, std::string>;

FindingKey key_of(const diag::Finding& f) {
  std::string message = f.message;
  if (f.location.line > 0) {
    const std::string own = "line " + std::to_string(f.location.line);
    for (auto at = message.find(own); at != std::string::npos; at = message.find(own, at + 1)) {
      const std::size_t end = at + own.size();
      if (end < message.size() && std::isdigit(static_cast<unsigned char>(message[end]))) continue;  // line 130
      message.replace(at, own.size(), "line");
    }
  }
  return {f.rule, f.location.path, message};
}

// A parse finding of era R (R-P01..R-P08): the file would not read back.
bool is_parse_finding(const diag::Finding& f) {
  const diag::RuleInfo* rule = diag::find_rule(f.rule);
  return rule != nullptr && rule->ref.starts_with("R-P");
}

// Error findings of `after` that `before` lacks, in `after`'s order; a
// finding present n times before excuses n copies after. Warnings do not
// count: the reference's check passes with them and so do its verbs (a run
// of 3002 beside 3002_1 is the overlap warning, written by the reference).
std::vector<diag::Finding> new_findings(const std::vector<diag::Finding>& before,
                                        const std::vector<diag::Finding>& after) {
  std::map<FindingKey, int> seen;
  for (const diag::Finding& f : before) ++seen[key_of(f)];
  std::vector<diag::Finding> added;
  for (const diag::Finding& f : after) {
    if (f.severity != diag::Severity::error) continue;
    int& n = seen[key_of(f)];
    if (n > 0) {
      --n;
    } else {
      added.push_back(f);
    }
  }
  return added;
}

bool is_edited(const std::vector<FileEdit>& edits, const std::string& path) {
  return std::any_of(edits.begin(), edits.end(), [&](const FileEdit& e) { return e.path == path; });
}

// The reference re-reads the file it wrote and reports its parse findings,
// without the `{rel}: ` prefix `check` adds; we say the same before writing.
Refusal refusal_for(const std::vector<diag::Finding>& added, const std::vector<diag::Finding>& after,
                    const std::vector<FileEdit>& edits) {
  const bool unreadable = std::any_of(added.begin(), added.end(), [&](const diag::Finding& f) {
    return is_parse_finding(f) && is_edited(edits, f.location.path);
  });
  if (unreadable) {
    std::string findings;
    for (const diag::Finding& f : after) {
      if (!is_parse_finding(f) || !is_edited(edits, f.location.path)) continue;
      if (!findings.empty()) findings += "; ";
      findings += f.message;
    }
    return Refusal{"the edit would not read back: " + findings};
  }
  std::string message = "the edit would add a finding: " + diag::peer_text(added.front());
  if (added.size() > 1) message += "; " + std::to_string(added.size() - 1) + " more";
  return Refusal{message};
}

// ---- the findings an edit can change ----

// What each side reports in the scopes the edit touches, in the order a
// whole check reports them; every other finding is the same on both sides
// (same inputs), so the difference is the whole check's.
struct Scoped {
  std::vector<diag::Finding> before, after;
};

bool is_readable(const git::Entry& e) { return e.kind == git::EntryKind::file || e.kind == git::EntryKind::executable; }

// A ledger's facts that the projects.yaml row's rules read (R-F01 its
// presence, R-F06 `status` with the Now, R-F10 `partition` with each run's,
// R-F13 `status` with the runs): two versions equal in these report the
// same row findings whatever the row.
struct RowFacts {
  bool has_now = false;
  std::vector<std::pair<std::string, std::string>> runs;  // (ident, partition), sorted
  bool operator==(const RowFacts&) const = default;
};

RowFacts row_facts(std::string_view bytes) {
  const ledger::ProjectLedger l = ledger::parse_project_ledger(bytes);
  RowFacts out{l.has_now, {}};
  for (const ledger::RunLine& r : l.runs) out.runs.emplace_back(r.ident, r.partition);
  std::sort(out.runs.begin(), out.runs.end());
  return out;
}

// The findings of projects/<name> in `tree`, against `rows` (none when absent).
Result<std::vector<diag::Finding>> ledger_findings(git::TreeSource& tree, const std::string& path,
                                                   const rules::ProjectsTable& rows, rules::CheckCache& cache) {
  LG_TRY(auto entry, tree.stat(path));
  if (!entry) return std::vector<diag::Finding>();
  const rules::ProjectsStepLedger lf{path, *entry};
  return std::move(rules::projects_step_ledgers(tree, {lf}, rows, cache).front());
}

// "active but has no ledger" for the rows of `rows` whose verdict may
// differ from `other`'s: active here and not there, or whose ledger the
// edit writes. A row active on both sides whose ledger the edit leaves
// alone reports the same finding on both (its message names the key alone).
Result<void> active_rows(git::TreeSource& tree, const rules::ProjectsTable& rows, const rules::ProjectsTable& other,
                         const std::set<std::string>& written, std::vector<diag::Finding>& out) {
  const auto active = [](const rules::ProjectRow* r) { return r && r->get("status") == std::optional<std::string_view>("active"); };
  rules::ProjectsTable some;
  std::unordered_set<std::string> present;
  for (const rules::ProjectRow& row : rows.rows) {
    if (!active(&row) || (active(other.find(row.key)) && !written.count(row.key))) continue;
    some.rows.push_back(row);
    LG_TRY(auto entry, tree.stat(ledger::project_ledger_path(row.key)));
    if (entry && is_readable(*entry)) present.insert(row.key);
  }
  std::vector<diag::Finding> found = rules::projects_step_active_rows(some, present);
  out.insert(out.end(), found.begin(), found.end());
  return {};
}

// The scoped findings of an edit of a cortex-projects tree that writes only
// projects.yaml and regular files directly in an existing projects/ (each
// absent or a regular file before, none named by the open-requirements
// glob); nullopt for any other edit, which is checked whole.
Result<std::optional<Scoped>> scoped_findings(git::TreeSource& before, git::TreeSource& after,
                                              const std::vector<FileEdit>& edits, const rules::CheckOptions& check,
                                              rules::CheckCache& cache) {
  const auto whole = [] { return std::optional<Scoped>(); };
  bool yaml = false;
  std::set<std::string> names;  // edited entries of projects/, in name order
  for (const FileEdit& e : edits) {
    if (ledger::orl_glob_match(check.open_requirements_glob, e.path)) return whole();
    LG_TRY(auto was, before.stat(e.path));
    if (was && !is_readable(*was)) return whole();
    if (e.path == ledger::k_projects_yaml) {
      yaml = true;
      continue;
    }
    const std::string prefix = std::string(ledger::k_projects_dir) + "/";
    if (!e.path.starts_with(prefix) || e.path.size() == prefix.size() ||
        e.path.find('/', prefix.size()) != std::string::npos) {
      return whole();
    }
    names.insert(e.path.substr(prefix.size()));
  }
  if (!names.empty()) {
    LG_TRY(const bool dir, git::is_directory(before, ledger::k_projects_dir));
    if (!dir) return whole();
  }

  Scoped out;
  // projects.yaml, checked on both sides when the edit writes it.
  std::shared_ptr<const rules::ProjectsTable> rows_before, rows_after;
  if (yaml) {
    LG_TRY(auto was, rules::projects_step_yaml(before, cache));
    LG_TRY(auto will_be, rules::projects_step_yaml(after, cache));
    rows_before = was.table;
    rows_after = will_be.table;
    out.before = std::move(was.findings);
    out.after = std::move(will_be.findings);
  }

  // The file-name step for the edited entries: every file-name finding,
  // then every unchecked file, as the step reports them.
  const auto names_step = [&](git::TreeSource& tree, std::vector<diag::Finding>& to) -> Result<void> {
    std::vector<diag::Finding> unchecked;
    for (const std::string& name : names) {
      LG_TRY(auto entry, tree.stat(std::string(ledger::k_projects_dir) + "/" + name));
      if (!entry) continue;
      LG_TRY(auto step, rules::projects_step_entry(tree, *entry, cache));
      to.insert(to.end(), step.names.begin(), step.names.end());
      unchecked.insert(unchecked.end(), step.unchecked.begin(), step.unchecked.end());
    }
    to.insert(to.end(), unchecked.begin(), unchecked.end());
    return {};
  };
  if (auto r = names_step(before, out.before); !r) return r.error();
  if (auto r = names_step(after, out.after); !r) return r.error();

  // The ledgers: those the edit writes, and those whose row's inputs the
  // edit of projects.yaml changes; each in name order, against its row.
  std::set<std::string> ledgers;
  std::set<std::string> written;  // the keys of the ledgers written
  for (const std::string& name : names) {
    if (rules::projects_entry_role(name) != rules::ProjectsEntryRole::ledger) continue;
    ledgers.insert(name);
    written.insert(name.substr(0, name.size() - 3));
  }
  if (yaml) {
    for (const auto* table : {rows_before.get(), rows_after.get()}) {
      for (const rules::ProjectRow& row : table->rows) {
        if (rules::projects_step_row_inputs(*rows_before, row.key) != rules::projects_step_row_inputs(*rows_after, row.key)) {
          ledgers.insert(row.key + ".md");
        }
      }
    }
  }
  for (const std::string& name : ledgers) {
    const std::string path = std::string(ledger::k_projects_dir) + "/" + name;
    const std::string key = name.substr(0, name.size() - 3);
    rules::ProjectsTable one;  // the row's table, when the edit leaves projects.yaml alone
    if (!yaml) {
      // A ledger rewritten with the same facts for its row's rules reports
      // the same row findings on both sides: no row needs reading.
      LG_TRY(auto was, git::read_regular_file(before, path));
      LG_TRY(auto will_be, git::read_regular_file(after, path));
      const bool same_row_findings = was && will_be && row_facts(*was) == row_facts(*will_be);
      if (!same_row_findings) {
        LG_TRY(const std::string inputs, rules::projects_row_inputs(before, key, cache));
        one = rules::projects_table_from_inputs(key, inputs);
      }
    }
    LG_TRY(auto was, ledger_findings(before, path, yaml ? *rows_before : one, cache));
    LG_TRY(auto will_be, ledger_findings(after, path, yaml ? *rows_after : one, cache));
    out.before.insert(out.before.end(), was.begin(), was.end());
    out.after.insert(out.after.end(), will_be.begin(), will_be.end());
  }

  // Without an edit of projects.yaml the rows stand and ledgers are only
  // added or rewritten as regular files: an "active but has no ledger"
  // finding can go, never come, so it cannot refuse. With one, the rows
  // whose verdict may differ are judged on both sides.
  if (yaml) {
    if (auto r = active_rows(before, *rows_before, *rows_after, written, out.before); !r) return r.error();
    if (auto r = active_rows(after, *rows_after, *rows_before, written, out.after); !r) return r.error();
  }
  check.apply_severities(out.before);
  check.apply_severities(out.after);
  return std::optional<Scoped>(std::move(out));
}

}  // namespace

Result<std::optional<Refusal>> validate_edit(git::TreeSource& before, const std::vector<FileEdit>& edits,
                                             const ApplyOptions& options) {
  if (edits.empty()) return std::optional<Refusal>();
  OverlaySource after(before, edits);
  rules::CheckOptions check = options.policy;  // severities, off, the open-requirements glob
  check.profile = "auto";
  check.detected.reset();
  ledger::Layout layout = ledger::Layout::none;
  if (options.profile) {
    check.profile = options.profile->name();
    layout = options.profile->layout;
    LG_TRY(const bool fits, ledger::pin_fits(before, layout));
    if (!fits) layout = ledger::Layout::none;  // the whole check says why it does not fit
  } else {
    // Detected in the before; a tree the edit gives its first ledger (a
    // `new` in an empty folder) is checked with the after's layout.
    LG_TRY(layout, ledger::detect_layout(before));
    if (layout == ledger::Layout::none) {
      LG_TRY(layout, ledger::detect_layout(after));
      if (layout == ledger::Layout::none) return std::optional<Refusal>();
      check.detected = layout;
      layout = ledger::Layout::none;  // a first ledger: checked whole
    } else {
      check.detected = layout;
    }
  }
  rules::CheckCache cache;
  std::optional<Scoped> scoped;
  if (options.incremental && layout == ledger::Layout::cortex_projects) {
    LG_TRY(scoped, scoped_findings(before, after, edits, check, cache));
  }
  if (!scoped) {
    LG_TRY(rules::CheckReport was, rules::check_tree(before, check, cache));
    LG_TRY(rules::CheckReport will_be, rules::check_tree(after, check, cache));
    scoped = Scoped{std::move(was.findings), std::move(will_be.findings)};
  }
  const std::vector<diag::Finding> added = new_findings(scoped->before, scoped->after);
  if (added.empty()) return std::optional<Refusal>();
  return std::optional<Refusal>(refusal_for(added, scoped->after, edits));
}

Result<Applied> edit_validated(git::TreeSource& tree, const Editor& editor, const ApplyOptions& options, int attempt) {
  LG_TRY(Outcome outcome, editor(tree));
  Applied applied{std::move(outcome), {}, std::nullopt, attempt};
  const Change* change = to_write(applied);
  if (change == nullptr || !options.validate) return applied;
  LG_TRY(auto refusal, validate_edit(tree, change->files, options));
  if (refusal) applied.outcome = std::move(*refusal);
  return applied;
}

const Change* to_write(const Applied& applied) {
  const auto* change = std::get_if<Change>(&applied.outcome);
  return change == nullptr || change->files.empty() ? nullptr : change;
}

}  // namespace lg::write
