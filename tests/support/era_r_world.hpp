// A seeded random era-R history for the differential tests of the
// incremental checks (the audit's walk, trial-merge --scope change): a
// World holds projects.yaml's rows and every file, and mutate() makes one
// random edit of a kind the era-R check follows (ledgers edited, added,
// removed and renamed; rows flipped and broken; file names, folders and
// stray files under projects/; archive/; open-requirements files; writers'
// temporary files; the policy).
#pragma once

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "ledgergate/git/repository.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "support/fixture_tree.hpp"

namespace lg::test::era_r {

inline std::string ledger_for(const std::string& key) {
  return "# " + key + " \u2014 A generated project\n\nProject: " + key +
         "\nIssue: none\n\n## Now\n\nWorking.\n\n## Runs\n\n## Log\n\n- 2026-09-01 \u2014 note \u2014 ledger opened\n";
}

inline std::string row_for(const std::string& key, const std::string& status, const std::string& partition) {
  return key + ":\n  remote: none\n  local_path: /tmp/" + key + "\n  ral_root: /mnt/ral/" + key +
         "\n  mirror: none\n  sync_cli: hpc/sync\n  sync_verbs: [pull]\n  ledger: README.md\n  assistant: none\n"
         "  witness_file: results/**/*.json\n  partition: " + partition + "\n  status: " + status +
         "\n  note: \"generated\"\n\n";
}

struct Row {
  std::string status = "active";
  std::string partition = "both";
};

// The history's state: rows, and every file.
struct World {
  std::map<std::string, Row> rows;
  bool yaml_broken = false;
  FileMap files;
  int day = 2;

  void write_yaml() {
    std::string text;
    for (const auto& [key, row] : rows) text += row_for(key, row.status, row.partition);
    if (yaml_broken) text += "broken: [unclosed\n";
    files["projects.yaml"] = text;
  }
  std::vector<std::string> ledgers() const {
    std::vector<std::string> out;
    for (const auto& [path, text] : files) {
      if (path.rfind("projects/", 0) == 0 && path.size() > 12 && path.find('/', 9) == std::string::npos &&
          path.substr(path.size() - 3) == ".md") {
        out.push_back(path);
      }
    }
    return out;
  }
};

template <class T>
const T& pick(std::mt19937& rng, const std::vector<T>& from) {
  return from[std::uniform_int_distribution<std::size_t>(0, from.size() - 1)(rng)];
}

inline void replace_first(std::string& text, const std::string& what, const std::string& with) {
  const auto at = text.find(what);
  if (at != std::string::npos) text.replace(at, what.size(), with);
}

// One random edit of `w`.
inline void mutate(World& w, std::mt19937& rng, int step) {
  const std::vector<std::string> keys = {"alpha", "beta", "gamma", "delta", "eps"};
  const std::vector<std::string> ledgers = w.ledgers();
  const std::string date = "2026-09-" + std::string(w.day < 10 ? "0" : "") + std::to_string(w.day);
  switch (std::uniform_int_distribution<int>(0, 20)(rng)) {
    case 0: case 1: case 2: case 3: {  // a log entry prepended (the usual commit)
      if (ledgers.empty()) break;
      replace_first(w.files[pick(rng, ledgers)], "## Log\n\n",
                    "## Log\n\n- " + date + " \u2014 note \u2014 step " + std::to_string(step) + "\n");
      if (w.day < 28 && step % 3 == 0) ++w.day;
      break;
    }
    case 4: {  // an old entry edited
      if (ledgers.empty()) break;
      replace_first(w.files[pick(rng, ledgers)], "ledger opened", "ledger opened (edited)");
      break;
    }
    case 5: {  // Issue made invalid, or made valid again
      if (ledgers.empty()) break;
      std::string& text = w.files[pick(rng, ledgers)];
      if (text.find("Issue: none") != std::string::npos) {
        replace_first(text, "Issue: none", "Issue: not-a-ref");
      } else {
        replace_first(text, "Issue: not-a-ref", "Issue: none");
      }
      break;
    }
    case 6: {  // a row's status flipped
      Row& row = w.rows[pick(rng, keys)];
      row.status = pick(rng, std::vector<std::string>{"active", "dormant", "retired", "planned"});
      w.write_yaml();
      break;
    }
    case 7: {  // a row's partition changed, or the row removed
      const std::string& key = pick(rng, keys);
      if (std::uniform_int_distribution<int>(0, 2)(rng) == 0) {
        w.rows.erase(key);
      } else {
        w.rows[key].partition = pick(rng, std::vector<std::string>{"both", "ral", "gpu"});
      }
      w.write_yaml();
      break;
    }
    case 8: {  // a ledger added, or removed
      const std::string path = "projects/" + pick(rng, keys) + ".md";
      if (w.files.count(path) != 0 && std::uniform_int_distribution<int>(0, 1)(rng) == 0) {
        w.files.erase(path);
      } else {
        w.files[path] = ledger_for(path.substr(9, path.size() - 12));
      }
      break;
    }
    case 9: {  // a run listed, on some partition, with or without its entry
      if (ledgers.empty()) break;
      const std::string id = std::to_string(4000 + step);
      std::string& text = w.files[pick(rng, ledgers)];
      replace_first(text, "## Runs\n\n",
                    "## Runs\n\n- " + id + " \u2014 open \u2014 " + pick(rng, std::vector<std::string>{"gpu", "ral"}) +
                        " \u2014 " + date + " \u2014 a fit\n");
      if (std::uniform_int_distribution<int>(0, 1)(rng) == 0) {
        replace_first(text, "## Log\n\n", "## Log\n\n- " + date + " \u2014 run \u2014 " + id + " submitted: a fit\n");
      }
      break;
    }
    case 10: {  // a run line removed
      if (ledgers.empty()) break;
      std::string& text = w.files[pick(rng, ledgers)];
      const auto runs = text.find("## Runs\n\n- ");
      if (runs != std::string::npos) {
        const auto begin = runs + 9;
        text.erase(begin, text.find('\n', begin) + 1 - begin);
      }
      break;
    }
    case 11: {  // odd files under projects/
      const std::string path = pick(rng, std::vector<std::string>{"projects/Bad-Name.md", "projects/notes.txt",
                                                                  "projects/sub/inner.md", "projects/AGENTS.md"});
      if (w.files.count(path) != 0) {
        w.files.erase(path);
      } else {
        w.files[path] = "# stray\n";
      }
      break;
    }
    case 12: {  // CRLF or a BOM in a ledger, or taken out
      if (ledgers.empty()) break;
      std::string& text = w.files[pick(rng, ledgers)];
      if (text.rfind("\xEF\xBB\xBF", 0) == 0) {
        text.erase(0, 3);
      } else if (text.find("\r\n") != std::string::npos) {
        replace_first(text, "\r\n", "\n");
      } else if (std::uniform_int_distribution<int>(0, 1)(rng) == 0) {
        text.insert(0, "\xEF\xBB\xBF");
      } else {
        replace_first(text, "Working.\n", "Working.\r\n");
      }
      break;
    }
    case 13: {  // projects.yaml broken or mended
      w.yaml_broken = !w.yaml_broken;
      w.write_yaml();
      break;
    }
    case 14: {  // archive/ grows or changes
      const std::string path = "archive/rulings/R-" + std::to_string(step % 4) + ".md";
      w.files[path] = "ruling " + std::to_string(step) + "\n";
      break;
    }
    case 15: {  // a ledger renamed (rename detection: the same text)
      if (ledgers.empty()) break;
      const std::string from = pick(rng, ledgers);
      const std::string to = "projects/" + pick(rng, keys) + ".md";
      if (w.files.count(to) != 0) break;
      w.files[to] = w.files[from];
      w.files.erase(from);
      break;
    }
    case 16: {  // an open-requirements file
      const std::string path = "spec/open-requirements.ledger.yml";
      if (w.files.count(path) != 0 && step % 2 == 0) {
        w.files.erase(path);
      } else {
        w.files[path] = "requirements: [" + std::to_string(step) + "\n";
      }
      break;
    }
    case 17: {  // the policy: a severity override, or none
      const std::string path = ".ledgergate.yaml";
      if (w.files.count(path) != 0) {
        w.files.erase(path);
      } else {
        w.files[path] = "severities:\n  ledger-issue-grammar: warning\n";
      }
      break;
    }
    case 18: {  // a ruling file, for the archive moves below
      w.files["rulings/R-" + std::to_string(step % 3) + ".md"] = "ruling " + std::to_string(step % 2) + "\n";
      break;
    }
    case 19: {  // a writer's temporary file left behind (input-writer-temp-file), or removed
      const std::string path = pick(rng, std::vector<std::string>{"projects/.alpha.md.ledgergate-42-1",
                                                                  ".projects.yaml.ledgergate-7-3"});
      if (w.files.count(path) != 0) {
        w.files.erase(path);
      } else {
        w.files[path] = "half a write\n";
      }
      break;
    }
    default: {  // code: nothing the check reads
      w.files["scripts/tool.py"] = "print(" + std::to_string(step) + ")\n";
      break;
    }
  }
}

// The history's first state: three active rows with their ledgers, and a
// dormant row without one.
inline World first_world() {
  World w;
  for (const std::string key : {"alpha", "beta", "gamma"}) {
    w.rows[key] = Row{};
    w.files["projects/" + key + ".md"] = ledger_for(key);
  }
  w.rows["delta"] = Row{"dormant", "ral"};
  w.write_yaml();
  return w;
}

// One commit's worth of edits: one to three.
inline void mutate_some(World& w, std::mt19937& rng, int step) {
  const int edits = std::uniform_int_distribution<int>(1, 3)(rng);
  for (int i = 0; i < edits; ++i) mutate(w, rng, step);
}

// A history committed in `repo_dir`: first_world() then `steps` commits of
// mutate_some(), each on the last; their ids, oldest first.
inline std::vector<git_oid> random_history(const std::string& repo_dir, std::mt19937& rng, int steps) {
  World w = first_world();
  git_oid tip = commit_tree(repo_dir, w.files, "base");
  std::vector<git_oid> ids{tip};
  for (int step = 1; step <= steps; ++step) {
    mutate_some(w, rng, step);
    tip = commit_tree(repo_dir, w.files, "step " + std::to_string(step), &tip);
    ids.push_back(tip);
  }
  return ids;
}

// random_history() of `steps` commits in a temporary repository, opened.
struct HistoryRepo {
  HistoryRepo(std::mt19937& rng, int steps)
      : ids(random_history(dir.path() + "/repo", rng, steps)), repo(git::Repository::open(dir.path() + "/repo", false)) {}
  TempDir dir;
  std::vector<git_oid> ids;
  Result<git::Repository> repo;
};

// The pairs of commits a differential walks: each commit with the next,
// and with one up to eight commits on (a bigger change), as indices.
inline std::vector<std::pair<std::size_t, std::size_t>> near_and_far(std::size_t count, std::mt19937& rng) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t i = 0; i + 1 < count; ++i) {
    const std::size_t far = std::min(count - 1, i + 1 + std::uniform_int_distribution<std::size_t>(0, 7)(rng));
    out.emplace_back(i, i + 1);
    out.emplace_back(i, far);
  }
  return out;
}

}  // namespace lg::test::era_r
