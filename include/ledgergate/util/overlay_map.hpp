// A map by string key whose copy costs what differs from its source: an
// immutable base shared by every copy (a sorted vector, the key read from
// each value) and, per map, an overlay of the keys changed since (a value,
// or nullopt for a key erased). A copy shares the base and copies the
// overlay; a change to one map never shows in another, since the base is
// never written. settle() folds a large overlay into a new base.
//
// For a state copied whole and then moved by small changes: trial-merge
// --scope change copies BASE's per-ledger state (20,000 ledgers) for the
// merged tree, the branch tip and the merge base, and the audit parks a
// copy at every merge parent.
#pragma once

#include <algorithm>
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lg::util {

// KeyOf: a callable giving a value's key as a std::string_view (into the value).
template <class V, class KeyOf>
class OverlayMap {
 public:
  // Replaces the whole map with `values`; their keys need not be sorted,
  // and of equal keys the last is kept.
  void assign(std::vector<V> values) {
    const auto less = [](const V& a, const V& b) { return KeyOf{}(a) < KeyOf{}(b); };
    const auto not_less = [](const V& a, const V& b) { return !(KeyOf{}(a) < KeyOf{}(b)); };
    if (std::adjacent_find(values.begin(), values.end(), not_less) == values.end()) {  // sorted, no key twice
      m_base = std::make_shared<const std::vector<V>>(std::move(values));
      m_overlay.clear();
      return;
    }
    std::stable_sort(values.begin(), values.end(), less);
    // Of a run of equal keys keep the last (std::unique keeps the first).
    std::vector<V> kept;
    kept.reserve(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i + 1 < values.size() && KeyOf{}(values[i]) == KeyOf{}(values[i + 1])) continue;
      kept.push_back(std::move(values[i]));
    }
    m_base = std::make_shared<const std::vector<V>>(std::move(kept));
    m_overlay.clear();
  }
  void clear() {
    m_base.reset();
    m_overlay.clear();
  }

  const V* find(std::string_view key) const {
    if (auto it = m_overlay.find(key); it != m_overlay.end()) return it->second ? &*it->second : nullptr;
    return find_base(key);
  }
  bool contains(std::string_view key) const { return find(key) != nullptr; }

  // The value at `key` to change in place (this map's own copy), or
  // nullptr when there is none. The pointer holds until settle(),
  // assign() or clear() (inserting or erasing other keys keeps it).
  V* edit(std::string_view key) {
    if (auto it = m_overlay.find(key); it != m_overlay.end()) return it->second ? &*it->second : nullptr;
    const V* shared = find_base(key);
    if (!shared) return nullptr;
    return &*m_overlay.emplace(std::string(key), std::optional<V>(*shared)).first->second;
  }
  // Inserts `value`, or replaces the value of its key.
  V& put(V value) {
    std::string key(KeyOf{}(value));
    std::optional<V>& slot = m_overlay[std::move(key)];
    slot = std::move(value);
    return *slot;
  }
  void erase(std::string_view key) {
    if (find_base(key)) {
      auto it = m_overlay.find(key);
      if (it == m_overlay.end()) {
        m_overlay.emplace(std::string(key), std::nullopt);
      } else {
        it->second.reset();
      }
    } else if (auto it = m_overlay.find(key); it != m_overlay.end()) {
      m_overlay.erase(it);
    }
  }

  // Every value, in key order (std::string's: bytes unsigned).
  template <class Visit>
  void for_each(Visit visit) const {
    const V* base = m_base ? m_base->data() : nullptr;
    const V* const end = m_base ? base + m_base->size() : nullptr;
    auto over = m_overlay.begin();
    while (base != end || over != m_overlay.end()) {
      if (over == m_overlay.end() || (base != end && KeyOf{}(*base) < std::string_view(over->first))) {
        visit(*base++);
        continue;
      }
      if (base != end && KeyOf{}(*base) == std::string_view(over->first)) ++base;  // replaced or erased
      if (over->second) visit(*over->second);
      ++over;
    }
  }

  // Folds the overlay into a new base once it holds more than
  // 1/`fraction` of the base's keys (and `min_keys`), so that lookups and
  // copies stay cheap after many changes; copies made before keep the old
  // base. Invalidates edit()'s pointers when it folds.
  void settle(std::size_t fraction = 4, std::size_t min_keys = 64) {
    const std::size_t base_size = m_base ? m_base->size() : 0;
    if (m_overlay.size() <= min_keys || m_overlay.size() * fraction <= base_size) return;
    std::vector<V> merged;
    merged.reserve(base_size + m_overlay.size());
    for_each([&](const V& v) { merged.push_back(v); });
    m_base = std::make_shared<const std::vector<V>>(std::move(merged));
    m_overlay.clear();
  }

  // How many keys this map holds apart from the shared base (for tests).
  std::size_t overlay_size() const { return m_overlay.size(); }

 private:
  const V* find_base(std::string_view key) const {
    if (!m_base) return nullptr;
    auto it = std::lower_bound(m_base->begin(), m_base->end(), key,
                               [](const V& v, std::string_view k) { return KeyOf{}(v) < k; });
    return it != m_base->end() && KeyOf{}(*it) == key ? &*it : nullptr;
  }

  std::shared_ptr<const std::vector<V>> m_base;
  std::map<std::string, std::optional<V>, std::less<>> m_overlay;
};

}  // namespace lg::util
