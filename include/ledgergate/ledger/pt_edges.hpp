// The era-P/T state machine of a phase or task file (spec §2.9, §3.4, §6.1):
// the states, the edges of the transition table with the verb that owns
// each, and a ruling verb's target state. One table read by the writer
// (`move`, `rule`: write/cortex_pt) and the history audit
// (audit/pt_invariants), so what the writer may write and what the audit
// accepts cannot drift apart. The P1 differences (gated → ready needs a
// clearance, ready → gated is the grader's) are guards the readers add.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace lg::ledger {

// In the reference's order (the order its "not a task state" message lists them).
inline constexpr std::array<std::string_view, 10> k_pt_states = {
    "planned", "gated", "ready", "submitted", "running", "pulled", "awaiting-ruling", "accepted", "rerun", "dropped"};

bool is_pt_state(std::string_view state);

enum class EdgeOwner { move, rule, hand };

struct PtEdge {
  std::string_view from, to;
  EdgeOwner owner;
  std::string_view verb;  // the ruling verb of a rule edge ("" otherwise)
};

// Every edge of §6.1 that changes `State:` (self-loops are not edges).
const PtEdge* find_pt_edge(std::string_view from, std::string_view to);

// The ruling verbs, and the state each moves its target to (leave-to-finish: none).
inline constexpr std::array<std::string_view, 4> k_ruling_verbs = {"accept", "rerun", "drop", "leave-to-finish"};
std::optional<std::string_view> ruling_verb_target(std::string_view verb);

}  // namespace lg::ledger
