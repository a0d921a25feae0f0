// The base protocol's framing (LSP 3.17, "Base Protocol"): each message is
// a header part of `Name: value` lines ended by CR LF, an empty line, and a
// body of exactly Content-Length bytes. Pure: the CLI feeds bytes read from
// stdin and writes the frames this makes.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace lg::lsp {

// Cuts a byte stream into message bodies.
class FrameReader {
 public:
  void feed(std::string_view bytes) { m_buffer.append(bytes); }
  // The next whole body, or nullopt when more bytes are needed or the
  // stream is broken (then error() says why and no body follows).
  std::optional<std::string> next();
  const std::string& error() const { return m_error; }
  // Bytes fed and not yet returned as a body.
  std::size_t pending() const { return m_buffer.size() - m_at; }

 private:
  std::string m_buffer;
  std::size_t m_at = 0;
  std::string m_error;
};

// `body` with its header: "Content-Length: N\r\n\r\n" + body.
std::string frame(std::string_view body);

}  // namespace lg::lsp
