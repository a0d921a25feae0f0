// The files of a new cortex-projects ledger (init.hpp).
#include "ledgergate/write/init.hpp"

#include "ledgergate/policy/policy_file.hpp"

namespace lg::write {
namespace {

constexpr std::string_view k_projects_yaml_text =
    "# The projects: one row per project, keyed by the name of its ledger,\n"
    "# projects/<key>.md. This file is code: a person adds or changes a row\n"
    "# (`ledgergate project retire` alone rewrites one). A row looks like this:\n"
    "#\n"
    "# example:\n"
    "#   remote: owner/repo              # or none\n"
    "#   local_path: /path/to/checkout\n"
    "#   ral_root: /path/on/the/cluster\n"
    "#   mirror: none                    # or an absolute path\n"
    "#   sync_cli: hpc/sync\n"
    "#   sync_verbs: [push, pull]\n"
    "#   ledger: NOTES.md\n"
    "#   assistant: none\n"
    "#   witness_file: results/**/*.json\n"
    "#   partition: gpu                  # gpu | ral | both\n"
    "#   status: active                  # active | dormant | planned | retired\n"
    "#   note: \"optional, never empty\"\n"
    "#\n"
    "# Then `ledgergate project new example --summary \"...\"` opens its ledger.\n";

constexpr std::string_view k_agents_text =
    "# projects/: one ledger per project\n"
    "\n"
    "`projects/<key>.md` is the ledger of the `projects.yaml` row `<key>`: a\n"
    "title (`# <key> — <summary>`), the header (`Project:`, `Issue:`), then\n"
    "`## Now`, `## Runs` and `## Log` (newest entry first).\n"
    "\n"
    "Write them with `ledgergate project` — `new`, `run`, `running`, `done`,\n"
    "`log`, `now`, `link`, `retire` — which checks each edit before it writes\n"
    "it; `ledgergate check` judges the whole ledger. The check does not read\n"
    "this file.\n";

}  // namespace

Result<std::vector<FileEdit>> new_ledger_files(const InitArgs& args) {
  if (args.profile.layout != ledger::Layout::cortex_projects) {
    return make_error(ErrorKind::usage, "init starts a cortex-projects ledger only, not " + args.profile.name());
  }
  policy::RepoPolicy policy;
  policy.profile = args.profile.name();
  const auto base = policy::policy_for_profile(policy.profile);
  if (!base) return make_error(ErrorKind::usage, "unknown sub-era in profile '" + policy.profile + "'");
  policy.paths = *policy::builtin_policy(*base);
  return std::vector<FileEdit>{
      {std::string(ledger::k_projects_yaml), std::string(k_projects_yaml_text)},
      {std::string(ledger::k_projects_dir) + "/AGENTS.md", std::string(k_agents_text)},
      {"checkin.yaml", "refreshed: " + args.stamp + "\n"},
      {std::string(policy::k_policy_path), policy::policy_file_text(policy)},
  };
}

Editor init_ledger(const InitArgs& args) {
  return [args](git::TreeSource& tree) -> Result<Outcome> {
    LG_TRY(std::vector<FileEdit> files, new_ledger_files(args));
    std::vector<std::string> taken{std::string(ledger::k_projects_dir)};
    for (const FileEdit& f : files) taken.push_back(f.path);
    for (const std::string& path : taken) {
      LG_TRY(auto there, tree.stat(path));
      if (there) return Outcome{Refusal{path + " already exists: init starts a ledger from nothing"}};
    }
    return Outcome{Change{std::move(files), "started a " + args.profile.name() + " ledger"}};
  };
}

}  // namespace lg::write
