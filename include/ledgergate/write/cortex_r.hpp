// The era-R verbs (`cortex-projects`, spec §8.4 and §8.5) as editors: each
// reads the tree it is given (projects.yaml, projects/<key>.md) and returns
// the whole new content of the files it would write and the reference's
// success line, or the reference's refusal, its checks in the reference's
// order (§8.5.1). Nothing here writes: write/apply.hpp validates the edit
// and writes it (or commits it).
//
// Every edit is a line edit of the file as read (write/raw_lines): the lines
// a verb does not touch keep their bytes, CRLF line ends and BOM included
// (the reference turns every line end into LF on a write: a documented
// deviation). A section a verb rewrites is framed as the reference frames
// it (§8.5.2): an empty line, the body, an empty line. `## Runs` is written
// out again from the parse by run, running and done; `## Log` is prepended
// to, its other lines kept; `## Now` is replaced whole by now.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ledgergate/write/edit.hpp"
#include "ledgergate/write/verb_args.hpp"

namespace lg::write {

// What an edit wrote, for reports: the lines it added or rewrote (the new
// run line, the log entry, the new `Issue:` line ...), in file order.
// An editor given one fills it on every run (a retried commit re-runs it).
struct EditNotes {
  std::vector<std::string> lines;
};

Editor r_new(const NewArgs& args, EditNotes* notes = nullptr);
Editor r_run(const RunArgs& args, EditNotes* notes = nullptr);
Editor r_running(const RunningArgs& args, EditNotes* notes = nullptr);
Editor r_done(const DoneArgs& args, EditNotes* notes = nullptr);
Editor r_log(const LogArgs& args, EditNotes* notes = nullptr);
Editor r_now(const NowArgs& args, EditNotes* notes = nullptr);
// Read-only: the Change holds no file and its message is the issue block.
Editor r_issue(const IssueArgs& args);
Editor r_link(const LinkArgs& args, EditNotes* notes = nullptr);
// Edits projects.yaml's row and prepends the `retired:` note to the ledger
// (when there is one): one Change with both files, or a refusal.
Editor r_retire(const RetireArgs& args, EditNotes* notes = nullptr);

// `--today` as the date written (YYYY-MM-DD): what Python 3.11's
// date.fromisoformat reads (util::iso_date); nullopt when it does not read.
std::optional<std::string> today_value(const std::string& today);

}  // namespace lg::write
