// How landers pace themselves under contention (docs/land.md): the durations
// of the time budget, the jittered exponential backoff between attempts,
// and the lease they take turns under — a commit on the remote at
// refs/ledgergate/land-lock whose message names its holder and when it
// expires. Pure functions; land.cpp drives them over the transport.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "ledgergate/util/backoff.hpp"

namespace lg::land {

using util::Millis;

// "250ms", "30s", "5m", "1h", "1m30s", or a bare number of seconds ("90");
// nullopt when malformed or out of range (more than a week).
std::optional<Millis> parse_duration(std::string_view text);
// "0s", "250ms", "1.5s", "2m05s", "1h00m".
std::string format_duration(Millis d);

// The delay before retry `retry`: util::backoff_delay, the formula every
// retrying writer shares (equal jitter over a capped doubling).
using util::backoff_delay;

// The ref landers queue on, on the remote.
inline constexpr std::string_view k_lease_ref = "refs/ledgergate/land-lock";

struct Lease {
  std::string holder;           // who holds it ("host pid N #nonce")
  std::string branch;           // the branch it is landing
  long long expires_ms = 0;     // wall clock, milliseconds since the epoch
};

// The lease commit's message, and back; nullopt when the message is not a lease.
std::string lease_message(const Lease& l);
std::optional<Lease> parse_lease(std::string_view message);

}  // namespace lg::land
