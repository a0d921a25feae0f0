// Runs a program from an argument vector (posix_spawnp, never a shell) and
// collects its exit status, stdout and stderr. The transport of `land`
// drives the `git` CLI through it.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "ledgergate/util/result.hpp"

namespace lg::land {

struct ProcessResult {
  int exit_code = -1;  // the program's status; 128+N when killed by signal N
  std::string out;
  std::string err;
};

// Runs argv[0] (looked up in PATH) with `argv`, stdin from /dev/null, the
// current environment plus `env` overrides ("NAME", "value"). Errors: the
// program could not be started, or its output could not be read.
Result<ProcessResult> run_process(const std::vector<std::string>& argv,
                                  const std::vector<std::pair<std::string, std::string>>& env = {});

}  // namespace lg::land
