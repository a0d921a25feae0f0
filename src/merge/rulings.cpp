// Ruling ids: grammar, filing path, a day's ids in a tree, the next free one.
#include "ledgergate/merge/rulings.hpp"

#include <algorithm>

namespace lg::merge {
namespace {

bool ascii_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

std::optional<RulingId> parse_ruling_id(std::string_view id) {
  if (id.size() != 13 || id.substr(0, 2) != "R-" || id[10] != '-') return std::nullopt;
  const std::string_view date = id.substr(2, 8);
  const std::string_view nn = id.substr(11, 2);
  if (!ascii_digits(date) || !ascii_digits(nn)) return std::nullopt;
  return RulingId{std::string(id), std::string(date), std::string(nn)};
}

std::string ruling_path(const RulingId& id) {
  return "rulings/" + id.date.substr(0, 4) + "/" + id.date.substr(4, 2) + "/" + id.id + ".md";
}

std::optional<std::string> ruling_id_of_path(std::string_view path) {
  if (path.substr(0, 8) != "rulings/" || path.size() < 3 || path.substr(path.size() - 3) != ".md") {
    return std::nullopt;
  }
  const std::size_t slash = path.rfind('/');
  const std::string_view stem = path.substr(slash + 1, path.size() - slash - 4);
  if (!parse_ruling_id(stem)) return std::nullopt;
  return std::string(stem);
}

Result<std::set<std::string>> ruling_ids_of_day(git::TreeSource& tree, std::string_view date) {
  std::set<std::string> out;
  const std::string dir = "rulings/" + std::string(date.substr(0, 4)) + "/" + std::string(date.substr(4, 2));
  LG_TRY(auto entries, tree.list(dir));
  if (!entries) return out;
  const std::string prefix = "R-" + std::string(date) + "-";
  for (const git::Entry& e : *entries) {
    if (e.kind == git::EntryKind::directory || e.name.size() < 3 || e.name.compare(e.name.size() - 3, 3, ".md") != 0) {
      continue;
    }
    const std::string stem = e.name.substr(0, e.name.size() - 3);
    if (stem.rfind(prefix, 0) == 0 && parse_ruling_id(stem)) out.insert(stem);
  }
  return out;
}

std::optional<std::string> next_free_ruling_id(std::string_view date, const std::set<std::string>& taken) {
  for (int n = 1; n <= 99; ++n) {
    const std::string id = "R-" + std::string(date) + "-" + (n < 10 ? "0" : "") + std::to_string(n);
    if (!taken.count(id)) return id;
  }
  return std::nullopt;
}

}  // namespace lg::merge
