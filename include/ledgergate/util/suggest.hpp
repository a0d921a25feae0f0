// "Did you mean …?": the closest of a set of known words to a mistyped one,
// by edit distance (insertions, deletions, substitutions and transpositions
// of adjacent characters each cost one).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace lg::util {

// The optimal-string-alignment distance between `a` and `b`, compared
// case-insensitively in ASCII.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The known word closest to `word` when it is close enough to be a typo:
// at most one edit for words of up to four characters, two for longer ones,
// or `word` a prefix of exactly one known word ("chec" → "check"). Ties go to
// the first in `known`. nullopt when nothing is that close.
std::optional<std::string> closest_word(std::string_view word, std::span<const std::string> known);

}  // namespace lg::util
