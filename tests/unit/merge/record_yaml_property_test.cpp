// Property test of the projects.yaml record merge: from a random base, each
// side changes fields of rows, adds rows and removes rows; the merge must
// equal the field-wise three-way merge of the rows (new rows: one side's
// after the other's) and be a conflict exactly where that is undefined (one
// field set to two values, a row removed on one side and changed on the
// other, one new key added on both sides with different fields).
// Fixed seed; LEDGERGATE_PROPERTY_ITERATIONS raises the default 300.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "ledgergate/merge/record_merge.hpp"

namespace {

const std::vector<std::string> k_fields = {"remote", "partition", "status", "note"};

struct Row {
  std::string key;
  std::map<std::string, std::string> fields;  // printed in k_fields order
  friend bool operator==(const Row&, const Row&) = default;
};
using Rows = std::vector<Row>;

std::string render(const Rows& rows) {
  std::string s = "# projects (a comment the merge keeps)\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (i > 0) s += "\n";
    s += rows[i].key + ":\n";
    for (const auto& f : k_fields) {
      const auto it = rows[i].fields.find(f);
      if (it != rows[i].fields.end()) s += "  " + f + ": " + it->second + "\n";
    }
  }
  return s;
}

std::uint32_t pick(std::mt19937& rng, std::uint32_t n) { return static_cast<std::uint32_t>(rng() % n); }

const Row* find(const Rows& rows, const std::string& key) {
  for (const Row& r : rows) {
    if (r.key == key) return &r;
  }
  return nullptr;
}

void edit(Rows& rows, const std::string& tag, std::mt19937& rng, bool shared_add) {
  const int steps = static_cast<int>(pick(rng, 4));
  for (int i = 0; i < steps; ++i) {
    switch (pick(rng, 4)) {
      case 0:
      case 1:
        if (!rows.empty()) {
          Row& r = rows[pick(rng, static_cast<std::uint32_t>(rows.size()))];
          r.fields[k_fields[pick(rng, 4)]] = tag + std::to_string(i);
        }
        break;
      case 2: rows.push_back(Row{tag + "_new" + std::to_string(i), {{"status", "planned"}}}); break;
      default:
        if (!rows.empty()) rows.erase(rows.begin() + pick(rng, static_cast<std::uint32_t>(rows.size())));
    }
  }
  if (shared_add) rows.push_back(Row{"shared", {{"status", "planned"}, {"note", tag}}});
}

// The model: nullopt where a conflict is due.
std::optional<Rows> model(const Rows& base, const Rows& ours, const Rows& theirs, bool ours_first) {
  Rows out;
  for (const Row& b : base) {
    const Row* o = find(ours, b.key);
    const Row* t = find(theirs, b.key);
    if (o == nullptr || t == nullptr) {
      const Row* kept = o != nullptr ? o : t;
      if (kept != nullptr && !(*kept == b)) return std::nullopt;  // removed on one side, changed on the other
      continue;
    }
    Row m{b.key, {}};
    for (const auto& f : k_fields) {
      const auto value = [&](const Row& r) -> std::optional<std::string> {
        const auto it = r.fields.find(f);
        return it == r.fields.end() ? std::nullopt : std::optional<std::string>(it->second);
      };
      const auto vb = value(b), vo = value(*o), vt = value(*t);
      const auto v = vo == vt || vt == vb ? vo : vo == vb ? vt : std::nullopt;
      if (vo != vt && vt != vb && vo != vb) return std::nullopt;
      if (v) m.fields[f] = *v;
    }
    out.push_back(m);
  }
  const auto added = [&](const Rows& side) {
    Rows a;
    for (const Row& r : side) {
      if (find(base, r.key) == nullptr) a.push_back(r);
    }
    return a;
  };
  const Rows ao = added(ours), at = added(theirs);
  for (const Row& r : ao) {
    if (find(at, r.key) != nullptr) return std::nullopt;  // only the shared key can collide, with different fields
  }
  const Rows& first = ours_first ? ao : at;
  const Rows& second = ours_first ? at : ao;
  out.insert(out.end(), first.begin(), first.end());
  out.insert(out.end(), second.begin(), second.end());
  return out;
}

}  // namespace

TEST_CASE("record merge property: concurrent projects.yaml edits", "[merge][record][property]") {
  std::mt19937 rng(14);
  const char* env = std::getenv("LEDGERGATE_PROPERTY_ITERATIONS");
  const int iterations = env != nullptr ? std::atoi(env) : 300;
  int clean = 0, conflicted = 0;
  for (int it = 0; it < iterations; ++it) {
    Rows base;
    const int n = 1 + static_cast<int>(pick(rng, 5));
    for (int i = 0; i < n; ++i) {
      base.push_back(Row{"p" + std::to_string(i), {{"remote", "none"}, {"partition", "gpu"}, {"status", "active"}}});
    }
    Rows ours = base, theirs = base;
    const bool shared = pick(rng, 8) == 0;
    edit(ours, "o", rng, shared);
    edit(theirs, "t", rng, shared);
    const std::string b = render(base), o = render(ours), t = render(theirs);
    INFO("iteration " << it << "\n--- base\n" << b << "--- ours\n" << o << "--- theirs\n" << t);
    auto r = lg::merge::merge_records(lg::merge::RecordFormat::projects_yaml, b, o, t);
    REQUIRE(r.has_value());
    INFO("--- merged\n" << r->bytes);
    const auto a = model(base, ours, theirs, true), z = model(base, ours, theirs, false);
    if (!a) {
      ++conflicted;
      CHECK_FALSE(r->clean());
    } else {
      ++clean;
      REQUIRE(r->clean());
      // The rows and their fields exactly; blank lines between rows are layout the model does not predict.
      const auto rows_only = [](std::string text) {
        for (std::size_t p; (p = text.find("\n\n")) != std::string::npos;) text.erase(p, 1);
        return text;
      };
      CHECK((rows_only(r->bytes) == rows_only(render(*a)) || rows_only(r->bytes) == rows_only(render(*z))));
    }
    CHECK(lg::merge::merge_records(lg::merge::RecordFormat::projects_yaml, b, o, t)->bytes == r->bytes);
  }
  CHECK(clean > 0);
  CHECK(conflicted > 0);
}
