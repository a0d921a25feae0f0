// A classification as text, as the reference prints it, and as JSON.
#include "ledgergate/report/classify.hpp"

#include <fmt/format.h>

#include "ledgergate/report/format.hpp"
#include "ledgergate/util/json.hpp"
#include "ledgergate/util/quote.hpp"

namespace lg::report {
namespace {

constexpr std::string_view k_nothing = "no changed paths \xE2\x80\x94 nothing to merge\n";

std::string_view class_name(policy::PathClass cls) { return cls == policy::PathClass::ledger ? "ledger" : "code"; }

}  // namespace

std::string render_classification_text(const policy::Classification& c) {
  if (c.paths.empty()) return std::string(k_nothing);
  std::string out;
  for (const policy::Classified& p : c.paths) {
    out += fmt::format("{:<6} {}  ({})\n", class_name(p.cls), util::quote_path(p.path), util::escape_controls(p.reason));
  }
  out += c.code_count() ? fmt::format("code: {} of {} path(s) need a human\n", c.code_count(), c.paths.size())
                        : fmt::format("ledger-only: {} path(s)\n", c.paths.size());
  return out;
}

std::string render_classification_cortex(const policy::Classification& c) {
  if (c.paths.empty()) return std::string(k_nothing);
  const std::size_t code = c.code_count();
  std::string out = code > 0 ? fmt::format("code: {} of {} path(s) need a human\n", code, c.paths.size())
                             : fmt::format("ledger-only: {} path(s)\n", c.paths.size());
  for (const policy::Classified& p : c.paths) {
    if (code == 0 || p.cls == policy::PathClass::code) out += "  " + util::escape_cortex(p.path) + "\n";
  }
  return out;
}

std::string render_classification_json(const policy::Classification& c) {
  util::JsonWriter w;
  const bool ledger_only = !c.paths.empty() && c.code_count() == 0;  // the command's pass (exit 0)
  write_json_head(w, "classify", ledger_only ? diag::Verdict::pass : diag::Verdict::fail);
  w.key("classification").string(c.paths.empty() ? "empty" : ledger_only ? "ledger" : "code");
  w.key("policy").string(c.policy);
  for (const policy::PathClass cls : {policy::PathClass::ledger, policy::PathClass::code}) {
    w.key(class_name(cls)).begin_array();
    for (const policy::Classified& p : c.paths) {
      if (p.cls == cls) w.string(p.path);
    }
    w.end_array();
  }
  w.key("paths").begin_array(util::JsonLayout::lines(2, false));
  for (const policy::Classified& p : c.paths) {
    w.begin_object().key("path").string(p.path).key("class").string(class_name(p.cls));
    w.key("reason").string(p.reason).end_object();
  }
  w.end_array().end_object();
  return w.str() + "\n";
}

}  // namespace lg::report
