// Content-Length framing.
#include "ledgergate/lsp/framing.hpp"

#include <cctype>

namespace lg::lsp {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

}  // namespace

std::optional<std::string> FrameReader::next() {
  if (!m_error.empty()) return std::nullopt;
  const std::string_view rest = std::string_view(m_buffer).substr(m_at);
  const std::size_t end = rest.find("\r\n\r\n");
  if (end == std::string_view::npos) {
    if (rest.size() > 64 * 1024) m_error = "a message header longer than 64 KiB";
    return std::nullopt;
  }
  std::optional<std::size_t> length;
  std::string_view headers = rest.substr(0, end);
  while (!headers.empty()) {
    const std::size_t eol = headers.find("\r\n");
    const std::string_view line = headers.substr(0, eol);
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) {
      m_error = "a message header line without a colon";
      return std::nullopt;
    }
    if (iequals(line.substr(0, colon), "Content-Length")) {
      std::string_view value = line.substr(colon + 1);
      while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
      while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
      std::size_t n = 0;
      if (value.empty() || value.size() > 12) {
        m_error = "a Content-Length that is not a number";
        return std::nullopt;
      }
      for (const char c : value) {
        if (c < '0' || c > '9') {
          m_error = "a Content-Length that is not a number";
          return std::nullopt;
        }
        n = n * 10 + static_cast<std::size_t>(c - '0');
      }
      length = n;
    }
    if (eol == std::string_view::npos) break;
    headers.remove_prefix(eol + 2);
  }
  if (!length) {
    m_error = "a message without Content-Length";
    return std::nullopt;
  }
  if (rest.size() < end + 4 + *length) return std::nullopt;
  std::string body(rest.substr(end + 4, *length));
  m_at += end + 4 + *length;
  if (m_at > 1024 * 1024 && m_at * 2 > m_buffer.size()) {
    m_buffer.erase(0, m_at);
    m_at = 0;
  }
  return body;
}

std::string frame(std::string_view body) {
  std::string out = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  out.append(body);
  return out;
}

}  // namespace lg::lsp
