// `ledgergate project VERB`'s output: the reference's exact lines
// (`--format cortex`), ledgergate's own text, or one JSON document.
// Pure functions; the CLI prints.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ledgergate/diag/verdict.hpp"

namespace lg::report {

// What a verb did (or why it did not), as the CLI learnt it.
struct ProjectResult {
  std::string verb;
  bool refused = false;
  std::string message;                // the success line(s) or the refusal, no final newline
  std::string human;                  // a refusal in ledgergate's own words (--format text); "" = message
  std::vector<std::string> paths;     // the files changed (written, or in the commit)
  std::vector<std::string> lines;     // the lines the edit wrote
  std::optional<std::string> commit;  // the new commit's hex id (--commit)
  std::string branch;                 // the branch moved (--commit)
  int attempts = 1;                   // --commit: tries until the ref moved
};

struct ProjectOutput {
  std::string out, err;
};

// format: "cortex", "text" or "json" (`ledgergate-project/2`: verdict pass,
// or fail when refused; docs/schemas/project.schema.json). The cortex
// format prints the reference's bytes (util::escape_cortex), the text
// format escapes as git quotes (util::escape_controls) and words a refusal
// in `human` when it has one; JSON carries the reference's message.
ProjectOutput render_project(const ProjectResult& r, const std::string& format);
// A problem that stops the verb before it reads the tree (`--root` not a
// directory, a bad `--today`): "cortex VERB: message" in the reference's
// format, "ledgergate: project VERB: message" otherwise (JSON: a refused
// document for `fail`, the error document for `error`: the verdict the CLI
// exits with).
ProjectOutput render_project_problem(const std::string& verb, const std::string& message, const std::string& format,
                                     diag::Verdict verdict);

}  // namespace lg::report
