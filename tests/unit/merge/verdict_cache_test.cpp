// The trial merge's whole-report cache (merge/verdict_cache.hpp): a report
// survives its encoding field for field and a damaged payload never
// decodes; with cache_report a rerun on the same pair returns the kept
// report without merging (a report planted under the key is what comes
// back), equal to the merge's own; the key names the pair, the options and
// the configuration the merge reads; nothing is kept with the cache off.
#include <catch2/catch.hpp>
#include <filesystem>

#include "ledgergate/cache/store.hpp"
#include "ledgergate/git/config.hpp"
#include "ledgergate/merge/verdict_cache.hpp"
#include "ledgergate/report/trial_merge.hpp"
#include "support/fixture_tree.hpp"
#include "support/trial_merge.hpp"

using namespace lg;
using lg::test::FileMap;

namespace {

// Every field of a report set (a value no merge gives, for the codec).
merge::TrialMergeReport full_report() {
  merge::TrialMergeReport r;
  r.base = *git::ObjectId::from_hex(std::string(40, 'a'));
  r.head = *git::ObjectId::from_hex(std::string(40, 'b'));
  r.merge_base = *git::ObjectId::from_hex(std::string(40, 'c'));
  r.merge_bases = {r.merge_base, *git::ObjectId::from_hex(std::string(40, 'd'))};
  r.virtual_base = *git::ObjectId::from_hex(std::string(40, 'e'));
  r.merge.tree = *git::ObjectId::from_hex(std::string(40, 'f'));
  r.merge.conflicts = {{"projects/a.md", merge::ConflictKind::content, std::nullopt},
                       {"projects/b.md", merge::ConflictKind::rename_rename, std::string("projects/old:b.md")}};
  r.merge.full_merge = true;
  r.resolved = {{"projects/c.md", "records", "cortex-project", {{"log_added", 2}, {"runs_added", 1}}}};
  r.classification.paths = {{"projects/c.md", policy::PathClass::ledger, "ledger dir projects/"},
                            {"tool.py", policy::PathClass::code, "not a ledger path"}};
  r.classification.policy = "LM-R2";
  r.birth = true;
  r.profile = "cortex-projects@r2";
  diag::Finding f;
  f.rule = "input-not-a-file";
  f.severity = diag::Severity::warning;
  f.location = {"merged", "projects/x.md", 3, 7};
  f.message = "a message\nwith two lines";
  f.cannot_judge = true;
  r.findings = {f};
  r.semantic = {{"run-added-twice", "projects/c.md", "run 4002 is added on both sides"}};
  r.checked = true;
  return r;
}

std::string rendered(const merge::TrialMergeReport& r) {
  const diag::Verdict v = report::trial_merge_verdict(r, r.pass());
  return report::render_trial_merge_text(r, "main", "branch", false) + report::render_trial_merge_json(r, v) +
         report::render_trial_merge_sarif(r, v);
}

// A repository with main and branch (each prepends one log entry).
struct Pair {
  test::TempDir dir;
  git::ObjectId ours, theirs;
  Pair() {
    const FileMap base = test::example_ledger_files();
    const git_oid b = test::commit_tree(dir.path(), base, "base");
    const git_oid o =
        test::commit_tree(dir.path(), test::prepend_log(base, "- 2026-09-03 — note — ours"), "ours", &b, "refs/heads/main");
    const git_oid t = test::commit_tree(dir.path(), test::prepend_log(base, "- 2026-09-02 — note — theirs"), "theirs", &b,
                                        "refs/heads/branch");
    ours = test::id_of(o);
    theirs = test::id_of(t);
  }
  merge::TrialMergeReport run(const merge::TrialMergeOptions& options) const {
    auto repo = git::Repository::open(dir.path(), false);
    REQUIRE(repo);
    auto trial = git::TrialRepo::open(*repo);
    REQUIRE(trial);
    auto r = merge::trial_merge(*repo, *trial, ours, theirs, options);
    REQUIRE(r);
    return std::move(*r);
  }
  merge::VerdictKey key(const merge::TrialMergeOptions& options) const {
    auto repo = git::Repository::open(dir.path(), false);
    REQUIRE(repo);
    auto k = merge::verdict_key(*repo, ours, theirs, options);
    REQUIRE(k);
    REQUIRE(*k);
    return **k;
  }
  std::size_t entries() const {
    const std::filesystem::path kind = dir.path() + "/.git/ledgergate/cache/trial-merge";
    if (!std::filesystem::exists(kind)) return 0;
    return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(kind), {}));
  }
};

}  // namespace

TEST_CASE("trial merge cache: every field survives the encoding", "[merge][verdict_cache]") {
  const merge::TrialMergeReport r = full_report();
  const std::string payload = merge::encode_report(r);
  const auto back = merge::decode_report(payload);
  REQUIRE(back);
  CHECK(merge::encode_report(*back) == payload);
  CHECK(rendered(*back) == rendered(r));
  CHECK(back->merge.conflicts[1].old_path == r.merge.conflicts[1].old_path);
  CHECK(back->resolved[0].records == r.resolved[0].records);
  CHECK(back->virtual_base == r.virtual_base);
  CHECK(back->merge_bases == r.merge_bases);
  CHECK(back->findings[0].cannot_judge);
  CHECK(back->merge.full_merge);
  CHECK(back->birth);
  // A report with nothing optional set comes back the same too.
  merge::TrialMergeReport empty;
  empty.nothing_to_merge = true;
  const auto e = merge::decode_report(merge::encode_report(empty));
  REQUIRE(e);
  CHECK(e->nothing_to_merge);
  CHECK(!e->virtual_base);
  CHECK(rendered(*e) == rendered(empty));
}

TEST_CASE("trial merge cache: a damaged payload never decodes", "[merge][verdict_cache]") {
  const std::string payload = merge::encode_report(full_report());
  for (std::size_t n = 0; n < payload.size(); ++n) {
    INFO("prefix of " << n << " bytes");
    CHECK(!merge::decode_report(payload.substr(0, n)));
  }
  CHECK(!merge::decode_report(payload + "1:x"));  // trailing bytes
  std::string bad_kind = merge::encode_report(full_report());
  const std::string conflict = "13:projects/a.md1:0";  // path, kind content
  const auto at = bad_kind.find(conflict);
  REQUIRE(at != std::string::npos);
  bad_kind.replace(at, conflict.size(), "13:projects/a.md1:9");  // no such conflict kind
  CHECK(!merge::decode_report(bad_kind));
}

TEST_CASE("trial merge cache: a rerun on the same pair is the kept report", "[merge][verdict_cache]") {
  cache::enable();
  const Pair pair;
  merge::TrialMergeOptions cached;
  cached.cache_report = true;
  const merge::TrialMergeReport plain = pair.run({});
  CHECK(pair.entries() == 0);  // without cache_report nothing is kept
  const merge::TrialMergeReport cold = pair.run(cached);
  CHECK(pair.entries() == 1);
  const merge::TrialMergeReport warm = pair.run(cached);
  CHECK(pair.entries() == 1);
  CHECK(plain.pass());
  CHECK(rendered(cold) == rendered(plain));
  CHECK(rendered(warm) == rendered(plain));
  // The kept report is the cold run's, with the blobs it stands on (a run
  // that keeps nothing lists none).
  CHECK(merge::encode_report(warm) == merge::encode_report(cold));
  CHECK(plain.covered.empty());
  CHECK(!warm.covered.empty());

  // The warm run does no merge: a report planted under the key comes back.
  merge::TrialMergeReport planted = plain;
  planted.semantic.push_back({"run-added-twice", test::k_example_ledger, "planted"});
  cache::Store store(cache::Store::dir_for(pair.key(cached).home));
  REQUIRE(store.put("trial-merge", pair.key(cached).key, merge::encode_report(planted)));
  const merge::TrialMergeReport hit = pair.run(cached);
  CHECK(!hit.pass());
  REQUIRE(hit.semantic.size() == 1);
  CHECK(hit.semantic[0].message == "planted");
  // Without cache_report the merge runs as always.
  CHECK(pair.run({}).pass());
  // A report planted for another pair is not taken for this one.
  planted.head = planted.base;
  REQUIRE(store.put("trial-merge", pair.key(cached).key, merge::encode_report(planted)));
  CHECK(pair.run(cached).pass());

  // Off: nothing read, nothing kept.
  std::filesystem::remove_all(pair.dir.path() + "/.git/ledgergate");
  cache::disable();
  CHECK(pair.run(cached).pass());
  CHECK(pair.entries() == 0);
  cache::enable();
}

TEST_CASE("trial merge cache: the key names the pair, the options and the merge's configuration",
          "[merge][verdict_cache]") {
  cache::enable();
  const Pair pair;
  merge::TrialMergeOptions o;
  const std::string k = pair.key(o).key;
  merge::TrialMergeOptions no_check = o;
  no_check.check = false;
  merge::TrialMergeOptions profile = o;
  profile.profile = "cortex-projects@r1";
  merge::TrialMergeOptions git_merge = o;
  git_merge.ledger_merge = policy::LedgerMerge::git;
  merge::TrialMergeOptions records = o;
  records.ledger_merge = policy::LedgerMerge::records;
  const std::vector<std::string> keys = {k, pair.key(no_check).key, pair.key(profile).key, pair.key(git_merge).key,
                                         pair.key(records).key};
  for (std::size_t i = 0; i < keys.size(); ++i) {
    for (std::size_t j = i + 1; j < keys.size(); ++j) CHECK(keys[i] != keys[j]);
  }
  CHECK(pair.key(o).key == k);  // the same inputs, the same key
  CHECK(k.find(pair.ours.hex()) != std::string::npos);
  CHECK(k.find(pair.theirs.hex()) != std::string::npos);
  // The conflict style changes a conflicted merge's blobs: it is in the key.
  auto repo = git::Repository::open(pair.dir.path(), false);
  REQUIRE(repo);
  auto local = git::Config::local(*repo);
  REQUIRE(local);
  REQUIRE(local->set_string("merge.conflictstyle", "diff3"));
  CHECK(pair.key(o).key != k);
  REQUIRE(local->remove("merge.conflictstyle"));
  CHECK(pair.key(o).key == k);
  REQUIRE(local->set_string("merge.renamelimit", "7"));
  CHECK(pair.key(o).key != k);
}
