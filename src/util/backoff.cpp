// backoff_delay: equal jitter over a capped doubling.
#include "ledgergate/util/backoff.hpp"

#include <algorithm>

namespace lg::util {

Millis backoff_delay(int retry, Millis base, Millis cap, double unit) {
  if (base.count() <= 0) return Millis(0);
  cap = std::max(cap, base);
  long long d = base.count();  // doubled while below the cap: no overflow
  for (int i = 1; i < retry && d < cap.count(); ++i) d *= 2;
  d = std::min<long long>(d, cap.count());
  unit = std::clamp(unit, 0.0, 1.0);
  return Millis(d / 2 + static_cast<long long>(static_cast<double>(d - d / 2) * unit));
}

}  // namespace lg::util
