// The era-P/T transition table (spec §6.1).
#include "ledgergate/ledger/pt_edges.hpp"

#include <algorithm>

namespace lg::ledger {
namespace {

constexpr std::array k_edges = {
    PtEdge{"planned", "gated", EdgeOwner::move, ""},
    PtEdge{"planned", "ready", EdgeOwner::move, ""},
    PtEdge{"gated", "ready", EdgeOwner::move, ""},
    PtEdge{"ready", "gated", EdgeOwner::hand, ""},
    PtEdge{"ready", "submitted", EdgeOwner::move, ""},
    PtEdge{"ready", "pulled", EdgeOwner::move, ""},
    PtEdge{"submitted", "running", EdgeOwner::move, ""},
    PtEdge{"submitted", "ready", EdgeOwner::move, ""},
    PtEdge{"running", "ready", EdgeOwner::move, ""},
    PtEdge{"running", "pulled", EdgeOwner::move, ""},
    PtEdge{"pulled", "awaiting-ruling", EdgeOwner::move, ""},
    PtEdge{"rerun", "ready", EdgeOwner::move, ""},
    PtEdge{"awaiting-ruling", "accepted", EdgeOwner::rule, "accept"},
    PtEdge{"awaiting-ruling", "rerun", EdgeOwner::rule, "rerun"},
    PtEdge{"accepted", "rerun", EdgeOwner::rule, "rerun"},
    PtEdge{"accepted", "dropped", EdgeOwner::rule, "drop"},
    PtEdge{"planned", "dropped", EdgeOwner::rule, "drop"},
    PtEdge{"gated", "dropped", EdgeOwner::rule, "drop"},
    PtEdge{"ready", "dropped", EdgeOwner::rule, "drop"},
    PtEdge{"submitted", "dropped", EdgeOwner::rule, "drop"},
    PtEdge{"running", "dropped", EdgeOwner::rule, "drop"},
    PtEdge{"pulled", "dropped", EdgeOwner::rule, "drop"},
    PtEdge{"awaiting-ruling", "dropped", EdgeOwner::rule, "drop"},
    PtEdge{"rerun", "dropped", EdgeOwner::rule, "drop"},
};

}  // namespace

bool is_pt_state(std::string_view state) {
  return std::find(k_pt_states.begin(), k_pt_states.end(), state) != k_pt_states.end();
}

const PtEdge* find_pt_edge(std::string_view from, std::string_view to) {
  for (const PtEdge& e : k_edges) {
    if (e.from == from && e.to == to) return &e;
  }
  return nullptr;
}

std::optional<std::string_view> ruling_verb_target(std::string_view verb) {
  if (verb == "accept") return "accepted";
  if (verb == "rerun") return "rerun";
  if (verb == "drop") return "dropped";
  return std::nullopt;
}

}  // namespace lg::ledger
