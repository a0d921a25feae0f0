// The fuzz targets' entry functions, shared by the libFuzzer binaries (built
// with clang, -DLEDGERGATE_FUZZ=ON) and the replay driver the ordinary test
// suite runs over tests/fuzz/regressions/<target>/ (no fuzzing engine).
#pragma once

#include <span>
#include <string_view>

namespace lg::fuzz {

struct Target {
  std::string_view name;
  // Feeds one input to the library; returns normally unless the library
  // misbehaves (a sanitizer report, an assertion, an uncaught exception).
  void (*run)(std::string_view data);
};

// Every target, by name.
std::span<const Target> targets();
const Target* find_target(std::string_view name);

}  // namespace lg::fuzz
