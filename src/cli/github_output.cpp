// Appending the markdown summary for GitHub Actions.
#include "github_output.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "errors.hpp"

namespace lg::cli {

void append_step_summary(const std::string& markdown) {
  const char* path = std::getenv("GITHUB_STEP_SUMMARY");
  if (path == nullptr || *path == '\0') return;
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path, "a"), &std::fclose);
  if (!file || std::fwrite(markdown.data(), 1, markdown.size(), file.get()) != markdown.size()) {
    print_warning(fmt::format("cannot append to $GITHUB_STEP_SUMMARY ({}): {}", path, std::strerror(errno)));
  }
}

}  // namespace lg::cli
