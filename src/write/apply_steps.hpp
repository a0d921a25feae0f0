// The step apply_to_directory and apply_as_commit share (apply.hpp): edit,
// then validate, before either writes anything.
#pragma once

#include "ledgergate/write/apply.hpp"

namespace lg::write {

// Runs `editor` on `tree` and, when options.validate, validates the change it
// answers: attempt `attempt`'s Applied, its outcome the editor's or the
// refusal validation gives. Nothing is written.
Result<Applied> edit_validated(git::TreeSource& tree, const Editor& editor, const ApplyOptions& options, int attempt);

// The change `applied` has yet to write; null for a refusal or a change of no files.
const Change* to_write(const Applied& applied);

}  // namespace lg::write
