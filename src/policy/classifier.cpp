// The path rule (spec §7.2), status-aware classification (§7.4) and the
// reference's classify output. Every verdict carries the rule that made it.
#include "ledgergate/policy/classifier.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <set>

#include "ledgergate/ledger/profile.hpp"
#include "ledgergate/util/text.hpp"

namespace lg::policy {

Policy builtin_policy() { return Policy{}; }

namespace {

Policy era_policy(std::string name, std::vector<std::string> dirs, std::vector<std::string> files,
                  std::vector<std::string> append_only) {
  Policy p;
  p.name = std::move(name);
  p.ledger_dirs = std::move(dirs);
  p.ledger_files = std::move(files);
  p.frozen_dirs = {};  // P and T have no archive/: anything outside the ledger dirs is code by default deny
  p.append_only_dirs = std::move(append_only);
  p.birth_exception = false;
  return p;
}

}  // namespace

std::vector<std::string_view> builtin_policy_names() { return {"LM-P1", "LM-P2", "LM-P3", "LM-T", "LM-R1", "LM-R2"}; }

std::optional<Policy> builtin_policy(std::string_view name) {
  const std::vector<std::string> phases = {"phases/", "rulings/", "batches/"};
  if (name == "LM-P1") return era_policy("LM-P1", phases, {"epics.md", "dashboard.md", "dashboard.html"}, {"rulings/"});
  if (name == "LM-P2") {
    return era_policy("LM-P2", phases, {"epics.md", "dashboard.md", "dashboard.html"}, {"rulings/", "batches/"});
  }
  // P3: checkin.yaml joined (the workflow's comment); nothing says epics.md
  // left before T, whose list is the first without it, so P3 keeps it.
  if (name == "LM-P3") {
    return era_policy("LM-P3", phases, {"epics.md", "checkin.yaml", "dashboard.md", "dashboard.html"},
                      {"rulings/", "batches/"});
  }
  if (name == "LM-T") {
    return era_policy("LM-T", {"tasks/", "rulings/", "batches/"}, {"checkin.yaml", "dashboard.md", "dashboard.html"},
                      {"rulings/", "batches/"});
  }
  if (name == "LM-R1") {
    Policy p;
    p.name = "LM-R1";
    p.birth_exception = false;  // the birth exception arrived with LM-R2
    return p;
  }
  if (name == "LM-R2") return Policy{};
  return std::nullopt;
}

std::optional<std::string_view> policy_for_profile(std::string_view profile) {
  const ledger::ProfileName name = ledger::split_profile_name(profile);
  const ledger::Layout layout = ledger::layout_named(name.layout).value_or(ledger::Layout::none);
  const std::string_view sub = name.sub;
  if (layout == ledger::Layout::cortex_phases) {
    if (sub.empty() || sub == "p3") return "LM-P3";
    if (sub == "p2") return "LM-P2";
    if (sub == "p1" || sub == "p1a" || sub == "p1b" || sub == "p1c") return "LM-P1";
    return std::nullopt;
  }
  if (layout == ledger::Layout::cortex_tasks) {
    if (sub.empty() || sub == "t1" || sub == "t2") return "LM-T";
    return std::nullopt;
  }
  if (layout == ledger::Layout::cortex_projects) {
    if (sub.empty() || sub == "r2") return "LM-R2";
    if (sub == "r1") return "LM-R1";
    return std::nullopt;
  }
  if (!sub.empty()) return std::nullopt;
  return "LM-R2";
}

namespace {

std::vector<std::string> components(std::string_view path) {
  std::string p(path);
  std::replace(p.begin(), p.end(), '\\', '/');
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= p.size()) {
    const std::size_t slash = std::min(p.find('/', start), p.size());
    std::string part = p.substr(start, slash - start);
    if (!part.empty() && part != ".") out.push_back(std::move(part));
    start = slash + 1;
  }
  return out;
}

const std::string* prefix_of(const std::vector<std::string>& dirs, std::string_view path) {
  for (const std::string& d : dirs) {
    if (util::starts_with(path, d)) return &d;
  }
  return nullptr;
}

std::string normalised(std::string_view path) { return util::join(components(path), "/"); }

}  // namespace

PathVerdict classify_path(const Policy& policy, std::string_view path) {
  const std::vector<std::string> parts = components(path);
  if (parts.empty()) return {PathClass::code, "empty path"};
  if (std::find(parts.begin(), parts.end(), "..") != parts.end()) return {PathClass::code, "traversal (..)"};
  for (const std::string& part : parts) {
    if (part.front() == '.') return {PathClass::code, "dot-path (" + part + ")"};
  }
  for (const std::string& pattern : policy.excluded_names) {
    if (fnmatch(pattern.c_str(), parts.back().c_str(), 0) == 0) return {PathClass::code, "excluded name " + pattern};
  }
  if (parts.size() == 1) {
    const bool file = std::find(policy.ledger_files.begin(), policy.ledger_files.end(), parts[0]) !=
                      policy.ledger_files.end();
    return file ? PathVerdict{PathClass::ledger, "ledger file"} : PathVerdict{PathClass::code, "not a ledger file"};
  }
  const std::string joined = util::join(parts, "/");
  if (const std::string* dir = prefix_of(policy.frozen_dirs, joined)) return {PathClass::code, "frozen dir " + *dir};
  if (const std::string* dir = prefix_of(policy.ledger_dirs, joined)) return {PathClass::ledger, "ledger dir " + *dir};
  return {PathClass::code, "not under a ledger dir"};
}

std::size_t Classification::ledger_count() const {
  return static_cast<std::size_t>(
      std::count_if(paths.begin(), paths.end(), [](const Classified& c) { return c.cls == PathClass::ledger; }));
}
std::size_t Classification::code_count() const { return paths.size() - ledger_count(); }

Classification classify_paths(const Policy& policy, const std::vector<std::string>& paths) {
  Classification out;
  out.policy = policy.name;
  std::set<std::string> seen;
  for (const std::string& raw : paths) {
    const std::string path(util::strip(raw));
    if (path.empty() || !seen.insert(path).second) continue;
    const PathVerdict v = classify_path(policy, path);
    out.paths.push_back({path, v.cls, v.reason});
  }
  return out;
}

namespace {

std::string_view kind_name(FileKind k) {
  switch (k) {
    case FileKind::executable: return "an executable file";
    case FileKind::symlink: return "a symlink";
    case FileKind::submodule: return "a submodule";
    default: return "a file";
  }
}

PathVerdict classify_change(const Policy& policy, const Change& c, bool birth) {
  if (birth && ledger::is_projects_yaml(c.path)) return {PathClass::ledger, "projects.yaml birth: new rows with their ledgers"};
  PathVerdict v = classify_path(policy, c.path);
  if (v.cls != PathClass::ledger) return v;
  const std::string path = normalised(c.path);
  if (const std::string* dir = prefix_of(policy.append_only_dirs, path); dir && c.status.substr(0, 1) != "A") {
    return {PathClass::code, "append-only dir " + *dir + " (status " + c.status + ")"};
  }
  if (c.status == "T") return {PathClass::code, "type change"};
  if (c.new_kind == FileKind::symlink || c.new_kind == FileKind::submodule || c.new_kind == FileKind::executable) {
    return {PathClass::code, std::string(kind_name(c.new_kind)) + " is never ledger"};
  }
  return v;
}

}  // namespace

Classification classify_changes(const Policy& policy, const std::vector<Change>& changes, bool birth) {
  Classification out;
  out.policy = policy.name;
  std::set<std::string> seen;
  for (const Change& c : changes) {
    if (!seen.insert(c.path).second) continue;
    const PathVerdict v = classify_change(policy, c, birth);
    out.paths.push_back({c.path, v.cls, v.reason});
  }
  return out;
}

}  // namespace lg::policy
