// The kinds of entry and their keys (cache.hpp).
#include "ledgergate/cache/cache.hpp"

#include <fmt/format.h>

#include "ledgergate/cache/codec.hpp"
#include "ledgergate/util/assert.hpp"
#include "ledgergate/util/hash.hpp"
#include "ledgergate/util/version.hpp"

namespace lg::cache {

const KindSpec& spec(Kind kind) {
  static const KindSpec specs[] = {
      {"verdict", "verdict 4", 2, "the tree id; the check's options"},
      {"facts", "pack 5", 0, "none: one per cache; each record inside is keyed by its own inputs"},
      {"facts", "pack 5 journal", 0, "none: the pack's journal"},
      {"projects", "projects memo 4", 0, "none: one per cache; it names the projects.yaml blob it was built against"},
      {"projects", "projects memo 4 journal", 0, "none: the memo's journal"},
      {"trial-merge", "report 5", 4, "the base and head commits; the options; the merge settings"},
      {"branch-diff", "diff 3", 2, "the two tree ids"},
      {"retired-rows", "rows 2", 2, "projects.yaml's entry kind; its blob id"},
      {"audit", "audit 3", 2, "the commit id; the walk (first parent or all parents)"},
      {"worktree", "scan 1", 2, "the working tree; its index file"},
  };
  const auto at = static_cast<std::size_t>(kind);
  LEDGERGATE_ASSERT(at < std::size(specs));
  return specs[at];
}

std::string rules_fingerprint(std::span<const diag::RuleInfo> rules) {
  util::Fnv1a h;
  for (const diag::RuleInfo& r : rules) {
    h.add(r.id);
    h.add_byte(0);
    h.add_byte(static_cast<unsigned char>(r.severity));
    h.add(r.profile);
    h.add_byte(0);
  }
  return fmt::format("{:016x}", h.value());
}

const Stamp& Stamp::current() {
  static const Stamp stamp{std::string(util::k_version), rules_fingerprint(diag::all_rules())};
  return stamp;
}

std::string key_of(Kind kind, std::initializer_list<std::string_view> inputs, const Stamp& stamp) {
  const KindSpec& s = spec(kind);
  LEDGERGATE_ASSERT(inputs.size() == s.inputs && "a key takes its kind's inputs");
  Encoder e;
  e.field(stamp.version);
  e.field(stamp.rules);
  e.field(s.layout);
  for (std::string_view input : inputs) e.field(input);
  return e.take();
}

std::optional<Cache> Cache::open(std::string_view common_dir, Budget budget) {
  if (!enabled() || common_dir.empty()) return std::nullopt;
  return Cache(Store(Store::dir_for(common_dir), budget));
}

Cache::Cache(Store store, Stamp stamp) : m_store(std::move(store)), m_stamp(std::move(stamp)) {}

Cache::Entry Cache::get(Kind kind, std::initializer_list<std::string_view> inputs) const {
  Store::Lookup got = m_store.get(spec(kind).folder, key_of(kind, inputs, m_stamp));
  Entry out{got.payload, std::move(got.bytes), got.note.has_value()};
  if (got.note) add_note(std::move(*got.note));
  return out;
}

bool Cache::put(Kind kind, std::initializer_list<std::string_view> inputs, std::string_view payload) const {
  return m_store.put(spec(kind).folder, key_of(kind, inputs, m_stamp), payload);
}

bool Cache::put(Kind kind, std::initializer_list<std::string_view> inputs,
                const std::function<void(Encoder&)>& write) const {
  return m_store.put(spec(kind).folder, key_of(kind, inputs, m_stamp), write);
}

void Cache::remove(Kind kind, std::initializer_list<std::string_view> inputs) const {
  m_store.remove(spec(kind).folder, key_of(kind, inputs, m_stamp));
}

void Cache::note_malformed(Kind kind, std::initializer_list<std::string_view> inputs) const {
  add_note("cache entry " + m_store.path_of(spec(kind).folder, key_of(kind, inputs, m_stamp)) +
           " ignored (malformed); it is rebuilt");
}

}  // namespace lg::cache
