// The baseline file: "ledgergate-baseline 1", then one line per known
// finding, `fingerprint<TAB>rule<TAB>path<TAB>message`, with `\t`, `\n`,
// `\r` and `\\` escaped in the fields.
#include "ledgergate/diag/baseline.hpp"

#include <fmt/format.h>

#include <cctype>

#include "ledgergate/util/hash.hpp"

namespace lg::diag {
namespace {

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

std::string escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      default: out += c;
    }
  }
  return out;
}

std::string unescape(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out += s[i];
      continue;
    }
    const char c = s[++i];
    out += c == 't' ? '\t' : c == 'n' ? '\n' : c == 'r' ? '\r' : c;
  }
  return out;
}

std::vector<std::string_view> split_tabs(std::string_view line) {
  std::vector<std::string_view> out;
  for (std::size_t pos = 0;;) {
    const std::size_t tab = line.find('\t', pos);
    out.push_back(line.substr(pos, tab == std::string_view::npos ? std::string_view::npos : tab - pos));
    if (tab == std::string_view::npos) return out;
    pos = tab + 1;
  }
}

}  // namespace

std::string normalised_message(std::string_view m) {
  std::string out;
  for (std::size_t i = 0; i < m.size();) {
    // "line 12", "lines 3-5", "Line 4": the number goes; a ":7" after a path too.
    const bool after_line_word =
        out.size() >= 5 && (out.ends_with("line ") || out.ends_with("Line ") || out.ends_with("lines "));
    const bool after_colon = !out.empty() && out.back() == ':' && out.size() >= 2 && out[out.size() - 2] != ' ';
    if (is_digit(m[i]) && (after_line_word || after_colon)) {
      while (i < m.size() && (is_digit(m[i]) || ((m[i] == '-' || m[i] == ',') && i + 1 < m.size() && is_digit(m[i + 1])))) {
        ++i;
      }
      out += '#';
      continue;
    }
    out += m[i++];
  }
  return out;
}

std::string fingerprint(const Finding& f) {
  util::Fnv1a h;
  for (const std::string_view part : {std::string_view(f.rule), std::string_view(f.location.path)}) {
    h.add(part);
    h.add_byte(0xff);
  }
  h.add(normalised_message(f.message));
  return fmt::format("{:016x}", h.value());
}

void Baseline::add(Key key, std::string message) {
  Entry& e = m_entries[std::move(key)];
  if (e.count++ == 0) e.message = std::move(message);
  ++m_size;
}

Result<Baseline> Baseline::parse(std::string_view text) {
  Baseline b;
  std::size_t number = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t end = text.find('\n', pos);
    std::string_view line = text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
    pos = end == std::string_view::npos ? text.size() : end + 1;
    ++number;
    if (number == 1) {
      if (line != k_baseline_header) {
        return make_error(ErrorKind::invalid_input,
                          fmt::format("line 1: not a ledgergate baseline (expected `{}`)", k_baseline_header));
      }
      continue;
    }
    if (line.empty() || line.front() == '#') continue;
    const std::vector<std::string_view> fields = split_tabs(line);
    if (fields.size() != 4 || fields[0].size() != 16 || fields[1].empty()) {
      return make_error(ErrorKind::invalid_input,
                        fmt::format("line {}: expected fingerprint, rule, path and message separated by tabs", number));
    }
    b.add(Key{unescape(fields[1]), unescape(fields[2]), std::string(fields[0])}, unescape(fields[3]));
  }
  if (number == 0) return make_error(ErrorKind::invalid_input, "the file is empty (not a ledgergate baseline)");
  return b;
}

Baseline Baseline::of(const std::vector<Finding>& findings) {
  Baseline b;
  for (const Finding& f : findings) b.add(Key{f.rule, f.location.path, fingerprint(f)}, f.message);
  return b;
}

std::string Baseline::render() const {
  std::string out = std::string(k_baseline_header) + "\n";
  for (const auto& [key, entry] : m_entries) {
    const auto& [rule, path, print] = key;
    for (std::size_t i = 0; i < entry.count; ++i) {
      out += fmt::format("{}\t{}\t{}\t{}\n", print, escape(rule), escape(path), escape(entry.message));
    }
  }
  return out;
}

bool Baseline::take(const Finding& f) {
  auto it = m_entries.find(Key{f.rule, f.location.path, fingerprint(f)});
  if (it == m_entries.end() || it->second.count == 0) return false;
  --it->second.count;
  --m_size;
  return true;
}

std::vector<Finding> Baseline::suppress(std::vector<Finding>& findings) {
  std::vector<Finding> kept, taken;
  for (Finding& f : findings) (take(f) ? taken : kept).push_back(std::move(f));
  findings = std::move(kept);
  return taken;
}

namespace {

// `f` as the changed tree would have it: on its moved path, the old path in
// its message replaced by the new one.
Finding moved(const Finding& f, const std::vector<PathMove>& moves) {
  for (const PathMove& m : moves) {
    if (m.from != f.location.path) continue;
    Finding out = f;
    out.location.path = m.to;
    for (std::size_t at = out.message.find(m.from); at != std::string::npos; at = out.message.find(m.from, at + m.to.size())) {
      out.message.replace(at, m.from.size(), m.to);
    }
    return out;
  }
  return f;
}

}  // namespace

std::vector<Finding> attribute(std::vector<Finding>& findings, const std::vector<Finding>& reference,
                               const std::vector<PathMove>& moves) {
  std::vector<Finding> mapped;
  mapped.reserve(reference.size());
  for (const Finding& f : reference) mapped.push_back(moved(f, moves));
  Baseline before = Baseline::of(mapped);
  for (Finding& f : findings) f.state = before.take(f) ? FindingState::pre_existing : FindingState::introduced;
  std::vector<Finding> fixed;
  if (before.size() == 0) return fixed;  // every reference finding is matched
  Baseline after = Baseline::of(findings);
  for (std::size_t i = 0; i < reference.size(); ++i) {
    if (!after.take(mapped[i])) fixed.push_back(reference[i]);
  }
  return fixed;
}

}  // namespace lg::diag
