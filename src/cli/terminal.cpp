// The colour decision (terminal.hpp).
#include "terminal.hpp"

#include <unistd.h>

#include <cstdlib>

namespace lg::cli {

bool use_color(std::string_view mode, std::FILE* stream) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color != nullptr && *no_color != '\0') return false;
  return isatty(fileno(stream)) == 1;
}

}  // namespace lg::cli
