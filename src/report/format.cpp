// Text, cortex and JSON renderings of a list of findings.
#include "ledgergate/report/format.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "ledgergate/util/json.hpp"
#include "ledgergate/util/text.hpp"

namespace lg::report {

std::string_view to_string(Verdict v) {
  switch (v) {
    case Verdict::pass: return "pass";
    case Verdict::fail: return "fail";
    case Verdict::error: return "error";
  }
  return "error";
}

namespace {
std::string_view color_of(diag::Severity s) {
  switch (s) {
    case diag::Severity::error: return "\033[1;31m";
    case diag::Severity::warning: return "\033[1;35m";
    case diag::Severity::info: return "\033[1;36m";
  }
  return "";
}

bool in_cortex_output(const diag::Finding& f) {
  return f.peer != diag::PeerForm::none || f.severity == diag::Severity::error;
}
}  // namespace

std::string render_text(const std::vector<diag::Finding>& findings, bool color) {
  std::string out;
  for (const diag::Finding& f : findings) {
    if (!f.location.rev.empty()) out += f.location.rev + ":";
    out += f.location.path;
    if (f.location.line > 0) out += fmt::format(":{}", f.location.line);
    const std::string_view sev = diag::to_string(f.severity);
    if (color) {
      out += fmt::format(": {}{}\033[0m: {} [{}]\n", color_of(f.severity), sev, f.message, f.rule);
    } else {
      out += fmt::format(": {}: {} [{}]\n", sev, f.message, f.rule);
    }
  }
  return out;
}

bool cortex_drift(const std::vector<diag::Finding>& findings) {
  return std::any_of(findings.begin(), findings.end(), in_cortex_output);
}

std::string render_cortex(const std::vector<diag::Finding>& findings) {
  if (!cortex_drift(findings)) return "cortex check: OK\n";
  std::string out = "cortex check: DRIFT\n";
  for (const diag::Finding& f : findings) {
    if (in_cortex_output(f)) out += "  - " + diag::peer_text(f) + "\n";
  }
  return out;
}

std::string json_string(std::string_view s) { return util::json_string(s); }

std::string render_json(const std::vector<diag::Finding>& findings, const JsonHeader& header) {
  std::string out = fmt::format("{{\"verdict\": {}, \"profile\": {}, \"rev\": {}, \"findings\": [",
                                json_string(to_string(header.verdict)), json_string(header.profile),
                                json_string(header.rev));
  for (std::size_t i = 0; i < findings.size(); ++i) {
    const diag::Finding& f = findings[i];
    out += i ? ",\n  " : "\n  ";
    out += fmt::format(
        "{{\"rule\": {}, \"severity\": {}, \"path\": {}, \"line\": {}, \"column\": {}, \"message\": {}, \"rev\": {}}}",
        json_string(f.rule), json_string(diag::to_string(f.severity)), json_string(f.location.path),
        f.location.line, f.location.column, json_string(f.message), json_string(f.location.rev));
  }
  out += findings.empty() ? "]}\n" : "\n]}\n";
  return out;
}

}  // namespace lg::report
