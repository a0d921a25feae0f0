// The era-R verbs (`cortex-projects`, spec §8.4) as editors: each reads the
// tree it is given (projects.yaml, projects/<key>.md) and returns the whole
// new content of the files it would write and the reference's success line,
// or the reference's refusal. Nothing here writes: write/apply.hpp validates
// the edit against the whole tree and writes it (or commits it).
//
// Every edit is a line edit of the file as read (write/raw_lines): the lines
// a verb does not touch keep their bytes, CR line ends and BOM included.
// `## Runs` is re-serialised by run, running and done, as the reference
// does; `## Log` is only ever prepended to; `## Now` is replaced whole by now.
#pragma once

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

// `--today`: the reference accepts what date.fromisoformat accepts as YYYY-MM-DD.
bool is_today_value(const std::string& today);

}  // namespace lg::write
