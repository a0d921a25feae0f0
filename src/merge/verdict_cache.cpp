// The whole trial merge's report in the persistent cache (verdict_cache.hpp).
#include "ledgergate/merge/verdict_cache.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "ledgergate/cache/codec.hpp"
#include "ledgergate/cache/cache.hpp"
#include "ledgergate/git/config.hpp"
#include "ledgergate/git/objects.hpp"
#include "ledgergate/ledger/profile.hpp"
#include "ledgergate/merge/branch_diff.hpp"
#include "ledgergate/rules/projects_yaml.hpp"
#include "ledgergate/rules/check.hpp"
#include "ledgergate/util/hash.hpp"

namespace lg::merge {
namespace {

using namespace std::string_literals;

constexpr cache::Kind k_kind = cache::Kind::trial_merge;
constexpr long long k_max_count = 1LL << 24;

// The configuration values a merge reads: the conflict markers' style
// (tree_merge.cpp) and the rename limits libgit2's rename-aware merge takes
// from the configuration when its options leave them unset.
constexpr std::string_view k_config_keys[] = {"merge.conflictstyle", "merge.renamelimit", "diff.renamelimit"};

void put_id(cache::Encoder& e, const git::ObjectId& id) { e.field(id.hex()); }

git::ObjectId get_id(cache::Decoder& d) {
  const auto id = git::ObjectId::from_hex(d.field_view());
  if (!id) d.fail();
  return id.value_or(git::ObjectId());
}

bool get_bool(cache::Decoder& d) { return d.number(0, 1) == 1; }

void put_optional(cache::Encoder& e, const std::optional<std::string>& s) {
  e.number(s ? 1 : 0);
  if (s) e.field(*s);
}

std::optional<std::string> get_optional(cache::Decoder& d) {
  if (!get_bool(d)) return std::nullopt;
  return d.field();
}

}  // namespace

Result<std::optional<VerdictKey>> verdict_key(const git::Repository& repo, const git::ObjectId& base,
                                              const git::ObjectId& head, const TrialMergeOptions& options) {
  if (!cache::enabled() || repo.is_shallow()) return std::optional<VerdictKey>();
  std::string key = options.check ? "check"s : "merge-only"s;
  key += '\0';
  key += options.profile;
  key += '\0';
  key += !options.ledger_merge ? "policy" : *options.ledger_merge == policy::LedgerMerge::git ? "git" : "records";
  // The gate and the baseline a report is judged with.
  key += '\0';
  key += options.gate ? diag::to_string(*options.gate) : "policy";
  key += '\0';
  key += options.baseline ? fmt::format("{:016x}", util::hash64(options.baseline->render())) : std::string("policy");
  std::string settings;
  LG_TRY(const git::Config config, git::Config::snapshot(repo));
  for (std::string_view name : k_config_keys) {
    LG_TRY(const auto value, config.get_string(std::string(name)));
    settings += name;
    settings += value ? "=" + *value : std::string("-");
    settings += '\0';
  }
  VerdictKey out{repo.common_dir(), base.hex(), head.hex(), std::move(key), std::move(settings), {}};
  out.key = cache::key_of(k_kind, {out.base, out.head, out.options, out.settings});
  return std::optional<VerdictKey>(std::move(out));
}

std::string encode_report(const TrialMergeReport& r) {
  cache::Encoder e;
  put_id(e, r.base);
  put_id(e, r.head);
  put_id(e, r.merge_base);
  e.number(static_cast<long long>(r.merge_bases.size()));
  for (const git::ObjectId& id : r.merge_bases) put_id(e, id);
  e.number(r.virtual_base ? 1 : 0);
  if (r.virtual_base) put_id(e, *r.virtual_base);
  e.number(r.nothing_to_merge ? 1 : 0);
  put_id(e, r.merge.tree);
  e.number(static_cast<long long>(r.merge.conflicts.size()));
  for (const Conflict& c : r.merge.conflicts) {
    e.field(c.path);
    e.number(static_cast<long long>(c.kind));
    put_optional(e, c.old_path);
  }
  e.number(r.merge.full_merge ? 1 : 0);
  e.number(static_cast<long long>(r.resolved.size()));
  for (const ResolvedPath& p : r.resolved) {
    e.field(p.path);
    e.field(p.how);
    e.field(p.format);
    e.number(static_cast<long long>(p.records.size()));
    for (const auto& [what, n] : p.records) {
      e.field(what);
      e.number(n);
    }
  }
  e.number(static_cast<long long>(r.classification.paths.size()));
  for (const policy::Classified& c : r.classification.paths) {
    e.field(c.path);
    e.number(static_cast<long long>(c.cls));
    e.field(c.reason);
  }
  e.field(r.classification.policy);
  e.number(r.birth ? 1 : 0);
  e.field(r.profile);
  e.findings(r.findings);
  e.number(static_cast<long long>(r.semantic.size()));
  for (const SemanticConflict& c : r.semantic) {
    e.field(c.kind);
    e.field(c.path);
    e.field(c.message);
  }
  e.number(r.checked ? 1 : 0);
  for (const diag::Finding& f : r.findings) e.number(static_cast<long long>(f.state));
  e.number(r.attribution.gate == diag::Gate::all ? 1 : 0);
  e.field(r.attribution.reference);
  e.findings(r.attribution.fixed);
  e.findings(r.attribution.suppressed);
  std::string ids;
  ids.reserve(r.covered.size() * git::ObjectId::k_raw_size);
  for (const git::ObjectId& id : r.covered) ids += id.raw();
  e.field(ids);
  return e.take();
}

std::optional<TrialMergeReport> decode_report(std::string_view payload) {
  cache::Decoder d(payload);
  TrialMergeReport r;
  r.base = get_id(d);
  r.head = get_id(d);
  r.merge_base = get_id(d);
  const long long bases = d.number(0, k_max_count);
  for (long long i = 0; d.ok() && i < bases; ++i) r.merge_bases.push_back(get_id(d));
  if (get_bool(d)) r.virtual_base = get_id(d);
  r.nothing_to_merge = get_bool(d);
  r.merge.tree = get_id(d);
  const long long conflicts = d.number(0, k_max_count);
  for (long long i = 0; d.ok() && i < conflicts; ++i) {
    Conflict c;
    c.path = d.field();
    c.kind = static_cast<ConflictKind>(d.number(0, static_cast<long long>(ConflictKind::mode)));
    c.old_path = get_optional(d);
    r.merge.conflicts.push_back(std::move(c));
  }
  r.merge.full_merge = get_bool(d);
  const long long resolved = d.number(0, k_max_count);
  for (long long i = 0; d.ok() && i < resolved; ++i) {
    ResolvedPath p;
    p.path = d.field();
    p.how = d.field();
    p.format = d.field();
    const long long records = d.number(0, k_max_count);
    for (long long j = 0; d.ok() && j < records; ++j) {
      std::string what = d.field();
      const int n = static_cast<int>(d.number(-(1LL << 31), (1LL << 31) - 1));
      p.records.emplace_back(std::move(what), n);
    }
    r.resolved.push_back(std::move(p));
  }
  const long long paths = d.number(0, k_max_count);
  for (long long i = 0; d.ok() && i < paths; ++i) {
    policy::Classified c;
    c.path = d.field();
    c.cls = static_cast<policy::PathClass>(d.number(0, static_cast<long long>(policy::PathClass::code)));
    c.reason = d.field();
    r.classification.paths.push_back(std::move(c));
  }
  r.classification.policy = d.field();
  r.birth = get_bool(d);
  r.profile = d.field();
  r.findings = d.findings();
  const long long semantic = d.number(0, k_max_count);
  for (long long i = 0; d.ok() && i < semantic; ++i) {
    SemanticConflict c;
    c.kind = d.field();
    c.path = d.field();
    c.message = d.field();
    r.semantic.push_back(std::move(c));
  }
  r.checked = get_bool(d);
  for (diag::Finding& f : r.findings) {
    f.state = static_cast<diag::FindingState>(d.number(0, static_cast<long long>(diag::FindingState::pre_existing)));
  }
  r.attribution.gate = get_bool(d) ? diag::Gate::all : diag::Gate::introduced;
  r.attribution.reference = d.field();
  r.attribution.fixed = d.findings();
  r.attribution.suppressed = d.findings();
  const std::string_view ids = d.field_view();
  if (!d.ok() || !d.at_end() || ids.size() % git::ObjectId::k_raw_size != 0) return std::nullopt;
  r.covered.reserve(ids.size() / git::ObjectId::k_raw_size);
  for (std::size_t at = 0; at < ids.size(); at += git::ObjectId::k_raw_size) {
    r.covered.push_back(git::ObjectId::from_bytes(reinterpret_cast<const unsigned char*>(ids.data() + at)));
  }
  return r;
}

Result<std::vector<policy::Change>> cached_tree_changes(const git::Repository& repo, const git::ObjectId& from,
                                                        const git::ObjectId& to, bool use) {
  const std::optional<cache::Cache> store = use ? cache::Cache::open(repo.common_dir()) : std::nullopt;
  if (!store) return tree_changes(repo, from, to);
  const std::string inputs[] = {from.hex(), to.hex()};
  const cache::Cache::Entry got = store->get(cache::Kind::branch_diff, {inputs[0], inputs[1]});
  if (got.payload) {
    cache::Decoder d(*got.payload);
    std::vector<policy::Change> changes;
    const long long n = d.number(0, k_max_count);
    for (long long i = 0; d.ok() && i < n; ++i) {
      policy::Change c;
      c.status = d.field();
      c.path = d.field();
      c.new_kind = static_cast<policy::FileKind>(d.number(0, static_cast<long long>(policy::FileKind::none)));
      changes.push_back(std::move(c));
    }
    if (d.ok() && d.at_end()) {
      const git::ObjectId trees[] = {from, to};
      if (auto r = git::confirm_objects(repo, trees); !r) return r.error().with_context("the cached diff");
      return changes;
    }
    store->note_malformed(cache::Kind::branch_diff, {inputs[0], inputs[1]});
  }
  LG_TRY(std::vector<policy::Change> changes, tree_changes(repo, from, to));
  cache::Encoder e;
  e.number(static_cast<long long>(changes.size()));
  for (const policy::Change& c : changes) {
    e.field(c.status);
    e.field(c.path);
    e.number(static_cast<long long>(c.new_kind));
  }
  store->put(cache::Kind::branch_diff, {inputs[0], inputs[1]}, e.text());
  return changes;
}

Result<RetiredRows> retired_rows(git::TreeSource& side, rules::CheckCache& cache, const std::string& home) {
  const auto compute = [&]() -> Result<RetiredRows> {
    LG_TRY(auto table, rules::projects_table(side, cache));
    RetiredRows out;
    out.table = table != nullptr;
    if (!table) return out;
    out.rows.reserve(table->rows.size());
    for (const rules::ProjectRow& row : table->rows) {
      const rules::ProjectRow* first = table->find(row.key);
      const auto status = first ? first->get("status") : std::nullopt;
      out.rows.emplace_back(row.key, status && *status == "retired");
    }
    return out;
  };
  LG_TRY(const auto entry, side.stat(ledger::k_projects_yaml));
  const std::optional<cache::Cache> store = cache::Cache::open(home);
  if (!store || !entry || !entry->content_id) return compute();
  const std::string blob = entry->content_id->hex();
  const std::string_view kind = git::to_string(entry->kind);
  const cache::Cache::Entry got = store->get(cache::Kind::retired_rows, {kind, blob});
  if (got.payload) {
    cache::Decoder d(*got.payload);
    RetiredRows out;
    out.table = get_bool(d);
    const long long n = d.number(0, k_max_count);
    for (long long i = 0; d.ok() && i < n; ++i) {
      std::string k = d.field();
      const bool retired = get_bool(d);
      out.rows.emplace_back(std::move(k), retired);
    }
    if (d.ok() && d.at_end()) {
      const git::ObjectId ids[] = {*entry->content_id};
      if (auto r = side.confirm(ids); !r) return r.error().with_context("the cached rows of " + side.rev());
      return out;
    }
    store->note_malformed(cache::Kind::retired_rows, {kind, blob});
  }
  LG_TRY(RetiredRows out, compute());
  cache::Encoder e;
  e.number(out.table ? 1 : 0);
  e.number(static_cast<long long>(out.rows.size()));
  for (const auto& [k, retired] : out.rows) {
    e.field(k);
    e.number(retired ? 1 : 0);
  }
  store->put(cache::Kind::retired_rows, {kind, blob}, e.text());
  return out;
}

std::optional<TrialMergeReport> load_report(const VerdictKey& key) {
  const std::optional<cache::Cache> store = cache::Cache::open(key.home);
  if (!store) return std::nullopt;
  const cache::Cache::Entry got = store->get(k_kind, {key.base, key.head, key.options, key.settings});
  if (!got.payload) return std::nullopt;
  auto report = decode_report(*got.payload);
  if (!report) store->note_malformed(k_kind, {key.base, key.head, key.options, key.settings});
  return report;
}

void keep_report(const VerdictKey& key, const TrialMergeReport& report) {
  const bool unreadable = std::any_of(report.findings.begin(), report.findings.end(),
                                      [](const diag::Finding& f) { return f.rule == "input-unreadable"; });
  if (unreadable) return;
  if (const auto store = cache::Cache::open(key.home)) {
    store->put(k_kind, {key.base, key.head, key.options, key.settings}, encode_report(report));
  }
}

}  // namespace lg::merge
