// The version ledgergate reports (`--version`, SARIF's tool.driver, the audit
// cache's fingerprint): CMake's project(VERSION), passed as a definition; and
// the commit it was built from (`git describe --always --dirty` at build
// time, cmake/version-id.cmake; "unknown" when built outside git).
#pragma once

#include <string>
#include <string_view>

namespace lg::util {

inline constexpr std::string_view k_version = LEDGERGATE_VERSION;
// Defined in the generated build/generated/version_id.cpp.
extern const std::string_view k_build_commit;

// `ledgergate --version`'s line: "ledgergate 0.1.0 (commit v0.1.0-12-gabcdef012345)".
inline std::string version_line() {
  return "ledgergate " + std::string(k_version) + " (commit " + std::string(k_build_commit) + ")";
}

}  // namespace lg::util
