// Registering `ledgergate merge-file` as a git merge driver: the driver's
// two keys in the repository's own configuration (`merge.ledgergate.name`,
// `merge.ledgergate.driver`) and the ledger path patterns of the detected
// profile as `<pattern> merge=ledgergate` lines in a marked block of
// `info/attributes` in the common git dir (or, when asked, the working tree's
// `.gitattributes`). Installing twice changes nothing; uninstall takes out
// exactly what install put in (the block's first line records whether the
// file was created or a newline was added before it), and a foreign
// `merge.ledgergate.driver` is never replaced without `force`. What a
// forced install replaced is saved in git's configuration
// (`ledgergate.merge-driver.saved-*`) and put back by uninstall, and the
// section headers git leaves empty go, so that the configuration file too
// is as it was.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/git/repository.hpp"
#include "ledgergate/hooks/install.hpp"
#include "ledgergate/ledger/profile.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::hooks {

inline constexpr std::string_view k_driver_key = "merge.ledgergate.driver";
inline constexpr std::string_view k_driver_name_key = "merge.ledgergate.name";
inline constexpr std::string_view k_driver_name = "ledgergate: ledger files merged as records";
// The values install found in the driver's two keys (when not ours), until uninstall puts them back.
inline constexpr std::string_view k_saved_section = "ledgergate";
inline constexpr std::string_view k_saved_subsection = "merge-driver";
inline constexpr std::string_view k_saved_driver_key = "ledgergate.merge-driver.saved-driver";
inline constexpr std::string_view k_saved_name_key = "ledgergate.merge-driver.saved-name";
inline constexpr std::string_view k_block_begin = "# >>> ledgergate merge driver";
inline constexpr std::string_view k_block_end = "# <<< ledgergate merge driver";

// What git runs: `<binary> merge-file %O %A %B --path %P --marker-size %L`
// (the binary's path shell-quoted; git quotes what it substitutes).
std::string driver_command(std::string_view binary);
// Whether a `merge.ledgergate.driver` value is ledgergate's, of any binary.
bool is_our_driver(std::string_view value);

// The ledger files of `layout` as gitattributes patterns, then the
// open-requirements glob: cortex-projects `projects/*.md`, cortex-tasks
// `tasks/*/*.md`, cortex-phases `phases/*/*.md`, each with `projects.yaml`.
std::vector<std::string> driver_patterns(ledger::Layout layout, std::string_view open_requirements_glob);

// The block's lines for `patterns`, from the begin line (with its notes:
// `created` the file, or added the newline `joined` before it) to the end line.
std::string render_attributes_block(const std::vector<std::string>& patterns, bool created, bool joined);

// `text` with the block installed: replaced where one is, else appended
// (`exists`: the file was there). Errors: a begin line without its end line.
Result<std::string> with_attributes_block(std::string_view text, bool exists, const std::vector<std::string>& patterns);
// `text` without the block, and whether the file should go (install
// created it and nothing else is left); nullopt when there is no block.
struct WithoutBlock {
  std::string text;
  bool remove_file = false;
};
Result<std::optional<WithoutBlock>> without_attributes_block(std::string_view text);
// The patterns of the block in `text` (nullopt: no block).
Result<std::optional<std::vector<std::string>>> block_patterns(std::string_view text);

enum class AttributesFile { info, committed };

// What to install: the binary, the patterns and where they go.
struct DriverSetup {
  std::string binary;                 // absolute path of the ledgergate that installs
  std::vector<std::string> patterns;  // driver_patterns of the detected profile
  AttributesFile file = AttributesFile::info;
  bool force = false;                 // replace (or remove) a foreign merge.ledgergate.driver
};

// The patterns for `repo`: the layout and open-requirements glob of the
// policy of HEAD's tree (load_policy; `profile` pins it as --profile does).
// Errors: HEAD has no commit and no profile is pinned; an invalid policy.
Result<std::vector<std::string>> detected_patterns(const git::Repository& repo, std::string_view profile);

// `info/attributes` in the common git dir (shared by linked worktrees, read by a
// bare repository too), or `<worktree>/.gitattributes` for `committed`.
// Errors: `committed` in a bare repository.
Result<std::string> attributes_path(const git::Repository& repo, AttributesFile file);

// A configuration key and its value.
struct ConfigValue {
  std::string key, value;
  bool operator==(const ConfigValue&) const = default;
};

struct DriverChange {
  Action config = Action::unchanged;      // the two configuration keys
  Action attributes = Action::unchanged;  // the attributes block
  std::string command;                    // the driver command installed (or found)
  std::string attributes_path;
  std::vector<ConfigValue> saved;     // install: the values found in the keys, saved for uninstall
  std::vector<ConfigValue> restored;  // uninstall: the saved values put back
};

// Errors: a foreign merge.ledgergate.driver without `force` (nothing is
// written then), I/O, an unwritable configuration. When our driver is not
// there yet, whatever the two keys hold is saved (replacing what an earlier
// install saved).
Result<DriverChange> install_merge_driver(const git::Repository& repo, const DriverSetup& setup);
// Removes our keys, or puts back what install saved in them (a foreign
// driver stays unless `force`, which removes it), our block, and the
// configuration section headers left empty.
Result<DriverChange> uninstall_merge_driver(const git::Repository& repo, AttributesFile file, bool force);

struct DriverStatus {
  std::optional<std::string> driver;  // merge.ledgergate.driver in the repository's configuration
  bool driver_ours = false;           // it runs ledgergate's merge-file
  bool driver_matches = false;        // ... with this binary
  std::string attributes_path;
  std::optional<std::vector<std::string>> block;  // the patterns of our block, when there is one
  bool block_matches = false;                     // they are the detected profile's
  std::vector<ConfigValue> saved;                 // what install saved for uninstall to put back
};
Result<DriverStatus> merge_driver_status(const git::Repository& repo, const DriverSetup& setup);

}  // namespace lg::hooks
