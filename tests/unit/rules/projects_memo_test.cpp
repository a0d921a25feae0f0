#include <catch2/catch.hpp>

#include "../../../src/rules/projects_memo.hpp"
#include "ledgergate/cache/codec.hpp"
#include "ledgergate/rules/registry.hpp"

using lg::git::EntryKind;
using lg::rules::MemoReader;
using lg::rules::MemoRecord;
using lg::rules::MemoWriter;

namespace {

lg::diag::Finding finding(const std::string& path, int line) {
  return lg::rules::make_finding("ledger-log-newest-first", path, line, "log is not newest-first",
                                 lg::diag::PeerForm::path_message);
}

const std::string k_id_a(20, 'a');
const std::string k_id_b(20, '\x01');

// A memo of two records (the second with a finding) and an active-row finding.
std::string sample_memo() {
  MemoWriter w("yamlid", {finding("projects.yaml", 2)});
  w.add("a.md", EntryKind::file, k_id_a, std::string("row\0vactive\0", 12), {});
  const std::vector<lg::diag::Finding> b = {finding("projects/b.md", 7)};
  w.add("b.md", EntryKind::symlink, k_id_b, "", b);
  return w.finish({finding("projects.yaml", 9)});
}

}  // namespace

TEST_CASE("projects memo: what the writer writes, the reader reads back in order", "[rules][projects_memo]") {
  const std::string payload = sample_memo();
  MemoReader r(payload);
  REQUIRE(r.ok());
  CHECK(r.yaml_id() == "yamlid");
  REQUIRE(r.yaml_findings().size() == 1);
  CHECK(r.yaml_findings()[0].location.line == 2);
  MemoRecord rec;
  REQUIRE(r.next(rec));
  CHECK(rec.name == "a.md");
  CHECK(rec.kind == EntryKind::file);
  CHECK(rec.id == k_id_a);
  CHECK(rec.inputs == std::string_view("row\0vactive\0", 12));
  CHECK(rec.findings.empty());
  CHECK(rec.encoded == MemoWriter::record("a.md", EntryKind::file, k_id_a, std::string("row\0vactive\0", 12), {}));
  REQUIRE(r.next(rec));
  CHECK(rec.name == "b.md");
  CHECK(rec.kind == EntryKind::symlink);
  CHECK(rec.findings.empty());  // decoded when used
  REQUIRE(rec.decode_findings());
  REQUIRE(rec.findings.size() == 1);
  CHECK(rec.findings[0].location.path == "projects/b.md");
  CHECK_FALSE(r.next(rec));
  const auto active = r.active();
  CHECK(r.ok());
  REQUIRE(active.size() == 1);
  CHECK(active[0].location.line == 9);

  // A record matches an entry by name, kind and blob.
  lg::git::EntryView entry{"b.md", lg::git::ObjectId::from_bytes(reinterpret_cast<const unsigned char*>(k_id_b.data())),
                           EntryKind::symlink, true};
  CHECK(rec.matches(entry));
  entry.kind = EntryKind::file;
  CHECK_FALSE(rec.matches(entry));
  entry.kind = EntryKind::symlink;
  entry.has_id = false;
  CHECK_FALSE(rec.matches(entry));
  entry.has_id = true;
  entry.name = "c.md";
  CHECK_FALSE(rec.matches(entry));

  // active() skips the records left unread.
  MemoReader skipping(payload);
  CHECK(skipping.active().size() == 1);
  CHECK(skipping.ok());
}

TEST_CASE("projects memo: a payload that is not exactly a memo is never read as one", "[rules][projects_memo]") {
  const std::string payload = sample_memo();
  const auto readable = [](const std::string& bytes) {
    MemoReader r(bytes);
    MemoRecord rec;
    while (r.next(rec)) {
    }
    r.active();
    return r.ok();
  };
  CHECK(readable(payload));
  for (std::size_t cut = 0; cut < payload.size(); ++cut) {
    INFO(cut);
    CHECK_FALSE(readable(payload.substr(0, cut)));
  }
  CHECK_FALSE(readable(payload + "x"));  // bytes after the end

  // A kind out of range; a record tag that is neither 'r' nor 'e'.
  MemoWriter w("y", {});
  w.add("a.md", EntryKind::file, k_id_a, "", {});
  const std::string good = w.finish({});
  CHECK(readable(good));
  std::string bad_kind = good;
  const std::size_t kind_at = bad_kind.find("a.md") + 4;
  REQUIRE(bad_kind[kind_at] == static_cast<char>(EntryKind::file));
  bad_kind[kind_at] = 5;
  CHECK_FALSE(readable(bad_kind));
  std::string bad_tag = good;
  bad_tag[bad_tag.find("a.md") - 5] = 'x';
  CHECK_FALSE(readable(bad_tag));
  MemoWriter short_id("y", {});
  short_id.add("a.md", EntryKind::file, "abc", "", {});
  CHECK_FALSE(readable(short_id.finish({})));
  MemoWriter no_id("y", {});
  no_id.add("a.md", EntryKind::directory, "", "", {});
  CHECK(readable(no_id.finish({})));

  // One record alone.
  const std::vector<lg::diag::Finding> its = {finding("projects/a.md", 1)};
  const std::string one = MemoWriter::record("a.md", EntryKind::executable, k_id_a, "", its);
  MemoRecord rec;
  REQUIRE(MemoReader::read_record(one, rec));
  CHECK(rec.kind == EntryKind::executable);
  CHECK(rec.encoded == one);
  CHECK_FALSE(MemoReader::read_record(one + "x", rec));
  CHECK_FALSE(MemoReader::read_record(one.substr(0, one.size() - 1), rec));
  CHECK_FALSE(MemoReader::read_record("e", rec));
  // Findings that do not decode: the record is read, its findings are refused.
  std::string bad_findings = one;
  bad_findings.replace(bad_findings.find("ledger-log-newest-first"), 6, "xxxxxx");  // a rule no build has
  CHECK_FALSE(MemoReader::read_record(bad_findings, rec));
  MemoRecord lazy;
  REQUIRE(MemoReader(payload).next(lazy));
  CHECK(lazy.findings.empty());
}

TEST_CASE("projects memo: a payload over several blocks is the records back to back, read back whole",
          "[rules][projects_memo]") {
  // Records of 40 KB inputs: some 2.5 blocks, with records that end a block
  // past its size and the last block part full.
  const std::size_t count = 2 * MemoWriter::k_block / 40'000 + 30;
  MemoWriter w("yamlid", {});
  std::string expected;
  {
    MemoWriter head("yamlid", {});
    expected = head.finish({});
    expected.resize(expected.size() - 4);  // the head alone: 'e' and the empty active findings "1:0" off
  }
  const std::vector<lg::diag::Finding> one = {finding("projects/x.md", 3)};
  for (std::size_t i = 0; i < count; ++i) {
    const std::string name = "p" + std::to_string(i) + ".md";
    const std::string inputs(40'000, static_cast<char>('a' + i % 26));
    const std::span<const lg::diag::Finding> its = i % 7 == 0 ? std::span(one) : std::span<const lg::diag::Finding>();
    if (i % 3 == 0) {
      w.add(name, EntryKind::file, k_id_a, inputs, its);
    } else {
      w.add_encoded(MemoWriter::record(name, EntryKind::file, k_id_a, inputs, its));
    }
    expected += MemoWriter::record(name, EntryKind::file, k_id_a, inputs, its);
  }
  const std::string payload = w.finish({finding("projects.yaml", 9)});
  REQUIRE(payload.size() > 2 * MemoWriter::k_block);
  REQUIRE(payload.substr(0, expected.size()) == expected);

  MemoReader r(payload);
  REQUIRE(r.ok());
  MemoRecord rec;
  std::size_t read = 0;
  while (r.next(rec)) {
    CHECK(rec.name == "p" + std::to_string(read) + ".md");
    CHECK(rec.inputs.size() == 40'000);
    CHECK(rec.inputs.front() == static_cast<char>('a' + read % 26));
    REQUIRE(rec.decode_findings());
    CHECK(rec.findings.size() == (read % 7 == 0 ? 1u : 0u));
    ++read;
  }
  CHECK(read == count);
  const auto active = r.active();
  CHECK(r.ok());
  REQUIRE(active.size() == 1);
  CHECK(active[0].location.line == 9);
}
