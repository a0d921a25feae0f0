#include "ledgergate/report/project.hpp"

#include "ledgergate/report/format.hpp"
#include "ledgergate/util/json.hpp"
#include "ledgergate/util/quote.hpp"

namespace lg::report {
namespace {

std::string json_document(const ProjectResult& r) {
  util::JsonWriter w;
  write_json_head(w, "project", r.refused ? diag::Verdict::fail : diag::Verdict::pass);
  w.key("verb").string(r.verb).key("refused").boolean(r.refused);
  w.key("message").string(r.message).key("changed").boolean(!r.paths.empty());
  w.key("paths").begin_array();
  for (const std::string& p : r.paths) w.string(p);
  w.end_array().key("lines").begin_array();
  for (const std::string& l : r.lines) w.string(l);
  w.end_array().key("commit");
  r.commit ? w.string(*r.commit) : w.null();
  w.key("branch").string_or_null(r.commit ? r.branch : std::string());
  w.key("attempts").number(r.attempts).end_object();
  return w.str() + "\n";
}

// `message`'s lines, each escaped by `escape`: a success message's line
// breaks are its own (the issue block, the gates listing), while nothing a
// line quotes can add one.
std::string escaped_lines(std::string_view message, std::string (*escape)(std::string_view)) {
  std::string out;
  for (std::size_t start = 0;;) {
    const std::size_t lf = message.find('\n', start);
    out += escape(message.substr(start, lf == std::string_view::npos ? message.npos : lf - start));
    if (lf == std::string_view::npos) return out;
    out += '\n';
    start = lf + 1;
  }
}

std::string text_success(const ProjectResult& r) {
  std::string out = escaped_lines(r.message, util::escape_controls) + "\n";
  if (r.commit) {
    out += "committed " + r.commit->substr(0, 12) + " on " + r.branch;
    if (r.attempts > 1) out += " (attempt " + std::to_string(r.attempts) + ")";
    out += "\n";
  } else if (r.paths.empty() && r.verb != "issue" && r.verb != "gates") {  // the read-only verbs
    out += "nothing to write\n";
  }
  return out;
}

}  // namespace

ProjectOutput render_project(const ProjectResult& r, const std::string& format) {
  if (format == "json") return {json_document(r), ""};
  if (format == "cortex") {
    if (r.refused) return {"", "cortex " + r.verb + ": " + util::escape_cortex(r.message) + "\n"};
    return {escaped_lines(r.message, util::escape_cortex) + "\n", ""};
  }
  if (r.refused) {
    const std::string& words = r.human.empty() ? r.message : r.human;
    return {"", "ledgergate: project " + r.verb + ": refused: " + util::escape_controls(words) + "\n"};
  }
  return {text_success(r), ""};
}

ProjectOutput render_project_problem(const std::string& verb, const std::string& message, const std::string& format,
                                     diag::Verdict verdict) {
  if (format == "cortex") return {"", "cortex " + verb + ": " + util::escape_cortex(message) + "\n"};
  if (format == "json" && verdict == diag::Verdict::error) return {render_json_error("project", message), ""};
  if (format == "json") {
    ProjectResult r;
    r.verb = verb;
    r.refused = true;
    r.message = message;
    return {json_document(r), ""};
  }
  return {"", "ledgergate: project " + verb + ": " + util::escape_controls(message) + "\n"};
}

}  // namespace lg::report
