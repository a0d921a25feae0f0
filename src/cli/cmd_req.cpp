// `ledgergate req <verb> FILE ...`: the open-requirements protocol steps.
// Each step reads the file (a missing file is an empty ledger), computes the
// next version, validates it (every single-version rule, and every
// cross-version rule against the file as it was), and only then replaces the
// file atomically (temporary file + rename). A refused step writes nothing
// and exits 1 with the reason; an I/O error exits 2.

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>

#include "commands.hpp"
#include "errors.hpp"
#include "file_io.hpp"
#include "ledgergate/report/format.hpp"
#include "ledgergate/report/notices.hpp"
#include "ledgergate/report/req.hpp"
#include "ledgergate/rules/orl_protocol.hpp"

namespace lg::cli {
namespace {

void say(const std::string& s) { std::fputs(s.c_str(), stderr); }

using Step = std::function<Result<std::string>(std::string_view)>;

ExitCode apply(const std::string& path, const std::string& verb, const Step& step) {
  bool exists = false;
  auto before = read_file_bytes(path, exists);
  if (!before) return ExitCode::error;
  auto after = step(*before);
  if (!after) {
    if (after.error().kind != ErrorKind::invalid_input) return report_error(after.error());
    say(report::render_req_refusal(verb, after.error().message));
    return ExitCode::fail;
  }
  auto findings = rules::validate_step(*before, *after, path);
  const bool blocked = std::any_of(findings.begin(), findings.end(),
                                   [](const diag::Finding& f) { return f.severity == diag::Severity::error; });
  std::fputs(report::render_text(findings, false).c_str(), stdout);
  if (blocked) {
    say(report::render_req_blocked(verb, path));
    return ExitCode::fail;
  }
  if (exists && *after == *before) return ExitCode::pass;
  return write_atomically(path, *after) ? ExitCode::pass : ExitCode::error;
}

struct ReqOptions {
  std::string file, id, raised_by, unmet, missing, step, units, because, by, note, refutes, quote, text, format = "text";
  bool blocking = false, all = false;
  std::optional<std::int64_t> baseline, cap;
};

CLI::App* verb(CLI::App* req, const std::string& name, const std::string& help, ReqOptions& o) {
  CLI::App* cmd = req->add_subcommand(name, help);
  cmd->add_option("file", o.file, "The ledger file (a missing file is an empty ledger)")->required();
  return cmd;
}

// `init`: an empty ledger, nothing when the file exists.
void add_init(CLI::App* req, const std::shared_ptr<ReqOptions>& o, Globals& globals) {
  CLI::App* init = verb(req, "init", "Create an empty ledger (no-op if the file exists)", *o);
  init->add_option("--cap", o->cap, "Also start the escalation budget with this cap")
      ->check(CLI::PositiveNumber);
  init->callback([o, &globals] {
    bool exists = false;
    auto before = read_file_bytes(o->file, exists);
    if (!before) {
      globals.exit_code = ExitCode::error;
      return;
    }
    if (exists) {
      globals.exit_code = ExitCode::pass;
      return;
    }
    const std::string text = o->cap ? rules::orl_empty_with_cap(*o->cap) : std::string(rules::k_orl_empty);
    globals.exit_code = write_atomically(o->file, text) ? ExitCode::pass : ExitCode::error;
  });
}

// `append` and `drop`: a new entry.
void add_new_entries(CLI::App* req, const std::shared_ptr<ReqOptions>& o, Globals& globals) {
  CLI::App* append = verb(req, "append", "Append an open gap", *o);
  append->add_option("--id", o->id, "Kebab-case id")->required();
  append->add_option("--raised-by", o->raised_by, "The step appending it")->required();
  append->add_option("--unmet", o->unmet, "What is unmet")->required();
  append->add_option("--missing", o->missing, "What is missing")->required();
  append->add_option("--step", o->step, "The draft step it attaches to");
  append->add_flag("--blocking", o->blocking, "A computability gap (counted by the convergence gate)");
  append->callback([o, &globals] {
    rules::OrlNewEntry n{o->id, o->raised_by, o->unmet, o->missing, o->step, o->blocking, false, "", ""};
    globals.exit_code = apply(o->file, "append", [&](std::string_view t) { return rules::orl_append(t, n); });
  });

  CLI::App* drop = verb(req, "drop", "Append an open dropped entry (warns when `because` is uncited)", *o);
  drop->add_option("--id", o->id, "Kebab-case id")->required();
  drop->add_option("--raised-by", o->raised_by, "The step appending it")->required();
  drop->add_option("--units", o->units, "What was dropped, in the source's own terms")->required();
  drop->add_option("--because", o->because, "Why, with its citation")->required();
  drop->add_option("--unmet", o->unmet, "What is unmet")->required();
  drop->add_option("--missing", o->missing, "What is missing")->required();
  drop->add_option("--step", o->step, "The draft step it attaches to");
  drop->callback([o, &globals] {
    rules::OrlNewEntry n{o->id, o->raised_by, o->unmet, o->missing, o->step, false, true, o->units, o->because};
    globals.exit_code = apply(o->file, "drop", [&](std::string_view t) { return rules::orl_append(t, n); });
  });
}

// `resolve`, `supersede` and `note`: an entry closed, refuted or noted.
void add_entry_changes(CLI::App* req, const std::shared_ptr<ReqOptions>& o, Globals& globals) {
  CLI::App* resolve = verb(req, "resolve", "open -> resolved", *o);
  resolve->add_option("id", o->id, "The entry's id")->required();
  resolve->add_option("--by", o->by, "The step closing it")->required();
  resolve->add_option("--note", o->note, "How it closed")->required();
  resolve->callback([o, &globals] {
    globals.exit_code = apply(o->file, "resolve", [&](std::string_view t) {
      return rules::orl_resolve(t, o->id, o->by, o->note);
    });
  });

  CLI::App* supersede =
      verb(req, "supersede", "Append a resolved entry refuting OLD's `because`, and reopen OLD", *o);
  supersede->add_option("--id", o->id, "The new entry's id")->required();
  supersede->add_option("--by", o->by, "The step doing it")->required();
  supersede->add_option("--refutes", o->refutes, "The id of the entry whose justification is refuted")->required();
  supersede->add_option("--quote", o->quote, "The contradiction, quoted into OLD's note")->required();
  supersede->add_option("--unmet", o->unmet, "The new entry's unmet (default: derived)");
  supersede->add_option("--missing", o->missing, "The new entry's missing (default: the quote)");
  supersede->add_option("--note", o->note, "The new entry's note (default: derived)");
  supersede->callback([o, &globals] {
    rules::OrlSupersede s{o->id, o->by, o->refutes, o->quote, o->unmet, o->missing, o->note};
    globals.exit_code = apply(o->file, "supersede", [&](std::string_view t) { return rules::orl_supersede(t, s); });
  });

  CLI::App* note = verb(req, "note", "Set the surrender note of an open entry", *o);
  note->add_option("id", o->id, "The entry's id")->required();
  note->add_option("--text", o->text, "The note")->required();
  note->callback([o, &globals] {
    globals.exit_code = apply(o->file, "note", [&](std::string_view t) { return rules::orl_note(t, o->id, o->text); });
  });
}

// `escalate` and `surrender`: the escalation budget.
void add_budget(CLI::App* req, const std::shared_ptr<ReqOptions>& o, Globals& globals) {
  CLI::App* escalate = verb(req, "escalate",
                            "After a repair: escalations += 1, append the open blocking count; at the cap, "
                            "surrender the open blocking entries",
                            *o);
  escalate->add_option("--baseline", o->baseline, "First escalation only: the count before the repair");
  escalate->add_option("--cap", o->cap, "The cap, when the ledger has no budget yet (default 5)");
  escalate->callback([o, &globals] {
    globals.exit_code = apply(o->file, "escalate", [&](std::string_view t) {
      return rules::orl_escalate(t, o->baseline, o->cap);
    });
  });

  CLI::App* surrender = verb(req, "surrender", "Terminal pass: open blocking entries -> surrendered", *o);
  surrender->add_flag("--all", o->all, "Every open entry, not only the blocking ones");
  surrender->add_option("--note", o->note, "The note for entries that have none");
  surrender->callback([o, &globals] {
    globals.exit_code = apply(o->file, "surrender", [&](std::string_view t) {
      return rules::orl_surrender(t, o->all, o->note);
    });
  });
}

// `summary`: the counts, as text or JSON.
void add_summary(CLI::App* req, const std::shared_ptr<ReqOptions>& o, Globals& globals) {
  CLI::App* summary = verb(req, "summary", "Counts by status, kind, blocking; drops by units; the budget", *o);
  summary->add_option("--format", o->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  summary->callback([o, &globals] {
    expect_error_document("req", o->format);
    bool exists = false;
    auto text = read_file_bytes(o->file, exists);
    if (!text) {
      globals.exit_code = ExitCode::error;
      return;
    }
    auto s = rules::orl_summary(*text);
    if (!s) {
      say(report::render_req_summary_failure(s.error().message));
      print_error_document(s.error().message);
      globals.exit_code = ExitCode::error;
      return;
    }
    std::fputs((o->format == "json" ? report::render_orl_summary_json(*s, o->file)
                                    : report::render_orl_summary_text(*s, o->file))
                   .c_str(),
               stdout);
    globals.exit_code = ExitCode::pass;
  });
}

}  // namespace

void setup_req(CLI::App& app, Globals& globals) {
  auto o = std::make_shared<ReqOptions>();
  CLI::App* req = app.add_subcommand("req", "Open-requirements protocol steps: validated, atomic edits of a ledger file");
  req->require_subcommand(1);
  add_init(req, o, globals);
  add_new_entries(req, o, globals);
  add_entry_changes(req, o, globals);
  add_budget(req, o, globals);
  add_summary(req, o, globals);
}

}  // namespace lg::cli
