// Ruling ids (spec §2.4: `R-<YYYYMMDD>-<nn>`, filed at
// `rulings/<YYYY>/<MM>/<id>.md`) as the merge gate's ruling detectors and
// `renumber` handle them: the grammar, the path an id is filed at, the ids a
// tree holds for one day, and the lowest free number of a day across trees.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::merge {

struct RulingId {
  std::string id;     // "R-20260901-03"
  std::string date;   // "20260901"
  std::string nn;     // "03"
};

// `R-` + eight ASCII digits + `-` + two ASCII digits (the reference's id
// grammar with ASCII digits; calendar validity is the check's business).
std::optional<RulingId> parse_ruling_id(std::string_view id);

// `rulings/<YYYY>/<MM>/<id>.md`.
std::string ruling_path(const RulingId& id);

// The ruling id a path is filed as: the stem of `rulings/**/<id>.md` when it
// parses as an id; nullopt otherwise (rulings/AGENTS.md, other files).
std::optional<std::string> ruling_id_of_path(std::string_view path);

// The ids filed for day `date` (YYYYMMDD) in `tree`, read from the stems of
// `rulings/<YYYY>/<MM>/R-<date>-*.md`.
Result<std::set<std::string>> ruling_ids_of_day(git::TreeSource& tree, std::string_view date);

// The lowest `R-<date>-<nn>` (nn = 01…99) not in `taken`; nullopt when all
// 99 are taken (the reference's `rule` refuses the 100th ruling of a day).
std::optional<std::string> next_free_ruling_id(std::string_view date, const std::set<std::string>& taken);

}  // namespace lg::merge
