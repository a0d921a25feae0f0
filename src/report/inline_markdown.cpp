// The inline markdown of ledger texts (board_common.hpp): parsed into spans
// once, then written as HTML or as markdown. A small CommonMark subset,
// chosen so that what the ledgers write (bold, italics, code, links) reads
// as meant and nothing else can reach the page: no raw HTML, no target
// but http(s) and relative ones.
#include <algorithm>
#include <vector>

#include "board_common.hpp"

namespace lg::report::board_page {
namespace {

struct Span {
  enum class Kind { text, strong, em, code, link };
  Kind kind = Kind::text;
  std::string text;  // text and code: the characters; link: the target
  std::vector<Span> children;
};

// Spans nest this deep at most (bold inside a link inside italics); deeper is text.
constexpr int k_max_depth = 3;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n'; }
bool is_word(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         static_cast<unsigned char>(c) >= 0x80;
}
bool is_punct(char c) { return c > 0x20 && c < 0x7f && !is_word(c); }

std::size_t run_length(std::string_view s, std::size_t at, char c) {
  std::size_t n = 0;
  while (at + n < s.size() && s[at + n] == c) ++n;
  return n;
}

class Parser {
 public:
  explicit Parser(std::string_view s, int depth, bool in_link) : m_s(s), m_depth(depth), m_in_link(in_link) {}

  std::vector<Span> parse() {
    while (m_at < m_s.size()) {
      const char c = m_s[m_at];
      if (c == '\\' && m_at + 1 < m_s.size() && is_punct(m_s[m_at + 1])) {
        m_text += m_s[m_at + 1];
        m_at += 2;
      } else if (!(c == '`' && code()) && !((c == '*' || c == '_') && emphasis(c)) && !(c == '[' && link())) {
        m_text += c;
        ++m_at;
      }
    }
    flush();
    return std::move(m_out);
  }

 private:
  void flush() {
    if (!m_text.empty()) m_out.push_back(Span{Span::Kind::text, std::move(m_text), {}});
    m_text.clear();
  }

  void push(Span span) {
    flush();
    m_out.push_back(std::move(span));
  }

  std::vector<Span> inner(std::string_view s, bool in_link) const {
    if (m_depth + 1 >= k_max_depth) return {Span{Span::Kind::text, std::string(s), {}}};
    return Parser(s, m_depth + 1, in_link).parse();
  }

  // A backtick run closed by a run of the same length: the characters
  // between, one space trimmed from each side when both have one.
  bool code() {
    const std::size_t n = run_length(m_s, m_at, '`');
    for (std::size_t end = m_s.find('`', m_at + n); end != std::string_view::npos; end = m_s.find('`', end)) {
      const std::size_t m = run_length(m_s, end, '`');
      if (m == n) {
        std::string_view body = m_s.substr(m_at + n, end - m_at - n);
        if (body.size() >= 2 && body.front() == ' ' && body.back() == ' ' &&
            body.find_first_not_of(' ') != std::string_view::npos) {
          body = body.substr(1, body.size() - 2);
        }
        push(Span{Span::Kind::code, std::string(body), {}});
        m_at = end + n;
        return true;
      }
      end += m;
    }
    m_text.append(n, '`');  // no closing run: the backticks are text
    m_at += n;
    return true;
  }

  // `*x*`, `**x**`, `_x_`, `__x__`: the opening run followed by a non-space,
  // the closing run (the same length) after one; an underscore run only
  // between non-word characters, so that snake_case_names stay text.
  bool emphasis(char c) {
    const std::size_t n = run_length(m_s, m_at, c);
    if (n > 2) return false;
    const std::size_t open_end = m_at + n;
    if (open_end >= m_s.size() || is_space(m_s[open_end])) return false;
    if (c == '_' && m_at > 0 && is_word(m_s[m_at - 1])) return false;
    for (std::size_t end = m_s.find(c, open_end + 1); end != std::string_view::npos; end = m_s.find(c, end + 1)) {
      const std::size_t m = run_length(m_s, end, c);
      if (m_s[end - 1] == '\\' || is_space(m_s[end - 1])) {
        end += m - 1;
        continue;
      }
      const bool after_ok = c != '_' || end + m >= m_s.size() || !is_word(m_s[end + m]);
      if (m == n && after_ok) {
        push(Span{n == 2 ? Span::Kind::strong : Span::Kind::em, "", inner(m_s.substr(open_end, end - open_end), m_in_link)});
        m_at = end + n;
        return true;
      }
      end += m - 1;
    }
    return false;
  }

  // `[text](target)`: the text up to the first unescaped `]`, the target up
  // to the `)` that balances the opening one, no space in it. A target that
  // is not safe leaves the whole source as text.
  bool link() {
    if (m_in_link) return false;
    std::size_t close = m_at + 1;
    while (close < m_s.size() && m_s[close] != ']') close += m_s[close] == '\\' ? 2U : 1U;
    if (close + 1 >= m_s.size() || m_s[close + 1] != '(') return false;
    int depth = 0;
    std::size_t end = close + 2;
    for (; end < m_s.size(); ++end) {
      if (m_s[end] == '(') ++depth;
      if (m_s[end] == ')' && depth-- == 0) break;
      if (is_space(m_s[end])) return false;
    }
    if (end >= m_s.size()) return false;
    const std::string_view target = m_s.substr(close + 2, end - close - 2);
    if (!is_safe_link(target)) {
      m_text.append(m_s.substr(m_at, end + 1 - m_at));
      m_at = end + 1;
      return true;
    }
    push(Span{Span::Kind::link, std::string(target), inner(m_s.substr(m_at + 1, close - m_at - 1), true)});
    m_at = end + 1;
    return true;
  }

  std::string_view m_s;
  int m_depth;
  bool m_in_link;
  std::size_t m_at = 0;
  std::string m_text;
  std::vector<Span> m_out;
};

std::string html_of(const std::vector<Span>& spans) {
  std::string out;
  for (const Span& s : spans) {
    switch (s.kind) {
      case Span::Kind::text: out += html_escape(s.text); break;
      case Span::Kind::code: out += "<code>" + html_escape(s.text) + "</code>"; break;
      case Span::Kind::strong: out += "<strong>" + html_of(s.children) + "</strong>"; break;
      case Span::Kind::em: out += "<em>" + html_of(s.children) + "</em>"; break;
      case Span::Kind::link: out += "<a href=\"" + html_escape(s.text) + "\">" + html_of(s.children) + "</a>"; break;
    }
  }
  return out;
}

// A code span's markdown: fenced by one more backtick than its longest run,
// padded with a space when it starts or ends with a backtick.
std::string md_code(std::string_view s) {
  std::size_t longest = 0;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = run_length(s, i, '`');
    longest = std::max(longest, n);
    i += n == 0 ? 1 : n;
  }
  const std::string fence(longest + 1, '`');
  const bool pad = !s.empty() && (s.front() == '`' || s.back() == '`' || s.front() == ' ');
  return fence + (pad ? " " : "") + std::string(s) + (pad ? " " : "") + fence;
}

std::string md_of(const std::vector<Span>& spans) {
  std::string out;
  for (const Span& s : spans) {
    switch (s.kind) {
      case Span::Kind::text: out += md_escape(s.text); break;
      case Span::Kind::code: out += md_code(s.text); break;
      case Span::Kind::strong: out += "**" + md_of(s.children) + "**"; break;
      case Span::Kind::em: out += "*" + md_of(s.children) + "*"; break;
      case Span::Kind::link: out += "[" + md_of(s.children) + "](" + s.text + ")"; break;
    }
  }
  return out;
}

}  // namespace

bool is_safe_link(std::string_view target) {
  if (target.empty()) return false;
  for (const char c : target) {
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f || c == '<' || c == '>' || c == '"' || c == '\\') return false;
  }
  const std::size_t colon = target.find(':');
  const std::size_t first_delim = target.find_first_of("/?#");
  if (colon != std::string_view::npos && (first_delim == std::string_view::npos || colon < first_delim)) {
    std::string scheme(target.substr(0, colon));
    for (char& c : scheme) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return (scheme == "http" || scheme == "https") && target.substr(colon).starts_with("://") && target.size() > colon + 3;
  }
  return !target.starts_with("//");
}

std::string inline_html(std::string_view text) { return html_of(Parser(text, 0, false).parse()); }
std::string inline_md(std::string_view text) { return md_of(Parser(text, 0, false).parse()); }

std::string heading_anchor(std::string_view heading) {
  std::string out;
  for (std::size_t i = 0; i < heading.size(); ++i) {
    const auto c = static_cast<unsigned char>(heading[i]);
    if (c == 0xE2 && i + 2 < heading.size() && static_cast<unsigned char>(heading[i + 1]) >= 0x80 &&
        static_cast<unsigned char>(heading[i + 1]) <= 0x81) {
      i += 2;  // U+2000..U+207F: general punctuation (the em dash), dropped
    } else if (c >= 'A' && c <= 'Z') {
      out += static_cast<char>(c - 'A' + 'a');
    } else if (c == ' ') {
      out += '-';
    } else if (c >= 0x80 || is_word(static_cast<char>(c)) || c == '-' || c == '_') {
      out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace lg::report::board_page
