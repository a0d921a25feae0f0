// Renderings of `merge-driver install|uninstall|status` (hooks/merge_driver.hpp)
// and the hint `hooks install` prints beside its hooks. Pure functions.
#pragma once

#include <string>

#include "ledgergate/hooks/merge_driver.hpp"

namespace lg::report {

// The configuration keys and the attributes block, with what was done to each
// (and the values install saved or uninstall put back, a line each).
std::string render_driver_change(const hooks::DriverChange& change);
// The driver's keys and block as they are, and whether they match what install would write.
std::string render_driver_status(const hooks::DriverStatus& status);
// `hooks install`'s line offering the merge driver when it is not installed.
std::string render_merge_driver_hint();

}  // namespace lg::report
