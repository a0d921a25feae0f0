#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <utility>

#include "../../../src/rules/facts_pack.hpp"
#include "ledgergate/cache/codec.hpp"
#include "ledgergate/rules/registry.hpp"
#include "ledgergate/util/file_bytes.hpp"
#include "support/fixture_tree.hpp"

using lg::rules::FactsPack;
using lg::rules::YamlFacts;

namespace {

lg::diag::Finding one_finding() {
  return lg::rules::make_finding("ledger-file-name", "projects/Bad.md", 3, "bad name", lg::diag::PeerForm::path_message);
}

// A pack holding two ledgers (one with a finding), a projects.yaml and a glob walk.
std::string sample_pack() {
  FactsPack pack;
  pack.keep("Lb", {one_finding()});
  pack.keep("La", {});
  pack.keep_yaml("y1", YamlFacts::build({}, {{"k2", 4, true, std::string("row\0=active\0", 12)}, {"k1", 2, false, std::string("row\0\0", 5)},
                                            {"k2", 9, false, "later"}}));
  pack.keep_glob("Gt", std::make_shared<const std::vector<std::string>>(std::vector<std::string>{"a/x.yml"}));
  return pack.encode_whole();
}

// A payload whose keys are out of order, which the writer never writes
// (keys are written sorted, each once).
std::string keys_out_of_order() {
  lg::cache::Encoder e;
  e.number(2);
  e.field("Lb");
  e.findings({});
  e.field("La");
  e.findings({});
  e.number(0);
  e.number(0);
  return e.take();
}

}  // namespace

TEST_CASE("facts pack: what is kept reads back after an encode and a load", "[rules][facts_pack]") {
  FactsPack pack;
  REQUIRE(pack.load(sample_pack()));
  CHECK_FALSE(pack.dirty());
  const auto* a = pack.find("La");
  REQUIRE(a != nullptr);
  CHECK(a->empty());
  const auto* b = pack.find("Lb");
  REQUIRE(b != nullptr);
  REQUIRE(b->size() == 1);
  CHECK((*b)[0].location.path == "projects/Bad.md");
  CHECK((*b)[0].location.line == 3);
  CHECK(pack.find("Lc") == nullptr);
  CHECK(pack.find("L") == nullptr);
  const auto y = pack.find_yaml("y1");
  REQUIRE(y != nullptr);
  REQUIRE(y->rows.size() == 3);
  CHECK(y->key(y->rows[0]) == "k2");
  CHECK(y->rows[0].active);
  CHECK(y->inputs_of("k2") == std::string_view("row\0=active\0", 12));  // the first row of a key wins
  CHECK(y->inputs_of("k1") == std::string_view("row\0\0", 5));
  CHECK(y->inputs_of("k3").empty());
  CHECK(pack.find_yaml("y2") == nullptr);
  const auto g = pack.find_glob("Gt");
  REQUIRE(g != nullptr);
  CHECK(*g == std::vector<std::string>{"a/x.yml"});
  // Re-encoded unchanged, the payload is byte-identical.
  CHECK(pack.encode_whole() == sample_pack());
}

TEST_CASE("facts pack: an added entry merges into key order and wins over a loaded one", "[rules][facts_pack]") {
  FactsPack pack;
  REQUIRE(pack.load(sample_pack()));
  pack.keep("L0", {});
  pack.keep("Lb", {});
  CHECK(pack.dirty());
  FactsPack again;
  REQUIRE(again.load(pack.encode_whole()));
  REQUIRE(again.find("L0") != nullptr);
  REQUIRE(again.find("Lb") != nullptr);
  CHECK(again.find("Lb")->empty());
  REQUIRE(again.find("La") != nullptr);
  // The loaded projects.yaml facts, written back as they were loaded, read the same.
  const auto y = again.find_yaml("y1");
  REQUIRE(y != nullptr);
  REQUIRE(y->rows.size() == 3);
  CHECK(y->rows[2].line == 9);
  CHECK(y->inputs_of("k1") == std::string_view("row\0\0", 5));
  CHECK(again.find_glob("Gt") != nullptr);
}

TEST_CASE("facts pack: a payload that does not decode exactly is refused whole", "[rules][facts_pack]") {
  const std::string good = sample_pack();
  FactsPack pack;
  CHECK_FALSE(pack.load(good.substr(0, good.size() - 1)));
  CHECK(pack.find("La") == nullptr);
  CHECK_FALSE(pack.load(good + "1:0"));
  CHECK_FALSE(pack.load(keys_out_of_order()));
  // A rule this build does not know.
  std::string unknown = good;
  const std::size_t at = unknown.find("ledger-file-name");
  REQUIRE(at != std::string::npos);
  unknown.replace(at, 16, "ledger-file-nane");
  CHECK_FALSE(pack.load(unknown));
  CHECK(pack.load(good));
}

TEST_CASE("facts pack: unused entries are dropped once the pack outgrows twice the used ones", "[rules][facts_pack]") {
  FactsPack big;
  for (int i = 0; i < 1100; ++i) big.keep("L" + std::to_string(10000 + i), {});
  FactsPack pack;
  REQUIRE(pack.load(big.encode_whole()));
  pack.find("L10007");
  pack.keep("Lnew", {});
  FactsPack trimmed;
  REQUIRE(trimmed.load(pack.encode_whole()));
  CHECK(trimmed.find("L10007") != nullptr);
  CHECK(trimmed.find("Lnew") != nullptr);
  CHECK(trimmed.find("L10008") == nullptr);
  // Within the bound, nothing is dropped.
  FactsPack small;
  REQUIRE(small.load(sample_pack()));
  small.keep("Lz", {});
  FactsPack kept;
  REQUIRE(kept.load(small.encode_whole()));
  CHECK(kept.find("La") != nullptr);
  // A check whose ledgers the projects memo answered used none of them:
  // held, the next whole write keeps every entry (once).
  FactsPack held;
  REQUIRE(held.load(big.encode_whole()));
  held.keep("Lnew", {});
  held.hold_unused();
  const std::string whole = held.encode_whole();
  FactsPack all;
  REQUIRE(all.load(whole));
  CHECK(all.find("L10008") != nullptr);
  CHECK(all.find("L11099") != nullptr);
  CHECK(all.find("Lnew") != nullptr);
  FactsPack again;
  REQUIRE(again.load(held.encode_whole()));  // the hold was for one write
  CHECK(again.find("L10008") == nullptr);
}

TEST_CASE("facts pack: a few added entries go to the journal, read back on top of the pack", "[rules][facts_pack]") {
  const std::string base = sample_pack();
  FactsPack pack;
  REQUIRE(pack.load(base));
  pack.keep("L0", {one_finding()});
  const FactsPack::Encoded out = pack.encode();
  CHECK_FALSE(pack.dirty());
  REQUIRE_FALSE(out.whole);
  CHECK(out.journal.find("La") == std::string::npos);  // only what the pack lacks
  FactsPack again;
  REQUIRE(again.load(base));
  REQUIRE(again.load_journal(out.journal));
  REQUIRE(again.find("L0") != nullptr);
  CHECK(again.find("L0")->size() == 1);
  CHECK(again.find("La") != nullptr);
  CHECK(again.find_yaml("y1") != nullptr);
  // Another entry: the next journal holds the first one's entries too.
  again.keep("L1", {});
  const FactsPack::Encoded next = again.encode();
  REQUIRE_FALSE(next.whole);
  FactsPack third;
  REQUIRE(third.load(base));
  REQUIRE(third.load_journal(next.journal));
  CHECK(third.find("L0") != nullptr);
  CHECK(third.find("L1") != nullptr);
  // A journal read without its pack stands on its own keys.
  FactsPack alone;
  REQUIRE(alone.load_journal(next.journal));
  CHECK(alone.find("L0") != nullptr);
  CHECK(alone.find("La") == nullptr);
}

TEST_CASE("facts pack: a journal outgrowing its bound is folded into the whole pack", "[rules][facts_pack]") {
  FactsPack pack;
  REQUIRE(pack.load(sample_pack()));
  pack.keep_yaml("y2", YamlFacts::build({}, {{"k1", 2, false, std::string(70 * 1024, 'x')}}));
  const FactsPack::Encoded out = pack.encode();
  REQUIRE(out.whole);
  // Written whole, in pieces (as the store streams it) and twice alike.
  std::string pieces, twice;
  for (std::string* into : {&pieces, &twice}) {
    lg::cache::Encoder streamed([into](std::string_view piece) { *into += piece; });
    pack.write_whole(streamed);
    streamed.flush();
    CHECK(streamed.text().empty());
  }
  CHECK(pieces.size() > 70 * 1024);
  CHECK(pieces == twice);
  FactsPack again;
  REQUIRE(again.load(pieces));
  CHECK(again.find_yaml("y2") != nullptr);
  CHECK(again.find_yaml("y1") != nullptr);
  CHECK(again.find("Lb") != nullptr);
  // Folded, nothing is fresh: an unchanged pack's journal is empty.
  again.set_dirty();
  const FactsPack::Encoded empty = again.encode();
  CHECK_FALSE(empty.whole);
  CHECK(empty.journal == "1:01:01:0");
}

TEST_CASE("facts pack: a journal that does not decode exactly is refused, the pack kept", "[rules][facts_pack]") {
  FactsPack pack;
  REQUIRE(pack.load(sample_pack()));
  pack.keep("L0", {});
  const std::string journal = pack.encode().journal;
  FactsPack again;
  REQUIRE(again.load(sample_pack()));
  CHECK_FALSE(again.load_journal(journal.substr(0, journal.size() - 1)));
  CHECK_FALSE(again.load_journal(journal + "x"));
  CHECK(again.find("L0") == nullptr);
  CHECK(again.find("La") != nullptr);
  CHECK_FALSE(again.load_journal(keys_out_of_order()));
  CHECK(again.load_journal(journal));
  CHECK(again.find("L0") != nullptr);
}

TEST_CASE("facts pack: lookups in any order find exactly the loaded keys", "[rules][facts_pack]") {
  FactsPack big;
  std::vector<std::string> keys;
  for (int i = 0; i < 600; ++i) keys.push_back("L" + std::to_string(100000 + 3 * i));
  for (const std::string& k : keys) big.keep(k, {});
  FactsPack pack;
  REQUIRE(pack.load(big.encode_whole()));
  const auto present = [&pack](const std::string& k) { return pack.find(k) != nullptr; };
  for (const std::string& k : keys) CHECK(present(k));  // in order: the cursor's steps
  for (auto it = keys.rbegin(); it != keys.rend(); ++it) CHECK(present(*it));  // backwards
  for (int i = 0; i < 600; ++i) {  // scattered, with misses between keys and past both ends
    const int j = (i * 257) % 600;
    CHECK(present(keys[static_cast<std::size_t>(j)]));
    CHECK_FALSE(present("L" + std::to_string(100000 + 3 * j + 1)));
  }
  CHECK_FALSE(present("L0"));
  CHECK_FALSE(present("L999999"));
  CHECK(present(keys.front()));
  CHECK(present(keys.back()));
}

// Glob entries are found by their keys' first eight bytes first: keys that
// share them (or are shorter, or hold a NUL) are told apart by the rest.
TEST_CASE("facts pack: glob keys sharing their first eight bytes are found apart", "[rules][facts_pack]") {
  const std::vector<std::string> keys = {"G", "G1", "G1234567", std::string("G1234567\0a", 10), "G12345670",
                                         "G1234567a", "G1234567ab", "G1234567b", "G1234568", "Gt",
                                         std::string("Gt\0x", 4), "H"};
  FactsPack p;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    p.keep_glob(keys[i], std::make_shared<const std::vector<std::string>>(std::vector<std::string>{std::to_string(i)}));
  }
  FactsPack pack;
  REQUIRE(pack.load(p.encode_whole()));
  for (std::size_t i = 0; i < keys.size(); ++i) {
    INFO(i);
    const auto g = pack.find_glob(keys[i]);
    REQUIRE(g != nullptr);
    CHECK(*g == std::vector<std::string>{std::to_string(i)});
  }
  for (const std::string absent : {"G1234567\x01", "G1234567aa", "G12345", "Gt\x01", "F", "G1234567c", ""}) {
    CHECK(pack.find_glob(absent) == nullptr);
  }
}

TEST_CASE("facts pack: glob walks are decoded on first use and written back as loaded", "[rules][facts_pack]") {
  const auto globs = [](int n) {
    FactsPack p;
    for (int i = 0; i < n; ++i) {
      p.keep_glob("G" + std::to_string(10000 + i),
                  std::make_shared<const std::vector<std::string>>(std::vector<std::string>{"m" + std::to_string(i)}));
    }
    return p.encode_whole();
  };
  const std::string payload = globs(50);
  FactsPack pack;
  REQUIRE(pack.load(payload));
  const auto g = pack.find_glob("G10007");
  REQUIRE(g != nullptr);
  CHECK(*g == std::vector<std::string>{"m7"});
  CHECK(pack.find_glob("G10007") == g);  // decoded once
  CHECK(pack.find_glob("G9") == nullptr);
  CHECK(pack.encode_whole() == payload);  // within the bound: all of them, in order, byte for byte
  pack.keep_glob("G10007x", std::make_shared<const std::vector<std::string>>(std::vector<std::string>{}));
  FactsPack merged;
  REQUIRE(merged.load(pack.encode_whole()));  // a kept one between the loaded ones
  CHECK(merged.find_glob("G10007x") != nullptr);
  CHECK(merged.find_glob("G10049") != nullptr);

  // Past the bound (1,100 entries, 2 used) the unused ones are dropped.
  FactsPack many;
  REQUIRE(many.load(globs(1100)));
  REQUIRE(many.find_glob("G10007") != nullptr);
  many.keep("Lnew", {});
  FactsPack again;
  REQUIRE(again.load(many.encode_whole()));
  REQUIRE(again.find_glob("G10007") != nullptr);
  CHECK(*again.find_glob("G10007") == std::vector<std::string>{"m7"});
  CHECK(again.find_glob("G10008") == nullptr);
  CHECK(again.find("Lnew") != nullptr);

  // A malformed match list in a loaded glob entry refuses the whole pack.
  std::string broken = payload;
  const std::size_t at = broken.find("2:m7");
  REQUIRE(at != std::string::npos);
  broken.replace(at, 4, "9:m7");
  FactsPack refused;
  CHECK_FALSE(refused.load(broken));
}

// Loaded from its file, a pack gives its pages back as the load passes
// them; what it then finds is what it finds loaded from a string.
TEST_CASE("facts pack: a pack loaded from its file finds what it finds loaded from a string", "[rules][facts_pack]") {
  FactsPack big;
  std::vector<std::string> keys;
  for (int i = 0; i < 20000; ++i) keys.push_back("Lprojects/p" + std::to_string(100000 + i) + ".md" + std::string(40, 'a'));
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (i % 97 == 0) {
      big.keep(keys[i], {one_finding()});
    } else {
      big.keep(keys[i], {});
    }
  }
  std::vector<YamlFacts::OwnedRow> rows;
  for (int i = 0; i < 5000; ++i) rows.push_back({"k" + std::to_string(i), i + 2, i % 2 == 0, "row" + std::to_string(i)});
  big.keep_yaml("y1", YamlFacts::build({}, rows));
  big.keep_glob("Gt", std::make_shared<const std::vector<std::string>>(std::vector<std::string>{"a/x.yml"}));
  const std::string payload = big.encode_whole();
  REQUIRE(payload.size() > 4 * lg::util::PagesBehind::k_step);
  lg::test::TempDir dir;
  // `bytes` written to the file `name`, read back mapped.
  const auto mapped = [&dir](const std::string& name, std::string_view bytes) {
    lg::test::write_file(dir.path() + "/" + name, std::string(bytes));
    int error = 0;
    auto file = lg::util::FileBytes::read(dir.path() + "/" + name, error);
    REQUIRE(file);
    REQUIRE(file->mapped());
    return file;
  };
  const std::string path = dir.path() + "/pack";
  auto file = mapped("pack", payload);
  const std::string_view text = file->bytes();
  FactsPack from_file;
  REQUIRE(from_file.load(std::move(file), text));
  CHECK(lg::test::resident_kb(path) < static_cast<long>(payload.size() / 1024));
  FactsPack from_string;
  REQUIRE(from_string.load(payload));
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const auto* a = from_file.find(keys[i]);
    const auto* b = from_string.find(keys[i]);
    REQUIRE(a != nullptr);
    REQUIRE(b != nullptr);
    REQUIRE(a->size() == b->size());
    REQUIRE(a->size() == (i % 97 == 0 ? 1u : 0u));
  }
  const auto y = from_file.find_yaml("y1");
  REQUIRE(y != nullptr);
  CHECK(y->rows.size() == 5000);
  CHECK(y->inputs_of("k4321") == "row4321");
  REQUIRE(from_file.find_glob("Gt") != nullptr);
  CHECK(*from_file.find_glob("Gt") == std::vector<std::string>{"a/x.yml"});
  CHECK(from_file.encode_whole() == payload);
  // A payload that does not decode (cut short) is refused, the pack left
  // empty, the file let go only after its pages were: no read of it after.
  auto cut = mapped("cut", std::string_view(payload).substr(0, payload.size() - 100));
  const std::string_view cut_text = cut->bytes();
  FactsPack refused;
  CHECK_FALSE(refused.load(std::move(cut), cut_text));
  CHECK(refused.find(keys.front()) == nullptr);
  CHECK(lg::test::resident_kb(dir.path() + "/cut") == 0);  // unmapped
}

// Entries kept in any order, some kept twice, over a loaded pack holding
// some of the same keys: the whole pack and the journal are written in key
// order (a load refuses any other), and every key reads back, against a
// std::map model. A key names its value's whole input, so a key kept again
// holds the same value (here: as many findings as its number modulo 3). A
// pointer find() returned stays valid while more entries are kept.
TEST_CASE("facts pack: entries kept in any order read back, against a model", "[rules][facts_pack]") {
  std::mt19937 rng(5);
  const auto findings_of = [](unsigned number) {
    return std::vector<lg::diag::Finding>(number % 3, one_finding());
  };
  const auto ledger = [&](const char* stem, unsigned number) {
    return std::string("Lprojects/") + stem + std::to_string(number) + ".md";
  };
  FactsPack base;
  std::map<std::string, std::size_t> model;  // key -> number of findings
  for (int i = 0; i < 300; ++i) {
    const unsigned number = rng() % 1000;
    base.keep(ledger("p", number), findings_of(number));
    model[ledger("p", number)] = number % 3;
  }
  const std::map<std::string, std::size_t> base_model = model;
  FactsPack pack;
  REQUIRE(pack.load(base.encode_whole()));
  std::map<std::string, std::size_t> globs;  // key -> number of matches
  const std::vector<lg::diag::Finding>* early = nullptr;
  std::string early_key;
  for (int i = 0; i < 3000; ++i) {
    const unsigned number = rng() % 2000;
    pack.keep(ledger("p", number), findings_of(number));
    model[ledger("p", number)] = number % 3;
    if (i == 10) {
      early_key = ledger("p", number);
      early = pack.find(early_key);
    }
    const unsigned tree = rng() % 500;
    std::string glob_key = "G" + std::to_string(tree);
    glob_key += std::string(1, '\0') + "**/x.yml";
    pack.keep_glob(glob_key, std::make_shared<const std::vector<std::string>>(tree % 2, "a/x.yml"));
    globs[glob_key] = tree % 2;
  }
  REQUIRE(early != nullptr);
  CHECK(early == pack.find(early_key));
  CHECK(early->size() == model[early_key]);
  FactsPack whole;
  REQUIRE(whole.load(pack.encode_whole()));
  for (const auto& [key, n] : model) {
    const auto* got = whole.find(key);
    REQUIRE(got != nullptr);
    REQUIRE(got->size() == n);
  }
  for (const auto& [key, m] : globs) {
    const auto got = whole.find_glob(key);
    REQUIRE(got != nullptr);
    REQUIRE(got->size() == m);
  }
  // A few entries kept in any order (some twice) on top of the loaded pack
  // go to the journal, also written in key order.
  FactsPack over;
  REQUIRE(over.load(base.encode_whole()));
  std::map<std::string, std::size_t> kept;
  for (int i = 0; i < 60; ++i) {
    const unsigned number = rng() % 40;
    over.keep(ledger("q", number), findings_of(number));
    kept[ledger("q", number)] = number % 3;
  }
  const FactsPack::Encoded out = over.encode();
  REQUIRE_FALSE(out.whole);
  FactsPack journal_read;
  REQUIRE(journal_read.load(base.encode_whole()));
  REQUIRE(journal_read.load_journal(out.journal));
  for (const std::map<std::string, std::size_t>* m : {&std::as_const(kept), &base_model}) {
    for (const auto& [key, n] : *m) {
      const auto* got = journal_read.find(key);
      REQUIRE(got != nullptr);
      REQUIRE(got->size() == n);
    }
  }
}
