// The version ledgergate reports (`--version`, SARIF's tool.driver, the audit
// cache's fingerprint): CMake's project(VERSION), passed as a definition.
#pragma once

#include <string_view>

namespace lg::util {

inline constexpr std::string_view k_version = LEDGERGATE_VERSION;

}  // namespace lg::util
