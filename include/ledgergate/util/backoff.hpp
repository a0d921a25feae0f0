// The jittered exponential backoff of every writer that retries a lost race
// (`land`'s attempts and lease polls, `project --commit`'s compare-and-swap):
// one formula, so their pacing cannot drift apart.
#pragma once

#include <chrono>

namespace lg::util {

using Millis = std::chrono::milliseconds;

// The delay before retry `retry` (1 = the first): base·2^(retry−1), at most
// `cap` (and never below `base`), scaled into [½, 1] of itself by `unit` ∈
// [0, 1) — "equal jitter", so writers that collided once spread out.
Millis backoff_delay(int retry, Millis base, Millis cap, double unit);

}  // namespace lg::util
