// The README's console examples, filed under the commands they run (cli_examples.hpp).
#include "ledgergate/report/cli_examples.hpp"

#include <cstddef>

namespace lg::report {
namespace {

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool is_command_word(std::string_view w) {
  if (w.empty() || w.front() < 'a' || w.front() > 'z') return false;
  for (const char c : w) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')) return false;
  }
  return true;
}

// "ledgergate hooks install --hook x; echo" → {"ledgergate", "hooks", "install"}:
// the leading words that look like command names; a `;` ends the run.
std::vector<std::string> command_words(std::string_view line) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < line.size()) {
    while (at < line.size() && line[at] == ' ') ++at;
    std::size_t end = line.find(' ', at);
    if (end == std::string_view::npos) end = line.size();
    std::string_view word = line.substr(at, end - at);
    const bool last = !word.empty() && word.back() == ';';
    if (last) word.remove_suffix(1);
    if (!is_command_word(word)) break;
    out.emplace_back(word);
    if (last) break;
    at = end;
  }
  return out;
}

}  // namespace

std::vector<CliExample> console_examples(std::string_view markdown, std::string_view tool) {
  std::vector<CliExample> out;
  bool in_block = false;
  bool in_example = false;  // the lines under the last `$ ` line belong to it
  for (const std::string_view line : lines_of(markdown)) {
    const std::string_view fence = trimmed(line);
    if (!in_block) {
      in_block = fence == "```console";
      continue;
    }
    if (fence == "```") {
      in_block = in_example = false;
    } else if (line.substr(0, 2) == "$ ") {
      const std::string_view command = line.substr(2);
      const std::vector<std::string> words = command_words(command);
      in_example = !words.empty() && words.front() == tool;
      if (in_example) out.push_back({std::string(command), {}});
    } else if (in_example) {
      out.back().output.emplace_back(line);
    }
  }
  return out;
}

std::vector<CliExample> examples_for(const CliCommand& cmd, const std::vector<CliExample>& all) {
  std::vector<CliExample> out;
  for (const CliExample& e : all) {
    const std::vector<std::string> words = command_words(e.command);
    bool match = words.size() >= cmd.path.size();
    for (std::size_t i = 1; match && i < cmd.path.size(); ++i) match = words[i] == cmd.path[i];
    if (match) out.push_back(e);
  }
  return out;
}

}  // namespace lg::report
