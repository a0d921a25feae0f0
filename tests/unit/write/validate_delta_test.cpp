// validate_edit's incremental path (only what the edit can change) against
// the whole check of both trees: on random cortex-projects trees (rows of
// every status and partition, ledgers clean and broken, names that are not
// ledgers') and random edits (log entries, runs added and removed, the Now,
// broken lines, new ledgers and files, projects.yaml's rows), folders and
// git trees (the persistent cache's facts), with and without the policy's
// severities, the two refuse exactly the same edits with the same words.
#include <catch2/catch.hpp>

#include <random>

#include "ledgergate/cache/store.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/write/apply.hpp"
#include "support/fixture_tree.hpp"

using namespace lg;

namespace {

class Random {
 public:
  explicit Random(unsigned seed) : m_rng(seed) {}
  std::size_t below(std::size_t n) { return m_rng() % n; }
  bool one_in(std::size_t n) { return below(n) == 0; }
  std::string pick(std::initializer_list<const char*> options) {
    return *(options.begin() + static_cast<std::ptrdiff_t>(below(options.size())));
  }

 private:
  std::mt19937 m_rng;
};

const char* const k_keys[] = {"alpha", "beta", "gamma", "delta", "eps"};

std::string row(Random& r, const std::string& key) {
  std::string out = key + ":\n";
  for (const char* field : {"remote: none", "local_path: /tmp/x", "ral_root: /mnt/x", "mirror: none", "sync_cli: hpc/sync",
                            "sync_verbs: [pull]", "ledger: NOTES.md", "assistant: none", "witness_file: results/*.json"}) {
    out += std::string("  ") + field + "\n";
  }
  out += "  partition: " + r.pick({"gpu", "ral", "both", "both", "moon"}) + "\n";
  out += "  status: " + r.pick({"active", "active", "dormant", "planned", "retired", "asleep"}) + "\n";
  if (r.one_in(3)) out += "  note: \"" + r.pick({"a note", "retired 2026-09-01: done"}) + "\"\n";
  return out;
}

std::string projects_yaml(Random& r, const std::vector<std::string>& keys) {
  std::string out = "# rows\n";
  for (const std::string& key : keys) out += row(r, key) + "\n";
  if (r.one_in(12)) out += keys.empty() ? "x: [\n" : row(r, keys.front());  // broken, or a duplicate row
  return out;
}

std::string run_line(Random& r) {
  return "- " + r.pick({"3001", "3002_[0-3]", "3003", "3002_1", "77", "12ab"}) + " — " + r.pick({"open", "running", "weird"}) +
         " — " + r.pick({"gpu", "ral", "ral", "moon"}) + " — " + r.pick({"2026-09-01", "2026-09-02", "2026-02-30"}) + " — " +
         r.pick({"wave 2", "joint fit  ", "a -- dashed one"});
}

std::string log_line(Random& r) {
  return "- " + r.pick({"2026-09-01", "2026-09-02", "2026-09-03", "2026-08-01", "2026-13-02"}) + " — " +
         r.pick({"note", "result", "run", "lesson", "verdict"}) + " — " + r.pick({"hi", "3003 submitted: x", "a  b  "});
}

std::string ledger_text(Random& r, const std::string& key) {
  std::string out = "# " + (r.one_in(10) ? std::string("other") : key) + " — " +
                    r.pick({"What it asks", "a b c d e f g h i j k l m n o p"}) + "\n\nProject: " +
                    (r.one_in(12) ? std::string("other") : key) + "\nIssue: " + r.pick({"none", "none", "x#1", "o/r#1"}) +
                    "\n\n## Now\n\n" + (r.one_in(4) ? std::string() : "Where it is.\n") + "\n## Runs\n\n";
  for (std::size_t i = r.below(4); i > 0; --i) out += run_line(r) + "\n";
  if (r.one_in(8)) out += "  a continuation\n";
  out += "\n## Log\n\n";
  for (std::size_t i = r.below(4); i > 0; --i) out += log_line(r) + "\n";
  out += "- 2026-08-28 — note — ledger opened\n";
  if (r.one_in(10)) out += "## Extra\n";
  if (r.one_in(15)) {
    std::string crlf;
    for (char c : out) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    return crlf;
  }
  return out;
}

test::FileMap random_tree(Random& r) {
  std::vector<std::string> rows;
  for (const char* key : k_keys) {
    if (!r.one_in(4)) rows.emplace_back(key);
  }
  test::FileMap files;
  files["projects.yaml"] = projects_yaml(r, rows);
  for (const char* key : k_keys) {
    if (!r.one_in(3)) files[std::string("projects/") + key + ".md"] = ledger_text(r, key);
  }
  if (r.one_in(4)) files["projects/Bad-Name.md"] = "x\n";
  if (r.one_in(4)) files["projects/notes.txt"] = "x\n";
  if (r.one_in(4)) files["projects/AGENTS.md"] = "x\n";
  if (r.one_in(5)) files["open-requirements.ledger.yml"] = "entries: []\n";
  return files;
}

// One random edit of `files`: the paths it writes and their new bytes.
std::vector<write::FileEdit> random_edit(Random& r, const test::FileMap& files) {
  std::vector<std::string> ledgers;
  for (const auto& [path, bytes] : files) {
    if (path.starts_with("projects/") && path.ends_with(".md")) ledgers.push_back(path);
  }
  const std::string key = k_keys[r.below(std::size(k_keys))];
  const std::string path = "projects/" + key + ".md";
  std::vector<write::FileEdit> out;
  const auto edited = [&](std::string bytes) {
    // A ledger edit: an entry prepended, a run added or dropped, the Now, a broken line.
    switch (r.below(7)) {
      case 0: {
        const auto at = bytes.find("## Log");
        if (at != std::string::npos) bytes.insert(bytes.find('\n', at) + 1, "\n" + log_line(r) + "\n");
        break;
      }
      case 1: {
        const auto at = bytes.find("## Runs");
        if (at != std::string::npos) bytes.insert(bytes.find('\n', at) + 1, "\n" + run_line(r) + "\n");
        break;
      }
      case 2: {
        const auto at = bytes.find("\n- 3");
        if (at != std::string::npos) bytes.erase(at + 1, bytes.find('\n', at + 1) - at);
        break;
      }
      case 3: {
        const auto at = bytes.find("## Now");
        const auto end = bytes.find("## Runs");
        if (at != std::string::npos && end != std::string::npos && end > at) {
          bytes.replace(at, end - at, "## Now\n\n" + r.pick({"", "Now this.\n", "## Notes\n"}) + "\n");
        }
        break;
      }
      case 4: bytes += r.pick({"- broken\n", "  orphan\n", "\n"}); break;
      case 5: bytes = ledger_text(r, key); break;
      default: break;  // the same bytes again
    }
    return bytes;
  };
  switch (r.below(10)) {
    case 0:  // a new file in projects/
      out.push_back({"projects/" + r.pick({"Other-Name.md", "readme.txt", "zeta.md", "TEMPLATE.md"}), "# zeta — x\n"});
      break;
    case 1: case 2: {  // projects.yaml's rows
      std::vector<std::string> rows;
      for (const char* k : k_keys) {
        if (!r.one_in(4)) rows.emplace_back(k);
      }
      out.push_back({"projects.yaml", projects_yaml(r, rows)});
      if (r.one_in(2) && files.count(path)) out.push_back({path, edited(files.at(path))});
      break;
    }
    case 3:  // out of the incremental path's scope: checked whole
      out.push_back({r.pick({"notes/x.md", "open-requirements.ledger.yml", "projects/sub/x.md"}), "entries: []\n"});
      break;
    default:  // a ledger rewritten or created
      out.push_back({path, files.count(path) ? edited(files.at(path)) : ledger_text(r, key)});
      break;
  }
  return out;
}

write::ApplyOptions random_options(Random& r) {
  write::ApplyOptions o;
  switch (r.below(4)) {
    case 0: o.policy.severities["ledger-run-overlap"] = diag::Severity::error; break;
    case 1: o.policy.off.insert("ledger-run-partition-agrees"); break;
    case 2: o.policy.severities["ledger-log-newest-first"] = diag::Severity::warning; break;
    default: break;
  }
  return o;
}

std::string verdict(const Result<std::optional<write::Refusal>>& r) {
  if (!r) return "error: " + r.error().message;
  return *r ? "refused: " + (*r)->message : "accepted";
}

}  // namespace

TEST_CASE("validate_edit's incremental path refuses exactly what the whole check of both trees refuses",
          "[write][validate][delta]") {
  Random r(20260904);
  int refused = 0, accepted = 0;
  for (int round = 0; round < 60; ++round) {
    const test::FileMap files = random_tree(r);
    test::TempDir dir;
    test::write_tree(dir.path(), files);
    // The same tree as a commit, whose checks go through the persistent cache.
    test::TempDir repo_dir;
    const git::ObjectId commit = test::id_of(test::commit_tree(repo_dir.path(), files, "tree"));
    auto repo = git::Repository::open(repo_dir.path(), false);
    REQUIRE(repo);
    const git::ObjectId tree_id = repo->commit_tree(commit).value();
    for (int step = 0; step < 12; ++step) {
      const std::vector<write::FileEdit> edits = random_edit(r, files);
      write::ApplyOptions options = random_options(r);
      std::string shown;
      for (const write::FileEdit& e : edits) shown += e.path + ":\n" + e.bytes + "\n";
      INFO("round " << round << " step " << step << "\n" << shown);
      auto folder = git::open_directory_source(dir.path());
      REQUIRE(folder);
      auto git_tree = git::open_tree_source(*repo, tree_id, "HEAD");
      REQUIRE(git_tree);
      options.incremental = false;
      const std::string whole = verdict(write::validate_edit(**folder, edits, options));
      options.incremental = true;
      CHECK(verdict(write::validate_edit(**folder, edits, options)) == whole);
      CHECK(verdict(write::validate_edit(**git_tree, edits, options)) == whole);
      whole == "accepted" ? ++accepted : ++refused;
    }
  }
  // Both answers are exercised (a seed that only accepts proves nothing).
  CHECK(accepted >= 100);
  CHECK(refused >= 100);
}

namespace {

// A folder source that counts the files read.
class CountingSource final : public git::TreeSource {
 public:
  explicit CountingSource(git::TreeSource& base) : m_base(base) {}
  const std::string& rev() const override { return m_base.rev(); }
  Result<std::optional<std::vector<git::Entry>>> list(std::string_view dir) override { return m_base.list(dir); }
  Result<std::optional<git::Entry>> stat(std::string_view path) override { return m_base.stat(path); }
  Result<std::string> read(std::string_view path, const git::Entry& entry) override {
    ++reads;
    return m_base.read(path, entry);
  }
  int reads = 0;

 private:
  git::TreeSource& m_base;
};

}  // namespace

TEST_CASE("validate_edit reads what an edit of one ledger touches, not the tree", "[write][validate][delta]") {
  Random r(7);
  test::FileMap files;
  std::string rows;
  for (int i = 0; i < 40; ++i) {
    const std::string key = "p" + std::to_string(i);
    rows += row(r, key);
    files["projects/" + key + ".md"] = "# " + key + " — x\n\nProject: " + key + "\nIssue: none\n\n## Now\n\nx\n\n## Runs\n\n## Log\n\n"
                                       "- 2026-09-01 — note — ledger opened\n";
  }
  files["projects.yaml"] = rows;
  test::TempDir dir;
  test::write_tree(dir.path(), files);
  auto folder = git::open_directory_source(dir.path());
  REQUIRE(folder);
  std::string edited = files["projects/p7.md"];
  edited.insert(edited.find("- 2026-09-01"), "- 2026-09-02 — note — more\n");
  CountingSource counted(**folder);
  write::ApplyOptions options;
  REQUIRE(write::validate_edit(counted, {{"projects/p7.md", edited}}, options));
  CHECK(counted.reads <= 2);  // the ledger before (twice at most), no other ledger, no projects.yaml
  counted.reads = 0;
  options.incremental = false;
  REQUIRE(write::validate_edit(counted, {{"projects/p7.md", edited}}, options));
  CHECK(counted.reads > 40);
}
