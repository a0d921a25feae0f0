// Paths between the current directory and a checked tree: the way to print
// a worktree finding's path so a terminal or editor opens it from here, and
// the tree path a `-- PATH` operand (typed from here) names.
#pragma once

#include <string>

#include "ledgergate/util/result.hpp"

namespace lg::cli {

// The way from the current directory to `root` ("" when it is the current
// directory or `root` is ""), "../.." or "sub/dir"; `root` absolute when no
// relative way exists.
std::string display_base(const std::string& root);

// The path in the tree at `root` that `operand` names from the current
// directory ("" for the whole tree); with `root` "" (a bare repository),
// `operand` is a tree path already. Errors (usage): a path outside the tree.
Result<std::string> tree_path(const std::string& operand, const std::string& root);

}  // namespace lg::cli
