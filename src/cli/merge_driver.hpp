// The merge driver's installation as the CLI runs it, shared by
// `merge-driver install` and `hooks install --merge-driver`.
#pragma once

#include <string>

#include "exit_code.hpp"
#include "ledgergate/git/repository.hpp"

namespace lg::cli {

struct MergeDriverOptions {
  std::string attributes_file = "info";  // info | committed
  std::string profile;                   // pins the layout whose patterns are registered
  bool force = false;                    // replace or remove a foreign merge.ledgergate.driver
};

// Installs the driver into `repo` and prints what changed; errors are reported.
ExitCode install_merge_driver(const git::Repository& repo, const MergeDriverOptions& o);
// Whether `repo` has ledgergate's driver and an attributes block (for the hint).
bool merge_driver_installed(const git::Repository& repo);

}  // namespace lg::cli
