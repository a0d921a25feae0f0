// The merge driver's report lines.
#include "ledgergate/report/merge_driver.hpp"

#include <fmt/format.h>

namespace lg::report {

std::string render_driver_change(const hooks::DriverChange& change) {
  std::string out = fmt::format("{}: {}", hooks::k_driver_key, to_string(change.config));
  if (!change.command.empty()) out += fmt::format(" ({})", change.command);
  out += "\n";
  for (const hooks::ConfigValue& v : change.saved) out += fmt::format("  saved for uninstall: {} = {}\n", v.key, v.value);
  for (const hooks::ConfigValue& v : change.restored) out += fmt::format("  put back: {} = {}\n", v.key, v.value);
  return out + fmt::format("attributes {}: {}\n", change.attributes_path, to_string(change.attributes));
}

std::string render_driver_status(const hooks::DriverStatus& s) {
  std::string out = fmt::format("{}: ", hooks::k_driver_key);
  if (!s.driver) {
    out += "not set\n";
  } else {
    out += fmt::format("{} ({})\n", *s.driver,
                       !s.driver_ours      ? "not ledgergate's"
                       : s.driver_matches ? "installed, this binary"
                                          : "installed, another ledgergate binary: install again to update");
  }
  for (const hooks::ConfigValue& v : s.saved) {
    out += fmt::format("  saved by install, put back by uninstall: {} = {}\n", v.key, v.value);
  }
  out += fmt::format("attributes {}: ", s.attributes_path);
  if (!s.block) return out + "no ledgergate block\n";
  out += fmt::format("{} pattern(s), {}\n", s.block->size(),
                     s.block_matches ? "the detected profile's" : "not the detected profile's: install again to update");
  for (const std::string& p : *s.block) out += fmt::format("  {} merge=ledgergate\n", p);
  return out;
}

std::string render_merge_driver_hint() {
  return "hint: `ledgergate merge-driver install` (or `hooks install --merge-driver`) lets `git merge` merge "
         "ledger files record by record\n";
}

}  // namespace lg::report
