// The record merge's engine: items aligned by key (common prefix and suffix
// trimmed, then a longest common subsequence), each side's changes as hunks
// over the base, hunks of both sides grouped where they touch the same base
// items, and each such group decided by the part's kind.
#include "record_engine.hpp"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace lg::merge::record {
namespace {

// The largest middle (changed stretch, base × side items) aligned; past it
// the part is not merged as records (git's textual merge stays).
constexpr std::size_t k_max_cells = std::size_t{1} << 22;

using Items = std::vector<const Item*>;

// One side's change: base items [b0, b1) become `items` (b0 == b1: an insertion before base item b0).
struct Hunk {
  std::size_t b0 = 0, b1 = 0;
  Items items;
  bool theirs = false;
  bool insertion() const { return b0 == b1; }
};

bool same(const Items& a, const Items& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const Item* x, const Item* y) { return x->same_as(*y) && x->bytes == y->bytes; });
}

std::string joined(const Items& items) {
  std::string out;
  for (const Item* i : items) out += i->bytes;
  return out;
}

Items pointers(const std::vector<Item>& items) {
  Items out;
  out.reserve(items.size());
  for (const Item& i : items) out.push_back(&i);
  return out;
}

// Matched (base, side) index pairs of a longest common subsequence by key.
Result<std::vector<std::pair<std::size_t, std::size_t>>> align(const std::vector<Item>& base,
                                                              const std::vector<Item>& side) {
  const std::size_t n = base.size(), m = side.size();
  std::size_t pre = 0;
  while (pre < n && pre < m && base[pre].same_as(side[pre])) ++pre;
  std::size_t suf = 0;
  while (suf < n - pre && suf < m - pre && base[n - 1 - suf].same_as(side[m - 1 - suf])) ++suf;
  const std::size_t bn = n - pre - suf, sn = m - pre - suf;
  if ((bn + 1) * (sn + 1) > k_max_cells) {
    return make_error(ErrorKind::invalid_input, "too many changed records to align");
  }
  std::vector<std::pair<std::size_t, std::size_t>> matches;
  for (std::size_t i = 0; i < pre; ++i) matches.emplace_back(i, i);
  // lcs[i][j]: the common subsequence length of base[pre+i..] and side[pre+j..] within the middle.
  std::vector<std::uint32_t> lcs((bn + 1) * (sn + 1), 0);
  const auto at = [&](std::size_t i, std::size_t j) -> std::uint32_t& { return lcs[i * (sn + 1) + j]; };
  for (std::size_t i = bn; i-- > 0;) {
    for (std::size_t j = sn; j-- > 0;) {
      at(i, j) = base[pre + i].same_as(side[pre + j]) ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
    }
  }
  for (std::size_t i = 0, j = 0; i < bn && j < sn;) {
    if (base[pre + i].same_as(side[pre + j])) {
      matches.emplace_back(pre + i++, pre + j++);
    } else if (at(i + 1, j) >= at(i, j + 1)) {
      ++i;
    } else {
      ++j;
    }
  }
  for (std::size_t k = 0; k < suf; ++k) matches.emplace_back(n - suf + k, m - suf + k);
  return matches;
}

// One side's hunks over the base, in base order (an insertion before a change at the same place).
Result<std::vector<Hunk>> diff(const std::vector<Item>& base, const std::vector<Item>& side, bool theirs) {
  LG_TRY(auto matches, align(base, side));
  matches.emplace_back(base.size(), side.size());  // sentinel
  std::vector<Hunk> hunks;
  std::size_t pb = 0, ps = 0;
  for (const auto& [bi, si] : matches) {
    if (bi > pb || si > ps) {
      Hunk h{pb, bi, {}, theirs};
      for (std::size_t k = ps; k < si; ++k) h.items.push_back(&side[k]);
      hunks.push_back(std::move(h));
    }
    if (bi < base.size() && base[bi].bytes != side[si].bytes) hunks.push_back(Hunk{bi, bi + 1, {&side[si]}, theirs});
    pb = bi + 1;
    ps = si + 1;
  }
  return hunks;
}

bool overlap(const Hunk& x, const Hunk& y) {
  if (x.insertion() && y.insertion()) return x.b0 == y.b0;
  if (x.insertion()) return y.b0 < x.b0 && x.b0 < y.b1;
  if (y.insertion()) return x.b0 < y.b0 && y.b0 < x.b1;
  return x.b0 < y.b1 && y.b0 < x.b1;
}

// Base items [b0, b1) with one side's hunks of a group applied.
Items apply(const Items& base, std::size_t b0, std::size_t b1, const std::vector<const Hunk*>& hunks) {
  Items out;
  std::size_t pos = b0;
  for (const Hunk* h : hunks) {
    for (; pos < h->b0; ++pos) out.push_back(base[pos]);
    out.insert(out.end(), h->items.begin(), h->items.end());
    pos = h->b1;
  }
  for (; pos < b1; ++pos) out.push_back(base[pos]);
  return out;
}

// How a record is named in a conflict: its key, or the part's name for a glue line or a log entry.
std::string record_name(const Part& part, const Item& item) {
  return item.record && part.kind != PartKind::dated && part.kind != PartKind::text && !item.key.empty() ? item.key : part.name;
}

class PartMerger {
 public:
  PartMerger(const Part& base, const Part& ours, const Part& theirs, const MergeLabels& labels, std::string_view eol)
      : m_base(base), m_ours(ours), m_theirs(theirs), m_labels(labels), m_eol(eol) {}

  Result<void> run(std::string& out, std::vector<RecordConflict>& conflicts, std::map<std::string, int>& counts);

 private:
  std::string_view label(bool theirs) const { return theirs ? m_labels.theirs : m_labels.ours; }
  std::string changed_removed(bool changed_by_theirs) const {
    return "changed on " + std::string(label(changed_by_theirs)) + ", removed on " + std::string(label(!changed_by_theirs));
  }
  struct Resolution {
    Items items;
    std::vector<RecordConflict> conflicts;  // empty: resolved
  };
  static Resolution ours_then_theirs(const Items& ours, const Items& theirs);
  Resolution resolve(const Items& base, const Items& ours, const Items& theirs);
  Resolution resolve_keyed(const Items& base, const Items& ours, const Items& theirs);
  Resolution resolve_dated(const Items& base, const Items& ours, const Items& theirs) const;
  Resolution resolve_appended(const Items& base, const Items& ours, const Items& theirs) const;
  const Item* merge_fields(const Item& base, const Item& ours, const Item& theirs);
  std::optional<RecordConflict> repeated_key(const Items& base, const Items& ours, const Items& theirs) const;
  std::optional<RecordConflict> whole_part_check(const Items& merged) const;
  std::optional<RecordConflict> records_check(const Items& base, const Items& ours, const Items& theirs,
                                              const Items& merged) const;
  std::optional<RecordConflict> contested_twice(const Items& merged, const Items& contested) const;
  void whole_part_conflict(std::vector<RecordConflict> found, const Items& ours, const Items& theirs, std::string& out,
                           std::vector<RecordConflict>& conflicts) const;
  const Item* owned(const Item& like, std::string bytes);

  const Part &m_base, &m_ours, &m_theirs;
  const MergeLabels& m_labels;
  std::string_view m_eol;
  std::deque<std::string> m_bytes;  // sub-merged records' bytes
  std::deque<Item> m_items;
};

const Item* PartMerger::owned(const Item& like, std::string bytes) {
  m_bytes.push_back(std::move(bytes));
  Item item{like.key, m_bytes.back(), like.date, like.record, {}};
  m_items.push_back(std::move(item));
  return &m_items.back();
}

// Records both sides added at one place, each side's kept together: ours' then theirs'.
PartMerger::Resolution PartMerger::ours_then_theirs(const Items& ours, const Items& theirs) {
  Resolution r{ours, {}};
  r.items.insert(r.items.end(), theirs.begin(), theirs.end());
  return r;
}

PartMerger::Resolution PartMerger::resolve(const Items& base, const Items& ours, const Items& theirs) {
  switch (m_base.kind) {
    case PartKind::keyed: return resolve_keyed(base, ours, theirs);
    case PartKind::dated: return resolve_dated(base, ours, theirs);
    case PartKind::appended: return resolve_appended(base, ours, theirs);
    case PartKind::text: break;
  }
  return {{}, {{m_base.name, "both sides rewrote it"}}};
}

// Glue (blank lines, comments) among records both sides changed: a glue
// line one side removed is removed (each line's count is the smaller of the
// two sides'); glue added there by a side, unless both sides have the same
// glue, leaves the records without a certain place (nullopt).
std::optional<std::map<std::string_view, int>> glue_budget(const Items& base, const Items& ours, const Items& theirs) {
  const auto counts = [](const Items& items) {
    std::map<std::string_view, int> out;
    for (const Item* i : items) {
      if (!i->record) ++out[i->bytes];
    }
    return out;
  };
  const auto in_base = counts(base), in_ours = counts(ours), in_theirs = counts(theirs);
  const auto at = [](const auto& map, std::string_view key) {
    const auto it = map.find(key);
    return it == map.end() ? 0 : it->second;
  };
  std::map<std::string_view, int> budget;
  for (const auto& [bytes, n] : in_ours) {
    if (in_ours != in_theirs && n > at(in_base, bytes)) return std::nullopt;
    budget[bytes] = std::min(n, at(in_theirs, bytes));
  }
  for (const auto& [bytes, n] : in_theirs) {
    if (in_ours != in_theirs && n > at(in_base, bytes)) return std::nullopt;
  }
  return budget;
}

// Record by record: a record one side changed takes that change; added on
// one side is added; removed on one side is removed unless the other changed
// it (a conflict: an era-R run `done` removes is no exception, its other
// side's new state or continuation line would be lost). Records (and their
// glue) both sides added at one place: ours' then theirs'.
PartMerger::Resolution PartMerger::resolve_keyed(const Items& base, const Items& ours, const Items& theirs) {
  std::map<std::string_view, const Item*> in_base, in_ours, in_theirs;
  const auto index = [](const Items& items, auto& map) {
    for (const Item* i : items) {
      if (i->record && !map.emplace(i->id(), i).second) return false;
    }
    return true;
  };
  if (!index(base, in_base) || !index(ours, in_ours) || !index(theirs, in_theirs)) {
    return {{}, {{m_base.name, "records cannot be told apart (a key repeats)"}}};
  }
  const auto find = [](const auto& map, std::string_view key) -> const Item* {
    const auto it = map.find(key);
    return it == map.end() ? nullptr : it->second;
  };
  const bool shared = std::any_of(ours.begin(), ours.end(), [&](const Item* o) { return o->record && find(in_theirs, o->id()); });
  if (base.empty() && !shared) return ours_then_theirs(ours, theirs);
  auto glue = glue_budget(base, ours, theirs);
  if (!glue) return {{}, {{m_base.name, "both sides changed the lines around these records"}}};
  Resolution r;
  // A record present on one side only: added there, or removed on the other
  // (a conflict when the side that kept it changed it).
  const auto one_sided = [&](const Item* kept, const Item* b, bool kept_by_theirs) {
    if (b == nullptr) {
      r.items.push_back(kept);
    } else if (kept->bytes != b->bytes) {
      r.conflicts.push_back({record_name(m_base, *kept), changed_removed(kept_by_theirs)});
    }
  };
  for (const Item* o : ours) {
    if (!o->record) {
      if ((*glue)[o->bytes]-- > 0) r.items.push_back(o);
      continue;
    }
    const Item* b = find(in_base, o->id());
    const Item* t = find(in_theirs, o->id());
    if (t == nullptr) {
      one_sided(o, b, false);
    } else if (b == nullptr && m_base.same_add_conflicts) {
      r.conflicts.push_back({record_name(m_base, *o), "added on both sides"});
    } else if (o->bytes == t->bytes || (b != nullptr && b->bytes == t->bytes)) {
      r.items.push_back(o);
    } else if (b != nullptr && b->bytes == o->bytes) {
      r.items.push_back(t);
    } else if (const Item* merged = b != nullptr ? merge_fields(*b, *o, *t) : nullptr) {
      r.items.push_back(merged);
    } else {
      r.conflicts.push_back({record_name(m_base, *o), b == nullptr ? "added on both sides with different contents"
                                                                   : "both sides changed it differently"});
    }
  }
  for (const Item* t : theirs) {
    if (t->record && find(in_ours, t->id()) == nullptr) one_sided(t, find(in_base, t->id()), true);
  }
  return r;
}

// A record both sides changed, merged field by field; nullptr when it has no
// fields or they conflict.
const Item* PartMerger::merge_fields(const Item& base, const Item& ours, const Item& theirs) {
  if (base.fields.empty() || ours.fields.empty() || theirs.fields.empty()) return nullptr;
  const auto part = [&](const Item& item) { return Part{record_name(m_base, item), "fields", PartKind::keyed, item.fields, false}; };
  const Part b = part(base), o = part(ours), t = part(theirs);
  std::string bytes;
  std::vector<RecordConflict> conflicts;
  std::map<std::string, int> counts;
  PartMerger fields(b, o, t, m_labels, m_eol);
  if (!fields.run(bytes, conflicts, counts) || !conflicts.empty()) return nullptr;
  return owned(ours, std::move(bytes));
}

bool newest_first(const Items& items) {
  const Item* previous = nullptr;
  for (const Item* i : items) {
    if (!i->record) continue;
    if (previous != nullptr && i->date > previous->date) return false;
    previous = i;
  }
  return true;
}

// Entries both sides added at one place interleave by date, newest first;
// on a tie ours' (the base branch's) come first. Nothing else is decided here.
PartMerger::Resolution PartMerger::resolve_dated(const Items& base, const Items& ours, const Items& theirs) const {
  const auto all_records = [](const Items& items) {
    return std::all_of(items.begin(), items.end(), [](const Item* i) { return i->record; });
  };
  if (!base.empty()) return {{}, {{m_base.name, "both sides changed the same entries"}}};
  if (!all_records(ours) || !all_records(theirs) || !newest_first(ours) || !newest_first(theirs)) {
    return {{}, {{m_base.name, "the new entries cannot be placed newest-first"}}};
  }
  std::set<std::string_view> keys;
  for (const Item* o : ours) keys.insert(o->id());
  for (const Item* t : theirs) {
    if (keys.count(t->id()) != 0) return {{}, {{m_base.name, "the same entry added on both sides among others"}}};
  }
  Resolution r;
  std::merge(ours.begin(), ours.end(), theirs.begin(), theirs.end(), std::back_inserter(r.items),
             [](const Item* t, const Item* o) { return t->date > o->date; });
  return r;
}

// Records both sides added at one place: ours' then theirs'.
PartMerger::Resolution PartMerger::resolve_appended(const Items& base, const Items& ours, const Items& theirs) const {
  if (!base.empty()) return {{}, {{m_base.name, "both sides changed the same records"}}};
  std::set<std::string_view> keys;
  for (const Item* o : ours) {
    if (o->record) keys.insert(o->id());
  }
  for (const Item* t : theirs) {
    if (t->record && keys.count(t->id()) != 0) return {{}, {{record_name(m_base, *t), "added on both sides"}}};
  }
  return ours_then_theirs(ours, theirs);
}

// A keyed part where a side lists one key twice: which of the two is the
// base's record is a guess (a resubmitted run above the one it replaces, a
// row written twice), so such a part is not merged record by record.
std::optional<RecordConflict> PartMerger::repeated_key(const Items& base, const Items& ours, const Items& theirs) const {
  if (m_base.kind != PartKind::keyed) return std::nullopt;
  const std::pair<const Items*, std::string_view> sides[] = {{&base, m_labels.base}, {&ours, m_labels.ours}, {&theirs, m_labels.theirs}};
  for (const auto& [items, name] : sides) {
    std::unordered_set<std::string_view> keys;
    keys.reserve(items->size());
    for (const Item* i : *items) {
      if (i->record && !keys.insert(i->id()).second) {
        return RecordConflict{record_name(m_base, *i), "listed twice on " + std::string(name)};
      }
    }
  }
  return std::nullopt;
}

// What must hold of a merged part as a whole: each record once, a log newest-first.
std::optional<RecordConflict> PartMerger::whole_part_check(const Items& merged) const {
  if (m_base.kind == PartKind::text) return std::nullopt;
  std::unordered_set<std::string_view> keys;
  keys.reserve(merged.size());
  for (const Item* i : merged) {
    if (i->record && !keys.insert(i->id()).second) {
      return RecordConflict{record_name(m_base, *i), "the merge would list it twice"};
    }
  }
  if (m_base.kind == PartKind::dated && !newest_first(merged)) {
    return RecordConflict{m_base.name, "the merged entries would not be newest-first"};
  }
  return std::nullopt;
}

// Each record's own three-way merge, which a keyed part's merge must agree
// with whatever the alignment made of the stretches (it pairs records by key
// whose bytes differ): a record removed on one side is gone, unless the
// other side changed it (a conflict); a record both sides kept, or one side
// added, is there, as the side that changed it has it (both changed: merged
// field by field). (A log's or a note list's records are their bytes: only
// equal records are paired, and both sides' new ones are all kept.)
std::optional<RecordConflict> PartMerger::records_check(const Items& base, const Items& ours, const Items& theirs,
                                                        const Items& merged) const {
  struct Versions {
    const Item *b = nullptr, *o = nullptr, *t = nullptr, *m = nullptr;
    bool repeats = false;
  };
  std::unordered_map<std::string_view, Versions> by_id;
  by_id.reserve(base.size() + ours.size() + theirs.size());
  std::vector<std::string_view> order;  // first seen: the first disagreement reported is the same every run
  const auto add = [&](const Items& items, const Item* Versions::*slot) {
    for (const Item* i : items) {
      if (!i->record) continue;
      auto [at, added] = by_id.try_emplace(i->id());
      if (added) order.push_back(i->id());
      if (at->second.*slot != nullptr) at->second.repeats = true;
      at->second.*slot = i;
    }
  };
  add(base, &Versions::b);
  add(ours, &Versions::o);
  add(theirs, &Versions::t);
  add(merged, &Versions::m);
  for (std::string_view id : order) {
    const auto& [b, o, t, m, repeats] = by_id.at(id);
    const std::string name = record_name(m_base, *(b != nullptr ? b : o != nullptr ? o : t != nullptr ? t : m));
    if (repeats) return RecordConflict{name, "listed twice"};  // refused before (repeated_key, whole_part_check)
    if (b != nullptr && (o == nullptr || t == nullptr)) {  // removed on a side
      const Item* kept = o != nullptr ? o : t;
      if (kept != nullptr && kept->bytes != b->bytes) return RecordConflict{name, changed_removed(kept == t)};
      if (m != nullptr) return RecordConflict{name, "removed on " + std::string(label(o != nullptr)) + ", kept by the merge"};
      continue;
    }
    if (b == nullptr && o == nullptr && t == nullptr) return RecordConflict{name, "the merge would add it"};
    if (m == nullptr) return RecordConflict{name, "the merge would drop it"};
    const Item* want = nullptr;  // nullptr: both sides changed it (merged field by field)
    if (b == nullptr) {
      want = o == nullptr ? t : t == nullptr || o->bytes == t->bytes ? o : nullptr;
      if (want == nullptr) return RecordConflict{name, "added on both sides with different contents"};
    } else if (o->bytes == t->bytes || b->bytes == t->bytes) {
      want = o;
    } else if (b->bytes == o->bytes) {
      want = t;
    }
    if (want != nullptr && m->bytes != want->bytes) return RecordConflict{name, "the merge would lose a side's change"};
  }
  return std::nullopt;
}

// Where some stretch of a part conflicts: a record the merge placed twice
// outside the conflicts, or outside them and in one of them too (a side's
// version between the markers). Resolving the markers would leave it listed
// twice, so the part is one conflict.
std::optional<RecordConflict> PartMerger::contested_twice(const Items& merged, const Items& contested) const {
  if (m_base.kind == PartKind::text) return std::nullopt;
  std::unordered_set<std::string_view> keys;
  for (const Item* i : contested) {
    if (i->record) keys.insert(i->id());
  }
  std::unordered_set<std::string_view> placed;
  for (const Item* i : merged) {
    if (i->record && (keys.count(i->id()) != 0 || !placed.insert(i->id()).second)) {
      return RecordConflict{record_name(m_base, *i), "the merge would list it twice"};
    }
  }
  return std::nullopt;
}

// The whole part as one conflict: ours' and theirs' items between the ones
// they share at both ends (the heading, the first and last untouched records).
void PartMerger::whole_part_conflict(std::vector<RecordConflict> found, const Items& ours, const Items& theirs,
                                     std::string& out, std::vector<RecordConflict>& conflicts) const {
  const auto equal = [](const Item* x, const Item* y) { return x->bytes == y->bytes; };
  std::size_t pre = 0;
  while (pre < ours.size() && pre < theirs.size() && equal(ours[pre], theirs[pre])) ++pre;
  std::size_t suf = 0;
  while (suf < ours.size() - pre && suf < theirs.size() - pre &&
         equal(ours[ours.size() - 1 - suf], theirs[theirs.size() - 1 - suf])) {
    ++suf;
  }
  const auto slice = [](const Items& items, std::size_t begin, std::size_t end) {
    return Items(items.begin() + static_cast<std::ptrdiff_t>(begin), items.begin() + static_cast<std::ptrdiff_t>(end));
  };
  out += joined(slice(ours, 0, pre));
  out += conflict_block(joined(slice(ours, pre, ours.size() - suf)), joined(slice(theirs, pre, theirs.size() - suf)),
                        m_labels, m_eol);
  out += joined(slice(ours, ours.size() - suf, ours.size()));
  conflicts.insert(conflicts.end(), found.begin(), found.end());
}

void count(const Part& part, const Items& base, const Items& merged, std::map<std::string, int>& counts) {
  std::unordered_map<std::string_view, std::string_view> before;
  before.reserve(base.size());
  for (const Item* i : base) {
    if (i->record) before.emplace(i->id(), i->bytes);
  }
  std::unordered_set<std::string_view> after;
  after.reserve(merged.size());
  for (const Item* i : merged) {
    if (!i->record) continue;
    after.insert(i->id());
    const auto it = before.find(i->id());
    if (it == before.end()) {
      ++counts[part.noun + "_added"];
    } else if (it->second != i->bytes) {
      ++counts[part.noun + "_changed"];
    }
  }
  for (const auto& [key, bytes] : before) {
    if (after.count(key) == 0) ++counts[part.noun + "_removed"];
  }
}

Result<void> PartMerger::run(std::string& out, std::vector<RecordConflict>& conflicts,
                             std::map<std::string, int>& counts) {
  const Items base = pointers(m_base.items), ours = pointers(m_ours.items), theirs = pointers(m_theirs.items);
  // Identical changes on both sides are one change, except additions where two adds collide.
  if ((same(ours, theirs) && !m_base.same_add_conflicts) || same(base, theirs)) {
    count(m_base, base, ours, counts);
    out += joined(ours);
    return {};
  }
  if (same(base, ours)) {
    count(m_base, base, theirs, counts);
    out += joined(theirs);
    return {};
  }
  if (auto twice = repeated_key(base, ours, theirs)) {
    whole_part_conflict({std::move(*twice)}, ours, theirs, out, conflicts);
    return {};
  }
  LG_TRY(std::vector<Hunk> hunks, diff(m_base.items, m_ours.items, false));
  LG_TRY(std::vector<Hunk> theirs_hunks, diff(m_base.items, m_theirs.items, true));
  hunks.insert(hunks.end(), theirs_hunks.begin(), theirs_hunks.end());
  std::stable_sort(hunks.begin(), hunks.end(), [](const Hunk& x, const Hunk& y) {
    return x.b0 != y.b0 ? x.b0 < y.b0 : x.insertion() && !y.insertion();
  });

  Items merged, contested;  // contested: both sides' items of the stretches that conflict
  std::string text;
  std::vector<RecordConflict> found;
  std::size_t pos = 0;
  for (std::size_t g = 0; g < hunks.size();) {
    std::vector<const Hunk*> group{&hunks[g]};
    std::size_t next = g + 1;
    for (; next < hunks.size(); ++next) {
      const bool touches = std::any_of(group.begin(), group.end(), [&](const Hunk* h) { return overlap(*h, hunks[next]); });
      if (!touches) break;
      group.push_back(&hunks[next]);
    }
    g = next;
    std::size_t b0 = group.front()->b0, b1 = 0;
    for (const Hunk* h : group) b1 = std::max(b1, h->b1);
    for (; pos < b0; ++pos) {
      merged.push_back(base[pos]);
      text += base[pos]->bytes;
    }
    pos = std::max(pos, b1);
    std::vector<const Hunk*> of_ours, of_theirs;
    for (const Hunk* h : group) (h->theirs ? of_theirs : of_ours).push_back(h);
    const Items mine = apply(base, b0, b1, of_ours), other = apply(base, b0, b1, of_theirs);
    Resolution r;
    if (of_theirs.empty() || of_ours.empty() || (same(mine, other) && !m_base.same_add_conflicts)) {
      r.items = of_theirs.empty() ? mine : other;
    } else {
      r = resolve(Items(base.begin() + static_cast<std::ptrdiff_t>(b0), base.begin() + static_cast<std::ptrdiff_t>(b1)),
                  mine, other);
    }
    if (r.conflicts.empty()) {
      merged.insert(merged.end(), r.items.begin(), r.items.end());
      text += joined(r.items);
    } else {
      found.insert(found.end(), r.conflicts.begin(), r.conflicts.end());
      contested.insert(contested.end(), mine.begin(), mine.end());
      contested.insert(contested.end(), other.begin(), other.end());
      text += conflict_block(joined(mine), joined(other), m_labels, m_eol);
    }
  }
  for (; pos < base.size(); ++pos) {
    merged.push_back(base[pos]);
    text += base[pos]->bytes;
  }
  if (found.empty()) {
    auto broken = whole_part_check(merged);
    if (!broken && m_base.kind == PartKind::keyed) broken = records_check(base, ours, theirs, merged);
    if (broken) {
      whole_part_conflict({std::move(*broken)}, ours, theirs, out, conflicts);
      return {};
    }
    count(m_base, base, merged, counts);
  } else if (auto twice = contested_twice(merged, contested)) {
    found.push_back(std::move(*twice));
    whole_part_conflict(std::move(found), ours, theirs, out, conflicts);
    return {};
  }
  conflicts.insert(conflicts.end(), found.begin(), found.end());
  out += text;
  return {};
}

std::string_view eol_of(const std::vector<Part>& parts) {
  for (const Part& p : parts) {
    for (const Item& i : p.items) {
      if (i.bytes.ends_with("\r\n")) return "\r\n";
      if (i.bytes.ends_with("\n")) return "\n";
    }
  }
  return "\n";
}

}  // namespace

std::vector<std::string_view> raw_lines(std::string_view bytes) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  if (bytes.find('\r') == std::string_view::npos) {
    // No CR at all (the usual file): the line ends are the LFs, found by find's memchr.
    for (std::size_t lf = bytes.find('\n'); lf != std::string_view::npos; lf = bytes.find('\n', start)) {
      lines.push_back(bytes.substr(start, lf + 1 - start));
      start = lf + 1;
    }
  } else {
    for (std::size_t i = 0; i < bytes.size(); ++i) {
      if (bytes[i] == '\n' || bytes[i] == '\r') {
        if (bytes[i] == '\r' && i + 1 < bytes.size() && bytes[i + 1] == '\n') ++i;
        lines.push_back(bytes.substr(start, i + 1 - start));
        start = i + 1;
      }
    }
  }
  if (start < bytes.size()) lines.push_back(bytes.substr(start));
  return lines;
}

std::string_view span_of(const std::vector<std::string_view>& lines, std::size_t begin, std::size_t end) {
  if (begin >= end) return {};
  return {lines[begin].data(), static_cast<std::size_t>(lines[end - 1].data() + lines[end - 1].size() - lines[begin].data())};
}

std::vector<Item> line_items(const std::vector<std::string_view>& lines, std::size_t begin, std::size_t end) {
  std::vector<Item> items;
  for (std::size_t i = begin; i < end; ++i) items.push_back(Item{"", lines[i], "", false, {}});
  return items;
}

std::string conflict_block(std::string_view ours, std::string_view theirs, const MergeLabels& labels,
                           std::string_view eol) {
  const auto marker = [&](char c, const std::string& label) {
    std::string m(static_cast<std::size_t>(labels.marker_size), c);
    if (!label.empty()) m += " " + label;
    return m + std::string(eol);
  };
  const auto body = [&](std::string_view s) {
    std::string b(s);
    if (!b.empty() && b.back() != '\n' && b.back() != '\r') b += eol;
    return b;
  };
  return marker('<', labels.ours) + body(ours) + marker('=', "") + body(theirs) + marker('>', labels.theirs);
}

Result<RecordMerge> merge_parts(const std::vector<Part>& base, const std::vector<Part>& ours,
                                const std::vector<Part>& theirs, const MergeLabels& labels) {
  const auto names = [](const std::vector<Part>& parts) {
    std::vector<std::string_view> out;
    for (const Part& p : parts) out.push_back(p.name);
    return out;
  };
  if (names(base) != names(ours) || names(base) != names(theirs)) {
    return make_error(ErrorKind::invalid_input, "the sides do not have the same sections");
  }
  RecordMerge merge;
  std::map<std::string, int> counts;
  const std::string_view eol = eol_of(ours);
  for (std::size_t i = 0; i < base.size(); ++i) {
    PartMerger part(base[i], ours[i], theirs[i], labels, eol);
    if (auto done = part.run(merge.bytes, merge.conflicts, counts); !done) return done.error();
  }
  // Counts in the order the parts name them.
  for (const auto& p : base) {
    for (const char* what : {"_added", "_changed", "_removed"}) {
      const auto it = counts.find(p.noun + what);
      if (it == counts.end()) continue;
      merge.records.emplace_back(it->first, it->second);
      counts.erase(it);
    }
  }
  return merge;
}

}  // namespace lg::merge::record
