// The closed word sets of the ledger grammars (spec §4.2, §2.3, §5.1,
// shared/spec/open-requirements.md), for what offers them: the language
// server's completion. The phase/task states and ruling verbs are pt_edges.hpp's.
#pragma once

#include <array>
#include <string_view>

#include "ledgergate/ledger/pt_edges.hpp"

namespace lg::ledger {

// Era R: a run's state and the partitions `run` writes; a log entry's kind.
inline constexpr std::array<std::string_view, 2> k_run_states = {"open", "running"};
inline constexpr std::array<std::string_view, 2> k_run_partitions = {"gpu", "ral"};
inline constexpr std::array<std::string_view, 4> k_log_kinds = {"run", "result", "lesson", "note"};
// projects.yaml (every PyYAML era): a row's status and partition.
inline constexpr std::array<std::string_view, 4> k_row_statuses = {"active", "dormant", "planned", "retired"};
inline constexpr std::array<std::string_view, 3> k_row_partitions = {"gpu", "ral", "both"};
// Eras P and T: a run line's state (a ruling's verbs are pt_edges.hpp's k_ruling_verbs).
inline constexpr std::array<std::string_view, 8> k_pt_run_states = {"submitted", "running", "done",   "failed",
                                                                    "timeout",   "void",    "legacy", "legacy_wrong"};
// The open-requirements ledger: an entry's status and kind.
inline constexpr std::array<std::string_view, 3> k_orl_statuses = {"open", "resolved", "surrendered"};
inline constexpr std::array<std::string_view, 2> k_orl_kinds = {"gap", "dropped"};

}  // namespace lg::ledger
