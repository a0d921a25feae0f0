// `req summary` as text and as one JSON document.
#include "ledgergate/report/req.hpp"

#include "ledgergate/report/format.hpp"
#include "ledgergate/util/json.hpp"

namespace lg::report {
namespace {

std::string history_list(const std::vector<std::int64_t>& h) {
  std::string out = "[";
  for (std::size_t i = 0; i < h.size(); ++i) out += (i ? ", " : "") + std::to_string(h[i]);
  return out + "]";
}

}  // namespace

std::string render_orl_summary_text(const rules::OrlSummary& s, const std::string& path) {
  std::string out = path + ": " + std::to_string(s.entries) + " entries\n";
  out += "  status:   open " + std::to_string(s.open) + ", resolved " + std::to_string(s.resolved) + ", surrendered " +
         std::to_string(s.surrendered) + "\n";
  out += "  kind:     gap " + std::to_string(s.gaps) + ", dropped " + std::to_string(s.dropped) + "\n";
  out += "  blocking: " + std::to_string(s.blocking) + " (open " + std::to_string(s.open_blocking) + ")\n";
  out += "  drops:    " + std::to_string(s.dropped_units) + " units dropped in " + std::to_string(s.drops.size()) +
         " entries\n";
  for (const rules::OrlSummary::Drop& d : s.drops) {
    out += "    - " + d.id + " (" + d.status + "): " + d.units + (d.struck ? "  [because struck]" : d.cited ? "" : "  [uncited]") + "\n";
  }
  out += "  uncited:  " + (s.uncited.empty() ? std::string("none") : std::string()) ;
  for (std::size_t i = 0; i < s.uncited.size(); ++i) out += (i ? ", " : "") + s.uncited[i];
  out += "\n";
  if (s.has_budget) {
    out += "  budget:   escalations " + std::to_string(s.escalations) + " of cap " + std::to_string(s.cap) +
           ", open_history " + history_list(s.open_history) + ": " +
           (s.converges ? "converges" : "does not converge") + "\n";
  } else {
    out += "  budget:   none\n";
  }
  return out;
}

std::string render_orl_summary_json(const rules::OrlSummary& s, const std::string& path) {
  util::JsonWriter w;
  write_json_head(w, "req", diag::Verdict::pass);
  w.key("path").string(path).key("entries").number(s.entries);
  w.key("status").begin_object().key("open").number(s.open).key("resolved").number(s.resolved);
  w.key("surrendered").number(s.surrendered).end_object();
  w.key("kind").begin_object().key("gap").number(s.gaps).key("dropped").number(s.dropped).end_object();
  w.key("blocking").begin_object().key("total").number(s.blocking).key("open").number(s.open_blocking).end_object();
  w.key("drops").begin_object().key("units").number(s.dropped_units).key("entries").begin_array();
  for (const rules::OrlSummary::Drop& d : s.drops) {
    w.begin_object().key("id").string(d.id).key("status").string(d.status).key("units").string(d.units);
    w.key("count");
    d.count ? w.number(*d.count) : w.null();
    w.key("cited").boolean(d.cited).key("struck").boolean(d.struck).end_object();
  }
  w.end_array().key("uncited").begin_array();
  for (const std::string& id : s.uncited) w.string(id);
  w.end_array().end_object().key("budget");
  if (s.has_budget) {
    w.begin_object().key("escalations").number(s.escalations).key("cap").number(s.cap).key("open_history").begin_array();
    for (const std::int64_t n : s.open_history) w.number(n);
    w.end_array().key("converges").boolean(s.converges).end_object();
  } else {
    w.null();
  }
  w.end_object();
  return w.str() + "\n";
}

}  // namespace lg::report
