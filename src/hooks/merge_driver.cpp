// The merge driver's installer: two configuration keys through git::Config
// (what they held before saved beside them until uninstall), and a marked
// block of attributes lines edited as text so that every byte outside it
// stays as it was.
#include "ledgergate/hooks/merge_driver.hpp"

#include <unistd.h>

#include "files.hpp"
#include "ledgergate/git/config.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/policy/policy_file.hpp"

namespace lg::hooks {
namespace {

constexpr std::string_view k_driver_args = " merge-file %O %A %B --path %P --marker-size %L";
constexpr std::string_view k_attribute = " merge=ledgergate";
constexpr std::string_view k_note = " (`ledgergate merge-driver uninstall` removes this block";
constexpr std::string_view k_created = "; it created the file";
constexpr std::string_view k_joined = "; it added the newline above";

// A pattern as one gitattributes field: C-quoted when it holds a blank, a
// quote or a backslash (git reads quoted patterns), else as it is.
std::string attribute_pattern(std::string_view p) {
  if (p.find_first_of(" \t\"\\") == std::string_view::npos) return std::string(p);
  std::string out = "\"";
  for (const char c : p) {
    if (c == '"' || c == '\\') out += '\\';
    out += c == '\t' ? std::string("\\t") : std::string(1, c);
  }
  return out + "\"";
}

// The block in a file: [begin, end) covers its lines, each with its newline.
struct Block {
  std::size_t begin = 0, end = 0;
  bool created = false, joined = false;
};

bool line_starts_at(std::string_view text, std::size_t pos) { return pos == 0 || text[pos - 1] == '\n'; }

std::size_t line_end(std::string_view text, std::size_t pos) {
  const std::size_t nl = text.find('\n', pos);
  return nl == std::string_view::npos ? text.size() : nl + 1;
}

std::size_t find_line(std::string_view text, std::string_view prefix, std::size_t from) {
  for (std::size_t pos = text.find(prefix, from); pos != std::string_view::npos; pos = text.find(prefix, pos + 1)) {
    if (line_starts_at(text, pos)) return pos;
  }
  return std::string_view::npos;
}

Result<std::optional<Block>> find_block(std::string_view text) {
  const std::size_t begin = find_line(text, k_block_begin, 0);
  if (begin == std::string_view::npos) return std::optional<Block>();
  const std::size_t first_end = line_end(text, begin);
  const std::size_t end = find_line(text, k_block_end, first_end);
  if (end == std::string_view::npos) {
    return make_error(ErrorKind::invalid_input,
                      "the ledgergate merge driver block has no end line (`" + std::string(k_block_end) +
                          "`): mend it by hand");
  }
  const std::string_view head = text.substr(begin, first_end - begin);
  Block b{begin, line_end(text, end), head.find(k_created) != std::string_view::npos,
          head.find(k_joined) != std::string_view::npos};
  return std::optional<Block>(b);
}

Result<std::string> read_or_empty(const std::string& path, bool& exists, mode_t& mode) {
  LG_TRY(const files::FileInfo info, files::probe(path));
  exists = info.exists;
  mode = info.exists ? info.mode : 0644;
  if (!info.exists) return std::string();
  if (info.symlink || info.directory) {
    return make_error(ErrorKind::io, path + " is not a regular file: edit it by hand");
  }
  return files::read_bytes(path);
}

std::string parent_dir(const std::string& path) { return path.substr(0, path.rfind('/') + 1); }

// Each of the driver's keys with the key its value is saved under.
struct SavedKey {
  std::string_view key, saved;
};
constexpr SavedKey k_saved_keys[] = {{k_driver_key, k_saved_driver_key}, {k_driver_name_key, k_saved_name_key}};

// The values of the driver's keys, saved under the saved keys (those of an
// earlier install dropped: what is there now is what uninstall puts back).
Result<std::vector<ConfigValue>> save_values(git::Config& local) {
  std::vector<ConfigValue> saved;
  for (const SavedKey& k : k_saved_keys) {
    LG_TRY(const auto value, local.get_string(std::string(k.key)));
    if (auto r = local.remove(std::string(k.saved)); !r) return r.error();
    if (!value) continue;
    if (auto r = local.set_string(std::string(k.saved), *value); !r) return r.error();
    saved.push_back({std::string(k.key), *value});
  }
  return saved;
}

// The saved values back in their keys, each in place (a key that held none
// goes), then the saved keys gone.
Result<std::vector<ConfigValue>> put_back_values(git::Config& local) {
  std::vector<ConfigValue> restored;
  for (const SavedKey& k : k_saved_keys) {
    LG_TRY(const auto value, local.get_string(std::string(k.saved)));
    auto r = value ? local.set_string(std::string(k.key), *value) : local.remove(std::string(k.key));
    if (!r) return r.error();
    if (value) restored.push_back({std::string(k.key), *value});
  }
  for (const SavedKey& k : k_saved_keys) {
    if (auto r = local.remove(std::string(k.saved)); !r) return r.error();
  }
  return restored;
}

// The sections git leaves as bare headers once their last key went.
Result<void> remove_empty_sections(const git::Repository& repo) {
  constexpr std::string_view k_driver_section = "merge", k_driver_subsection = "ledgergate";
  if (auto r = git::remove_empty_section(repo, k_driver_section, k_driver_subsection); !r) return r.error();
  if (auto r = git::remove_empty_section(repo, k_saved_section, k_saved_subsection); !r) return r.error();
  return {};
}

// The configuration half of install: refuses a foreign driver before anything is written.
Result<Action> install_config(git::Config& local, DriverChange& change, bool force) {
  LG_TRY(const auto driver, local.get_string(std::string(k_driver_key)));
  LG_TRY(const auto name, local.get_string(std::string(k_driver_name_key)));
  if (driver && *driver == change.command && name && *name == k_driver_name) return Action::unchanged;
  const bool ours = driver && is_our_driver(*driver);
  if (driver && !ours && !force) {
    return make_error(ErrorKind::usage, std::string(k_driver_key) + " is already set to `" + *driver +
                                            "`, which is not ledgergate's: --force replaces it");
  }
  if (!ours) {
    LG_TRY(change.saved, save_values(local));
  }
  if (auto r = local.set_string(std::string(k_driver_name_key), std::string(k_driver_name)); !r) return r.error();
  if (auto r = local.set_string(std::string(k_driver_key), change.command); !r) return r.error();
  return driver ? Action::updated : Action::installed;
}

}  // namespace

std::string driver_command(std::string_view binary) { return files::shell_quote(binary) + std::string(k_driver_args); }

bool is_our_driver(std::string_view value) { return value.ends_with(k_driver_args); }

std::vector<std::string> driver_patterns(ledger::Layout layout, std::string_view open_requirements_glob) {
  std::vector<std::string> out;
  const std::string_view era = ledger::era_dir(layout);
  if (layout == ledger::Layout::cortex_projects) out.push_back(std::string(ledger::k_projects_dir) + "/*.md");
  if (!era.empty()) out.push_back(std::string(era) + "/*/*.md");
  if (layout == ledger::Layout::cortex_projects || !era.empty()) out.emplace_back(ledger::k_projects_yaml);
  out.emplace_back(open_requirements_glob);
  return out;
}

std::string render_attributes_block(const std::vector<std::string>& patterns, bool created, bool joined) {
  std::string out = std::string(k_block_begin) + std::string(k_note);
  if (created) out += k_created;
  if (joined) out += k_joined;
  out += ")\n";
  for (const std::string& p : patterns) out += attribute_pattern(p) + std::string(k_attribute) + "\n";
  return out + std::string(k_block_end) + "\n";
}

Result<std::string> with_attributes_block(std::string_view text, bool exists, const std::vector<std::string>& patterns) {
  LG_TRY(const std::optional<Block> block, find_block(text));
  if (block) {
    return std::string(text.substr(0, block->begin)) +
           render_attributes_block(patterns, block->created, block->joined) + std::string(text.substr(block->end));
  }
  const bool joined = !text.empty() && text.back() != '\n';
  return std::string(text) + (joined ? "\n" : "") + render_attributes_block(patterns, !exists, joined);
}

Result<std::optional<WithoutBlock>> without_attributes_block(std::string_view text) {
  LG_TRY(const std::optional<Block> block, find_block(text));
  if (!block) return std::optional<WithoutBlock>();
  const std::size_t begin = block->joined && block->begin > 0 ? block->begin - 1 : block->begin;
  WithoutBlock out{std::string(text.substr(0, begin)) + std::string(text.substr(block->end)), false};
  out.remove_file = block->created && out.text.empty();
  return std::optional<WithoutBlock>(std::move(out));
}

Result<std::optional<std::vector<std::string>>> block_patterns(std::string_view text) {
  LG_TRY(const std::optional<Block> block, find_block(text));
  if (!block) return std::optional<std::vector<std::string>>();
  std::vector<std::string> out;
  std::size_t pos = line_end(text, block->begin);
  for (std::size_t next = line_end(text, pos); !text.substr(pos).starts_with(k_block_end);
       pos = next, next = line_end(text, pos)) {
    std::string_view line = text.substr(pos, next - pos);
    if (line.ends_with('\n')) line.remove_suffix(1);
    if (line.ends_with(k_attribute)) line.remove_suffix(k_attribute.size());
    out.emplace_back(line);
  }
  return std::optional<std::vector<std::string>>(std::move(out));
}

Result<std::vector<std::string>> detected_patterns(const git::Repository& repo, std::string_view profile) {
  if (repo.head_unborn()) {
    if (profile.empty()) {
      return make_error(ErrorKind::usage, "HEAD has no commit to detect the ledger layout from: pass --profile");
    }
    LG_TRY(const ledger::Profile pinned, ledger::parse_profile(profile));
    return driver_patterns(pinned.layout, ledger::k_default_open_requirements_glob);
  }
  LG_TRY(const git::ObjectId head, repo.resolve_commit("HEAD"));
  LG_TRY(const git::ObjectId tree, repo.commit_tree(head));
  LG_TRY(auto source, git::open_tree_source(repo, tree, "HEAD"));
  LG_TRY(const policy::RepoPolicy pol, policy::load_policy(*source, profile));
  return driver_patterns(pol.layout(), pol.open_requirements_glob);
}

Result<std::string> attributes_path(const git::Repository& repo, AttributesFile file) {
  if (file == AttributesFile::info) return repo.common_dir() + "info/attributes";
  if (repo.is_bare()) {
    return make_error(ErrorKind::usage, "a bare repository has no working tree for a .gitattributes file");
  }
  return repo.workdir() + ".gitattributes";
}

Result<DriverChange> install_merge_driver(const git::Repository& repo, const DriverSetup& setup) {
  DriverChange change;
  change.command = driver_command(setup.binary);
  LG_TRY(change.attributes_path, attributes_path(repo, setup.file));
  bool exists = false;
  mode_t mode = 0;
  LG_TRY(const std::string before, read_or_empty(change.attributes_path, exists, mode));
  LG_TRY(const std::string after, with_attributes_block(before, exists, setup.patterns));
  LG_TRY(git::Config local, git::Config::local(repo));
  LG_TRY(change.config, install_config(local, change, setup.force));
  if (change.config != Action::unchanged) {
    if (auto r = remove_empty_sections(repo); !r) return r.error();  // stale saved keys dropped
  }
  if (exists && after == before) return change;
  LG_TRY(const auto had_block, find_block(before));
  change.attributes = had_block ? Action::updated : Action::installed;
  if (auto r = files::make_dirs(parent_dir(change.attributes_path)); !r) return r.error();
  if (auto r = files::write_atomic(change.attributes_path, after, mode); !r) return r.error();
  return change;
}

Result<DriverChange> uninstall_merge_driver(const git::Repository& repo, AttributesFile file, bool force) {
  DriverChange change;
  LG_TRY(change.attributes_path, attributes_path(repo, file));
  LG_TRY(git::Config local, git::Config::local(repo));
  LG_TRY(const auto driver, local.get_string(std::string(k_driver_key)));
  change.config = Action::not_present;
  if (driver) {
    change.command = *driver;
    change.config = Action::not_ours;
    if (is_our_driver(*driver)) {
      LG_TRY(change.restored, put_back_values(local));
      change.config = Action::removed;
    } else if (force) {
      if (auto r = local.remove(std::string(k_driver_key)); !r) return r.error();
      if (auto r = local.remove(std::string(k_driver_name_key)); !r) return r.error();
      change.config = Action::removed;
    }
    if (change.config == Action::removed) {
      if (auto r = remove_empty_sections(repo); !r) return r.error();
    }
  }
  bool exists = false;
  mode_t mode = 0;
  LG_TRY(const std::string before, read_or_empty(change.attributes_path, exists, mode));
  LG_TRY(const auto without, without_attributes_block(before));
  change.attributes = Action::not_present;
  if (!without) return change;
  change.attributes = Action::removed;
  if (without->remove_file) {
    if (::unlink(change.attributes_path.c_str()) != 0) return files::io_error("removing " + change.attributes_path);
    return change;
  }
  if (auto r = files::write_atomic(change.attributes_path, without->text, mode); !r) return r.error();
  return change;
}

Result<DriverStatus> merge_driver_status(const git::Repository& repo, const DriverSetup& setup) {
  DriverStatus status;
  LG_TRY(git::Config local, git::Config::local(repo));
  LG_TRY(status.driver, local.get_string(std::string(k_driver_key)));
  status.driver_ours = status.driver && is_our_driver(*status.driver);
  status.driver_matches = status.driver && *status.driver == driver_command(setup.binary);
  for (const SavedKey& k : k_saved_keys) {
    LG_TRY(const auto value, local.get_string(std::string(k.saved)));
    if (value) status.saved.push_back({std::string(k.key), *value});
  }
  LG_TRY(status.attributes_path, attributes_path(repo, setup.file));
  bool exists = false;
  mode_t mode = 0;
  LG_TRY(const std::string text, read_or_empty(status.attributes_path, exists, mode));
  LG_TRY(status.block, block_patterns(text));
  if (status.block) {
    std::vector<std::string> wanted;
    for (const std::string& p : setup.patterns) wanted.push_back(attribute_pattern(p));
    status.block_matches = *status.block == wanted;
  }
  return status;
}

}  // namespace lg::hooks
