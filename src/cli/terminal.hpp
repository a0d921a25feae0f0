// Whether text output is coloured: `--color always|never`, else (auto) a
// terminal unless NO_COLOR is set to a non-empty value (no-color.org).
#pragma once

#include <cstdio>
#include <string_view>

namespace lg::cli {

bool use_color(std::string_view mode, std::FILE* stream);

}  // namespace lg::cli
