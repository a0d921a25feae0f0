// `ledgergate merge-file BASE OURS THEIRS --path P [--marker-size N] [-L OURS -L BASE -L THEIRS]`:
// git's merge-driver contract (merge.<name>.driver = "ledgergate merge-file
// %O %A %B --path %P --marker-size %L"). A ledger path merges record by record
// (merge/record_merge.hpp); any other path, or a side that does not read as
// its ledger format, gets git's textual merge, so the driver is safe on any
// path. The result replaces OURS atomically; exit 0 clean, 1 with conflict
// markers (only around what could not be merged), 2 could not run.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "errors.hpp"
#include "file_io.hpp"
#include "ledgergate/git/merge.hpp"
#include "ledgergate/git/objects.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/git/work_tree.hpp"
#include "ledgergate/merge/record_merge.hpp"
#include "ledgergate/policy/policy_file.hpp"

namespace lg::cli {
namespace {

struct MergeFileOptions {
  std::string base, ours, theirs, path, profile;
  int marker_size = 7;
  std::vector<std::string> labels;  // -L: ours, base, theirs (git merge-file's order)
};

struct Formats {
  ledger::Layout layout = ledger::Layout::none;
  std::string open_requirements_glob = std::string(ledger::k_default_open_requirements_glob);
};

// The layout and the open-requirements glob: `--profile` pins the layout;
// else the policy of `work_tree`, the repository discovered from --repo or
// the working directory (git runs a driver at the worktree's top), decides,
// its layout detected from the worktree. No repository and no --profile:
// only the glob's files are ledgers.
Result<Formats> formats_for(const MergeFileOptions& o, const Result<std::optional<git::WorkTree>>& work_tree,
                            std::optional<ledger::Layout> pinned) {
  Formats f;
  if (pinned) f.layout = *pinned;
  if (!work_tree || !*work_tree) return f;
  LG_TRY(auto tree, git::open_directory_source((*work_tree)->workdir));
  LG_TRY(const policy::RepoPolicy pol, policy::load_policy(*tree, o.profile));
  f.open_requirements_glob = pol.open_requirements_glob;
  if (!pinned) f.layout = pol.layout();
  return f;
}

struct Merged {
  std::string bytes;
  bool clean = false;
};

Result<Merged> textual_merge(const MergeFileOptions& o, const merge::MergeLabels& labels, const std::string& base,
                             const std::string& ours, const std::string& theirs) {
  git::MergeFileOptions options;
  options.our_label = labels.ours.c_str();
  options.ancestor_label = labels.base.c_str();
  options.their_label = labels.theirs.c_str();
  options.marker_size = static_cast<unsigned short>(labels.marker_size);
  constexpr auto k_file = static_cast<unsigned>(git::FileMode::blob);
  LG_TRY(git::MergedFile m, git::merge_file(o.path, {base, k_file}, {ours, k_file}, {theirs, k_file}, &options));
  return Merged{std::move(m.text), m.clean};
}

Result<Merged> merge(const MergeFileOptions& o, const Result<std::optional<git::WorkTree>>& work_tree,
                     const std::string& base, const std::string& ours, const std::string& theirs) {
  merge::MergeLabels labels;
  labels.marker_size = o.marker_size;
  if (o.labels.size() > 0) labels.ours = o.labels[0];
  if (o.labels.size() > 1) labels.base = o.labels[1];
  if (o.labels.size() > 2) labels.theirs = o.labels[2];
  std::optional<ledger::Layout> pinned;
  if (!o.profile.empty()) {
    LG_TRY(const ledger::Profile p, ledger::parse_profile(o.profile));
    pinned = p.layout;
  }
  // A policy that does not read (itself mid-merge) must not leave OURS
  // unmerged: the file then gets git's textual merge.
  auto f = formats_for(o, work_tree, pinned);
  if (!f) {
    print_warning(f.error().message + " — merging " + o.path + " as text");
    return textual_merge(o, labels, base, ours, theirs);
  }
  if (const auto format = merge::record_format_of(f->layout, o.path, f->open_requirements_glob)) {
    auto records = merge::merge_records(*format, base, ours, theirs, labels);
    if (records) return Merged{std::move(records->bytes), records->clean()};
    if (records.error().kind != ErrorKind::invalid_input) return records.error();
  }
  return textual_merge(o, labels, base, ours, theirs);
}

ExitCode run_merge_file(const MergeFileOptions& o, const Globals& g) {
  if (o.labels.size() > 3) return report_error(make_error(ErrorKind::usage, "-L is given at most three times"));
  std::string sides[3];
  const std::string* paths[3] = {&o.base, &o.ours, &o.theirs};
  for (int i = 0; i < 3; ++i) {
    bool exists = false;
    auto bytes = read_file_bytes(*paths[i], exists);
    if (!bytes) return ExitCode::error;
    if (!exists) return report_error(make_error(ErrorKind::io, "cannot read " + *paths[i] + ": no such file"));
    sides[i] = std::move(*bytes);
  }
  // Only the working tree is read: the repository's objects are not opened.
  const Result<std::optional<git::WorkTree>> work_tree = git::discover_work_tree(g.repo.empty() ? "." : g.repo);
  auto merged = merge(o, work_tree, sides[0], sides[1], sides[2]);
  if (!merged) return report_error(merged.error().with_context("merge-file " + o.path));
  // Not synced, as git merge-file's result is not: git reads OURS (its
  // temporary file) back at once. OURS in the current directory (git's
  // temporary file at the working tree's top) and the repository found
  // from there: the writer stages it by that repository, not opening it again.
  const std::string folder = std::filesystem::path(o.ours).parent_path().string();
  const bool here = g.repo.empty() && work_tree && (folder.empty() || folder == ".");
  if (!(here ? write_atomically(o.ours, merged->bytes, write::Durability::unsynced, *work_tree)
             : write_atomically(o.ours, merged->bytes, write::Durability::unsynced))) {
    return ExitCode::error;
  }
  return merged->clean ? ExitCode::pass : ExitCode::fail;
}

}  // namespace

void setup_merge_file(CLI::App& app, Globals& globals) {
  auto opts = std::make_shared<MergeFileOptions>();
  CLI::App* cmd = app.add_subcommand(
      "merge-file",
      "Three-way merge of one file as git's merge driver: ledger files record by record (runs by job id, log "
      "entries newest-first, header fields and rows by key), any other file as git merge-file does. The result "
      "replaces OURS; exit 0 clean, 1 conflict markers left, 2 could not run");
  cmd->add_option("base", opts->base, "The common ancestor's version (git's %O)")->required();
  cmd->add_option("ours", opts->ours, "Our version, replaced by the result (git's %A)")->required();
  cmd->add_option("theirs", opts->theirs, "Their version (git's %B)")->required();
  cmd->add_option("--path", opts->path, "The file's path in the repository (git's %P): decides its ledger format")
      ->required();
  cmd->add_option("--marker-size", opts->marker_size, "Conflict marker length (git's %L; default 7)")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("-L", opts->labels, "Conflict labels, as git merge-file: ours, then base, then theirs "
                                      "(default ours, base, theirs)");
  cmd->add_option("--profile", opts->profile,
                  "The ledger profile (e.g. cortex-projects); default: the policy of the repository discovered "
                  "from the current directory, else the layout detected in its working tree");
  cmd->callback([opts, &globals] { globals.exit_code = run_merge_file(*opts, globals); });
}

}  // namespace lg::cli
