// The examples `explain` prints are true: each one, applied to its profile's
// skeleton ledger, gives a tree where the good text has no finding of the
// rule and the bad text has one; and every catalogue row has an example.
#include "ledgergate/diag/rule_examples.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <set>
#include <string>

#include "ledgergate/audit/audit.hpp"
#include "ledgergate/diag/rule_table.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/report/trial_merge.hpp"
#include "ledgergate/rules/registry.hpp"
#include "support/peer_cases.hpp"
#include "support/trial_merge.hpp"

namespace lg::test {
namespace {

FileMap skeleton_files(std::string_view name) {
  if (name == "P-skeleton") return read_tree(data_dir() + "/corpus/cortex-fixtures/phases-skeleton");
  if (name == "P1-skeleton") return p1_skeleton(peer_cases());
  if (name == "ORL-skeleton") {
    return read_tree(std::string(LEDGERGATE_SOURCE_DIR) + "/fixtures/ledgers/open-requirements");
  }
  return peer_fixture(peer_cases(), std::string(name));
}

// The rule ids `check` reports on `files` (a plain folder, as `--root` reads it).
// The P1 skeleton holds P1-only keys (Lane:, Gates-cleared:), so it is checked
// as cortex-phases@p1c, as the peer cases check it; the others auto-detect.
// With `symlink` set, that path of the folder is a symlink to `target` instead.
std::set<std::string> rules_reported(const FileMap& files, std::string_view skeleton, std::string_view symlink = {},
                                     std::string_view target = {}) {
  TempDir dir;
  write_tree(dir.path() + "/root", files);
  if (!symlink.empty()) {
    std::filesystem::create_symlink(std::string(target), dir.path() + "/root/" + std::string(symlink));
  }
  auto tree = git::open_directory_source(dir.path() + "/root");
  REQUIRE(tree.has_value());
  rules::CheckCache cache;
  rules::CheckOptions options;
  if (skeleton == "P1-skeleton") options.profile = "cortex-phases@p1c";
  auto report = rules::check_tree(**tree, options, cache);
  REQUIRE(report.has_value());
  std::set<std::string> out;
  for (const diag::Finding& f : report->findings) out.insert(f.rule);
  return out;
}

bool history_rule(std::string_view id) { return id.starts_with("orl-h-") || id.starts_with("audit-"); }

// The rule ids reported from `before` to `after`: the cross-version rules of
// `check --against` (orl-h-*) on two folders, or `audit` of a two-commit history.
std::set<std::string> rules_between(const FileMap& before, const FileMap& after, std::string_view id) {
  TempDir dir;
  std::set<std::string> out;
  if (id.starts_with("orl-h-")) {
    write_tree(dir.path() + "/before", before);
    write_tree(dir.path() + "/after", after);
    auto a = git::open_directory_source(dir.path() + "/before");
    auto b = git::open_directory_source(dir.path() + "/after");
    REQUIRE((a.has_value() && b.has_value()));
    auto findings = rules::check_open_requirements_between(**a, **b, {});
    REQUIRE(findings.has_value());
    for (const diag::Finding& f : *findings) out.insert(f.rule);
    return out;
  }
  const git_oid first = commit_tree(dir.path() + "/repo", before, "before");
  commit_tree(dir.path() + "/repo", after, "after", &first);
  auto repo = git::Repository::open(dir.path() + "/repo", false);
  REQUIRE(repo.has_value());
  auto report = audit::audit_history(*repo, {});
  REQUIRE(report.has_value());
  for (const audit::AuditFinding& f : report->findings) out.insert(f.finding.rule);
  return out;
}

// A scripted history (ExampleKind::history, rule_examples.hpp) played in a
// fresh repository: the skeleton is main's first commit.
class History {
 public:
  History(std::string dir, const FileMap& skeleton) : m_dir(std::move(dir)) {
    m_files = skeleton;
    commit("skeleton");
  }

  void play(std::string_view script) {
    while (!script.empty()) {
      const std::size_t nl = script.find('\n');
      step(std::string(script.substr(0, nl)));
      script.remove_prefix(nl == std::string_view::npos ? script.size() : nl + 1);
    }
  }

  // The rule ids `audit` reports on main; for a merge-* rule, the trial merge of topic into main reports.
  std::set<std::string> rules_reported(std::string_view id) {
    std::set<std::string> out;
    if (id.starts_with("merge-")) {
      const Branch& main = m_branches.at("main");
      const Branch& topic = m_branches.at("topic");
      const merge::TrialMergeReport r =
          trial_merge_files(m_dir + "-merge", m_snapshots.at(fork(main, topic)), m_snapshots.at(main.chain.back()),
                            m_snapshots.at(topic.chain.back()));
      for (const diag::Finding& f : report::merge_findings(r.merge.conflicts, r.semantic, r.classification.paths)) {
        out.insert(f.rule);
      }
      for (const diag::Finding& f : r.findings) out.insert(f.rule);
      return out;
    }
    auto repo = git::Repository::open(m_dir, false);
    REQUIRE(repo.has_value());
    audit::AuditOptions options;
    options.range = "main";
    auto report = audit::audit_history(*repo, options);
    REQUIRE(report.has_value());
    for (const audit::AuditFinding& f : report->findings) out.insert(f.finding.rule);
    return out;
  }

 private:
  struct Branch {
    std::vector<std::string> chain;  // its commits, oldest first (a merge adds only itself)
  };

  static std::string unescape(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == 'n') {
        out += '\n';
        ++i;
      } else {
        out += text[i];
      }
    }
    return out;
  }
  // "A => B" split at " => ".
  static std::pair<std::string, std::string> arrow(std::string_view text) {
    const std::size_t at = text.find(" => ");
    REQUIRE(at != std::string_view::npos);
    return {unescape(text.substr(0, at)), unescape(text.substr(at + 4))};
  }
  // "PATH: REST" split at the first ": ".
  static std::pair<std::string, std::string_view> path_and(std::string_view text) {
    const std::size_t at = text.find(": ");
    REQUIRE(at != std::string_view::npos);
    return {std::string(text.substr(0, at)), text.substr(at + 2)};
  }

  void step(const std::string& line) {
    INFO("history step: " << line);
    const std::size_t space = line.find(' ');
    const std::string verb = line.substr(0, space);
    const std::string_view rest = space == std::string::npos ? std::string_view() : std::string_view(line).substr(space + 1);
    if (verb == "edit") {
      const auto [path, change] = path_and(rest);
      const auto [old_text, new_text] = arrow(change);
      REQUIRE(m_files.count(path) == 1);
      replace_once(m_files.at(path), old_text, new_text);
    } else if (verb == "add") {
      const auto [path, text] = path_and(rest);
      CHECK(m_files.count(path) == 0);
      m_files[path] = unescape(text);
    } else if (verb == "remove") {
      REQUIRE(m_files.erase(std::string(rest)) == 1);
    } else if (verb == "move") {
      const auto [from, to] = arrow(rest);
      FileMap moved;
      for (auto it = m_files.begin(); it != m_files.end();) {
        const bool under = from.ends_with('/') ? it->first.starts_with(from) : it->first == from;
        if (!under) {
          ++it;
          continue;
        }
        moved[to + it->first.substr(from.size())] = it->second;
        it = m_files.erase(it);
      }
      REQUIRE_FALSE(moved.empty());
      m_files.merge(moved);
    } else if (verb == "commit") {
      commit(std::string(rest));
    } else if (verb == "branch" || verb == "orphan") {
      Branch b;
      if (verb == "branch") b = m_branches.at(m_current);
      if (verb == "orphan") m_files.clear();
      m_branches[std::string(rest)] = b;
      m_current = std::string(rest);
    } else if (verb == "switch") {
      m_current = std::string(rest);
      m_files = m_snapshots.at(m_branches.at(m_current).chain.back());
    } else if (verb == "merge") {
      const Branch& theirs = m_branches.at(std::string(rest));
      const std::string at = fork(m_branches.at(m_current), theirs);
      const FileMap base = at.empty() ? FileMap{} : m_snapshots.at(at);
      const FileMap& other = m_snapshots.at(theirs.chain.back());
      std::set<std::string> paths;
      for (const FileMap* m : {&base, &other}) {
        for (const auto& [path, text] : *m) paths.insert(path);
      }
      for (const std::string& path : paths) {
        const auto in = [&path](const FileMap& m) { return m.count(path) ? std::optional(m.at(path)) : std::nullopt; };
        if (in(other) == in(base)) continue;  // theirs did not change it: ours
        if (in(other)) {
          m_files[path] = *in(other);
        } else {
          m_files.erase(path);
        }
      }
      m_merging = theirs.chain.back();
    } else {
      FAIL("unknown history step: " << line);
    }
  }

  void commit(const std::string& message) {
    Branch& b = m_branches[m_current];
    git_oid parent{}, second{};
    if (!b.chain.empty()) REQUIRE(git_oid_fromstr(&parent, b.chain.back().c_str()) == 0);
    if (!m_merging.empty()) REQUIRE(git_oid_fromstr(&second, m_merging.c_str()) == 0);
    const git_oid id = commit_tree(m_dir, m_files, message, b.chain.empty() ? nullptr : &parent,
                                   "refs/heads/" + m_current, m_merging.empty() ? nullptr : &second);
    char hex[GIT_OID_HEXSZ + 1];
    git_oid_tostr(hex, sizeof hex, &id);
    b.chain.push_back(hex);
    m_snapshots[hex] = m_files;
    m_merging.clear();
  }

  // Their last common commit ("" when they have none).
  static std::string fork(const Branch& a, const Branch& b) {
    std::string last;
    for (std::size_t i = 0; i < a.chain.size() && i < b.chain.size() && a.chain[i] == b.chain[i]; ++i) last = a.chain[i];
    return last;
  }

  std::string m_dir;
  FileMap m_files;
  std::map<std::string, Branch> m_branches{{"main", {}}};
  std::string m_current = "main";
  std::map<std::string, FileMap> m_snapshots;  // commit hex → its files
  std::string m_merging;                        // the merge's second parent, until the next commit
};

std::set<std::string> rules_of_history(std::string_view skeleton, std::string_view script, std::string_view id) {
  TempDir dir;
  History h(dir.path() + "/repo", skeleton_files(skeleton));
  h.play(script);
  return h.rules_reported(id);
}

}  // namespace

TEST_CASE("each rule example: the good text passes the rule, the bad text breaks it", "[diag][examples]") {
  std::set<std::string_view> seen;
  for (const diag::RuleExample& e : diag::all_rule_examples()) {
    INFO("example of " << e.id << " (" << e.skeleton << ", " << e.path << ")");
    CHECK(seen.insert(e.id).second);  // one example per rule
    REQUIRE(rules::find_rule(e.id) != nullptr);
    CHECK_FALSE(e.fix.empty());
    if (e.kind == diag::ExampleKind::described) {  // prose; listed in the next test case
      CHECK_FALSE(e.good.empty());
      CHECK_FALSE(e.bad.empty());
      continue;
    }
    if (e.kind == diag::ExampleKind::history) {
      CHECK(rules_of_history(e.skeleton, e.good, e.id).count(std::string(e.id)) == 0);
      CHECK(rules_of_history(e.skeleton, e.bad, e.id).count(std::string(e.id)) == 1);
      continue;
    }
    FileMap good = skeleton_files(e.skeleton);
    REQUIRE_FALSE(good.empty());
    FileMap bad = good;
    if (e.kind == diag::ExampleKind::symlink) {
      REQUIRE(bad.erase(std::string(e.path)) == 1);
      CHECK(rules_reported(good, e.skeleton).count(std::string(e.id)) == 0);
      CHECK(rules_reported(bad, e.skeleton, e.path, e.bad).count(std::string(e.id)) == 1);
      continue;
    }
    if (e.kind == diag::ExampleKind::remove_file) {
      REQUIRE(bad.erase(std::string(e.path)) == 1);
    } else if (e.good.empty()) {
      CHECK(good.count(std::string(e.path)) == 0);
      bad[std::string(e.path)] = std::string(e.bad);
    } else {
      REQUIRE(good.count(std::string(e.path)) == 1);
      replace_once(bad.at(std::string(e.path)), std::string(e.good), std::string(e.bad));
    }
    if (history_rule(e.id)) {  // before (the skeleton, holding `good`) → after (with `bad`)
      CHECK(rules_between(good, good, e.id).count(std::string(e.id)) == 0);
      CHECK(rules_between(good, bad, e.id).count(std::string(e.id)) == 1);
      continue;
    }
    CHECK(rules_reported(good, e.skeleton).count(std::string(e.id)) == 0);
    CHECK(rules_reported(bad, e.skeleton).count(std::string(e.id)) == 1);
  }
}

TEST_CASE("every catalogue rule has an example", "[diag][examples]") {
  std::string missing;
  for (const diag::RuleInfo& r : rules::all_rules()) {
    if (!diag::find_rule_example(r.id)) missing += std::string(r.id) + " ";
  }
  INFO("rules without an example: " << missing);
  CHECK(missing.empty());
}

// The rules whose example is prose, not verified against a tree: exactly these.
// Moving a rule out of this list means giving it a verified example.
TEST_CASE("the described (unverified) examples are exactly the listed rules", "[diag][examples]") {
  // input-unreadable needs an object missing from the store or over 16 MiB; audit-migration-edited a
  // whole era's tree migrated key by key (Phase: removed, Summary: added in every file).
  const std::set<std::string> expected = {"input-unreadable", "audit-migration-edited"};
  std::set<std::string> described;
  for (const diag::RuleExample& e : diag::all_rule_examples()) {
    if (e.kind == diag::ExampleKind::described) described.insert(std::string(e.id));
  }
  CHECK(described == expected);
}

}  // namespace lg::test
