// What a writer verb is to the write layer: an editor that reads the tree
// as it is and answers with the whole new content of the files it changes
// (a Change) or why it refuses (a Refusal). Editors never write: the layer
// validates the edit against the whole tree and only then writes it, to a
// directory or as a commit (apply.hpp), so a verb is one pure function for
// every destination.
#pragma once

#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::write {

// The whole new content of one file; `path` is '/'-separated from the root.
struct FileEdit {
  std::string path;
  std::string bytes;
};

// The verb refuses: exit 1, "cortex VERB: message". `human` is the same
// refusal in ledgergate's own words for the text format, where the
// reference's would mislead or could say more ("did you mean ...?"); ""
// when the reference's words serve.
struct Refusal {
  std::string message;
  std::string human = {};
};

struct Change {
  std::vector<FileEdit> files;  // empty: nothing to write (e.g. "already running")
  std::string message;          // the success line(s) the reference prints on stdout, without the final newline
};

using Outcome = std::variant<Change, Refusal>;

// A verb: given the tree as it is, the edit it would make or why it
// refuses. Reads only `tree`; `today` and the verb's arguments are bound by
// the caller. Errors are operational (exit 2). An editor may be run more
// than once (a `--commit` that lost a race re-runs it on the new tip).
using Editor = std::function<Result<Outcome>(git::TreeSource& tree)>;

}  // namespace lg::write
