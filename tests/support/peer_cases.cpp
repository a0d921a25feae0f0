#include "support/peer_cases.hpp"

#include <catch2/catch.hpp>
#include <map>
#include <filesystem>
#include <regex>
#include <sstream>

#include "ledgergate/git/repository.hpp"
#include "ledgergate/report/format.hpp"

namespace fs = std::filesystem;

namespace lg::test {
namespace {

const std::string k_phases_skeleton = "/corpus/cortex-fixtures/phases-skeleton";

void insert_before(std::string& text, const std::string& anchor, const std::string& line) {
  const auto at = text.find(anchor);
  REQUIRE(at != std::string::npos);
  text.insert(at, line);
}

void insert_after_line(std::string& text, const std::string& prefix, const std::string& line) {
  const auto at = text.find(prefix);
  REQUIRE(at != std::string::npos);
  text.insert(text.find('\n', at) + 1, line);
}


std::vector<std::string> peer_lines(const std::vector<diag::Finding>& findings) {
  std::vector<std::string> out;
  const std::string text = report::render_cortex(findings);
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("  - ", 0) == 0) out.push_back(line.substr(4));
  }
  return out;
}

}  // namespace

YAML::Node load_peer_cases() { return YAML::LoadFile(data_dir() + "/spec/peer-cases.yaml"); }

const YAML::Node& peer_cases() {
  static const YAML::Node all = load_peer_cases();
  return all;
}

const YAML::Node& peer_case(const std::string& id) {
  static std::map<std::string, YAML::Node> by_id;
  if (by_id.empty()) {
    for (const auto& c : peer_cases()["cases"]) by_id.emplace(c["id"].as<std::string>(), static_cast<const YAML::Node&>(c));
  }
  INFO("peer case " << id);
  REQUIRE(by_id.count(id) == 1);
  return by_id.at(id);
}

FileMap peer_fixture(const YAML::Node& all, const std::string& name) {
  FileMap files;
  for (const auto& kv : all["fixtures"][name]["files"]) files[kv.first.as<std::string>()] = kv.second.as<std::string>();
  return files;
}

FileMap p1_skeleton(const YAML::Node& all) {
  FileMap files = read_tree(data_dir() + k_phases_skeleton);
  REQUIRE(files.size() == 18);
  for (auto& [path, text] : files) {
    if (path.rfind("phases/", 0) == 0) insert_before(text, "Review-minutes:", "Lane: local-dev\n");
  }
  insert_after_line(files.at("phases/example/03_ready_cleared.md"), "Gates:", "Gates-cleared: 2026-08-30\n");
  insert_after_line(files.at("phases/example/04_submitted_override.md"), "Gates:",
                    "Gate-override: the fix is verified locally on the branch; not waiting for the merge\n");
  insert_after_line(files.at("phases/example/05_running_array.md"), "Gates:", "Gates-cleared: 2026-08-29\n");
  insert_after_line(files.at("phases/example/08_accepted.md"), "Gates:", "Gates-cleared: 2026-08-25\n");
  const YAML::Node p = all["fixtures"]["P-skeleton"];
  files["batches/2026-09-01-pm.md"] = p["p1_batch_record"].as<std::string>();
  files["projects.yaml"] = p["p1_projects_yaml"].as<std::string>();
  return files;
}

void apply_peer_op(FileMap& files, const YAML::Node& op) {
  const auto kind = op["op"].as<std::string>();
  auto str = [&](const char* k) { return op[k].as<std::string>(); };
  if (kind == "replace") {
    REQUIRE(files.count(str("file")));
    lg::test::replace_once(files[str("file")], str("old"), str("new"));
  } else if (kind == "replace_between") {
    std::string& text = files.at(str("file"));
    const auto a = text.find(str("start"));
    const auto b = text.find(str("end"));
    REQUIRE((a != std::string::npos && b != std::string::npos));
    text = text.substr(0, a) + str("new") + text.substr(b);
  } else if (kind == "write") {
    files[str("file")] = str("content");
  } else if (kind == "delete") {
    REQUIRE(files.erase(str("file")) == 1);
  } else if (kind == "copy") {
    files[str("to")] = files.at(str("from"));
  } else if (kind == "move_file") {
    files[str("to")] = files.at(str("from"));
    files.erase(str("from"));
  } else if (kind == "move_dir") {
    const std::string from = str("from") + "/";
    const std::string to = str("to") + "/";
    FileMap moved;
    for (auto it = files.begin(); it != files.end();) {
      if (it->first.rfind(from, 0) == 0) {
        moved[to + it->first.substr(from.size())] = std::move(it->second);
        it = files.erase(it);
      } else {
        ++it;
      }
    }
    REQUIRE_FALSE(moved.empty());
    for (auto& [path, text] : moved) files[path] = std::move(text);
  } else if (kind == "mkdir") {
    // A FileMap holds files only; an empty directory changes no verdict of
    // `check` (which reads files), so there is nothing to record.
  } else if (kind == "write_range") {
    const std::string pattern = str("pattern");
    const auto at = pattern.find("{nn}");
    REQUIRE(at != std::string::npos);
    for (int n = op["nn_from"].as<int>(); n <= op["nn_to"].as<int>(); ++n) {
      const std::string nn = (n < 10 ? "0" : "") + std::to_string(n);
      files[pattern.substr(0, at) + nn + pattern.substr(at + 4)] = str("content");
    }
  } else if (kind == "replace_in_each") {
    const std::regex glob(std::regex_replace(str("glob"), std::regex(R"(\*)"), "[^/]*"));
    for (auto& [path, text] : files) {
      if (!std::regex_match(path, glob)) continue;
      for (auto at = text.find(str("old")); at != std::string::npos; at = text.find(str("old"), at + str("new").size())) {
        text.replace(at, str("old").size(), str("new"));
      }
    }
  } else {
    FAIL("unsupported setup op " << kind);
  }
}

PeerOutcome run_peer_check(git::TreeSource& tree, const rules::CheckOptions& options) {
  rules::CheckCache cache;
  auto report = rules::check_tree(tree, options, cache);
  if (!report) FAIL("check_tree failed: " << report.error().message);
  PeerOutcome o;
  o.exit_code = report->cannot_judge() ? 2 : report->failed() ? 1 : 0;
  o.stdout_text = report::render_cortex(report->findings);
  o.findings = peer_lines(report->findings);
  return o;
}

void expect_peer_outcome(const YAML::Node& c, const PeerOutcome& o) {
  CHECK(o.exit_code == c["expect_exit"].as<int>());
  if (c["expect_stdout"]) CHECK(o.stdout_text == c["expect_stdout"].as<std::string>());
  std::string joined;
  for (const auto& f : o.findings) joined += f + "\n";
  for (const auto& needle : c["findings_contain"]) CHECK_THAT(joined, Catch::Contains(needle.as<std::string>()));
  for (const auto& needle : c["expect_stdout_contains"]) {
    CHECK_THAT(o.stdout_text, Catch::Contains(needle.as<std::string>()));
  }
  if (c["derived_findings"]) CHECK(o.findings == c["derived_findings"].as<std::vector<std::string>>());
  if (auto both = c["findings_not_contain_both"]) {
    for (const auto& f : o.findings) {
      CHECK_FALSE((f.find(both[0].as<std::string>()) != std::string::npos &&
                   f.find(both[1].as<std::string>()) != std::string::npos));
    }
  }
}

void run_peer_check_case(const YAML::Node& all, const YAML::Node& c, const rules::CheckOptions& options) {
  run_peer_check_case_on(peer_fixture(all, c["fixture"].as<std::string>()), c, options);
}

void run_peer_check_case_on(FileMap files, const YAML::Node& c, const rules::CheckOptions& options) {
  for (const auto& op : c["setup"]) apply_peer_op(files, op);
  TempDir dir;
  write_tree(dir.path() + "/root", files);
  if (files.empty()) fs::create_directories(dir.path() + "/root");
  auto from_disk = git::open_directory_source(dir.path() + "/root");
  REQUIRE(from_disk.has_value());
  expect_peer_outcome(c, run_peer_check(**from_disk, options));

  const git_oid commit = commit_tree(dir.path() + "/repo", files, c["id"].as<std::string>());
  auto repo = git::Repository::open(dir.path() + "/repo", false);
  REQUIRE(repo.has_value());
  auto tree_id = repo->commit_tree(id_of(commit));
  REQUIRE(tree_id.has_value());
  auto from_git = git::open_tree_source(*repo, *tree_id, "HEAD");
  REQUIRE(from_git.has_value());
  expect_peer_outcome(c, run_peer_check(**from_git, options));
}

}  // namespace lg::test
