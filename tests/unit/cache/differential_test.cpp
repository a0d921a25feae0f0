// The persistent cache never changes a verdict: on the conformance trees,
// random edit sequences and a generated repository, every check's text and
// JSON output with the cache — cold, warm, with the verdict gone (the facts
// pack alone), after each cache file is truncated, replaced with garbage, a
// byte flipped or another version's header, and for the index — is
// byte-identical to the check without it; checkers racing on one cache agree
// too. And it is what it claims: a warm check reads only the changed blobs.
#include <git2.h>

#include <array>
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <thread>

#include "ledgergate/cache/codec.hpp"
#include "ledgergate/cache/store.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/report/format.hpp"
#include "ledgergate/rules/check.hpp"
#include "support/fixture_tree.hpp"
#include "support/peer_cases.hpp"

namespace fs = std::filesystem;
using lg::test::FileMap;

namespace {

// A source that forwards to another and counts the blobs read through it
// (both ways: read() and the prefetch's thread readers).
class CountingSource final : public lg::git::TreeSource {
 public:
  explicit CountingSource(lg::git::TreeSource& base) : m_base(base) {}
  const std::string& rev() const override { return m_base.rev(); }
  lg::Result<std::optional<std::vector<lg::git::Entry>>> list(std::string_view dir) override { return m_base.list(dir); }
  lg::Result<std::optional<std::vector<lg::git::Entry>>> list_entry(std::string_view dir,
                                                                    const lg::git::Entry& e) override {
    return m_base.list_entry(dir, e);
  }
  BlobReader thread_reader() const override {
    BlobReader inner = m_base.thread_reader();
    if (!inner) return {};
    return [inner, count = m_reads](const lg::git::Entry& e) {
      ++*count;
      return inner(e);
    };
  }
  lg::git::Entry root_entry() const override { return m_base.root_entry(); }
  lg::Result<bool> for_each_child(std::string_view dir, const lg::git::Entry& e, const ChildFn& fn) override {
    return m_base.for_each_child(dir, e, fn);
  }
  std::string cache_home() const override { return m_base.cache_home(); }
  lg::Result<void> confirm(std::span<const lg::git::ObjectId> ids) override {
    m_confirmed += static_cast<int>(ids.size());
    return m_base.confirm(ids);
  }
  lg::Result<std::optional<lg::git::Entry>> stat(std::string_view path) override { return m_base.stat(path); }
  lg::Result<std::string> read(std::string_view path, const lg::git::Entry& e) override {
    ++*m_reads;
    return m_base.read(path, e);
  }
  int reads() const { return m_reads->load(); }
  int confirmed() const { return m_confirmed; }  // object ids asked of confirm()

 private:
  lg::git::TreeSource& m_base;
  std::shared_ptr<std::atomic<int>> m_reads = std::make_shared<std::atomic<int>>(0);
  int m_confirmed = 0;
};

// What a check prints: text and JSON (or the error), and the profile.
std::string outputs(const lg::Result<lg::rules::CheckReport>& r) {
  if (!r) return "error: " + r.error().message;
  lg::report::JsonHeader h;
  h.verdict = r->cannot_judge() ? lg::diag::Verdict::error : r->failed() ? lg::diag::Verdict::fail
                                                                          : lg::diag::Verdict::pass;
  h.profile = r->profile;
  h.rev = "HEAD";
  return r->profile + "\n" + r->checked.name() + "\n" + lg::report::render_text(r->findings, false) +
         lg::report::render_json(r->findings, h) + lg::report::render_cortex(r->findings);
}

// A repository the steps commit to, and its checks with and without the cache.
class Lab {
 public:
  Lab() : m_path(m_dir.path() + "/repo") {}
  const std::string& path() const { return m_path; }

  lg::git::ObjectId commit(const FileMap& files) {
    const git_oid c = lg::test::commit_tree(m_path, files, "step", m_head ? &*m_head : nullptr);
    m_head = c;
    if (!m_repo) {
      auto opened = lg::git::Repository::open(m_path, false);
      REQUIRE(opened.has_value());
      m_repo.emplace(std::move(*opened));
    }
    auto tree = m_repo->commit_tree(lg::test::id_of(c));
    REQUIRE(tree.has_value());
    return *tree;
  }
  const lg::git::Repository& repo() const { return *m_repo; }
  std::string cache_dir() const { return lg::cache::Store::dir_for(m_repo->common_dir()); }

  // The tree's check (the index's, holding the tree, when `index`).
  std::string run(const lg::git::ObjectId& tree, const lg::rules::CheckOptions& o, bool cached, bool index = false,
                  int* reads = nullptr) {
    if (!cached) lg::cache::disable();
    lg::rules::CheckCache cache;
    auto source = index ? index_holding(tree) : lg::git::open_tree_source(*m_repo, tree, "HEAD");
    REQUIRE(source.has_value());
    CountingSource counting(**source);
    const std::string out = outputs(lg::rules::check_tree(counting, o, cache));
    lg::cache::enable();
    if (reads) *reads = counting.reads();
    return out;
  }

 private:
  lg::Result<std::unique_ptr<lg::git::TreeSource>> index_holding(const lg::git::ObjectId& tree) {
    git_repository* raw = nullptr;
    REQUIRE(git_repository_open(&raw, m_path.c_str()) == 0);
    lg::test::RepositoryPtr repo(raw);
    git_index* idx = nullptr;
    REQUIRE(git_repository_index(&idx, repo.get()) == 0);
    lg::test::IndexPtr index(idx);
    git_tree* t = nullptr;
    const git_oid oid = lg::test::oid_of(tree);
    REQUIRE(git_tree_lookup(&t, repo.get(), &oid) == 0);
    lg::test::TreePtr owned(t);
    REQUIRE(git_index_read_tree(index.get(), owned.get()) == 0);
    REQUIRE(git_index_write(index.get()) == 0);
    return lg::git::open_index_source(*m_repo);
  }

  lg::test::TempDir m_dir;
  std::string m_path;
  std::optional<git_oid> m_head;
  std::optional<lg::git::Repository> m_repo;
};

std::vector<fs::path> cache_files(const std::string& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file()) out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// One way to spoil a cache file (the n-th, rotating).
void spoil(const fs::path& file, int n) {
  std::string bytes = lg::test::read_file(file.string());
  switch (n % 5) {
    case 0:
      bytes.resize(bytes.size() / 2);
      break;
    case 1:
      bytes = "garbage\n" + std::string(64, '\xff');
      break;
    case 2:
      if (!bytes.empty()) bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x20);
      break;
    case 3:
      bytes.replace(0, bytes.find('\n'), "ledgergate-cache 1 0.0.0-another-build");
      break;
    default:
      bytes.clear();
      break;
  }
  lg::test::write_file(file.string(), bytes);
}

int g_spoils = 0;

// Every cache state against the uncached check of `tree` (and of the index).
void expect_same(Lab& lab, const lg::git::ObjectId& tree, const lg::rules::CheckOptions& o = {},
                 bool keep_cache = false) {
  const std::string plain = lab.run(tree, o, false);
  INFO(plain);
  const bool judged = plain.rfind("error: ", 0) != 0;
  CHECK(lab.run(tree, o, true) == plain);  // warm facts from earlier trees, or cold
  CHECK(lab.run(tree, o, true) == plain);  // the verdict
  if (judged) CHECK(fs::exists(lab.cache_dir() + "/verdict"));
  fs::remove_all(lab.cache_dir() + "/verdict");
  CHECK(lab.run(tree, o, true) == plain);  // the facts pack alone
  for (const fs::path& f : cache_files(lab.cache_dir())) spoil(f, g_spoils++);
  CHECK(lab.run(tree, o, true) == plain);  // nothing trusted
  CHECK(lab.run(tree, o, true) == plain);  // rewritten
  const std::string plain_index = lab.run(tree, o, false, true);
  CHECK(lab.run(tree, o, true, true) == plain_index);
  CHECK(lab.run(tree, o, true, true) == plain_index);
  if (!keep_cache) {
    fs::remove_all(lab.cache_dir());
    CHECK(lab.run(tree, o, true) == plain);  // cold
    CHECK(lab.run(tree, o, true, true) == plain_index);
  }
  lg::cache::take_notes();
}

// The peer suite's check cases (and variants) with the options their suite uses.
struct PeerTree {
  std::string id;
  FileMap files;
  lg::rules::CheckOptions options;
};
std::vector<PeerTree> peer_trees() {
  std::vector<PeerTree> out;
  const YAML::Node& all = lg::test::peer_cases();
  for (const auto& c : all["cases"]) {
    const auto id = c["id"].as<std::string>();
    if (c["kind"].as<std::string>() != "check") continue;
    lg::rules::CheckOptions options;
    const bool p1 = id.rfind("CP1-", 0) == 0;
    if (id.rfind("CT-", 0) == 0) {
      options.profile = "cortex-tasks@t2";
    } else if (p1) {
      options.profile = "cortex-phases@p1c";
    } else if (id.rfind("CR-", 0) != 0) {
      continue;
    }
    std::vector<YAML::Node> setups;
    if (c["variants"]) {
      for (const auto& v : c["variants"]) setups.push_back(v["setup"]);
    } else {
      setups.push_back(c["setup"]);
    }
    for (std::size_t i = 0; i < setups.size(); ++i) {
      FileMap files = p1 ? lg::test::p1_skeleton(all) : lg::test::peer_fixture(all, c["fixture"].as<std::string>());
      for (const auto& op : setups[i]) lg::test::apply_peer_op(files, op);
      out.push_back(PeerTree{id + "." + std::to_string(i), std::move(files), options});
    }
  }
  return out;
}

std::string orl_file(int n) {
  std::string out = "entries:\n";
  for (int i = 0; i < n; ++i) {
    out += "  - id: gap-" + std::to_string(i) + "\n    status: " + (i % 3 == 2 ? "closed" : "open") +
           "\n    raised_by: step-a\n    unmet: \"u\"\n    missing: \"m\"\n";
  }
  return out;
}

// A row of projects.yaml in the skeleton's shape.
std::string row(const std::string& key, const std::string& status, const std::string& partition = "ral") {
  return "\n" + key + ":\n  remote: none\n  local_path: /tmp/" + key + "\n  ral_root: /mnt/ral/" + key +
         "\n  mirror: none\n  sync_cli: hpc/sync\n  sync_verbs: [pull]\n  ledger: NOTES.md\n  assistant: none\n"
         "  witness_file: results/**/*.json\n  partition: " + partition + "\n  status: " + status + "\n";
}
// `text` with the first `old` replaced, if there is one.
std::string replaced_if(std::string text, const std::string& old, const std::string& repl) {
  if (const std::size_t at = text.find(old); at != std::string::npos) text.replace(at, old.size(), repl);
  return text;
}
std::string ledger_for(const std::string& single, const std::string& key) {
  return replaced_if(replaced_if(single, "# single ", "# " + key + " "), "Project: single", "Project: " + key);
}

// The era-R skeleton with `n` more projects k0, k1, ..., every
// `active_every`-th active and the others retired.
FileMap with_projects(int n, int active_every = 1) {
  FileMap files = lg::test::peer_fixture(lg::test::peer_cases(), "R-skeleton");
  for (int i = 0; i < n; ++i) {
    const std::string key = "k" + std::to_string(i);
    files["projects/" + key + ".md"] = ledger_for(files["projects/single.md"], key);
    files["projects.yaml"] += row(key, i % active_every == 0 ? "active" : "retired");
  }
  return files;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::size_t from = 0;
  while (from < text.size()) {
    const std::size_t nl = text.find('\n', from);
    const std::size_t to = nl == std::string::npos ? text.size() : nl + 1;
    out.push_back(text.substr(from, to - from));
    from = to;
  }
  return out;
}
std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l;
  return out;
}

// One random edit: a ledger changed, added or deleted, a row's status or
// partition changed, a row added or removed, a stray file, the ORL file.
void mutate(FileMap& files, std::mt19937& rng, int step) {
  std::vector<std::string> ledgers;
  for (const auto& [path, text] : files) {
    if (path.rfind("projects/", 0) == 0) ledgers.push_back(path);
  }
  const auto pick = [&rng](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); };
  const std::string key = "k" + std::to_string(step);
  switch (pick(9)) {
    case 0:
    case 1: {  // a line of a ledger: dropped, doubled, or edited
      if (ledgers.empty()) break;
      std::string& text = files[ledgers[pick(ledgers.size())]];
      auto lines = lines_of(text);
      if (lines.empty()) break;
      const std::size_t at = pick(lines.size());
      const std::size_t how = pick(4);
      if (how == 0) lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(at));
      if (how == 1) lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(at), lines[at]);
      if (how == 2) lines[at] = "- 2026-09-0" + std::to_string(1 + pick(9)) + " — note — step " + key + "\n";
      if (how == 3) lines[at] = replaced_if(lines[at], "running", "finished");
      text = joined(lines);
      break;
    }
    case 2:  // a new ledger, with its row or without
      files["projects/" + key + ".md"] = ledger_for(files.count("projects/single.md") ? files["projects/single.md"]
                                                                                        : "# single — x\n",
                                                    key);
      if (pick(2) == 0) files["projects.yaml"] += row(key, pick(2) ? "active" : "dormant");
      break;
    case 3:  // a ledger deleted
      if (ledgers.size() > 1) files.erase(ledgers[pick(ledgers.size())]);
      break;
    case 4: {  // a row's status
      static const std::array<const char*, 4> statuses = {"active", "retired", "dormant", "paused"};
      auto lines = lines_of(files["projects.yaml"]);
      std::vector<std::size_t> at;
      for (std::size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].rfind("  status: ", 0) == 0) at.push_back(i);
      }
      if (at.empty()) break;
      lines[at[pick(at.size())]] = std::string("  status: ") + statuses[pick(statuses.size())] + "\n";
      files["projects.yaml"] = joined(lines);
      break;
    }
    case 5: {  // a row's partition
      auto lines = lines_of(files["projects.yaml"]);
      for (std::string& l : lines) {
        if (l.rfind("  partition: ", 0) == 0 && pick(2) == 0) l = pick(2) ? "  partition: gpu\n" : "  partition: ral\n";
      }
      files["projects.yaml"] = joined(lines);
      break;
    }
    case 6:  // a row added for no ledger, active
      files["projects.yaml"] += row(key + "_row", "active", "both");
      break;
    case 7:  // a stray file under projects/, or it goes
      if (files.erase("projects/notes.txt") == 0) files["projects/notes.txt"] = "stray\n";
      break;
    default:  // the open-requirements file: changed, or it goes
      if (files.count("open-requirements.ledger.yml") && pick(3) == 0) {
        files.erase("open-requirements.ledger.yml");
      } else {
        files["open-requirements.ledger.yml"] = orl_file(static_cast<int>(pick(5)));
      }
      break;
  }
}

}  // namespace

TEST_CASE("cache differential: the conformance trees", "[cache][differential][peer]") {
  int n = 0;
  for (const PeerTree& t : peer_trees()) {
    DYNAMIC_SECTION(t.id) {
      Lab lab;
      expect_same(lab, lab.commit(t.files), t.options);
      lg::rules::CheckOptions auto_options;  // the same tree detected, not pinned
      expect_same(lab, lab.commit(t.files), auto_options);
    }
    ++n;
  }
  CHECK(n >= 100);
}

TEST_CASE("cache differential: random edit sequences keep one cache", "[cache][differential]") {
  const YAML::Node& all = lg::test::peer_cases();
  for (unsigned seed : {15u, 16u, 17u}) {
    DYNAMIC_SECTION("seed " << seed) {
      std::mt19937 rng(seed);
      FileMap files = lg::test::peer_fixture(all, "R-skeleton");
      Lab lab;
      lg::rules::CheckOptions severe;
      severe.severities["ledger-active-has-ledger"] = lg::diag::Severity::warning;
      for (int step = 0; step < 40; ++step) {
        mutate(files, rng, step);
        const auto tree = lab.commit(files);
        const bool keep = step % 7 != 6;  // now and then from cold
        expect_same(lab, tree, step % 5 == 4 ? severe : lg::rules::CheckOptions{}, keep);
      }
    }
  }
}

TEST_CASE("cache differential: a generated repository's history", "[cache][differential]") {
  const std::string tool = std::string(LEDGERGATE_SOURCE_DIR) + "/bench/genledger.py";
  lg::test::TempDir dir;
  const std::string repo_dir = dir.path() + "/gen";
  REQUIRE(lg::test::run_quiet("python3 '" + tool + "' --out '" + repo_dir +
                              "' --projects 40 --rulings 60 --commits 15 --seed 7") == 0);
  auto repo = lg::git::Repository::open(repo_dir, false);
  REQUIRE(repo.has_value());
  std::vector<std::string> commits;
  {
    const auto list = lg::test::capture("git -C '" + repo_dir + "' rev-list --all");
    REQUIRE(list.status == 0);
    for (std::size_t at = 0; at + 40 <= list.out.size(); at += 41) commits.push_back(list.out.substr(at, 40));
  }
  REQUIRE(commits.size() >= 10);
  const std::string cache_dir = lg::cache::Store::dir_for(repo->common_dir());
  int spoiled = 0;
  for (const std::string& hex : commits) {
    auto tree = repo->commit_tree(*lg::git::ObjectId::from_hex(hex));
    REQUIRE(tree.has_value());
    const auto check = [&](bool cached) {
      if (!cached) lg::cache::disable();
      lg::rules::CheckCache cache;
      auto source = lg::git::open_tree_source(*repo, *tree, "HEAD");
      REQUIRE(source.has_value());
      const std::string out = outputs(lg::rules::check_tree(**source, {}, cache));
      lg::cache::enable();
      return out;
    };
    const std::string plain = check(false);
    INFO(hex << "\n" << plain);
    CHECK(check(true) == plain);
    CHECK(check(true) == plain);
    fs::remove_all(cache_dir + "/verdict");
    CHECK(check(true) == plain);
    if (spoiled++ % 4 == 3) {
      for (const fs::path& f : cache_files(cache_dir)) spoil(f, g_spoils++);
      CHECK(check(true) == plain);
    }
  }
  lg::cache::take_notes();
}

TEST_CASE("cache: a warm check reads only the blobs that changed", "[cache]") {
  FileMap files = with_projects(100);  // past the prefetch's threshold: its readers are counted too
  Lab lab;
  const auto first = lab.commit(files);
  int reads = 0;
  const std::string plain = lab.run(first, {}, false, false, &reads);
  CHECK(reads >= 103);
  CHECK(lab.run(first, {}, true, false, &reads) == plain);
  CHECK(reads >= 103);  // cold
  CHECK(lab.run(first, {}, true, false, &reads) == plain);
  CHECK(reads == 0);  // the verdict
  fs::remove_all(lab.cache_dir() + "/verdict");
  CHECK(lab.run(first, {}, true, false, &reads) == plain);
  CHECK(reads == 0);  // the facts: projects.yaml and every ledger
  CHECK(lab.run(first, {}, true, true, &reads) == lab.run(first, {}, false, true));
  CHECK(reads == 0);  // the index holding the same blobs

  files["projects/k7.md"] += "- 2026-09-03 — note — one more line\n";
  const auto second = lab.commit(files);
  CHECK(lab.run(second, {}, true, false, &reads) == lab.run(second, {}, false));
  CHECK(reads == 1);  // the changed ledger (its row from the cached facts: projects.yaml is not read)
  CHECK(lab.run(second, {}, true, true, &reads) == lab.run(second, {}, false, true));
  CHECK(reads == 0);  // the index: its one new blob is known now

  files["projects.yaml"] = lg::test::replaced(files["projects.yaml"], "local_path: /tmp/k9\n  ral_root: /mnt/ral/k9\n  "
                                                                      "mirror: none\n  sync_cli: hpc/sync\n  sync_verbs: "
                                                                      "[pull]\n  ledger: NOTES.md\n  assistant: none\n  "
                                                                      "witness_file: results/**/*.json\n  partition: ral\n  "
                                                                      "status: active",
                                              "local_path: /tmp/k9\n  ral_root: /mnt/ral/k9\n  mirror: none\n  sync_cli: "
                                              "hpc/sync\n  sync_verbs: [pull]\n  ledger: NOTES.md\n  assistant: none\n  "
                                              "witness_file: results/**/*.json\n  partition: ral\n  status: retired");
  const auto third = lab.commit(files);
  CHECK(lab.run(third, {}, true, false, &reads) == lab.run(third, {}, false));
  CHECK(reads == 2);  // projects.yaml, and the one ledger whose row changed

  lg::rules::CheckOptions other;
  other.severities["ledger-file-name"] = lg::diag::Severity::warning;
  CHECK(lab.run(third, other, true, false, &reads) == lab.run(third, other, false));
  CHECK(reads == 0);  // other options: another verdict, the same facts
}

TEST_CASE("cache: the checks of one process confirm each cached blob once", "[cache]") {
  FileMap files = with_projects(100);
  Lab lab;
  const auto first = lab.commit(files);
  files["projects/k7.md"] += "- 2026-09-03 — note — one more line\n";
  const auto second = lab.commit(files);
  lab.run(first, {}, true);  // the facts of both trees cached, each by a process of its own
  lab.run(second, {}, true);
  fs::remove_all(lab.cache_dir() + "/verdict");  // every blob is then vouched for by the facts
  // One process checking both trees (a merge's BASE and merged tree)
  // confirms the blobs they share once; another process confirms them again.
  const auto check = [&](lg::rules::CheckCache& cache, const lg::git::ObjectId& tree, int& confirmed) {
    auto source = lg::git::open_tree_source(lab.repo(), tree, "HEAD");
    REQUIRE(source.has_value());
    CountingSource counting(**source);
    const std::string out = outputs(lg::rules::check_tree(counting, {}, cache));
    confirmed = counting.confirmed();
    return out;
  };
  lg::rules::CheckCache one;
  one.serve_one_command();
  int confirmed = 0;
  CHECK(check(one, first, confirmed) == lab.run(first, {}, false));
  CHECK(confirmed >= 102);
  CHECK(check(one, second, confirmed) == lab.run(second, {}, false));
  CHECK(confirmed == 1);  // k7's new blob
  lg::rules::CheckCache another;
  another.serve_one_command();
  CHECK(check(another, second, confirmed) == lab.run(second, {}, false));
  CHECK(confirmed >= 102);
}

TEST_CASE("cache: deferred writes are held until flushed, then leave what immediate writes leave", "[cache]") {
  FileMap files = with_projects(100);
  Lab lab;
  lab.run(lab.commit(files), {}, true);  // the facts pack and the projects memo of a first tree
  files["projects/k7.md"] += "- 2026-09-03 — note — one more line\n";
  const auto second = lab.commit(files);
  files["projects/k8.md"] += "- 2026-09-04 — note — one more line\n";
  const auto third = lab.commit(files);
  // The files the deferred writes hold back: the facts pack's and the memo's (and their journals).
  const auto held = [&] {
    std::map<std::string, std::string> out;
    for (const char* kind : {"facts", "projects"}) {
      const fs::path dir = fs::path(lab.cache_dir()) / kind;
      if (!fs::exists(dir)) continue;
      for (const auto& f : fs::directory_iterator(dir)) out[f.path().string()] = lg::test::read_file(f.path().string());
    }
    return out;
  };
  const fs::path saved = fs::path(lab.path()).parent_path() / "saved-cache";
  fs::copy(lab.cache_dir(), saved, fs::copy_options::recursive);
  const auto before = held();
  const auto check_both = [&](lg::rules::CheckCache& cache) {
    for (const auto& tree : {second, third}) {
      auto source = lg::git::open_tree_source(lab.repo(), tree, "HEAD");
      REQUIRE(source.has_value());
      CHECK(outputs(lg::rules::check_tree(**source, {}, cache)) == lab.run(tree, {}, false));
    }
  };
  {
    lg::rules::CheckCache immediate;
    check_both(immediate);
  }
  const auto written = held();
  CHECK(written != before);  // the checks add journal records
  fs::remove_all(lab.cache_dir());
  fs::copy(saved, lab.cache_dir(), fs::copy_options::recursive);
  lg::rules::CheckCache deferred;
  deferred.serve_one_command();
  check_both(deferred);
  CHECK(held() == before);
  deferred.flush_writes();
  CHECK(held() == written);
}

TEST_CASE("cache: a small change is written to the facts pack's journal, not the whole pack", "[cache]") {
  FileMap files = with_projects(900);  // a pack past the journal's 64 KiB limit
  Lab lab;
  const auto first = lab.commit(files);
  CHECK(lab.run(first, {}, true) == lab.run(first, {}, false));
  const std::string facts = lab.cache_dir() + "/facts";
  const auto packed = cache_files(facts);
  REQUIRE(packed.size() == 1);  // cold: the whole pack, no journal
  const std::string pack_bytes = lg::test::read_file(packed[0].string());

  int reads = 0;
  files["projects/k7.md"] += "- 2026-09-03 — note — one more line\n";
  const auto second = lab.commit(files);
  const std::string plain = lab.run(second, {}, false);
  CHECK(lab.run(second, {}, true, false, &reads) == plain);
  CHECK(reads == 1);
  const auto both = cache_files(facts);
  REQUIRE(both.size() == 2);
  CHECK(lg::test::read_file(packed[0].string()) == pack_bytes);  // the pack as it was
  const fs::path journal = both[0] == packed[0] ? both[1] : both[0];
  CHECK(fs::file_size(journal) < 1024);
  const std::string journal_bytes = lg::test::read_file(journal.string());

  // Read back with the pack: nothing is read again, from the index too.
  fs::remove_all(lab.cache_dir() + "/verdict");
  CHECK(lab.run(second, {}, true, false, &reads) == plain);
  CHECK(reads == 0);
  CHECK(lab.run(second, {}, true, true, &reads) == lab.run(second, {}, false, true));
  CHECK(reads == 0);

  // A spoiled journal: a note naming it, the same verdict, the journal rewritten.
  // (The projects memo, which holds k7.md's findings too, is removed: what
  // follows is the pack's own answer.)
  fs::remove_all(lab.cache_dir() + "/verdict");
  fs::remove_all(lab.cache_dir() + "/projects");
  lg::cache::take_notes();
  spoil(journal, 2);
  CHECK(lab.run(second, {}, true, false, &reads) == plain);
  CHECK(reads == 1);
  const auto notes = lg::cache::take_notes();
  REQUIRE(notes.size() == 1);
  CHECK_THAT(notes[0], Catch::Contains(journal.string()) && Catch::Contains("checksum mismatch"));
  fs::remove_all(lab.cache_dir() + "/verdict");
  CHECK(lab.run(second, {}, true, false, &reads) == plain);
  CHECK(reads == 0);
  CHECK(lg::cache::take_notes().empty());

  // A spoiled pack: rewritten whole, the journal folded in (and removed).
  spoil(packed[0], 2);
  fs::remove_all(lab.cache_dir() + "/verdict");
  fs::remove_all(lab.cache_dir() + "/projects");
  CHECK(lab.run(second, {}, true) == plain);
  CHECK(lg::cache::take_notes().size() == 1);
  CHECK(cache_files(facts) == std::vector<fs::path>{packed[0]});
  fs::remove_all(lab.cache_dir() + "/verdict");
  fs::remove_all(lab.cache_dir() + "/projects");
  CHECK(lab.run(second, {}, true, false, &reads) == plain);
  CHECK(reads == 0);
  CHECK(lg::cache::take_notes().empty());

  // A journal left behind by a writer that lost the race to a fold: its
  // entries stand on their own keys, so every tree it or the pack speaks of
  // gets the uncached verdict, with no note, and a changed ledger is still read.
  lg::test::write_file(journal.string(), journal_bytes);
  fs::remove_all(lab.cache_dir() + "/verdict");
  fs::remove_all(lab.cache_dir() + "/projects");
  CHECK(lab.run(second, {}, true, false, &reads) == plain);
  CHECK(reads == 0);
  CHECK(lab.run(first, {}, true, false, &reads) == lab.run(first, {}, false));
  CHECK(reads == 1);  // the first k7.md: in neither the refolded pack nor the journal
  files["projects/k7.md"] += "- 2026-09-04 — note — and another\n";
  files["projects/k8.md"] += "not a log line\n";
  const auto third = lab.commit(files);
  CHECK(lab.run(third, {}, true, false, &reads) == lab.run(third, {}, false));
  CHECK(reads == 2);
  CHECK(lg::cache::take_notes().empty());
}

// The payload of the cache entry in `file` (after the header line: kind,
// key, payload), and its kind and key.
struct StoredEntry {
  std::string kind, key, payload;
};
StoredEntry read_entry(const fs::path& file) {
  const std::string bytes = lg::test::read_file(file.string());
  lg::cache::Decoder d(std::string_view(bytes).substr(bytes.find('\n') + 1));
  StoredEntry e;
  e.kind = d.field();
  e.key = d.field();
  e.payload = d.field();
  REQUIRE(d.ok());
  return e;
}

TEST_CASE("cache: the projects memo answers a pass from the ledgers that changed", "[cache][differential]") {
  FileMap files = with_projects(100, 10);
  Lab lab;
  const auto first = lab.commit(files);
  int reads = 0;
  const std::string plain = lab.run(first, {}, false);
  CHECK(lab.run(first, {}, true) == plain);
  const std::string memo_dir = lab.cache_dir() + "/projects";
  REQUIRE(cache_files(memo_dir).size() == 1);  // the memo, no journal
  const fs::path memo = cache_files(memo_dir)[0];
  const std::string first_memo = lg::test::read_file(memo.string());
  const auto forget_all_but_memo = [&] {
    fs::remove_all(lab.cache_dir() + "/verdict");
    fs::remove_all(lab.cache_dir() + "/facts");
  };

  // One ledger changed, in the index: it alone is read (the pack is not
  // even loaded); then the memo's journal answers, for the index and the tree.
  files["projects/k7.md"] += "- 2026-09-03 — note — one more line\n";
  const auto second = lab.commit(files);
  CHECK(lab.run(second, {}, true, true, &reads) == lab.run(second, {}, false, true));
  CHECK(reads == 1);
  REQUIRE(cache_files(memo_dir).size() == 2);  // the memo as it was, and its journal
  CHECK(lg::test::read_file(memo.string()) == first_memo);
  CHECK(lab.run(second, {}, true, true, &reads) == lab.run(second, {}, false, true));
  CHECK(reads == 0);
  fs::remove_all(lab.cache_dir() + "/verdict");
  CHECK(lab.run(second, {}, true, false, &reads) == lab.run(second, {}, false));
  CHECK(reads == 0);

  // What only the journal holds is not read again when projects.yaml
  // changes (the pass then runs without the memo, from the facts pack).
  files["projects.yaml"] += row("k100", "retired");
  const auto third = lab.commit(files);
  fs::remove_all(lab.cache_dir() + "/verdict");
  CHECK(lab.run(third, {}, true, false, &reads) == lab.run(third, {}, false));
  CHECK(reads == 1);  // projects.yaml
  CHECK(cache_files(memo_dir).size() == 1);  // rewritten, its journal folded in
  CHECK(lg::test::read_file(memo.string()) != first_memo);

  // The memo alone: nothing is read, not even projects.yaml.
  forget_all_but_memo();
  CHECK(lab.run(third, {}, true, false, &reads) == lab.run(third, {}, false));
  CHECK(reads == 0);
  CHECK(lab.run(third, {}, true, true, &reads) == lab.run(third, {}, false, true));
  CHECK(reads == 0);

  // A ledger deleted, one made a symlink, one added (no row): the active
  // rows are judged again; a bad ledger's findings come from the memo.
  files.erase("projects/k10.md");  // an active row without its ledger
  files["projects/k20.md"] = "-> not a ledger";
  files["projects/k33.md"] += "not a log line\n";
  files["projects/zz.md"] = ledger_for(files["projects/single.md"], "zz");
  const auto fourth = lab.commit(files);
  const std::string fourth_plain = lab.run(fourth, {}, false);
  CHECK(fourth_plain.find("ledger-active-has-ledger") != std::string::npos);
  CHECK(lab.run(fourth, {}, true, false, &reads) == fourth_plain);
  fs::remove_all(lab.cache_dir() + "/verdict");
  CHECK(lab.run(fourth, {}, true, false, &reads) == fourth_plain);
  CHECK(reads == 0);  // the journal (projects.yaml's rows, judged again: the facts pack)
  files["projects/k10.md"] = ledger_for(files["projects/single.md"], "k10");
  const auto fifth = lab.commit(files);
  forget_all_but_memo();
  CHECK(lab.run(fifth, {}, true, false, &reads) == lab.run(fifth, {}, false));
  CHECK(reads == 1);

  // Past 32 journal records, the journal is folded into a new memo.
  std::string before_fold = lg::test::read_file(memo.string());
  for (int i = 40; i < 75; ++i) {
    files["projects/k" + std::to_string(i) + ".md"] += "- 2026-09-02 — note — step " + std::to_string(i) + "\n";
    const auto tree = lab.commit(files);
    fs::remove_all(lab.cache_dir() + "/verdict");
    CHECK(lab.run(tree, {}, true, i % 2 == 0, &reads) == lab.run(tree, {}, false, i % 2 == 0));
    CHECK(reads == 1);
  }
  CHECK(lg::test::read_file(memo.string()) != before_fold);
  CHECK(cache_files(memo_dir).size() == 2);  // the folded memo, and the journal begun since
  const auto last = lab.commit(files);
  lg::cache::take_notes();

  // A memo or journal not trusted: a note naming it, the same verdict.
  const auto stored_files = cache_files(memo_dir);
  std::vector<std::string> stored_bytes;
  for (const fs::path& f : stored_files) stored_bytes.push_back(lg::test::read_file(f.string()));
  for (const fs::path& f : stored_files) {
    for (std::size_t i = 0; i < stored_files.size(); ++i) lg::test::write_file(stored_files[i].string(), stored_bytes[i]);
    fs::remove_all(lab.cache_dir() + "/verdict");
    spoil(f, 2);
    CHECK(lab.run(last, {}, true) == lab.run(last, {}, false));
    const auto notes = lg::cache::take_notes();
    REQUIRE(notes.size() == 1);
    CHECK_THAT(notes[0], Catch::Contains(f.string()) && Catch::Contains("checksum mismatch"));
  }

  // A memo whose checksum holds but whose records do not (names out of
  // order, or cut short): ignored with a note, never half used.
  const std::string last_plain = lab.run(last, {}, false);
  fs::remove_all(memo_dir);
  fs::remove_all(lab.cache_dir() + "/verdict");
  CHECK(lab.run(last, {}, true) == last_plain);
  REQUIRE(cache_files(memo_dir).size() == 1);
  const StoredEntry stored = read_entry(cache_files(memo_dir)[0]);
  const std::size_t a = stored.payload.find(std::string("\x05\0\0\0k0.md", 9));  // the record's name
  const std::size_t b = stored.payload.find(std::string("\x05\0\0\0k1.md", 9));
  REQUIRE(a != std::string::npos);
  REQUIRE(b != std::string::npos);
  std::string swapped = stored.payload;
  swapped.replace(b + 4, 5, "k0.md");
  bool first_note = true;
  for (const std::string& bad : {swapped, stored.payload.substr(0, stored.payload.size() / 2)}) {
    lg::cache::Store(lab.cache_dir()).put(stored.kind, stored.key, bad);
    fs::remove_all(lab.cache_dir() + "/verdict");
    lg::cache::take_notes();
    CHECK(lab.run(last, {}, true) == last_plain);
    const auto notes = lg::cache::take_notes();
    REQUIRE(notes.size() == (first_note ? 1u : 0u));  // a note's text is given once per process
    if (first_note) CHECK_THAT(notes[0], Catch::Contains("ignored (malformed)"));
    first_note = false;
    CHECK(read_entry(cache_files(memo_dir)[0]).payload == stored.payload);  // rebuilt by the pass
  }
}

TEST_CASE("cache: checkers racing on one cache agree with the uncached check", "[cache][differential]") {
  std::mt19937 rng(99);
  FileMap files = lg::test::peer_fixture(lg::test::peer_cases(), "R-skeleton");
  Lab lab;
  std::vector<lg::git::ObjectId> trees;
  std::vector<std::string> plain;
  for (int step = 0; step < 8; ++step) {
    for (int k = 0; k < 3; ++k) mutate(files, rng, step * 3 + k);
    trees.push_back(lab.commit(files));
    plain.push_back(lab.run(trees.back(), {}, false));
  }
  fs::remove_all(lab.cache_dir());
  std::atomic<int> mismatches{0}, runs{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      auto repo = lg::git::Repository::open(lab.path(), false);
      if (!repo) return;
      for (int round = 0; round < 3; ++round) {
        for (std::size_t i = 0; i < trees.size(); ++i) {
          const std::size_t at = (i * static_cast<std::size_t>(t + 1) + static_cast<std::size_t>(round)) % trees.size();
          lg::rules::CheckCache cache;
          auto source = lg::git::open_tree_source(*repo, trees[at], "HEAD");
          if (!source) continue;
          if (outputs(lg::rules::check_tree(**source, {}, cache)) != plain[at]) ++mismatches;
          ++runs;
        }
      }
    });
  }
  for (std::thread& th : threads) th.join();
  CHECK(runs == 4 * 3 * 8);
  CHECK(mismatches == 0);
  for (const fs::path& f : cache_files(lab.cache_dir())) {
    CHECK(f.filename().string().rfind(".tmp-", 0) != 0);  // every write renamed into place
  }
}

TEST_CASE("cache: off, or unwritable, changes nothing and writes nothing", "[cache]") {
  const FileMap files = lg::test::peer_fixture(lg::test::peer_cases(), "R-skeleton");
  Lab lab;
  const auto tree = lab.commit(files);
  const std::string plain = lab.run(tree, {}, false);
  CHECK_FALSE(fs::exists(lab.cache_dir()));
  ::setenv("LEDGERGATE_NO_CACHE", "1", 1);
  CHECK(lab.run(tree, {}, true) == plain);
  ::unsetenv("LEDGERGATE_NO_CACHE");
  CHECK_FALSE(fs::exists(lab.cache_dir()));
  // Where the cache would go cannot be a folder: no entry, no note, the same verdict.
  lg::test::write_file(lab.repo().common_dir() + "/ledgergate", "a file\n");
  lg::cache::take_notes();
  CHECK(lab.run(tree, {}, true) == plain);
  CHECK(lab.run(tree, {}, true, true) == lab.run(tree, {}, false, true));
  CHECK(lg::cache::take_notes().empty());
  fs::remove(lab.repo().common_dir() + "/ledgergate");
  CHECK(lab.run(tree, {}, true) == plain);
  CHECK(fs::exists(lab.cache_dir() + "/verdict"));
  CHECK(fs::exists(lab.cache_dir() + "/facts"));
  // A spoiled entry: a note, once, naming the file.
  for (const fs::path& f : cache_files(lab.cache_dir())) spoil(f, 1);
  lg::cache::take_notes();
  CHECK(lab.run(tree, {}, true) == plain);
  const auto notes = lg::cache::take_notes();
  REQUIRE(notes.size() == 3);  // the verdict's entry, the projects memo's, the facts pack's
  for (const std::string& note : notes) {
    CHECK_THAT(note, Catch::Contains(lab.cache_dir()) && Catch::Contains("ignored (not a cache entry); it is rebuilt"));
  }
  CHECK(lab.run(tree, {}, true) == plain);
  CHECK(lg::cache::take_notes().empty());  // rewritten: trusted again
}

namespace {

// Runs `git -C dir ARGS` quietly; its exit status.
int git_in(const std::string& dir, const std::string& args) {
  return lg::test::run_quiet("git -C '" + dir + "' " + args);
}

// The check of the index of the repository at `dir` (opened afresh, so the
// index is read again), with or without the cache.
struct IndexCheck {
  std::string out;
  int reads = 0;
};
IndexCheck check_index(const std::string& dir, bool cached) {
  if (!cached) lg::cache::disable();
  auto repo = lg::git::Repository::open(dir, false);
  REQUIRE(repo.has_value());
  auto source = lg::git::open_index_source(*repo);
  IndexCheck r;
  if (!source) {
    r.out = "error: " + source.error().message;
  } else {
    CountingSource counting(**source);
    lg::rules::CheckCache cache;
    r.out = outputs(lg::rules::check_tree(counting, {}, cache));
    r.reads = counting.reads();
  }
  lg::cache::enable();
  return r;
}

// The index's check — cold, warm, warm again with the verdicts gone — is
// its uncached check.
void expect_index_same(const std::string& dir, const std::string& cache_dir) {
  const IndexCheck plain = check_index(dir, false);
  INFO(plain.out);
  fs::remove_all(cache_dir);
  CHECK(check_index(dir, true).out == plain.out);  // cold
  CHECK(check_index(dir, true).out == plain.out);  // warm
  fs::remove_all(cache_dir + "/verdict");
  CHECK(check_index(dir, true).out == plain.out);  // the facts
  lg::cache::take_notes();
}

}  // namespace

TEST_CASE("cache differential: staged deltas in the index", "[cache][differential][index]") {
  FileMap files = with_projects(20);
  files["archive/old/notes.txt"] = "kept\n";
  files["open-requirements.ledger.yml"] = orl_file(2);
  files["archive/2025/open-requirements.ledger.yml"] = orl_file(3);
  files["archive/2025/q1/open-requirements.ledger.yml"] = orl_file(1);
  files["archive/2025/open-requirements.ledger.yml.bak"] = "not one\n";
  Lab lab;
  lab.commit(files);
  const std::string dir = lab.path();
  const std::string cache_dir = lab.cache_dir();
  REQUIRE(git_in(dir, "read-tree main") == 0);  // the index holds HEAD's tree, with its tree cache
  const auto staged = [&](const std::string& mode, const std::string& text, const std::string& path) {
    REQUIRE(git_in(dir, "update-index --add --cacheinfo " + mode + "," + lg::test::git_blob(dir, text) + "," + path) == 0);
  };

  SECTION("HEAD's tree; its open-requirements files as the tree walk finds them") {
    expect_index_same(dir, cache_dir);
    auto repo = lg::git::Repository::open(dir, false);
    REQUIRE(repo.has_value());
    auto index = lg::git::open_index_source(*repo);
    REQUIRE(index.has_value());
    auto head = lg::git::open_tree_source(*repo, lab.commit(files), "HEAD");
    REQUIRE(head.has_value());
    for (const std::string glob : {"**/open-requirements.ledger.yml", "open-requirements.ledger.yml", "archive/**/*.yml",
                                   "**/*.ledger.yml", "*/*/open-requirements.ledger.yml"}) {
      auto from_index = lg::rules::find_open_requirements(**index, glob);
      auto from_tree = lg::rules::find_open_requirements(**head, glob);
      REQUIRE(from_index.has_value());
      REQUIRE(from_tree.has_value());
      CHECK(*from_index == *from_tree);
      CHECK_FALSE(from_tree->empty());
    }
  }
  SECTION("a changed ledger (an index newer than HEAD)") {
    staged("100644", files["projects/k3.md"] + "- 2026-09-03 — note — staged\n", "projects/k3.md");
    expect_index_same(dir, cache_dir);
    // After HEAD's facts are known, the staged delta reads its one new blob.
    (void)check_index(dir, true);
    staged("100644", files["projects/k4.md"] + "- 2026-09-04 — note — staged\n", "projects/k4.md");
    fs::remove_all(cache_dir + "/verdict");
    const IndexCheck delta = check_index(dir, true);
    CHECK(delta.out == check_index(dir, false).out);
    CHECK(delta.reads == 1);
  }
  SECTION("a ledger added, with its row") {
    staged("100644", ledger_for(files["projects/single.md"], "fresh"), "projects/fresh.md");
    staged("100644", files["projects.yaml"] + row("fresh", "active"), "projects.yaml");
    expect_index_same(dir, cache_dir);
  }
  SECTION("a ledger deleted") {
    REQUIRE(git_in(dir, "update-index --force-remove projects/k5.md") == 0);
    expect_index_same(dir, cache_dir);
  }
  SECTION("a ledger renamed") {
    REQUIRE(git_in(dir, "update-index --force-remove projects/k6.md") == 0);
    staged("100644", files["projects/k6.md"], "projects/k6-renamed.md");
    expect_index_same(dir, cache_dir);
  }
  SECTION("a mode change: executable, symlink") {
    staged("100755", files["projects/k7.md"], "projects/k7.md");
    staged("120000", "k1.md", "projects/k8.md");
    expect_index_same(dir, cache_dir);
  }
  SECTION("a directory where a file was, a file in a new directory") {
    REQUIRE(git_in(dir, "update-index --force-remove projects/k9.md") == 0);
    staged("100644", files["projects/k1.md"], "projects/k9.md/inner.md");
    staged("100644", "x\n", "deep/a/b/c.txt");
    expect_index_same(dir, cache_dir);
  }
  SECTION("a skip-worktree entry") {
    REQUIRE(git_in(dir, "update-index --skip-worktree projects/k2.md") == 0);
    staged("100644", files["projects/k2.md"] + "- 2026-09-05 — note — hidden\n", "projects/k2.md");
    REQUIRE(git_in(dir, "update-index --skip-worktree projects/k2.md") == 0);
    expect_index_same(dir, cache_dir);
  }
  SECTION("an intent-to-add entry") {
    lg::test::write_file(dir + "/projects/later.md", "# later\n");
    REQUIRE(git_in(dir, "add -N projects/later.md") == 0);
    expect_index_same(dir, cache_dir);
  }
  SECTION("an index without a tree cache") {
    REQUIRE(git_in(dir, "ls-files -s > '" + dir + "/.entries' && git -C '" + dir + "' read-tree --empty && git -C '" +
                            dir + "' update-index --index-info < '" + dir + "/.entries'") == 0);
    staged("100644", files["projects/k3.md"] + "- 2026-09-03 — note — staged\n", "projects/k3.md");
    expect_index_same(dir, cache_dir);
  }
  SECTION("unmerged entries (stages 1-3): an error either way") {
    const std::string base = lg::test::git_blob(dir, files["projects/k1.md"]);
    const std::string ours = lg::test::git_blob(dir, files["projects/k1.md"] + "- 2026-09-01 — note — ours\n");
    const std::string theirs = lg::test::git_blob(dir, files["projects/k1.md"] + "- 2026-09-01 — note — theirs\n");
    const std::string info = "0 0000000000000000000000000000000000000000\tprojects/k1.md\n100644 " + base +
                             " 1\tprojects/k1.md\n100644 " + ours + " 2\tprojects/k1.md\n100644 " + theirs +
                             " 3\tprojects/k1.md\n";
    lg::test::write_file(dir + "/.info", info);
    REQUIRE(git_in(dir, "update-index --index-info < '" + dir + "/.info'") == 0);
    const IndexCheck plain = check_index(dir, false);
    CHECK(plain.out.rfind("error: ", 0) == 0);
    CHECK(check_index(dir, true).out == plain.out);
  }
}
