// The facts pack (facts_pack.hpp). Its payload, and its journal's, is the
// codec's (cache/codec.hpp), in three sections, each a count then its entries:
//   findings:  key, findings                       (sorted by key)
//   yaml:      blob id, findings, row count, then per row: key, line, active, inputs
//   globs:     key, match count, matches           (sorted by key)
#include "facts_pack.hpp"

#include <algorithm>
#include <limits>
#include <utility>

#include "ledgergate/cache/codec.hpp"
#include "ledgergate/util/hash.hpp"

namespace lg::rules {

namespace {

constexpr std::string_view k_no_findings = "1:0";  // Encoder::findings of an empty list

}  // namespace

std::string_view YamlFacts::inputs_of(std::string_view key) const {
  // An open-addressing table of row indices (+1; 0 = empty), at most half
  // full, built on the first lookup; the first row of a key in document order wins.
  if (m_slots.empty()) {
    std::size_t size = 16;
    while (size < 2 * rows.size()) size *= 2;
    m_slots.assign(size, 0);
    for (std::uint32_t i = 0; i < rows.size(); ++i) {
      const std::string_view k = this->key(rows[i]);
      for (std::size_t at = util::hash64(k) & (size - 1);; at = (at + 1) & (size - 1)) {
        if (m_slots[at] == 0) {
          m_slots[at] = i + 1;
          break;
        }
        if (this->key(rows[m_slots[at] - 1]) == k) break;  // a later row of the same key
      }
    }
  }
  const std::size_t mask = m_slots.size() - 1;
  for (std::size_t at = util::hash64(key) & mask; m_slots[at] != 0; at = (at + 1) & mask) {
    const Row& row = rows[m_slots[at] - 1];
    if (this->key(row) == key) return inputs(row);
  }
  return {};
}

std::shared_ptr<const YamlFacts> YamlFacts::build(std::vector<diag::Finding> findings,
                                                   const std::vector<OwnedRow>& rows) {
  auto storage = std::make_shared<std::string>();
  std::size_t size = 0;
  for (const OwnedRow& r : rows) size += r.key.size() + r.inputs.size();
  storage->reserve(size);
  auto facts = std::make_shared<YamlFacts>();
  facts->findings = std::move(findings);
  facts->rows.reserve(rows.size());
  for (const OwnedRow& r : rows) {
    Row row;
    row.key_at = static_cast<std::uint32_t>(storage->size());
    row.key_size = static_cast<std::uint32_t>(r.key.size());
    *storage += r.key;
    row.inputs_at = static_cast<std::uint32_t>(storage->size());
    row.inputs_size = static_cast<std::uint32_t>(r.inputs.size());
    *storage += r.inputs;
    row.line = r.line;
    row.active = r.active;
    facts->rows.push_back(row);
  }
  facts->text = *storage;
  facts->storage = std::move(storage);
  return facts;
}

void FactsPack::clear() {
  m_owner.reset();
  m_text = {};
  m_listed.clear();
  m_decoded.clear();
  m_cursor = 0;
  m_fresh.clear();
  m_yaml.clear();
  m_globs.clear();
  m_glob_listed.clear();
  m_glob_prefixes.clear();
  m_glob_decoded.clear();
}

namespace {

// A key's first eight bytes, big-endian, zero-padded: ordered as the keys
// are (bytewise), ties left to the keys themselves.
std::uint64_t key_prefix(std::string_view key) {
  std::uint64_t out = 0;
  for (std::size_t i = 0; i < 8; ++i) {
    out = (out << 8) | (i < key.size() ? static_cast<unsigned char>(key[i]) : 0u);
  }
  return out;
}

// A glob entry's matches as the codec wrote them (its ListedGlob::encoded).
std::shared_ptr<const std::vector<std::string>> decode_matches(std::string_view encoded) {
  cache::Decoder d(encoded);
  const long long k = d.number(0, 1LL << 30);
  auto matches = std::make_shared<std::vector<std::string>>();
  for (long long j = 0; d.ok() && j < k; ++j) matches->push_back(d.field());
  if (!d.ok() || !d.at_end()) return nullptr;
  return matches;
}

// Reads a loaded entry's key into `l`, as offsets into `text` (which the
// decoder reads); returns where the entry's value starts, right after it.
template <class Loaded>
std::size_t start_of(cache::Decoder& d, std::string_view text, Loaded& l) {
  const std::string_view key = d.field_view();
  if (!d.ok()) return text.size();  // the load fails; `l` stays an empty key at 0
  l.key_at = static_cast<std::uint32_t>(key.data() - text.data());
  l.key_size = static_cast<std::uint32_t>(key.size());
  return text.size() - d.rest().size();
}

}  // namespace

// The yaml and glob sections: yaml facts into `yaml` (views into
// `payload`), glob entries into `globs` as they lie (every field checked,
// none copied).
bool FactsPack::decode_tail(cache::Decoder& d, const std::shared_ptr<const void>& owner, std::string_view text,
                            bool fresh, YamlMap& yaml, std::vector<ListedGlob>& globs, util::PagesBehind& behind) {
  const long long m = d.number(0, 1LL << 30);
  for (long long i = 0; d.ok() && i < m; ++i) {
    behind.passed(d.rest().data());
    std::string id = d.field();
    auto y = std::make_shared<YamlFacts>();
    y->storage = owner;
    y->text = text;
    const std::size_t from = text.size() - d.rest().size();
    y->findings = d.findings();
    const long long rows = d.number(0, 1LL << 30);
    if (d.ok()) y->rows.reserve(static_cast<std::size_t>(std::min<long long>(rows, 1 << 20)));
    for (long long j = 0; d.ok() && j < rows; ++j) {
      YamlFacts::Row row;
      const std::string_view key = d.field_view();
      row.line = static_cast<std::int32_t>(d.number(0, (1LL << 31) - 1));
      row.active = d.number(0, 1) == 1;
      const std::string_view inputs = d.field_view();
      if (!d.ok()) break;
      row.key_at = static_cast<std::uint32_t>(key.data() - text.data());
      row.key_size = static_cast<std::uint32_t>(key.size());
      row.inputs_at = static_cast<std::uint32_t>(inputs.data() - text.data());
      row.inputs_size = static_cast<std::uint32_t>(inputs.size());
      y->rows.push_back(row);
      behind.passed(d.rest().data());
    }
    y->encoded = text.substr(from, text.size() - d.rest().size() - from);
    yaml.insert_or_assign(std::move(id), Kept<YamlFacts>{std::move(y), false, fresh});
  }
  const long long g = d.number(0, 1LL << 30);
  if (d.ok()) globs.reserve(static_cast<std::size_t>(std::min<long long>(g, 1 << 20)));
  for (long long i = 0; d.ok() && i < g; ++i) {
    behind.passed(d.rest().data());
    ListedGlob l;
    const std::size_t from = start_of(d, text, l);
    const long long k = d.number(0, 1LL << 30);
    for (long long j = 0; d.ok() && j < k; ++j) d.field_view();
    l.encoded_size = static_cast<std::uint32_t>(text.size() - d.rest().size() - from);
    if (!globs.empty() && !(globs.back().key(text) < l.key(text))) d.fail();  // written sorted, each key once
    globs.push_back(l);
  }
  return d.ok() && d.at_end();
}

namespace {

// A payload that owns itself, for the overloads that take a string.
std::pair<std::shared_ptr<const void>, std::string_view> own(std::string payload) {
  auto owned = std::make_shared<const std::string>(std::move(payload));
  const std::string_view text = *owned;
  return {std::move(owned), text};
}

}  // namespace

bool FactsPack::load(std::string payload) {
  auto [owner, text] = own(std::move(payload));
  return load(std::move(owner), text);
}

bool FactsPack::load_journal(std::string payload) {
  auto [owner, text] = own(std::move(payload));
  return load_journal(owner, text);
}

bool FactsPack::load(std::shared_ptr<const void> owner, std::string_view text) {
  util::PagesBehind none(nullptr);
  return load_from(std::move(owner), text, none);
}

bool FactsPack::load(std::shared_ptr<const util::FileBytes> file, std::string_view text) {
  // The file is held here until finish(): a load that fails lets go of its
  // payload (clear()), and with it the only other reference.
  util::PagesBehind behind(file.get());
  const bool loaded = load_from(file, text, behind);
  behind.finish();
  return loaded;
}

bool FactsPack::load_from(std::shared_ptr<const void> owner, std::string_view text, util::PagesBehind& behind) {
  clear();
  if (text.size() > std::numeric_limits<std::uint32_t>::max()) return false;  // entries are 32-bit offsets
  m_owner = std::move(owner);
  m_text = text;
  cache::Decoder d(text);
  const long long n = d.number(0, 1LL << 30);
  if (d.ok()) m_listed.reserve(static_cast<std::size_t>(std::min<long long>(n, 1 << 20)));
  for (long long i = 0; d.ok() && i < n; ++i) {
    behind.passed(d.rest().data());
    Listed l;
    const std::size_t from = start_of(d, text, l);
    if (d.rest().starts_with(k_no_findings)) {
      d.skip(k_no_findings.size());  // the empty list: nothing to keep
    } else {
      std::vector<diag::Finding> list = d.findings();
      l.decoded = static_cast<std::int32_t>(m_decoded.size());
      m_decoded.push_back(std::move(list));
    }
    l.encoded_size = static_cast<std::uint32_t>(text.size() - d.rest().size() - from);
    if (!m_listed.empty() && !(m_listed.back().key(text) < l.key(text))) d.fail();  // written sorted, each key once
    m_listed.push_back(l);
  }
  if (!decode_tail(d, m_owner, m_text, false, m_yaml, m_glob_listed, behind)) {
    clear();
    return false;
  }
  m_glob_prefixes.reserve(m_glob_listed.size());
  for (const ListedGlob& l : m_glob_listed) m_glob_prefixes.push_back(key_prefix(l.key(m_text)));
  return true;
}

bool FactsPack::load_journal(const std::shared_ptr<const void>& owner, std::string_view text) {
  if (text.size() > std::numeric_limits<std::uint32_t>::max()) return false;  // entries are 32-bit offsets
  cache::Decoder d(text);
  std::vector<std::pair<std::string, std::vector<diag::Finding>>> fresh;
  const long long n = d.number(0, 1LL << 30);
  for (long long i = 0; d.ok() && i < n; ++i) {
    std::string key = d.field();
    std::vector<diag::Finding> findings = d.findings();
    if (!fresh.empty() && !(fresh.back().first < key)) d.fail();  // written sorted, each key once
    fresh.emplace_back(std::move(key), std::move(findings));
  }
  YamlMap yaml;
  std::vector<ListedGlob> listed;
  util::PagesBehind none(nullptr);
  if (!decode_tail(d, owner, text, true, yaml, listed, none)) return false;
  std::vector<std::pair<std::string_view, std::shared_ptr<const std::vector<std::string>>>> globs;
  for (const ListedGlob& l : listed) {
    auto matches = decode_matches(l.encoded(text));
    if (!matches) return false;
    globs.emplace_back(l.key(text), std::move(matches));
  }
  // A key is its value's whole input, so where the journal and the pack (or
  // a check since loading) both hold one, either copy is right: the journal
  // fills in what is missing.
  for (auto& [key, findings] : fresh) m_fresh.insert(key, std::move(findings));
  m_yaml.merge(yaml);
  for (auto& [key, matches] : globs) m_globs.insert(key, Kept<std::vector<std::string>>{std::move(matches), false, true});
  return true;
}

// The first loaded entry whose key is not less than `key`, galloping from
// where the last lookup ended (lookups in key order find it in a step or
// two), else by binary search of the part before.
std::size_t FactsPack::lower_bound(std::string_view key) {
  const std::size_t n = m_listed.size();
  std::size_t lo = 0;
  std::size_t hi = n;
  const std::size_t c = std::min(m_cursor, n);
  const std::string_view text = m_text;
  if (c < n && m_listed[c].key(text) < key) {
    lo = c + 1;
    for (std::size_t step = 1;; step *= 2) {
      const std::size_t probe = c + step;
      if (probe >= n) break;
      if (!(m_listed[probe].key(text) < key)) {
        hi = probe;
        break;
      }
      lo = probe + 1;
    }
  } else if (c == 0 || m_listed[c - 1].key(text) < key) {
    return c;
  } else {
    hi = c;
  }
  const auto it = std::lower_bound(m_listed.begin() + static_cast<std::ptrdiff_t>(lo),
                                   m_listed.begin() + static_cast<std::ptrdiff_t>(hi), key,
                                   [text](const Listed& l, std::string_view k) { return l.key(text) < k; });
  return static_cast<std::size_t>(it - m_listed.begin());
}

// The loaded pack first (a listing's ledgers, galloping), then what is not
// in it. A key names its whole input, so a key in both holds the same
// findings in both: the order only spares the hot path a map search.
const std::vector<diag::Finding>* FactsPack::find(std::string_view key) {
  static const std::vector<diag::Finding> none;
  const std::size_t at = lower_bound(key);
  m_cursor = at;
  if (at < m_listed.size() && m_listed[at].key(m_text) == key) {
    m_cursor = at + 1;
    Listed& hit = m_listed[at];
    hit.used = true;
    return hit.decoded < 0 ? &none : &m_decoded[static_cast<std::size_t>(hit.decoded)];
  }
  return m_fresh.find(key);
}

void FactsPack::keep(std::string key, std::vector<diag::Finding> findings) {
  m_fresh.assign(key, std::move(findings));
  m_dirty = true;
}

std::shared_ptr<const YamlFacts> FactsPack::find_yaml(std::string_view id) {
  auto it = m_yaml.find(id);
  if (it == m_yaml.end()) return nullptr;
  it->second.used = true;
  return it->second.value;
}

void FactsPack::keep_yaml(std::string id, std::shared_ptr<const YamlFacts> facts) {
  m_yaml.insert_or_assign(std::move(id), Kept<YamlFacts>{std::move(facts), true, true});
  m_dirty = true;
}

// The loaded pack first: a walk looks up every subtree of a wide folder
// (18,000 at 20,000 projects), each by a binary search over the keys'
// first eight bytes, side by side (a search through the keys themselves,
// spread over megabytes of the pack, missed the cache at every step: the
// trial merge there took 58 ms with it, 55 without), and, the first time, one
// decode; nothing is copied into m_globs. A key is its value's whole
// input, so where the map holds it too either copy is right.
std::shared_ptr<const std::vector<std::string>> FactsPack::find_glob(std::string_view key) {
  const std::string_view text = m_text;
  const std::uint64_t prefix = key_prefix(key);
  const auto first = std::lower_bound(m_glob_prefixes.begin(), m_glob_prefixes.end(), prefix);
  auto at = m_glob_listed.begin() + (first - m_glob_prefixes.begin());
  for (auto p = first; p != m_glob_prefixes.end() && *p == prefix && at->key(text) < key; ++p) ++at;
  if (at != m_glob_listed.end() && at->key(text) == key) {
    if (at->decoded < 0) {
      auto matches = decode_matches(at->encoded(text));  // load checked every field of it
      if (!matches) return nullptr;
      at->decoded = static_cast<std::int32_t>(m_glob_decoded.size());
      m_glob_decoded.push_back(std::move(matches));
    }
    at->used = true;
    return m_glob_decoded[static_cast<std::size_t>(at->decoded)];
  }
  if (Kept<std::vector<std::string>>* kept = m_globs.find(key)) {
    kept->used = true;
    return kept->value;
  }
  return nullptr;
}

void FactsPack::keep_glob(std::string key, std::shared_ptr<const std::vector<std::string>> matches) {
  m_globs.assign(key, Kept<std::vector<std::string>>{std::move(matches), true, true});
  m_dirty = true;
}

namespace {

void encode_yaml(cache::Encoder& e, const YamlFacts& facts) {
  if (!facts.encoded.empty()) {
    e.raw(facts.encoded);
    return;
  }
  e.findings(facts.findings);
  e.number(static_cast<long long>(facts.rows.size()));
  for (const YamlFacts::Row& row : facts.rows) {
    e.field(facts.key(row));
    e.number(row.line);
    e.number(row.active ? 1 : 0);
    e.field(facts.inputs(row));
  }
}

void encode_glob(cache::Encoder& e, const std::vector<std::string>& matches) {
  e.number(static_cast<long long>(matches.size()));
  for (const std::string& match : matches) e.field(match);
}

// Kept values in key order: (key, value) pairs, the values where they are kept.
template <class V>
using Sorted = std::vector<std::pair<std::string_view, const V*>>;

template <class V>
Sorted<V> sorted(const std::map<std::string, V, std::less<>>& kept) {
  Sorted<V> out;
  out.reserve(kept.size());
  for (const auto& [key, value] : kept) out.emplace_back(key, &value);
  return out;
}

// A section of kept values: its count, then each (key, value) that `keep` accepts.
template <class V, class Keep, class Write>
void encode_section(cache::Encoder& e, const Sorted<V>& kept, const Keep& keep, const Write& write) {
  long long count = 0;
  for (const auto& kv : kept) count += keep(*kv.second) ? 1 : 0;
  e.number(count);
  for (const auto& [key, entry] : kept) {
    if (!keep(*entry)) continue;
    e.field(key);
    write(e, *entry->value);
  }
}

// A section of loaded entries (each written as it was read from `text`)
// merged in key order with `mapped` (written by `write`): its count, then
// the entries. A loaded key that `mapped` holds too is written from `mapped`.
template <class Loaded, class V, class KeepLoaded, class KeepMapped, class Write>
void encode_merged(cache::Encoder& e, std::string_view text, const std::vector<Loaded>& loaded, const Sorted<V>& mapped,
                   const KeepLoaded& keep_loaded, const KeepMapped& keep_mapped, const Write& write) {
  const auto in_mapped = [&mapped](std::string_view key) {
    const auto it = std::lower_bound(mapped.begin(), mapped.end(), key,
                                     [](const auto& kv, std::string_view k) { return kv.first < k; });
    return it != mapped.end() && it->first == key;
  };
  const auto from_loaded = [&](const Loaded& l) { return keep_loaded(l) && !in_mapped(l.key(text)); };
  long long count = 0;
  for (const auto& kv : mapped) count += keep_mapped(*kv.second) ? 1 : 0;
  for (const Loaded& l : loaded) count += from_loaded(l) ? 1 : 0;
  e.number(count);
  auto m = mapped.begin();
  const auto write_mapped_before = [&](const std::string_view* key) {
    for (; m != mapped.end() && (!key || m->first < *key); ++m) {
      if (!keep_mapped(*m->second)) continue;
      e.field(m->first);
      write(e, *m->second);
    }
  };
  for (const Loaded& l : loaded) {
    const std::string_view key = l.key(text);
    write_mapped_before(&key);
    if (!from_loaded(l)) continue;
    e.field(key);
    e.raw(l.encoded(text));
  }
  write_mapped_before(nullptr);
}

// The journal is decoded entry by entry and rewritten whole at every write:
// past this, one rewrite of the pack is cheaper than the journal's growth.
constexpr std::size_t k_journal_limit = 64 * 1024;

}  // namespace

std::string FactsPack::encode_journal() const {
  cache::Encoder e;
  e.number(static_cast<long long>(m_fresh.size()));
  for (const auto& [key, findings] : m_fresh.sorted()) {
    e.field(key);
    e.findings(*findings);
  }
  const auto fresh = [](const auto& entry) { return entry.fresh; };
  encode_section(e, sorted(m_yaml), fresh, encode_yaml);
  encode_section(e, m_globs.sorted(), fresh, encode_glob);
  return e.take();
}

std::size_t FactsPack::journal_lower_bound() const {
  std::size_t bytes = 0;
  m_fresh.for_each([&bytes](std::string_view key, const auto&) { bytes += key.size(); });
  for (const auto& [key, entry] : m_yaml) bytes += entry.fresh ? key.size() + entry.value->text.size() : 0;
  m_globs.for_each([&bytes](std::string_view key, const auto& entry) { bytes += entry.fresh ? key.size() : 0; });
  return bytes;
}

FactsPack::Encoded FactsPack::encode() {
  m_dirty = false;
  // A journal its keys alone put past the bound (a cold check's: every
  // entry, 9 MB at 20,000 projects) is not encoded to be thrown away.
  if (!m_rewrite_whole && journal_lower_bound() <= k_journal_limit) {
    std::string journal = encode_journal();
    if (journal.size() <= k_journal_limit) return Encoded{std::move(journal), false};
  }
  choose_whole();
  return Encoded{{}, true};
}

std::string FactsPack::encode_whole() {
  choose_whole();
  cache::Encoder e;
  e.reserve(m_text.size() + 4096);
  write_whole(e);
  return e.take();
}

void FactsPack::choose_whole() {
  m_dirty = m_rewrite_whole = false;
  std::size_t used = m_fresh.size();
  for (const Listed& l : m_listed) used += l.used ? 1 : 0;
  for (const auto& kv : m_yaml) used += (kv.second.used || kv.second.fresh) ? 1 : 0;
  std::size_t fresh_globs = 0;
  for (const ListedGlob& l : m_glob_listed) used += l.used ? 1 : 0;
  m_globs.for_each([&used, &fresh_globs](std::string_view, const auto& entry) {
    used += (entry.used || entry.fresh) ? 1 : 0;
    fresh_globs += entry.fresh ? 1 : 0;
  });
  const std::size_t all = m_listed.size() + m_fresh.size() + m_yaml.size() + m_glob_listed.size() + fresh_globs;
  m_trim = !m_hold_unused && all > 2 * used + 1024;
  m_hold_unused = false;
}

void FactsPack::write_whole(cache::Encoder& e) const {
  const bool trim = m_trim;
  const auto kept = [trim](const auto& entry) { return !trim || entry.used || entry.fresh; };
  encode_merged(
      e, m_text, m_listed, m_fresh.sorted(), [trim](const Listed& l) { return !trim || l.used; },
      [](const auto&) { return true; },
      [](cache::Encoder& out, const std::vector<diag::Finding>& findings) { out.findings(findings); });
  encode_section(e, sorted(m_yaml), kept, encode_yaml);
  encode_merged(
      e, m_text, m_glob_listed, m_globs.sorted(), [trim](const ListedGlob& l) { return !trim || l.used; }, kept,
      [](cache::Encoder& out, const Kept<std::vector<std::string>>& entry) { encode_glob(out, *entry.value); });
}

}  // namespace lg::rules
