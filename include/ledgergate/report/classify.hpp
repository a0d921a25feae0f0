// Renderings of a classification (lg::policy): the text people read, the
// reference's exact output and one JSON document. Pure functions.
#pragma once

#include <string>

#include "ledgergate/policy/classifier.hpp"

namespace lg::report {

// One "ledger|code PATH  (reason)" line per path and the tally.
std::string render_classification_text(const policy::Classification& c);

// The reference's output: "ledger-only: N path(s)" / "code: N of M path(s)
// need a human" / "no changed paths — nothing to merge", with paths.
std::string render_classification_cortex(const policy::Classification& c);

// {"schema", "verdict": "pass" (ledger-only) | "fail", "classification":
// "ledger"|"code"|"empty", "policy", "ledger": [...], "code": [...], "paths":
// [{"path", "class", "reason"}]} (docs/json.md)
std::string render_classification_json(const policy::Classification& c);

}  // namespace lg::report
