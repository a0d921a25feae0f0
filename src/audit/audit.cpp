// The history walk: revwalk oldest first, each commit against its first
// parent, findings matched across commits by (rule, path, message).
#include "ledgergate/audit/audit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <set>

#include "ledgergate/audit/invariants.hpp"
#include "ledgergate/git/diff.hpp"
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

bool is_project_ledger_path(std::string_view path) {
  if (!under(path, "projects")) return false;
  const std::string_view rest = path.substr(9);
  return rest.find('/') == std::string_view::npos && rest.size() > 3 && rest.substr(rest.size() - 3) == ".md";
}

// An input the walk cannot read (a missing object, a file over the size
// limit) stops the audit: exit 2. A ledger that is not UTF-8 was readable,
// so it stays an error finding of its commit.
bool unreadable(const diag::Finding& f) { return f.cannot_judge && f.rule != "input-not-utf8"; }

bool profile_checked(const std::string& name) {
  for (const rules::ProfileInfo& p : rules::known_profiles()) {
    if (p.name == name) return p.checked;
  }
  return true;  // unknown names are left to check_tree
}

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
    LG_TRY(git_oid from, repo.resolve_commit(options.range.substr(0, dots)));
    LG_TRY(git_oid to, repo.resolve_commit(options.range.substr(dots + 2).empty() ? "HEAD"
                                                                                     : options.range.substr(dots + 2)));
    if (int rc = git_revwalk_push(walk.get(), &to); rc < 0) return git::libgit2_error(rc, "revwalk");
    if (int rc = git_revwalk_hide(walk.get(), &from); rc < 0) return git::libgit2_error(rc, "revwalk");
  } else {
    LG_TRY(git_oid tip, repo.resolve_commit(options.range.empty() ? "HEAD" : options.range));
    if (int rc = git_revwalk_push(walk.get(), &tip); rc < 0) return git::libgit2_error(rc, "revwalk");
  }
  std::vector<git_oid> out;
  git_oid oid;
  int rc = 0;
  while ((rc = git_revwalk_next(&oid, walk.get())) == 0) out.push_back(oid);
  if (rc != GIT_ITEROVER) return git::libgit2_error(rc, "cannot judge: walking the history");
  return out;
}

struct CommitFacts {
  git_oid id{};
  std::string hex;
  std::string summary;
  git_oid tree{};
  std::vector<git_oid> parents;
  long long time = 0;
};

Result<CommitFacts> read_commit(const git::Repository& repo, const git_oid& id) {
  git_commit* raw = nullptr;
  CommitFacts facts;
  facts.id = id;
  facts.hex = git::oid_hex(id);
  if (int rc = git_commit_lookup(&raw, repo.raw(), &id); rc < 0) {
    return git::libgit2_error(rc, "cannot judge: commit " + facts.hex + " is missing");
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

// A tree restricted to what an incremental check reads: the root's
// projects.yaml, checkin.yaml and projects/, and under projects/ only the
// ledgers a commit changed. Everything else is absent. (The projects
// profile reads no other path; findings it places at checkin.yaml are kept
// from the check of this tree only when checkin.yaml changed.)
class ChangedLedgers final : public git::TreeSource {
 public:
  ChangedLedgers(git::TreeSource& inner, const std::set<std::string>& changed) : m_inner(inner), m_changed(changed) {}
  const std::string& rev() const override { return m_inner.rev(); }
  Result<std::optional<std::vector<git::Entry>>> list(std::string_view dir) override {
    if (dir == "projects") {  // the changed ledgers alone, without listing the whole folder
      std::vector<git::Entry> kept;
      for (const std::string& path : m_changed) {
        if (!under(path, "projects")) continue;
        LG_TRY(auto entry, m_inner.stat(path));
        if (entry) kept.push_back(std::move(*entry));
      }
      return std::optional<std::vector<git::Entry>>(std::move(kept));  // m_changed is sorted: so is this
    }
    LG_TRY(auto entries, m_inner.list(dir));
    if (!entries) return entries;
    std::vector<git::Entry> kept;
    for (git::Entry& e : *entries) {
      if (!visible(dir.empty() ? e.name : std::string(dir) + "/" + e.name)) continue;
      // A filtered folder is not its tree: no id, so no cache keyed by tree id
      // (the glob walks') takes this view for the whole subtree.
      if (e.kind == git::EntryKind::directory) e.content_id.clear();
      kept.push_back(std::move(e));
    }
    return std::optional<std::vector<git::Entry>>(std::move(kept));
  }
  Result<std::optional<git::Entry>> stat(std::string_view path) override {
    if (!visible(path)) return std::optional<git::Entry>();
    LG_TRY(auto entry, m_inner.stat(path));
    if (entry && entry->kind == git::EntryKind::directory) entry->content_id.clear();
    return entry;
  }
  Result<std::string> read(std::string_view path, const git::Entry& entry) override {
    return m_inner.read(path, entry);
  }

 private:
  bool visible(std::string_view path) const {
    if (path == "projects" || path == "projects.yaml" || path == "checkin.yaml") return true;
    if (!under(path, "projects")) return false;
    return m_changed.count(std::string(path)) != 0;
  }
  git::TreeSource& m_inner;
  const std::set<std::string>& m_changed;
};

class Auditor {
 public:
  Auditor(const git::Repository& repo, const AuditOptions& options) : m_repo(repo), m_options(options) {}

  Result<AuditReport> run() {
    if (m_repo.is_shallow()) {
      LG_TRY(std::string note, shallow_note(m_repo));
      return make_error(ErrorKind::not_found, note);
    }
    LG_TRY(std::vector<git_oid> ids, walk_commits(m_repo, m_options));
    std::vector<CommitFacts> commits;
    for (const git_oid& id : ids) {
      LG_TRY(CommitFacts facts, read_commit(m_repo, id));
      if (m_options.since && facts.time < *m_options.since) continue;
      commits.push_back(std::move(facts));
    }
    if (!commits.empty() && !commits.front().parents.empty()) {
      if (auto r = baseline(commits.front()); !r) return r.error();
    }
    for (std::size_t i = 0; i < commits.size(); ++i) {
      if (auto r = visit(commits[i]); !r) return r.error();
      if (m_options.progress) m_options.progress(i + 1, commits.size());
    }
    flush_unchecked();
    return std::move(m_report);
  }

 private:
  struct Checked {
    std::string profile;
    bool judged = true;  // false: a profile this build cannot check
    std::vector<diag::Finding> findings;
    rules::CheckOptions options;
  };

  Result<std::unique_ptr<git::TreeSource>> open_tree(const git_oid& tree, const std::string& hex) {
    auto source = git::open_tree_source(m_repo, tree, short_id(hex));
    if (!source) return source.error().with_context("cannot judge: the tree of commit " + hex);
    return source;
  }

  Result<Checked> check(git::TreeSource& tree, const std::string& hex) {
    Checked out;
    auto policy = policy::load_policy(tree);
    out.options = policy ? policy::check_options(*policy) : rules::CheckOptions{};
    auto profile = rules::detect_profile(tree);
    if (!profile) return profile.error().with_context("cannot judge: commit " + hex);
    out.profile = *profile;
    if (out.options.profile == "auto" && !out.profile.empty() && !profile_checked(out.profile)) {
      out.judged = false;
      return out;
    }
    auto report = rules::check_tree(tree, out.options, m_cache);
    if (!report) {
      if (report.error().kind == ErrorKind::invalid_input &&
          report.error().message.rfind("no ledger found", 0) == 0) {
        return out;  // nothing to check yet (or any more)
      }
      if (report.error().message.find("cannot judge") != std::string::npos) {
        out.judged = false;
        return out;
      }
      return report.error().with_context("cannot judge: commit " + hex);
    }
    out.profile = report->profile;
    out.findings = std::move(report->findings);
    for (const diag::Finding& f : out.findings) {
      if (unreadable(f)) {
        return make_error(ErrorKind::not_found, "cannot judge: commit " + hex + ": " + f.location.path + ": " +
                                                    f.message);
      }
    }
    return out;
  }

  Result<void> baseline(const CommitFacts& first) {
    LG_TRY(CommitFacts parent, read_commit(m_repo, first.parents.front()));
    LG_TRY(auto tree, open_tree(parent.tree, parent.hex));
    LG_TRY(Checked checked, check(*tree, parent.hex));
    if (!checked.judged) return {};
    for (diag::Finding& f : checked.findings) {
      f.location.rev = short_id(parent.hex);
      m_open[drift_key(f)].push_back(m_report.findings.size());
      m_report.findings.push_back(AuditFinding{std::move(f), parent.hex, std::nullopt, true});
    }
    return {};
  }

  void flush_unchecked() {
    if (m_unchecked_first.empty()) return;
    diag::Finding f = rules::make_finding(
        "audit-not-checked", "", 0,
        fmt::format("cannot judge commits {}..{} ({} commit{}, profile {}): not checked",
                    short_id(m_unchecked_first), short_id(m_unchecked_last), m_unchecked_count,
                    m_unchecked_count == 1 ? "" : "s", m_unchecked_profile),
        diag::PeerForm::none);
    f.location.rev = short_id(m_unchecked_first);
    m_report.findings.push_back(AuditFinding{std::move(f), m_unchecked_first, std::nullopt, false});
    m_unchecked_first.clear();
    m_unchecked_count = 0;
  }

  void note_unchecked(const CommitFacts& c, const std::string& profile) {
    if (!m_unchecked_first.empty() && m_unchecked_profile != profile) flush_unchecked();
    if (m_unchecked_first.empty()) {
      m_unchecked_first = c.hex;
      m_unchecked_profile = profile;
    }
    m_unchecked_last = c.hex;
    ++m_unchecked_count;
  }

  void event(diag::Finding f, const CommitFacts& c, const rules::CheckOptions& options) {
    if (auto it = options.severities.find(f.rule); it != options.severities.end()) f.severity = it->second;
    f.location.rev = short_id(c.hex);
    m_report.findings.push_back(AuditFinding{std::move(f), c.hex, std::nullopt, false});
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
        m_report.findings[it->second.back()].fixed_in = c.hex;
        it->second.pop_back();
      }
      it = it->second.empty() ? m_open.erase(it) : std::next(it);
    }
    for (auto& [key, list] : now) {
      std::vector<std::size_t>& open = m_open[key];
      for (std::size_t i = 0; i < list.size(); ++i) {
        diag::Finding& f = *list[i];
        f.location.rev = short_id(c.hex);
        if (i < open.size()) {
          m_report.findings[open[i]].finding.location = f.location;  // the latest line
        } else {
          open.push_back(m_report.findings.size());
          m_report.findings.push_back(AuditFinding{std::move(f), c.hex, std::nullopt, false});
        }
      }
    }
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
    LG_TRY(auto before, open_tree(parent.tree, parent.hex));
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
      if (projects_era && (e.status == "M" || renamed) && is_project_ledger_path(e.path) &&
          is_project_ledger_path(old_path)) {
        LG_TRY(auto old_ledger, parse_at(*before, old_path));
        LG_TRY(auto new_ledger, parse_at(tree, e.path));
        if (old_ledger && new_ledger) {
          for (diag::Finding& f : compare_ledgers(*old_ledger, *new_ledger, e.path)) {
            event(std::move(f), c, checked.options);
          }
        }
      }
    }
    if (orl_changed) {
      auto found = rules::check_open_requirements_between(*before, tree, checked.options);
      if (!found) return found.error().with_context("cannot judge: commit " + c.hex);
      for (diag::Finding& f : *found) event(std::move(f), c, checked.options);
    }
    return {};
  }

  Result<void> judge_merge(const CommitFacts& c, const git_oid& id, const rules::CheckOptions& options) {
    if (!m_trial) {
      auto trial = git::TrialRepo::open(m_repo);
      if (!trial) return trial.error().with_context("cannot judge: merge " + c.hex);
      m_trial.emplace(std::move(*trial));
    }
    const bool by_job = made_by_ledger_merge(full_message(m_repo, id));
    merge::TrialMergeOptions trial_options;
    trial_options.check = by_job;
    auto report = merge::trial_merge(m_repo, *m_trial, c.parents[0], c.parents[1], trial_options);
    if (!report) {
      diag::Finding f = rules::make_finding("audit-not-checked", "", 0,
                                            "merge not judged: " + report.error().message, diag::PeerForm::none);
      event(std::move(f), c, options);
      return {};
    }
    if (report->nothing_to_merge) return {};
    const bool differs = !report->merge.conflicts.empty() || git_oid_cmp(&report->merge.tree, &c.tree) != 0;
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

  // The check of `c` from its first parent's when only ledgers changed:
  // findings of a ledger depend on its blob and projects.yaml alone, so the
  // parent's findings stand for every other path. nullopt: check in full.
  Result<std::optional<Checked>> check_incremental(const CommitFacts& c, git::TreeSource& tree,
                                                   const std::vector<git::DiffEntry>& diff) {
    if (!m_last || git_oid_cmp(&m_last->commit, &c.parents.front()) != 0 || !m_last->checked.judged ||
        m_last->checked.profile.rfind("cortex-projects", 0) != 0) {
      return std::optional<Checked>();
    }
    std::set<std::string> changed;
    const std::string& glob = m_last->checked.options.open_requirements_glob;
    for (const git::DiffEntry& e : diff) {
      const bool renamed = e.status[0] == 'R';
      const bool read_by_check = [&](const std::string& path) {
        return path == "projects" || under(path, "projects") || path == "projects.yaml" || path == "checkin.yaml" ||
               path == policy::k_policy_path || ledger::orl_glob_match(glob, path);
      }(e.path) || (renamed && (e.old_path == "projects" || under(e.old_path, "projects") ||
                                e.old_path == "projects.yaml" || e.old_path == "checkin.yaml" ||
                                e.old_path == policy::k_policy_path || ledger::orl_glob_match(glob, e.old_path)));
      if (!read_by_check) continue;  // e.g. archive/, scripts: no finding of the projects profile reads them
      if (e.status != "M" || e.new_kind != git::EntryKind::file ||
          !(is_project_ledger_path(e.path) || e.path == "checkin.yaml") || ledger::orl_glob_match(glob, e.path)) {
        return std::optional<Checked>();
      }
      changed.insert(e.path);
    }
    Checked out;
    out.profile = m_last->checked.profile;
    out.options = m_last->checked.options;
    for (const diag::Finding& f : m_last->checked.findings) {
      if (changed.count(f.location.path) == 0) out.findings.push_back(f);
    }
    if (changed.empty()) return std::optional<Checked>(std::move(out));
    ChangedLedgers filtered(tree, changed);
    rules::CheckOptions options = out.options;
    options.profile = "cortex-projects";
    auto report = rules::check_tree(filtered, options, m_cache);
    if (!report) return report.error().with_context("cannot judge: commit " + c.hex);
    for (diag::Finding& f : report->findings) {
      if (changed.count(f.location.path) == 0) continue;
      if (unreadable(f)) {
        return make_error(ErrorKind::not_found, "cannot judge: commit " + c.hex + ": " + f.location.path + ": " +
                                                    f.message);
      }
      out.findings.push_back(std::move(f));
    }
    return std::optional<Checked>(std::move(out));
  }

  Result<void> visit(const CommitFacts& c) {
    LG_TRY(auto tree, open_tree(c.tree, c.hex));
    std::optional<CommitFacts> parent;
    std::vector<git::DiffEntry> diff;
    if (!c.parents.empty()) {
      LG_TRY(parent, read_commit(m_repo, c.parents.front()));
      auto changes = git::diff_trees(m_repo, &parent->tree, &c.tree);
      if (!changes) return changes.error().with_context("cannot judge: diffing commit " + c.hex);
      diff = std::move(*changes);
    }
    std::optional<Checked> incremental;
    if (parent) {
      LG_TRY(incremental, check_incremental(c, *tree, diff));
    }
    Checked checked;
    if (incremental) {
      checked = std::move(*incremental);
    } else {
      LG_TRY(checked, check(*tree, c.hex));
    }
    m_last = Last{c.id, checked};
    m_report.commits.push_back(AuditCommit{c.hex, c.summary, checked.profile, c.parents.size() > 1});
    if (!checked.judged) {
      note_unchecked(c, checked.profile);
      return {};
    }
    flush_unchecked();
    if (!c.parents.empty() && (c.parents.size() == 1 || m_options.first_parent)) {
      if (auto r = invariants(c, *tree, checked, *parent, diff); !r) return r.error();
    }
    drift(std::move(checked.findings), c);
    if (c.parents.size() > 1) {
      if (auto r = judge_merge(c, c.id, checked.options); !r) return r.error();
    }
    return {};
  }

  const git::Repository& m_repo;
  const AuditOptions& m_options;
  rules::CheckCache m_cache;
  std::optional<git::TrialRepo> m_trial;
  struct Last {
    git_oid commit{};
    Checked checked;  // its findings, before drift() takes them
  };
  std::optional<Last> m_last;  // the commit checked last
  AuditReport m_report;
  std::map<std::string, std::vector<std::size_t>> m_open;  // drift key → open findings, oldest first
  std::string m_unchecked_first, m_unchecked_last, m_unchecked_profile;
  std::size_t m_unchecked_count = 0;
};

}  // namespace

Result<AuditReport> audit_history(const git::Repository& repo, const AuditOptions& options) {
  Auditor auditor(repo, options);
  return auditor.run();
}

}  // namespace lg::audit
