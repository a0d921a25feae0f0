// Tree entry names git's own fsck rejects ("", ".", "..", ".git" in any case,
// a name holding '/'): a tree holding one cannot be checked out, so no
// command judges it; every tree read by id goes through check_tree_names.
#include "libgit2.hpp"
#include "ledgergate/util/text.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <unordered_set>

namespace lg::git {

std::optional<std::string_view> malformed_name_reason(std::string_view name) {
  if (name.empty()) return "an empty name";
  if (std::memchr(name.data(), '/', name.size())) return "a name holding '/'";
  if (name[0] != '.') return std::nullopt;  // the rest all start with '.'
  if (name == "." || name == "..") return "a name that is a path step";
  const auto lower_equal = [](std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
             return std::tolower(static_cast<unsigned char>(x)) == y;
           });
  };
  if (lower_equal(name, ".git")) return "a name git reserves";
  return std::nullopt;
}

Error malformed_name_error(const git_oid& tree, std::string_view name, std::string_view reason) {
  return make_error(ErrorKind::invalid_input, "tree " + oid_hex(tree) + " holds a malformed entry " +
                                                  util::py_repr(util::sanitize_utf8(name)) + " (" + std::string(reason) +
                                                  ", which git fsck rejects): the tree cannot be judged");
}

Result<void> check_tree_names(const git_tree* tree) {
  // A tree's names are a function of its id: one of many entries is
  // checked once per thread however often it is looked up (libgit2's cache
  // hands the same tree to every look-up).
  constexpr std::size_t k_remembered_from = 64, k_max_remembered = 4096;
  thread_local std::unordered_set<ObjectId> checked;
  const std::size_t n = git_tree_entrycount(tree);
  const bool remember = n >= k_remembered_from;
  if (remember && checked.count(from_git(*git_tree_id(tree))) != 0) return {};
  for (std::size_t i = 0; i < n; ++i) {
    const std::string_view name = git_tree_entry_name(git_tree_entry_byindex(tree, i));
    if (const auto reason = malformed_name_reason(name)) return malformed_name_error(*git_tree_id(tree), name, *reason);
  }
  if (remember) {
    if (checked.size() >= k_max_remembered) checked.clear();
    checked.insert(from_git(*git_tree_id(tree)));
  }
  return {};
}

}  // namespace lg::git
