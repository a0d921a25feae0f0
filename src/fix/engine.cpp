// The fix loop: check, fix what does not overlap, check again; take back a
// round's edits of a file that gained a finding, and refuse the fix that
// does it alone.
#include "ledgergate/fix/engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "ledgergate/diag/baseline.hpp"
#include "ledgergate/fix/fixers.hpp"
#include "ledgergate/rules/check.hpp"
#include "ledgergate/write/overlay.hpp"

namespace lg::fix {
namespace {

class Loop {
 public:
  Loop(git::TreeSource& tree, const FixOptions& options) : m_tree(tree), m_options(options) {}

  Result<FixReport> run() {
    LG_TRY(auto first, check());
    m_report.profile = first.profile;
    m_report.before = first.findings;
    std::vector<diag::Finding> findings = std::move(first.findings);
    for (int round = 0; round < m_options.max_rounds; ++round) {
      LG_TRY(auto chosen, choose(findings));
      if (chosen.empty()) break;
      LG_TRY(auto bytes_before, apply(chosen));
      LG_TRY(auto checked, check());
      findings = std::move(checked.findings);
      // A finding the round added is let be when a fix of the next round
      // takes it away (a log line that now parses may now be out of order).
      LG_TRY(auto blocking, unfixable(new_findings(m_report.before, findings)));
      if (blocking.empty()) {
        for (AppliedFix& a : chosen) m_report.applied.push_back(std::move(a));
        continue;
      }
      take_back(chosen, bytes_before, blocking);
      LG_TRY(auto again, check());
      findings = std::move(again.findings);
    }
    // What is still added at the end (a later fix was refused, or the
    // rounds ran out): those files go back to what they were.
    if (const auto added = new_findings(m_report.before, findings); !added.empty()) {
      give_back(added);
      LG_TRY(auto again, check());
      findings = std::move(again.findings);
    }
    m_report.after = std::move(findings);
    for (const auto& [path, bytes] : m_files) {
      LG_TRY(auto base, git::read_regular_file(m_tree, path));
      if (base && *base == bytes) continue;
      m_report.files.push_back(ChangedFile{path, base.value_or(""), bytes});
    }
    return std::move(m_report);
  }

 private:
  Result<rules::CheckReport> check() {
    write::OverlaySource overlay(m_tree, edits());
    return rules::check_tree(overlay, m_options.check, m_cache);
  }

  std::vector<write::FileEdit> edits() const {
    std::vector<write::FileEdit> out;
    for (const auto& [path, bytes] : m_files) out.push_back(write::FileEdit{path, bytes});
    return out;
  }

  bool wanted(const diag::Finding& f) const {
    const diag::RuleInfo* info = diag::find_rule(f.rule);
    if (!info || !has_fixer(f.rule)) return false;
    if (m_options.rules.empty()) return info->fix.kind == diag::FixKind::certain;
    return std::find(m_options.rules.begin(), m_options.rules.end(), f.rule) != m_options.rules.end();
  }

  // The fixes of this round: one per finding that wants one, none
  // overlapping another; a suspect fix (taken back with others) goes alone
  // in its file, so the next round tells which one gains a finding.
  Result<std::vector<AppliedFix>> choose(const std::vector<diag::Finding>& findings) {
    write::OverlaySource overlay(m_tree, edits());
    FixContext context(overlay);
    std::vector<AppliedFix> out;
    std::set<std::string> alone;  // files holding a suspect fix this round
    for (const diag::Finding& f : findings) {
      if (!wanted(f)) continue;
      const std::string print = diag::fingerprint(f);
      if (m_refused.count(print) || m_tries[print] >= 2) continue;
      const bool suspect = m_suspect.count(print) != 0;
      if (alone.count(f.location.path)) continue;
      if (suspect && std::any_of(out.begin(), out.end(), [&f](const AppliedFix& a) {
            return a.finding.location.path == f.location.path;
          })) {
        continue;
      }
      LG_TRY(auto fix, fix_for(context, f));
      if (!fix) continue;
      const bool clash = std::any_of(out.begin(), out.end(), [&fix](const AppliedFix& a) {
        for (const Edit& x : a.fix.edits) {
          for (const Edit& y : fix->edits) {
            if (overlaps(x, y)) return true;
          }
        }
        return false;
      });
      if (clash) continue;
      if (suspect) alone.insert(f.location.path);
      ++m_tries[print];
      out.push_back(AppliedFix{f, std::move(*fix)});
    }
    return out;
  }

  // The findings of `added` no fix of the next round would take away.
  Result<std::vector<diag::Finding>> unfixable(const std::vector<diag::Finding>& added) {
    std::vector<diag::Finding> out;
    if (added.empty()) return out;
    write::OverlaySource overlay(m_tree, edits());
    FixContext context(overlay);
    for (const diag::Finding& f : added) {
      const std::string print = diag::fingerprint(f);
      bool fixable = wanted(f) && !m_refused.count(print) && m_tries[print] < 2;
      if (fixable) {
        LG_TRY(auto fix, fix_for(context, f));
        fixable = fix.has_value();
      }
      if (!fixable) out.push_back(f);
    }
    return out;
  }

  // Puts every file holding one of `added` (every edited file, when one
  // names no edited file) back as the tree has it, its fixes refused.
  void give_back(const std::vector<diag::Finding>& added) {
    std::set<std::string> paths;
    for (const diag::Finding& f : added) {
      if (m_files.count(f.location.path)) {
        paths.insert(f.location.path);
      } else {
        for (const auto& [path, bytes] : m_files) paths.insert(path);
      }
    }
    for (const std::string& path : paths) m_files.erase(path);
    std::vector<AppliedFix> kept;
    for (AppliedFix& a : m_report.applied) {
      if (!paths.count(a.finding.location.path)) {
        kept.push_back(std::move(a));
        continue;
      }
      const diag::Finding* cause = &added.front();
      for (auto f = added.rbegin(); f != added.rend(); ++f) {
        if (f->location.path == a.finding.location.path) cause = &*f;  // the file's first
      }
      m_report.refused.push_back(RefusedFix{a.finding, std::move(a.fix), *cause});
    }
    m_report.applied = std::move(kept);
  }

  // Applies the round's edits; returns each edited file's bytes before them.
  Result<std::map<std::string, std::string>> apply(const std::vector<AppliedFix>& chosen) {
    std::map<std::string, std::vector<Edit>> by_file;
    for (const AppliedFix& a : chosen) {
      for (const Edit& e : a.fix.edits) by_file[e.path].push_back(e);
    }
    std::map<std::string, std::string> before;
    for (auto& [path, file_edits] : by_file) {
      LG_TRY(std::string bytes, current(path));
      LG_TRY(std::string edited, apply_edits(bytes, file_edits));
      before[path] = std::move(bytes);
      m_files[path] = std::move(edited);
    }
    return before;
  }

  Result<std::string> current(const std::string& path) {
    if (auto it = m_files.find(path); it != m_files.end()) return it->second;
    LG_TRY(auto bytes, git::read_regular_file(m_tree, path));
    if (!bytes) return make_error(ErrorKind::not_found, "fix: " + path + " is not a file");
    return std::move(*bytes);
  }

  // The files that gained a finding go back to their bytes before the
  // round (all the round's files when a gained finding names none of
  // them); a file's only fix is refused, several become suspects.
  void take_back(std::vector<AppliedFix>& chosen, const std::map<std::string, std::string>& before,
                 const std::vector<diag::Finding>& added) {
    std::set<std::string> paths;
    bool elsewhere = false;
    for (const diag::Finding& f : added) {
      if (before.count(f.location.path)) {
        paths.insert(f.location.path);
      } else {
        elsewhere = true;
      }
    }
    if (elsewhere) {
      for (const auto& [path, bytes] : before) paths.insert(path);
    }
    for (const std::string& path : paths) m_files[path] = before.at(path);
    std::map<std::string, std::vector<AppliedFix*>> taken;
    for (AppliedFix& a : chosen) {
      if (paths.count(a.finding.location.path)) {
        taken[a.finding.location.path].push_back(&a);
      } else {
        m_report.applied.push_back(std::move(a));
      }
    }
    for (auto& [path, fixes] : taken) {
      if (fixes.size() == 1) {
        const diag::Finding* cause = &added.front();
        for (auto f = added.rbegin(); f != added.rend(); ++f) {
          if (f->location.path == path) cause = &*f;  // the file's first
        }
        m_refused.insert(diag::fingerprint(fixes.front()->finding));
        m_report.refused.push_back(RefusedFix{fixes.front()->finding, fixes.front()->fix, *cause});
      } else {
        for (AppliedFix* a : fixes) {
          const std::string print = diag::fingerprint(a->finding);
          m_suspect.insert(print);
          --m_tries[print];
        }
      }
    }
  }

  git::TreeSource& m_tree;
  const FixOptions& m_options;
  rules::CheckCache m_cache;
  std::map<std::string, std::string> m_files;  // path → bytes now, for every file a round edited
  std::set<std::string> m_refused, m_suspect;  // finding fingerprints
  std::unordered_map<std::string, int> m_tries;
  FixReport m_report;
};

}  // namespace

std::vector<diag::Finding> new_findings(const std::vector<diag::Finding>& before, const std::vector<diag::Finding>& now) {
  std::unordered_map<std::string, int> seen;
  for (const diag::Finding& f : before) ++seen[diag::fingerprint(f)];
  std::vector<diag::Finding> out;
  for (const diag::Finding& f : now) {
    int& n = seen[diag::fingerprint(f)];
    if (n > 0) {
      --n;
    } else {
      out.push_back(f);
    }
  }
  return out;
}

Result<FixReport> fix_tree(git::TreeSource& tree, const FixOptions& options) { return Loop(tree, options).run(); }

write::Editor fix_editor(FixOptions options, FixReport* report) {
  return [options = std::move(options), report](git::TreeSource& tree) -> Result<write::Outcome> {
    LG_TRY(FixReport r, fix_tree(tree, options));
    write::Change change;
    for (const ChangedFile& f : r.files) change.files.push_back(write::FileEdit{f.path, f.after});
    change.message = fmt::format("ledgergate fix: {} fix(es) in {} file(s)", r.applied.size(), r.files.size());
    if (report) *report = std::move(r);
    return write::Outcome(std::move(change));
  };
}

Result<std::vector<std::optional<Fix>>> fixes_for(git::TreeSource& tree, const std::vector<diag::Finding>& findings) {
  FixContext context(tree);
  std::vector<std::optional<Fix>> out;
  out.reserve(findings.size());
  for (const diag::Finding& f : findings) {
    LG_TRY(auto fix, fix_for(context, f));
    out.push_back(std::move(fix));
  }
  return out;
}

}  // namespace lg::fix
