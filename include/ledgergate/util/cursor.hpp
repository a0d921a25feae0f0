// A forward cursor over UTF-8 text for hand-written matchers of the
// reference's regular expressions (deterministic grammars, no backtracking
// needed). Classes follow Python `re` on str: \d and \w are Unicode-aware.
#pragma once

#include <string_view>

#include "ledgergate/util/text.hpp"

namespace lg::util {

class Cursor {
 public:
  explicit Cursor(std::string_view s, std::size_t pos = 0) : m_s(s), m_pos(pos) {}

  std::size_t pos() const { return m_pos; }
  bool at_end() const { return m_pos >= m_s.size(); }
  std::string_view rest() const { return m_s.substr(m_pos); }
  std::string_view since(std::size_t start) const { return m_s.substr(start, m_pos - start); }

  // Consumes `text` if it is next.
  bool literal(std::string_view text) {
    if (m_s.substr(m_pos, text.size()) != text) return false;
    m_pos += text.size();
    return true;
  }
  // Consumes as many code points satisfying `pred` as possible, at least `min`
  // and at most `max`; on failure nothing is consumed.
  bool many(bool (*pred)(char32_t), std::size_t min = 1, std::size_t max = SIZE_MAX) {
    std::size_t p = m_pos;
    std::size_t count = 0;
    while (p < m_s.size() && count < max) {
      std::size_t next = p;
      if (!pred(next_code_point(m_s, next))) break;
      p = next;
      ++count;
    }
    if (count < min) return false;
    m_pos = p;
    return true;
  }
  bool one(bool (*pred)(char32_t)) { return many(pred, 1, 1); }

 private:
  std::string_view m_s;
  std::size_t m_pos;
};

inline bool is_lower_ascii(char32_t c) { return c >= 'a' && c <= 'z'; }
inline bool is_key_char(char32_t c) { return is_lower_ascii(c) || (c >= '0' && c <= '9') || c == '_'; }
inline bool is_not_space(char32_t c) { return !is_space(c); }
inline bool is_any(char32_t) { return true; }

}  // namespace lg::util
