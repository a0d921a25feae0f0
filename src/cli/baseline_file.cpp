// Reading a baseline file (cli/baseline_file.hpp).
#include "baseline_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace lg::cli {

Result<diag::Baseline> read_baseline(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in.is_open()) {
    return make_error(ErrorKind::io, "--baseline " + path + ": " + std::strerror(errno));
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return make_error(ErrorKind::io, "--baseline " + path + ": cannot read it");
  auto baseline = diag::Baseline::parse(ss.str());
  if (!baseline) return baseline.error().with_context("--baseline " + path);
  return baseline;
}

}  // namespace lg::cli
