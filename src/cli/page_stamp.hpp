// The volatile lines of a generated page (`board`, `audit --format html`):
// this ledgergate's name and the banner's time.
#pragma once

#include "ledgergate/report/board.hpp"

namespace lg::cli {

// generator "ledgergate VERSION"; updated "YYYY-MM-DD HH:MM UTC" of
// SOURCE_DATE_EPOCH (seconds, the reproducible-builds convention) when set,
// else of now.
report::PageStamp page_stamp();

}  // namespace lg::cli
