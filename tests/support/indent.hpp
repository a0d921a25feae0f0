// Test support: a text with every line that is not empty indented by two
// spaces (each line ends with '\n', the last one too): a YAML document
// written one level in.
#pragma once

#include <string>

namespace lg::test {

inline std::string indented(const std::string& text) {
  std::string out;
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t end = text.find('\n', pos);
    const std::string line = text.substr(pos, end - pos);
    out += (line.empty() ? line : "  " + line) + "\n";
    pos = end == std::string::npos ? text.size() : end + 1;
  }
  return out;
}

}  // namespace lg::test
