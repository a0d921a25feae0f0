// Paths between the current directory and a checked tree (cli/paths.hpp).
#include "paths.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>

namespace lg::cli {
namespace fs = std::filesystem;

namespace {
fs::path absolute_of(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  return ec ? fs::absolute(path).lexically_normal() : p;
}
}  // namespace

std::string display_base(const std::string& root) {
  if (root.empty()) return {};
  const fs::path way = absolute_of(root).lexically_relative(absolute_of("."));
  if (way.empty()) return absolute_of(root).generic_string();
  const std::string s = way.generic_string();
  return s == "." ? std::string() : s;
}

namespace {
// "" for "." and "a/b" for "a/b/", or nullopt for a path that leaves the tree.
std::optional<std::string> inside(const fs::path& way) {
  std::string s = way.lexically_normal().generic_string();
  if (way.empty() || way.is_absolute() || s == ".." || s.starts_with("../")) return std::nullopt;
  while (s.ends_with("/")) s.pop_back();
  return s == "." ? std::string() : s;
}
}  // namespace

Result<std::string> tree_path(const std::string& operand, const std::string& root) {
  std::optional<std::string> path;
  // From inside the tree, an operand is written from the current directory;
  // from outside it (a bare repository, `--repo DIR` given from elsewhere),
  // it is a tree path as it is.
  const fs::path way_here = fs::path(display_base(root));
  const bool from_inside = !root.empty() && std::all_of(way_here.begin(), way_here.end(),
                                                        [](const fs::path& part) { return part == ".."; });
  path = from_inside ? inside(absolute_of(operand).lexically_relative(absolute_of(root))) : inside(operand);
  if (!path) return make_error(ErrorKind::usage, "path " + operand + " is outside the checked tree");
  return *path;
}

}  // namespace lg::cli
