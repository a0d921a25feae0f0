// rules::projects_step_yaml_rows with a persistent cache: the rows' inputs
// come from the facts pack (the YamlFacts a check of the same projects.yaml
// blob kept) without reading the blob, and equal those read from it; a pack
// without the blob, or with rows that do not read, costs a read and changes
// nothing; and a pack that lied would be seen by the comparison.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "../../../src/rules/check_store.hpp"
#include "ledgergate/cache/store.hpp"
#include "ledgergate/git/repository.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/rules/check.hpp"
#include "support/fixture_tree.hpp"

namespace fs = std::filesystem;
namespace rules = lg::rules;
namespace git = lg::git;

namespace {

// A source that counts the blobs read through it.
class CountingSource final : public git::TreeSource {
 public:
  explicit CountingSource(git::TreeSource& base) : m_base(base) {}
  const std::string& rev() const override { return m_base.rev(); }
  lg::Result<std::optional<std::vector<git::Entry>>> list(std::string_view dir) override { return m_base.list(dir); }
  lg::Result<std::optional<std::vector<git::Entry>>> list_entry(std::string_view dir, const git::Entry& e) override {
    return m_base.list_entry(dir, e);
  }
  BlobReader thread_reader() const override { return {}; }
  git::Entry root_entry() const override { return m_base.root_entry(); }
  lg::Result<bool> for_each_child(std::string_view dir, const git::Entry& e, const ChildFn& fn) override {
    return m_base.for_each_child(dir, e, fn);
  }
  std::string cache_home() const override { return m_base.cache_home(); }
  lg::Result<void> confirm(std::span<const git::ObjectId> ids) override { return m_base.confirm(ids); }
  lg::Result<std::optional<git::Entry>> stat(std::string_view path) override { return m_base.stat(path); }
  lg::Result<std::string> read(std::string_view path, const git::Entry& e) override {
    ++m_reads;
    return m_base.read(path, e);
  }
  int reads() const { return m_reads; }

 private:
  git::TreeSource& m_base;
  int m_reads = 0;
};

std::vector<std::string> rows_of(const rules::ProjectsTable& table) {
  std::vector<std::string> out;
  out.push_back(table.present ? "present" : "absent");
  for (const rules::ProjectRow& row : table.rows) {
    std::string r = row.key + "@" + std::to_string(row.line);
    for (const char* name : {"status", "partition"}) {
      const auto v = row.get(name);
      r += v ? " " + std::string(name) + "=" + std::string(*v) : " no " + std::string(name);
    }
    r += " " + std::to_string(row.fields.size());
    out.push_back(r);
    if (table.find(row.key) != &row) out.push_back("not found: " + row.key);
  }
  return out;
}

const std::string k_yaml =
    "# rows of several shapes\n"
    "alpha:\n  remote: none\n  partition: gpu\n  status: active\n"
    "beta:\n  status: 'dormant'   # quoted, a comment\n  partition: ral\n"
    "gamma:\n  status: 5\n"
    "delta:\n  note: no inputs\n"
    "epsilon:\n  partition: both\n  partition: ral\n  status: retired\n"
    "7: numbered\n";

class Lab {
 public:
  Lab() : m_path(m_dir.path() + "/repo") {
    const git_oid c = lg::test::commit_tree(m_path, {{"projects.yaml", k_yaml}, {"projects/alpha.md", "# alpha\n"}},
                                            "one");
    auto opened = git::Repository::open(m_path, false);
    REQUIRE(opened.has_value());
    m_repo.emplace(std::move(*opened));
    auto tree = m_repo->commit_tree(lg::test::id_of(c));
    REQUIRE(tree.has_value());
    m_tree = *tree;
  }
  std::string cache_dir() const { return lg::cache::Store::dir_for(m_repo->common_dir()); }
  std::unique_ptr<git::TreeSource> source() {
    auto s = git::open_tree_source(*m_repo, m_tree, "HEAD");
    REQUIRE(s.has_value());
    return std::move(*s);
  }
  // The rows as projects_step_yaml_rows gives them, and whether it read the blob.
  std::pair<std::vector<std::string>, int> rows(bool cached) {
    if (!cached) lg::cache::disable();
    auto base = source();
    CountingSource counting(*base);
    rules::CheckCache cache;
    auto got = rules::projects_step_yaml_rows(counting, cache);
    lg::cache::enable();
    REQUIRE(got.has_value());
    REQUIRE(got->table);
    return {rows_of(*got->table), counting.reads()};
  }
  // The tree's check, with the cache: the pack keeps projects.yaml's facts.
  void check() {
    auto s = source();
    rules::CheckCache cache;
    REQUIRE(rules::check_tree(*s, rules::CheckOptions{}, cache).has_value());
  }
  // A pack holding only `facts` for the tree's projects.yaml (or for `id`).
  void write_pack(std::shared_ptr<const rules::YamlFacts> facts, std::string id = "") {
    fs::remove_all(cache_dir());
    auto s = source();
    if (id.empty()) {
      auto entry = s->stat("projects.yaml");
      REQUIRE(entry.has_value());
      REQUIRE(entry->has_value());
      id = (*entry)->content_id->hex();
    }
    rules::CheckCache cache;
    rules::CheckCache::Persistent* p = rules::open_persistent(*s, cache);
    REQUIRE(p != nullptr);
    rules::load_pack(*p);
    p->pack.keep_yaml(id, std::move(facts));
    rules::flush_pack(*p);
  }

 private:
  lg::test::TempDir m_dir;
  std::string m_path;
  std::optional<git::Repository> m_repo;
  git::ObjectId m_tree;
};

std::shared_ptr<const rules::YamlFacts> facts_of(std::vector<rules::YamlFacts::OwnedRow> rows) {
  return rules::YamlFacts::build({}, rows);
}

}  // namespace

TEST_CASE("projects.yaml rows: from the facts pack, as read", "[rules][projects_yaml][row_inputs]") {
  Lab lab;
  const auto [read, reads] = lab.rows(false);
  CHECK(reads == 1);
  CHECK(read == std::vector<std::string>{"present", "alpha@2 status=active partition=gpu 2",
                                         "beta@6 status=dormant partition=ral 2", "gamma@9 status=5 no partition 1",
                                         "delta@11 no status no partition 0",
                                         "epsilon@13 status=retired partition=ral 2"});
  SECTION("no pack yet: read") {
    fs::remove_all(lab.cache_dir());
    CHECK(lab.rows(true) == std::make_pair(read, 1));
  }
  SECTION("a check of the tree kept the facts: the pack's, nothing read") {
    lab.check();
    CHECK(lab.rows(true) == std::make_pair(read, 0));
  }
  SECTION("facts for another blob only: read") {
    lab.write_pack(facts_of({{"alpha", 2, true, std::string("row\0vactive\0vgpu", 16)}}), std::string(40, 'a'));
    CHECK(lab.rows(true) == std::make_pair(read, 1));
  }
  SECTION("a row whose inputs do not read: read") {
    lab.write_pack(facts_of({{"alpha", 2, true, "garbage"}}));
    CHECK(lab.rows(true) == std::make_pair(read, 1));
    lab.write_pack(facts_of({{"alpha", 2, true, ""}}));
    CHECK(lab.rows(true) == std::make_pair(read, 1));
  }
  SECTION("a pack that lied is taken, and the comparison sees it") {
    // The pack is content-addressed: its facts for a blob are taken as they
    // are. A wrong status, line or row count differs from the read rows.
    lab.check();
    const std::pair<std::vector<std::string>, int> honest = lab.rows(true);
    REQUIRE(honest == std::make_pair(read, 0));
    lab.write_pack(facts_of({{"alpha", 2, true, std::string("row\0vdormant\0vgpu", 17)},
                             {"beta", 6, false, std::string("row\0vdormant\0vral", 17)},
                             {"gamma", 9, false, std::string("row\0\0", 5)},
                             {"delta", 11, false, std::string("row\0\0", 5)},
                             {"epsilon", 13, false, std::string("row\0vretired\0vral", 17)}}));
    const auto lied = lab.rows(true);
    CHECK(lied.second == 0);
    CHECK(lied.first != read);
    lab.write_pack(facts_of({{"alpha", 3, true, std::string("row\0vactive\0vgpu", 16)}}));
    CHECK(lab.rows(true).first != read);
  }
}
