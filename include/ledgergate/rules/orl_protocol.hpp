// The open-requirements protocol steps (`ledgergate req`): each step turns
// the text of a ledger file into its next version by editing text — entry
// blocks are appended, only the touched lines of an entry are rewritten — so
// untouched entries (comments included) stay byte for byte. A step that
// cannot apply is an Error (ErrorKind::invalid_input: the step is refused);
// `validate_step` then judges the whole result, single-version and against
// the previous version, before the caller writes anything.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::rules {

// The text of a new, empty ledger.
inline constexpr std::string_view k_orl_empty = "entries:\n";
// The cap of a budget the first escalation creates without --cap (the seed's example).
inline constexpr std::int64_t k_orl_default_cap = 5;
// The text of a new ledger with an escalation budget.
std::string orl_empty_with_cap(std::int64_t cap);

struct OrlNewEntry {
  std::string id;
  std::string raised_by;
  std::string unmet;
  std::string missing;
  std::string step;  // "" = none
  bool blocking = false;
  bool dropped = false;  // kind: dropped, with units and because
  std::string units;
  std::string because;
};

Result<std::string> orl_append(std::string_view text, const OrlNewEntry& entry);
// open → resolved, with resolved_by and note.
Result<std::string> orl_resolve(std::string_view text, const std::string& id, const std::string& by,
                                const std::string& note);
// Appends NEW (resolved by `by`, supersedes OLD) and reopens OLD: status open,
// resolved_by null, `because` struck, the contradiction quoted in its note.
struct OrlSupersede {
  std::string id, by, refutes, quote;
  std::string unmet, missing, note;  // "" = derived from the quote
};
Result<std::string> orl_supersede(std::string_view text, const OrlSupersede& s);
// Sets the note of an open entry.
Result<std::string> orl_note(std::string_view text, const std::string& id, const std::string& note);
// One escalation: escalations += 1, appends the open blocking count (after
// `baseline` on the first escalation); at the cap, surrenders the open
// blocking entries. `cap` (default k_orl_default_cap) sets up a budget the
// file does not have yet; it must equal an existing budget's cap.
Result<std::string> orl_escalate(std::string_view text, std::optional<std::int64_t> baseline,
                                 std::optional<std::int64_t> cap);
// Terminal pass: open blocking entries (all open entries with `all`) →
// surrendered, each keeping its note or given `note`.
Result<std::string> orl_surrender(std::string_view text, bool all, const std::string& note);

// Every finding of the new version (single-version rules) and of the step
// (cross-version rules from `before`). `before` may be "" (no file yet).
std::vector<diag::Finding> validate_step(std::string_view before, std::string_view after, const std::string& path);

// `req summary`: counts by status, kind and blocking, drops totalled by the
// leading number of their `units`, uncited drops, the budget.
struct OrlSummary {
  std::size_t entries = 0, open = 0, resolved = 0, surrendered = 0, gaps = 0, dropped = 0, blocking = 0,
              open_blocking = 0;
  struct Drop {
    std::string id, status, units;
    std::optional<std::int64_t> count;  // the first number in `units`
    bool cited = false;
    bool struck = false;  // `because` struck by a supersede: no longer a claim
  };
  std::vector<Drop> drops;
  std::int64_t dropped_units = 0;  // sum of the counts
  std::vector<std::string> uncited;
  bool has_budget = false;
  std::int64_t escalations = 0, cap = 0;
  std::vector<std::int64_t> open_history;
  bool converges = true;  // open_history strictly decreasing and escalations <= cap
};
Result<OrlSummary> orl_summary(std::string_view text);

}  // namespace lg::rules
