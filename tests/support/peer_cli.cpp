#include "support/peer_cli.hpp"

#include <catch2/catch.hpp>
#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>

#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/land/process.hpp"
#include "ledgergate/ledger/project_ledger.hpp"
#include "ledgergate/util/clock.hpp"
#include "support/peer_cases.hpp"

namespace fs = std::filesystem;

namespace lg::test {
namespace {

// ---- the checker table ------------------------------------------------------

using Table = std::map<std::string, AfterCheck>;

Table& table() {
  static Table checks;
  return checks;
}

// Names registered twice (reported when the table is read, inside a test).
std::vector<std::string>& duplicate_names() {
  static std::vector<std::string> names;
  return names;
}

// ---- placeholders -----------------------------------------------------------

// A copy of `node` with every `<tmp>`, `<name>` of `outside` and TODAY_LOCAL
// in its scalars replaced.
YAML::Node substituted(const YAML::Node& node, const std::map<std::string, std::string>& subs) {
  if (node.IsScalar()) {
    std::string s = node.as<std::string>();
    for (const auto& [from, to] : subs) {
      for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
    }
    return YAML::Node(s);
  }
  if (node.IsSequence()) {
    YAML::Node out(YAML::NodeType::Sequence);
    for (const auto& item : node) out.push_back(substituted(item, subs));
    return out;
  }
  if (node.IsMap()) {
    YAML::Node out(YAML::NodeType::Map);
    for (const auto& kv : node) out[substituted(kv.first, subs)] = substituted(kv.second, subs);
    return out;
  }
  return YAML::Clone(node);
}

// ---- trees on disk ----------------------------------------------------------

FileMap fixture_files(const YAML::Node& all, const std::string& name) {
  if (name == "P1-skeleton") return p1_skeleton(all);
  INFO("fixture " << name);
  REQUIRE(all["fixtures"][name]["files"]);
  return peer_fixture(all, name);
}

// Makes the folder `root` hold exactly `files` (empty folders are kept).
void sync_tree(const std::string& root, const FileMap& files) {
  const FileMap now = fs::exists(root) ? read_tree(root) : FileMap{};
  for (const auto& [path, text] : now) {
    if (!files.count(path)) fs::remove(root + "/" + path);
  }
  for (const auto& [path, text] : files) {
    auto it = now.find(path);
    if (it == now.end() || it->second != text) write_file(root + "/" + path, text);
  }
  fs::create_directories(root);
}

// Setup ops on the folder: the file ops through apply_peer_op, `mkdir` on disk.
void apply_setup(const std::string& root, const YAML::Node& ops) {
  FileMap files = read_tree(root);
  for (const auto& op : ops) {
    if (op["op"].as<std::string>() == "mkdir") {
      fs::create_directories(root + "/" + op["path"].as<std::string>());
    } else {
      apply_peer_op(files, op);
    }
  }
  sync_tree(root, files);
}

// The case's own setup, after the setup of the case `setup_ref` names
// ("CT-23.setup") and before `setup_extra`.
void apply_case_setup(const YAML::Node& all, const YAML::Node& c, const std::string& root) {
  if (c["setup_ref"]) {
    const std::string ref = c["setup_ref"].as<std::string>();
    const std::string id = ref.substr(0, ref.find('.'));
    REQUIRE(ref == id + ".setup");
    bool found = false;
    for (const auto& other : all["cases"]) {
      if (other["id"].as<std::string>() != id) continue;
      apply_setup(root, other["setup"]);
      found = true;
    }
    INFO("setup_ref " << ref);
    REQUIRE(found);
  }
  apply_setup(root, c["setup"]);
  apply_setup(root, c["setup_extra"]);
}

// ---- running a step ---------------------------------------------------------

std::vector<std::string> command_line(const std::vector<std::string>& argv, const YAML::Node& step, const CliCase& c) {
  std::vector<std::string> cmd{LEDGERGATE_BINARY};
  const bool check = !argv.empty() && argv[0] == "check";
  if (!check) cmd.emplace_back("project");
  cmd.insert(cmd.end(), argv.begin(), argv.end());
  if (!(step["no_root"] && step["no_root"].as<bool>())) {
    cmd.emplace_back("--root");
    cmd.push_back(c.root);
  }
  cmd.emplace_back("--format");
  cmd.emplace_back("cortex");
  // The P1 pin; a --help step prints the help whatever follows it.
  const std::string profile = peer_cli_profile(c.era);
  if (profile != "auto" && std::find(argv.begin(), argv.end(), "--help") == argv.end()) {
    cmd.emplace_back("--profile");
    cmd.push_back(profile);
  }
  return cmd;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    const auto nl = text.find('\n', start);
    out.push_back(text.substr(start, nl == std::string::npos ? std::string::npos : nl - start));
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return out;
}

std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++n;
  return n;
}

std::string rstripped(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  return s;
}

// The step's expect_* keys (exit 0 when the case names none: the
// reference's test only ran the command).
void expect_output(const YAML::Node& s, const CliStep& run) {
  const auto strings = [&](const char* key) { return s[key] ? s[key].as<std::vector<std::string>>() : std::vector<std::string>{}; };
  CHECK(run.exit_code == (s["expect_exit"] ? s["expect_exit"].as<int>() : 0));
  if (s["expect_stdout"]) CHECK(run.out == s["expect_stdout"].as<std::string>());
  if (s["expect_stderr"]) CHECK(run.err == s["expect_stderr"].as<std::string>());
  if (s["derived_stderr"]) CHECK(run.err == s["derived_stderr"].as<std::string>());
  for (const auto& n : strings("expect_stdout_contains")) CHECK_THAT(run.out, Catch::Contains(n));
  for (const auto& n : strings("expect_stdout_not_contains")) CHECK_THAT(run.out, !Catch::Contains(n));
  for (const auto& n : strings("expect_stderr_contains")) CHECK_THAT(run.err, Catch::Contains(n));
  for (const auto& n : strings("expect_stderr_not_contains")) CHECK_THAT(run.err, !Catch::Contains(n));
  if (s["expect_stdout_lines"]) CHECK(lines_of(run.out) == strings("expect_stdout_lines"));
  if (s["expect_stdout_startswith"]) CHECK_THAT(run.out, Catch::StartsWith(s["expect_stdout_startswith"].as<std::string>()));
  if (s["expect_stdout_rstrip_endswith"]) {
    CHECK_THAT(rstripped(run.out), Catch::EndsWith(s["expect_stdout_rstrip_endswith"].as<std::string>()));
  }
  for (const auto& kv : s["expect_stdout_count"]) {
    INFO("count of " << kv.first.as<std::string>());
    CHECK(count_of(run.out, kv.first.as<std::string>()) == kv.second.as<std::size_t>());
  }
}

void run_after(const YAML::Node& after, const CliStep& step, const CliCase& c) {
  for (const auto& kv : after) {
    const std::string key = kv.first.as<std::string>();
    INFO("after: " << key);
    const AfterCheck* check = find_after_check(key);
    if (check == nullptr) FAIL("no checker is registered for the after key " << key);
    (*check)(kv.second, step, c);
  }
}

// ---- the generic checkers ---------------------------------------------------

const std::string& file_in(const FileMap& tree, const std::string& path) {
  INFO("file " << path);
  REQUIRE(tree.count(path) == 1);
  return tree.at(path);
}

// `value` maps paths to what the file must hold; `test(text, expected)`.
AfterCheck per_file(std::function<void(const std::string& text, const YAML::Node& expected)> test) {
  return [test](const YAML::Node& value, const CliStep& step, const CliCase&) {
    for (const auto& kv : value) {
      const std::string path = kv.first.as<std::string>();
      INFO("file " << path);
      test(file_in(step.after, path), kv.second);
    }
  };
}

const std::string k_projects_yaml = "projects.yaml";

// The era-R ledger the step's verb names (argv[1]).
ledger::ProjectLedger ledger_of(const FileMap& tree, const CliStep& step) {
  REQUIRE(step.argv.size() >= 2);
  return ledger::parse_project_ledger(file_in(tree, "projects/" + step.argv[1] + ".md"));
}

// Whether `path` matches a glob of `*` (within one component) and literals.
bool glob_match(const std::string& glob, const std::string& path) {
  std::string re;
  for (const char ch : glob) {
    if (ch == '*') {
      re += "[^/]*";
    } else if (std::isalnum(static_cast<unsigned char>(ch)) || ch == '/' || ch == '_') {
      re += ch;
    } else {
      re += std::string("\\") + ch;
    }
  }
  return std::regex_match(path, std::regex(re));
}

// The lines `after` has that `before` lacks and the reverse, by a longest
// common subsequence of lines.
std::pair<std::vector<std::string>, std::vector<std::string>> line_changes(const std::string& before, const std::string& after) {
  const auto a = lines_of(before), b = lines_of(after);
  std::vector<std::vector<int>> lcs(a.size() + 1, std::vector<int>(b.size() + 1, 0));
  for (std::size_t i = a.size(); i-- > 0;) {
    for (std::size_t j = b.size(); j-- > 0;) {
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  std::vector<std::string> removed, added;
  std::size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (i < a.size() && j < b.size() && a[i] == b[j]) {
      ++i, ++j;
    } else if (j < b.size() && (i == a.size() || lcs[i][j + 1] >= lcs[i + 1][j])) {
      added.push_back(b[j++]);
    } else {
      removed.push_back(a[i++]);
    }
  }
  return {removed, added};
}

// "  note: ..." → "  note:"; a line without a key is its own prefix.
std::string key_prefix(const std::string& line) { return line.substr(0, line.find(':') + 1); }

void check_clean(const YAML::Node& value, const CliStep&, const CliCase& c) {
  if (!value.as<bool>()) return;
  auto tree = git::open_directory_source(c.root);
  REQUIRE(tree);
  rules::CheckOptions options;
  options.profile = peer_cli_profile(c.era);
  const PeerOutcome o = run_peer_check(**tree, options);
  INFO(o.stdout_text);
  CHECK(o.exit_code == 0);
}

const bool k_generic = [] {
  register_after_check("check_clean", check_clean);
  register_after_check("file_equals", per_file([](const std::string& text, const YAML::Node& want) {
                         CHECK(text == want.as<std::string>());
                       }));
  // Derived by reading the reference's code; its writer must agree byte for byte.
  register_after_check("derived_file_equals", per_file([](const std::string& text, const YAML::Node& want) {
                         CHECK(text == want.as<std::string>());
                       }));
  register_after_check("file_startswith", per_file([](const std::string& text, const YAML::Node& want) {
                         CHECK_THAT(text, Catch::StartsWith(want.as<std::string>()));
                       }));
  register_after_check("file_contains", per_file([](const std::string& text, const YAML::Node& want) {
                         const auto needles = want.IsSequence() ? want.as<std::vector<std::string>>()
                                                                : std::vector<std::string>{want.as<std::string>()};
                         for (const auto& n : needles) CHECK_THAT(text, Catch::Contains(n));
                       }));
  register_after_check("file_count", per_file([](const std::string& text, const YAML::Node& want) {
                         for (const auto& kv : want) {
                           INFO("count of " << kv.first.as<std::string>());
                           CHECK(count_of(text, kv.first.as<std::string>()) == kv.second.as<std::size_t>());
                         }
                       }));
  register_after_check("absent", [](const YAML::Node& value, const CliStep& step, const CliCase&) {
    for (const auto& p : value.as<std::vector<std::string>>()) CHECK(step.after.count(p) == 0);
  });
  register_after_check("no_files_matching", [](const YAML::Node& value, const CliStep& step, const CliCase&) {
    for (const auto& [path, text] : step.after) {
      INFO(path);
      CHECK_FALSE(glob_match(value.as<std::string>(), path));
    }
  });
  register_after_check("projects_yaml_count", [](const YAML::Node& value, const CliStep& step, const CliCase&) {
    for (const auto& kv : value) {
      INFO("count of " << kv.first.as<std::string>());
      CHECK(count_of(file_in(step.after, k_projects_yaml), kv.first.as<std::string>()) == kv.second.as<std::size_t>());
    }
  });
  register_after_check("projects_yaml_contains_lines", [](const YAML::Node& value, const CliStep& step, const CliCase&) {
    const auto lines = lines_of(file_in(step.after, k_projects_yaml));
    for (const auto& l : value.as<std::vector<std::string>>()) {
      INFO(l);
      CHECK(std::find(lines.begin(), lines.end(), l) != lines.end());
    }
  });
  register_after_check("projects_yaml_not_contains", [](const YAML::Node& value, const CliStep& step, const CliCase&) {
    for (const auto& n : value.as<std::vector<std::string>>()) CHECK_THAT(file_in(step.after, k_projects_yaml), !Catch::Contains(n));
  });
  register_after_check("projects_yaml_unchanged", [](const YAML::Node& value, const CliStep& step, const CliCase&) {
    if (value.as<bool>()) CHECK(file_in(step.after, k_projects_yaml) == file_in(step.before, k_projects_yaml));
  });
  // The lines that changed, in order, are exactly the given [old, new] pairs.
  register_after_check("projects_yaml_line_diff", [](const YAML::Node& value, const CliStep& step, const CliCase&) {
    const auto before = lines_of(file_in(step.before, k_projects_yaml));
    const auto after = lines_of(file_in(step.after, k_projects_yaml));
    REQUIRE(before.size() == after.size());
    std::vector<std::pair<std::string, std::string>> changed;
    for (std::size_t i = 0; i < before.size(); ++i) {
      if (before[i] != after[i]) changed.emplace_back(before[i], after[i]);
    }
    std::vector<std::pair<std::string, std::string>> want;
    for (const auto& pair : value) want.emplace_back(pair[0].as<std::string>(), pair[1].as<std::string>());
    CHECK(changed == want);
  });
  // Every line added is one the step's projects_yaml_contains_lines names, and
  // every line removed is a line of a key one of those sets.
  register_after_check("projects_yaml_other_lines_unchanged", [](const YAML::Node& value, const CliStep& step, const CliCase&) {
    if (!value.as<bool>()) return;
    REQUIRE(step.node["after"]["projects_yaml_contains_lines"]);
    const auto named = step.node["after"]["projects_yaml_contains_lines"].as<std::vector<std::string>>();
    const auto [removed, added] = line_changes(file_in(step.before, k_projects_yaml), file_in(step.after, k_projects_yaml));
    for (const auto& l : added) {
      INFO("added " << l);
      CHECK(std::find(named.begin(), named.end(), l) != named.end());
    }
    for (const auto& l : removed) {
      INFO("removed " << l);
      CHECK(std::any_of(named.begin(), named.end(), [&](const std::string& n) { return key_prefix(n) == key_prefix(l); }));
    }
  });
  register_after_check("file_equals_original_with", [](const YAML::Node& value, const CliStep& step, const CliCase& c) {
    const std::string path = value["file"].as<std::string>();
    CHECK(file_in(step.after, path) == replaced(file_in(c.original, path), value["replace"].as<std::string>(), value["by"].as<std::string>()));
  });
  register_after_check("file_unchanged_since_step1", [](const YAML::Node& value, const CliStep& step, const CliCase& c) {
    REQUIRE_FALSE(c.after_step.empty());
    const std::string path = value.as<std::string>();
    CHECK(file_in(step.after, path) == file_in(c.after_step.front(), path));
  });
  // Task files by name, anywhere under tasks/: as they were before the case.
  register_after_check("tasks_unchanged", [](const YAML::Node& value, const CliStep& step, const CliCase& c) {
    for (const auto& name : value.as<std::vector<std::string>>()) {
      int seen = 0;
      for (const auto& [path, text] : c.original) {
        if (path.rfind("tasks/", 0) != 0 || fs::path(path).filename() != name) continue;
        ++seen;
        INFO(path);
        CHECK(file_in(step.after, path) == text);
      }
      INFO(name);
      CHECK(seen == 1);
    }
  });
  register_after_check("runs_unchanged", [](const YAML::Node& value, const CliStep& step, const CliCase&) {
    if (!value.as<bool>()) return;
    const auto before = ledger_of(step.before, step), after = ledger_of(step.after, step);
    REQUIRE(before.runs.size() == after.runs.size());
    for (std::size_t i = 0; i < before.runs.size(); ++i) {
      const auto& a = before.runs[i];
      const auto& b = after.runs[i];
      CHECK(std::tie(a.ident, a.state, a.partition, a.date, a.text) == std::tie(b.ident, b.state, b.partition, b.date, b.text));
    }
  });
  register_after_check("log_len_unchanged", [](const YAML::Node& value, const CliStep& step, const CliCase&) {
    if (value.as<bool>()) CHECK(ledger_of(step.after, step).log.size() == ledger_of(step.before, step).log.size());
  });
  return true;
}();

}  // namespace

bool register_after_check(std::string name, AfterCheck check) {
  if (!table().emplace(name, std::move(check)).second) duplicate_names().push_back(std::move(name));
  return true;
}

std::map<std::pair<std::string, int>, Divergence>& divergences() {
  static std::map<std::pair<std::string, int>, Divergence> m;
  return m;
}

bool register_divergence(const std::string& case_id, int step, Divergence d) {
  return divergences().emplace(std::pair{case_id, step}, std::move(d)).second;
}

const AfterCheck* find_after_check(const std::string& name) {
  INFO("after keys registered twice");
  CHECK(duplicate_names().empty());
  auto it = table().find(name);
  return it == table().end() ? nullptr : &it->second;
}

std::string peer_cli_profile(const std::string& era) {
  if (era == "P1") return "cortex-phases@p1c";
  // T-empty is a bare projects.yaml, which detection reads as era R.
  if (era == "T") return "cortex-tasks@t2";
  return "auto";
}

void run_peer_cli_case(const YAML::Node& all, const YAML::Node& raw) {
  TempDir tmp;
  const std::string root = tmp.path() + "/root";
  std::map<std::string, std::string> subs{{"<tmp>", tmp.path()}, {"TODAY_LOCAL", util::format_now("%Y-%m-%d", util::Zone::local)}};
  for (const auto& kv : raw["files_outside_root"]) {
    const std::string name = kv.first.as<std::string>();
    write_file(tmp.path() + "/outside/" + name, kv.second.as<std::string>());
    subs["<" + name + ">"] = tmp.path() + "/outside/" + name;
  }
  const YAML::Node node = substituted(raw, subs);
  CliCase c{node, node["era"].as<std::string>(), root, {}, {}};

  const auto fresh = [&](const std::string& fixture) {
    fs::remove_all(root);
    sync_tree(root, fixture.empty() ? FileMap{} : fixture_files(all, fixture));
    apply_case_setup(all, node, root);
  };
  const std::string case_fixture = node["fixture"] ? node["fixture"].as<std::string>() : "";
  fresh(case_fixture);
  c.original = read_tree(root);
  if (node["precondition"]) {
    REQUIRE(node["precondition"].as<std::string>() == "check_clean");
    const CliStep none{node, {}, 0, "", "", c.original, c.original};
    check_clean(YAML::Node(true), none, c);
  }
  const bool each_fresh = node["each_on_fresh_fixture"] && node["each_on_fresh_fixture"].as<bool>();
  const bool unchanged = node["file_unchanged"] && node["file_unchanged"].as<bool>();
  int n = 0;
  for (const auto& s : node["steps"]) {
    ++n;
    const auto argv = s["argv"].as<std::vector<std::string>>();
    std::string shown;
    for (const auto& a : argv) shown += " " + a;
    INFO("step " << n << ":" << shown);
    if (s["fixture"]) {
      fs::remove_all(root);
      sync_tree(root, fixture_files(all, s["fixture"].as<std::string>()));
    } else if (each_fresh && n > 1) {
      fresh(case_fixture);
    }
    apply_setup(root, s["setup"]);
    CliStep step{s, argv, -1, "", "", read_tree(root), {}};
    auto ran = land::run_process(command_line(argv, s, c), {{"GIT_CEILING_DIRECTORIES", tmp.path()}});
    REQUIRE(ran);
    step.exit_code = ran->exit_code;
    step.out = ran->out;
    step.err = ran->err;
    INFO("stdout: " << step.out << "\nstderr: " << step.err);
    step.after = read_tree(root);
    if (auto d = divergences().find({node["id"].as<std::string>(), n}); d != divergences().end()) {
      INFO("divergence from the reference: " << d->second.why);
      CHECK(step.exit_code == d->second.exit_code);
      CHECK_THAT(step.err, Catch::Contains(d->second.stderr_contains));
      CHECK(step.after == step.before);
      c.after_step.push_back(step.after);
      continue;
    }
    expect_output(s, step);
    if (unchanged) CHECK(step.after == step.before);
    run_after(s["after"], step, c);
    c.after_step.push_back(step.after);
  }
  if (node["after_all"]) {
    const CliStep last{node["steps"][node["steps"].size() - 1], {}, 0, "", "", c.original, read_tree(root)};
    run_after(node["after_all"], last, c);
  }
}

}  // namespace lg::test
