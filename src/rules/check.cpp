// The check driver: it opens the persistent cache and answers from a whole
// verdict when one is kept, else scans the tree for open-requirements files
// and writers' temporary files, chooses the profile, runs its pass
// (check_pass.hpp names them) and keeps the verdict. Every blob is parsed at
// most once per cache; what the persistent cache keeps is check_store.hpp's.
#include "ledgergate/rules/check.hpp"

#include <algorithm>
#include <optional>

#include "ledgergate/ledger/profile.hpp"
#include "ledgergate/rules/cortex_projects.hpp"
#include "ledgergate/rules/registry.hpp"
#include "ledgergate/util/assert.hpp"
#include "check_pass.hpp"
#include "check_store.hpp"
#include "projects_step.hpp"

namespace lg::rules {

bool CheckReport::cannot_judge() const {
  return std::any_of(findings.begin(), findings.end(), [](const diag::Finding& f) { return f.cannot_judge; });
}
bool CheckReport::failed() const {
  return std::any_of(findings.begin(), findings.end(),
                     [](const diag::Finding& f) { return f.severity == diag::Severity::error; });
}

namespace steps {

void report_not_a_file(Pass& pass, const std::string& path, git::EntryKind kind) {
  pass.sink.report(make_finding("input-not-a-file", path, 0,
                                "is a " + std::string(git::to_string(kind)) +
                                    ", not a regular file: it is not read as ledger",
                                diag::PeerForm::none));
}

std::optional<std::string> read_or_report(Pass& pass, const std::string& path, const git::Entry& entry) {
  auto bytes = pass.tree.read(path, entry);
  if (bytes) return std::move(*bytes);
  pass.sink.report(make_finding("input-unreadable", path, 0,
                                "cannot be read (" + bytes.error().message + "): the tree cannot be judged",
                                diag::PeerForm::none));
  return std::nullopt;
}

ProjectsTable validate_newest(std::optional<std::string_view> text, diag::FindingSink& sink) {
  return check_projects_yaml(text, ProjectsYamlEra{}, sink, std::string(k_projects_yaml));
}

std::shared_ptr<const CheckCache::ProjectsYamlResult> check_newest_projects_file(Pass& pass) {
  if (pass.cache.budget().full_rows) return check_projects_file(pass);
  // Kept under an era key of its own: rows without their other fields never
  // answer a caller that reads every field (projects_table). Rows of every
  // field kept for the blob answer this check (the same findings).
  return check_projects_file(
      pass, "judged-inputs",
      [](std::optional<std::string_view> text, diag::FindingSink& sink) {
        return check_projects_yaml(text, ProjectsYamlEra{}, sink, std::string(k_projects_yaml), RowFields::inputs);
      },
      true);
}

std::shared_ptr<const CheckCache::ProjectsYamlResult> check_projects_file(Pass& pass, const std::string& era_key,
                                                                          const ProjectsValidator& validate,
                                                                          bool newest_answers) {
  const std::string path(k_projects_yaml);
  auto entry = pass.tree.stat(path);
  std::optional<std::string> bytes;
  if (entry && *entry) {
    if (!is_readable_kind((*entry)->kind)) {
      report_not_a_file(pass, path, (*entry)->kind);
    } else {
      const auto& id = (*entry)->content_id;
      cover(pass, id);
      auto hit = id ? pass.cache.projects_yaml().find(QualifiedId{*id, era_key}) : nullptr;
      if (!hit && id && newest_answers) hit = pass.cache.projects_yaml().find(QualifiedId{*id, {}});
      if (hit) {
        for (const diag::Finding& f : hit->findings) pass.sink.report(f);
        return hit;
      }
      bytes = read_or_report(pass, path, **entry);
    }
  }
  auto result = std::make_shared<CheckCache::ProjectsYamlResult>();
  diag::CollectingSink local;
  const bool read = bytes.has_value();  // the blob was read (not absent, not unreadable): its result is kept
  if (bytes) {
    const ledger::TextFile file = ledger::decode_owned_text(std::move(*bytes), false);
    bytes.reset();
    check_text_input(file.facts, path, local);
    result->table = validate(file.text, local);
  } else {
    result->table = validate(std::nullopt, local);
  }
  result->findings = local.take();
  for (const diag::Finding& f : result->findings) pass.sink.report(f);
  if (read && (*entry)->content_id) {
    pass.cache.projects_yaml().keep(QualifiedId{*(*entry)->content_id, era_key}, result);
  }
  return result;
}

}  // namespace steps

namespace {

using namespace steps;

// The trees a cold walk reads (not from a memo) from which the read caches
// are let go after it: a tree of 2,000 projects has some 1,900.
constexpr std::size_t k_release_after_trees = 4096;

Result<void> run_profile(Pass& pass, ledger::Layout layout) {
  switch (layout) {
    case ledger::Layout::cortex_projects:
      return check_cortex_projects(pass);
    case ledger::Layout::cortex_tasks:
    case ledger::Layout::cortex_phases:
      return check_cortex_era(pass, layout);
    case ledger::Layout::open_requirements:
      return check_orl(pass);
    case ledger::Layout::none:
      break;
  }
  LEDGERGATE_ASSERT(false && "a profile without a pass");
  return {};
}

// The profile `options` pin, else the tree's layout (as the caller detected
// it, or detected here), else open-requirements when the glob found files.
Result<ledger::Profile> choose_profile(git::TreeSource& tree, const CheckOptions& options, bool orl_files) {
  if (options.profile != "auto") {
    // A pin must fit the tree, or the check would pass over files of
    // another layout it never looked at.
    LG_TRY(const ledger::Profile pinned, ledger::parse_profile(options.profile));
    LG_TRY(const bool fits, ledger::pin_fits(tree, pinned.layout));
    if (fits) return pinned;
    LG_TRY(const ledger::Layout layout, ledger::detected_layout(tree, options));
    const std::string mismatch = "profile " + options.profile + " does not match the tree: ";
    if (layout == ledger::Layout::none) return make_error(ErrorKind::invalid_input, mismatch + "it holds no Cortex ledger");
    const std::string found(ledger::layout_name(layout));
    return make_error(ErrorKind::invalid_input,
                      mismatch + "it holds a " + found + " ledger (pin " + found + ", or use --profile auto)");
  }
  LG_TRY(ledger::Layout layout, ledger::detected_layout(tree, options));
  if (layout == ledger::Layout::none && orl_files) layout = ledger::Layout::open_requirements;
  if (layout == ledger::Layout::none) {
    return make_error(ErrorKind::invalid_input,
                      "no ledger found: the tree has no projects.yaml, projects/, tasks/ or phases/");
  }
  return ledger::newest_profile(layout);
}

// Whether the pass will read projects/'s ledgers: the cortex-projects
// profile, pinned or detected (a tree that turns out not to fit a pin is an
// error before any ledger is checked).
bool reads_project_ledgers(git::TreeSource& tree, const CheckOptions& options) {
  if (options.profile != "auto") {
    auto pinned = ledger::parse_profile(options.profile);
    return pinned && pinned->layout == ledger::Layout::cortex_projects;
  }
  auto layout = ledger::detected_layout(tree, options);
  return layout && *layout == ledger::Layout::cortex_projects;
}

}  // namespace

Result<CheckReport> check_tree(git::TreeSource& tree, const CheckOptions& options, CheckCache& cache) {
  // The persistent cache: a tree with an id whose verdict it holds is not
  // read, once the tree and the blobs the verdict stands on are confirmed.
  CheckCache::Persistent* persistent = open_persistent(tree, cache);
  const std::optional<git::ObjectId> root = persistent ? tree.root_entry().content_id : std::nullopt;
  if (auto hit = root ? load_verdict(*persistent, *root, options) : std::nullopt) {
    hit->covered.push_back(*root);
    if (auto r = confirm_once(tree, *persistent, hit->covered); !r) {
      return r.error().with_context("the cached verdict of " + tree.rev());
    }
    hit->covered.pop_back();
    hit->report.covered = std::move(hit->covered);
    return std::move(hit->report);
  }
  Pass pass{tree, cache, {}, {}, {}, persistent};
  // Without the persistent cache, projects/'s ledgers start being read on
  // the other cores before the scan (which reads every tree of the tree).
  std::optional<LedgerReadAhead> ahead;
  if (!persistent && reads_project_ledgers(tree, options)) pass.ahead = &ahead.emplace(pass);
  LG_TRY(TreeScan scan, scan_tree(tree, options.open_requirements_glob, &cache, persistent));
  // A cold walk of every tree leaves libgit2's per-pack delta-base cache
  // full of the trees' bases (10 MB at 20,000 projects, 18,449 trees), held
  // through the rest of the check beside projects.yaml's rows; the check
  // reads no tree of them again. Let go once the walk was that wide (with
  // the persistent cache too: a walk that wide is one the cache could not
  // answer; at 20,000 projects an empty cache's check 53.4 -> 52.3 MB).
  if (scan.trees_read >= k_release_after_trees) {
    if (ahead) ahead->wait();  // its readers' handles closed: they share the pack files
    // The pass lists projects/ whole. Listed now, before the release, it is
    // the folder's second read, which a git source (its root has a tree id)
    // keeps (git::TreeMemo): the pass's listing then reads nothing, where a
    // read after the release brought its delta chain's bases back for the
    // rest of the check (at 20,000 projects HEAD's projects/ is a delta
    // four deep: 2.9 MB). The read-ahead, when there is one, read it first.
    if (!ahead && tree.root_entry().content_id && reads_project_ledgers(tree, options)) {
      if (auto listed = tree.list_view(ledger::k_projects_dir); !listed) return listed.error();
    }
    if (auto r = tree.release_read_caches(); !r) return r.error();
  }
  pass.orl_files = std::move(scan.orl_files);
  LG_TRY(const ledger::Profile profile, choose_profile(tree, options, !pass.orl_files.empty()));
  const bool orl_profile = profile.layout == ledger::Layout::open_requirements;
  if (orl_profile && pass.orl_files.empty()) {
    return make_error(ErrorKind::invalid_input,
                      "no ledger found: no file matches the open-requirements glob " + options.open_requirements_glob);
  }
  pass.sub = profile.sub;
  CheckReport report;
  report.profile = profile.name();
  report.checked = profile;
  if (auto r = run_profile(pass, profile.layout); !r) return r.error();
  if (!orl_profile && !pass.orl_files.empty()) {
    if (auto r = check_orl(pass); !r) return r.error();
    report.profile += "+" + std::string(ledger::layout_name(ledger::Layout::open_requirements));
  }
  for (diag::Finding& f : writer_temp_findings(scan.temp_files)) pass.sink.report(std::move(f));
  report.findings = pass.sink.take();
  options.apply_severities(report.findings);
  if (persistent) {
    // In the order the pass met them (sorting 2,000 ids cost more than the
    // few the same blob under two names confirms twice); those an earlier
    // check of this process confirmed (a merge's other trees) are not asked.
    if (auto r = confirm_once(tree, *persistent, pass.vouched); !r) {
      return r.error().with_context("the cached checks of " + tree.rev());
    }
    if (root && !has_unreadable(report.findings)) {
      keep_verdict(*persistent, *root, options, report, pass.covered);
    }
    report.covered = std::move(pass.covered);
    flush_pack(*persistent);
  }
  return report;
}

}  // namespace lg::rules
