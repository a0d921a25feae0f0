// Suggestions for mistyped words (util/suggest.hpp).
#include "ledgergate/util/suggest.hpp"

#include <algorithm>
#include <vector>

namespace lg::util {
namespace {

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Three rows of the dynamic-programming table: the one before the
  // previous is what a transposition looks back to.
  const std::size_t n = b.size();
  std::vector<std::size_t> before(n + 1), previous(n + 1), current(n + 1);
  for (std::size_t j = 0; j <= n; ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= n; ++j) {
      const std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1])) {
        current[j] = std::min(current[j], before[j - 2] + 1);
      }
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[n];
}

std::optional<std::string> closest_word(std::string_view word, std::span<const std::string> known) {
  if (word.empty()) return std::nullopt;
  const std::size_t allowed = word.size() <= 4 ? 1 : 2;
  const std::string* best = nullptr;
  std::size_t best_distance = allowed + 1;
  for (const std::string& k : known) {
    const std::size_t d = edit_distance(word, k);
    if (d < best_distance) {
      best = &k;
      best_distance = d;
    }
  }
  if (best) return *best;
  const std::string* prefixed = nullptr;
  for (const std::string& k : known) {
    if (k.size() > word.size() && std::equal(word.begin(), word.end(), k.begin(), [](char x, char y) {
          return lower(x) == lower(y);
        })) {
      if (prefixed) return std::nullopt;  // ambiguous
      prefixed = &k;
    }
  }
  if (prefixed) return *prefixed;
  return std::nullopt;
}

}  // namespace lg::util
