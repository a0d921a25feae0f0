// Loading `.ledgergate.yaml` with yaml-cpp's node API (a small file: marks
// give every error its line). Unknown keys, wrong types, unknown rule ids and
// directory names without a trailing "/" are errors, never ignored.
#include "ledgergate/policy/policy_file.hpp"

#include <yaml-cpp/yaml.h>

#include "ledgergate/diag/rule_table.hpp"

namespace lg::policy {
namespace {

Error at(const YAML::Node& node, const std::string& message) {
  return make_error(ErrorKind::invalid_input,
                    std::string(k_policy_path) + ":" + std::to_string(node.Mark().line + 1) + ": " + message);
}

Result<std::vector<std::string>> string_list(const YAML::Node& node, const std::string& key, bool dirs) {
  if (!node.IsSequence()) return at(node, "`" + key + "` must be a list of strings");
  std::vector<std::string> out;
  for (const YAML::Node& item : node) {
    if (!item.IsScalar() || item.Scalar().empty()) return at(item, "`" + key + "` items must be non-empty strings");
    std::string v = item.Scalar();
    if (dirs && v.back() != '/') return at(item, "`" + key + "` entries are directories ending in /: " + v);
    out.push_back(std::move(v));
  }
  return out;
}

Result<bool> boolean(const YAML::Node& node, const std::string& key) {
  const std::string& v = node.IsScalar() ? node.Scalar() : std::string();
  if (v == "true") return true;
  if (v == "false") return false;
  return at(node, "`" + key + "` must be true or false");
}

Result<void> read_severities(const YAML::Node& node, RepoPolicy& out) {
  if (!node.IsMap()) return at(node, "`severities` must map rule ids to error | warning | info | off");
  for (const auto& kv : node) {
    const std::string id = kv.first.Scalar();
    const diag::RuleInfo* rule = diag::find_rule(id);
    if (!rule) return at(kv.first, "unknown rule `" + id + "` (see `ledgergate rules`)");
    if (kv.second.IsScalar() && kv.second.Scalar() == "off") {  // the rule leaves no finding at all
      out.severities.erase(std::string(rule->id));
      out.off.emplace(rule->id);
      continue;
    }
    diag::Severity sev{};
    if (!kv.second.IsScalar() || !diag::parse_severity(kv.second.Scalar(), sev)) {
      return at(kv.second, "severity of `" + id + "` must be error, warning, info or off");
    }
    out.off.erase(std::string(rule->id));
    out.severities[std::string(rule->id)] = sev;
  }
  return {};
}

Result<void> read_key(const std::string& key, const YAML::Node& value, const YAML::Node& key_node, RepoPolicy& out) {
  auto list = [&](std::optional<std::vector<std::string>>& field, bool dirs) -> Result<void> {
    LG_TRY(field, string_list(value, key, dirs));
    return {};
  };
  if (key == "version") {
    if (!value.IsScalar() || value.Scalar() != "1") return at(value, "`version` must be 1");
    return {};
  }
  if (key == "profile") {
    if (!value.IsScalar()) return at(value, "`profile` must be a profile name");
    if (!policy_for_profile(value.Scalar())) return at(value, "unknown sub-era in profile `" + value.Scalar() + "`");
    out.profile = value.Scalar();
    return {};
  }
  if (key == "base_policy") {
    if (!value.IsScalar() || !builtin_policy(value.Scalar())) {
      return at(value, "`base_policy` must be one of LM-P1, LM-P2, LM-P3, LM-T, LM-R1, LM-R2");
    }
    out.base_policy = value.Scalar();
    return {};
  }
  if (key == "open_requirements_glob") {
    if (!value.IsScalar() || value.Scalar().empty()) {
      return at(value, "`open_requirements_glob` must be a glob such as `**/open-requirements.ledger.yml`");
    }
    out.open_requirements_glob = value.Scalar();
    return {};
  }
  if (key == "ledger_dirs") return list(out.overrides.ledger_dirs, true);
  if (key == "ledger_files") return list(out.overrides.ledger_files, false);
  if (key == "excluded_names") return list(out.overrides.excluded_names, false);
  if (key == "frozen_dirs") return list(out.overrides.frozen_dirs, true);
  if (key == "append_only_dirs") return list(out.overrides.append_only_dirs, true);
  if (key == "birth_exception") {
    LG_TRY(out.overrides.birth_exception, boolean(value, key));
    return {};
  }
  if (key == "severities") return read_severities(value, out);
  if (key == "merge") {
    const std::string& v = value.IsScalar() ? value.Scalar() : std::string();
    if (v != "records" && v != "git") return at(value, "`merge` must be records or git");
    out.merge = v == "git" ? LedgerMerge::git : LedgerMerge::records;
    return {};
  }
  if (key == "gate") {
    const auto gate = value.IsScalar() ? diag::parse_gate(value.Scalar()) : std::nullopt;
    if (!gate) return at(value, "`gate` must be new or all");
    out.gate = *gate;
    return {};
  }
  if (key == "baseline") {
    if (!value.IsScalar() || value.Scalar().empty()) return at(value, "`baseline` must be the path of a baseline file");
    out.baseline = value.Scalar();
    return {};
  }
  if (key == "board_stale_days") {
    const std::string& v = value.IsScalar() ? value.Scalar() : std::string();
    if (v.empty() || v.size() > 5 || v.find_first_not_of("0123456789") != std::string::npos || std::stoi(v) < 1) {
      return at(value, "`board_stale_days` must be a whole number of days, 1 or more");
    }
    out.board_stale_days = std::stoi(v);
    return {};
  }
  if (key == "protected") {
    LG_TRY(out.protected_branches, string_list(value, key, false));
    for (const std::string& b : out.protected_branches) {
      if (b.starts_with("refs/")) return at(value, "`protected` names branches without refs/heads/: " + b);
    }
    return {};
  }
  return at(key_node, "unknown key `" + key + "`");
}

}  // namespace

Result<RepoPolicy> parse_policy(std::string_view text) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    return make_error(ErrorKind::invalid_input,
                      std::string(k_policy_path) + ":" + std::to_string(e.mark.line + 1) + ": not valid YAML: " + e.msg);
  }
  RepoPolicy out;
  out.from_file = true;
  if (root.IsNull()) return out;
  if (!root.IsMap()) return at(root, "the policy must be a mapping of keys");
  try {
    for (const auto& kv : root) {
      if (!kv.first.IsScalar()) return at(kv.first, "keys must be plain names");
      if (auto r = read_key(kv.first.Scalar(), kv.second, kv.first, out); !r) return r.error();
    }
  } catch (const YAML::Exception& e) {
    return make_error(ErrorKind::invalid_input, std::string(k_policy_path) + ":" + std::to_string(e.mark.line + 1) +
                                                    ": " + e.msg);
  }
  if (auto r = resolve_paths(out, ledger::Layout::none); !r) return r.error();
  return out;
}

ledger::Layout RepoPolicy::layout() const {
  if (profile == "auto") return detected.value_or(ledger::Layout::none);
  return ledger::layout_named(ledger::split_profile_name(profile).layout).value_or(ledger::Layout::none);
}

Result<void> resolve_paths(RepoPolicy& policy, ledger::Layout layout) {
  std::string_view base = policy.base_policy;
  if (base.empty()) {
    const std::string_view profile = policy.profile == "auto" ? ledger::layout_name(layout) : std::string_view(policy.profile);
    const auto implied = policy_for_profile(profile);
    if (!implied) return make_error(ErrorKind::usage, "unknown sub-era in profile '" + std::string(profile) + "'");
    base = *implied;
  }
  auto builtin = builtin_policy(base);
  if (!builtin) return make_error(ErrorKind::usage, "unknown built-in policy '" + std::string(base) + "'");
  Policy p = std::move(*builtin);
  const PathOverrides& o = policy.overrides;
  if (o.ledger_dirs) p.ledger_dirs = *o.ledger_dirs;
  if (o.ledger_files) p.ledger_files = *o.ledger_files;
  if (o.excluded_names) p.excluded_names = *o.excluded_names;
  if (o.frozen_dirs) p.frozen_dirs = *o.frozen_dirs;
  if (o.append_only_dirs) p.append_only_dirs = *o.append_only_dirs;
  if (o.birth_exception) p.birth_exception = *o.birth_exception;
  policy.paths = std::move(p);
  return {};
}

ledger::CheckOptions check_options(const RepoPolicy& policy) {
  ledger::CheckOptions options;
  options.profile = policy.profile;
  options.severities = policy.severities;
  options.off = policy.off;
  options.open_requirements_glob = policy.open_requirements_glob;
  return options;
}

ledger::CheckOptions check_options_for_own_tree(const RepoPolicy& policy) {
  ledger::CheckOptions options = check_options(policy);
  options.detected = policy.detected;
  return options;
}

namespace {

Result<RepoPolicy> read_policy_file(git::TreeSource& tree) {
  LG_TRY(auto entry, tree.stat(k_policy_path));
  if (!entry) return RepoPolicy{};
  if (entry->kind != git::EntryKind::file && entry->kind != git::EntryKind::executable) {
    return make_error(ErrorKind::invalid_input, std::string(k_policy_path) + " is a " +
                                                    std::string(git::to_string(entry->kind)) + ", not a file");
  }
  auto bytes = tree.read(k_policy_path, *entry);
  if (!bytes) return bytes.error().with_context(std::string("reading ") + std::string(k_policy_path));
  return parse_policy(*bytes);
}

}  // namespace

Result<std::optional<diag::Baseline>> load_baseline(git::TreeSource& tree, const RepoPolicy& policy) {
  if (policy.baseline.empty()) return std::optional<diag::Baseline>();
  const std::string what = std::string(k_policy_path) + "'s baseline " + policy.baseline;
  auto bytes = git::read_regular_file(tree, policy.baseline);
  if (!bytes) return bytes.error().with_context("reading " + what);
  if (!*bytes) {
    return make_error(ErrorKind::invalid_input, what + " is not a file of " + (tree.rev().empty() ? "the tree" : tree.rev()));
  }
  auto baseline = diag::Baseline::parse(**bytes);
  if (!baseline) return baseline.error().with_context(what);
  return std::optional<diag::Baseline>(std::move(*baseline));
}

Result<RepoPolicy> load_policy(git::TreeSource& tree, std::string_view profile_override) {
  LG_TRY(RepoPolicy policy, read_policy_file(tree));
  if (!profile_override.empty()) {
    if (!policy_for_profile(profile_override)) {
      return make_error(ErrorKind::usage, "unknown sub-era in profile '" + std::string(profile_override) + "'");
    }
    policy.profile = std::string(profile_override);
  }
  if (policy.profile == "auto") {
    LG_TRY(policy.detected, ledger::detect_layout(tree));
  }
  if (auto r = resolve_paths(policy, policy.detected.value_or(ledger::Layout::none)); !r) return r.error();
  return policy;
}

Result<RepoPolicy> load_builtin_policy(git::TreeSource& tree) {
  RepoPolicy policy;
  LG_TRY(policy.detected, ledger::detect_layout(tree));
  if (auto r = resolve_paths(policy, *policy.detected); !r) return r.error();
  return policy;
}

namespace {

// A YAML single-quoted scalar (a glob such as `*_test.py` is no plain one).
std::string quoted(std::string_view s) {
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

std::string flow_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + quoted(items[i]);
  return out + "]";
}

}  // namespace

std::string policy_file_text(const RepoPolicy& policy) {
  const Policy& p = policy.paths;
  std::string out =
      "# ledgergate's policy for this repository (docs/policy.md has the schema).\n"
      "# Every key is written out with its built-in value for the profile below\n"
      "# (the " + p.name + " policy); change a value to change the rule. This file is\n"
      "# code to the merge gate: changing it always needs a human.\n"
      "version: 1\n"
      "\n"
      "# The check profile: auto (detected from the layout) or a profile name,\n"
      "# optionally pinned to a sub-era (`ledgergate check --help` lists them).\n"
      "profile: " + policy.profile + "\n"
      "# The built-in classifier policy the path keys below start from.\n"
      "base_policy: " + p.name + "\n"
      "# The files the open-requirements profile checks, in any tree.\n"
      "open_requirements_glob: " + quoted(policy.open_requirements_glob) + "\n"
      "\n"
      "# The merge gate's classifier: a changed path is ledger (lands without a\n"
      "# human) or code (needs one). Paths under these directories are ledger.\n"
      "ledger_dirs: " + flow_list(p.ledger_dirs) + "\n"
      "# Files at the root that are ledger.\n"
      "ledger_files: " + flow_list(p.ledger_files) + "\n"
      "# A last path component matching one of these is code, wherever it sits.\n"
      "excluded_names: " + flow_list(p.excluded_names) + "\n"
      "# Code for every change, additions included.\n"
      "frozen_dirs: " + flow_list(p.frozen_dirs) + "\n"
      "# Under a ledger directory: only additions are ledger.\n"
      "append_only_dirs: " + flow_list(p.append_only_dirs) + "\n"
      "# projects.yaml is ledger when a change only adds rows, each with its\n"
      "# projects/<key>.md.\n"
      "birth_exception: " + (p.birth_exception ? "true" : "false") + "\n"
      "\n"
      "# Rule id -> error | warning | info | off; a rule not named here has its\n"
      "# default severity (`ledgergate rules` lists them, `ledgergate explain ID`\n"
      "# explains one).\n"
      "severities:";
  std::map<std::string, std::string> severities;
  for (const auto& [id, severity] : policy.severities) severities[id] = std::string(diag::to_string(severity));
  for (const std::string& id : policy.off) severities[id] = "off";
  if (severities.empty()) out += " {}";
  for (const auto& [id, severity] : severities) out += "\n  " + id + ": " + severity;
  out += "\n"
         "\n"
         "# How a trial merge (and so `land` and the pre-push hook) treats a ledger\n"
         "# file git's textual merge left conflicted: records (merged record by\n"
         "# record) or git (git's conflict stands).\n"
         "merge: ";
  out += policy.merge == LedgerMerge::git ? "git" : "records";
  out += "\n"
         "# The branches whose pushes the pre-push hook gates with a trial merge.\n"
         "protected: " + flow_list(policy.protected_branches) + "\n"
         "# What fails a change (a commit, a push, a merge): new (the error findings\n"
         "# it introduces) or all (every error finding of the tree it makes).\n"
         "gate: ";
  out += diag::to_string(policy.gate);
  out += "\n"
         "# The board marks a run open or running for more days than this as stale.\n"
         "board_stale_days: " + std::to_string(policy.board_stale_days) + "\n"
         "# A committed baseline file whose findings never fail (docs/baseline.md):\n"
         "# baseline: PATH\n";
  if (!policy.baseline.empty()) out += "baseline: " + quoted(policy.baseline) + "\n";
  return out;
}

}  // namespace lg::policy
