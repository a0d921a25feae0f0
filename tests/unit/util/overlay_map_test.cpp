// util::OverlayMap: copies share a base and keep their own changes. Each
// map is checked against a std::map holding what it should: a change made
// to one (before or after a copy, folded by settle() or not) must never show
// in another.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "ledgergate/util/overlay_map.hpp"

namespace {

struct Item {
  std::string key;
  int value = 0;
};
struct KeyOfItem {
  std::string_view operator()(const Item& i) const { return i.key; }
};
using Map = lg::util::OverlayMap<Item, KeyOfItem>;
using Model = std::map<std::string, int>;

Model contents(const Map& m) {
  Model out;
  std::string last;
  bool first = true;
  m.for_each([&](const Item& i) {
    CHECK((first || last < i.key));  // in key order, no key twice
    first = false;
    last = i.key;
    out.emplace(i.key, i.value);
  });
  return out;
}

void check_same(const Map& m, const Model& model, const std::vector<std::string>& keys) {
  CHECK(contents(m) == model);
  for (const std::string& k : keys) {
    const Item* found = m.find(k);
    auto it = model.find(k);
    REQUIRE((found != nullptr) == (it != model.end()));
    if (found) CHECK(found->value == it->second);
  }
}

}  // namespace

TEST_CASE("overlay map: a copy's changes never show in the original, nor the original's in the copy",
          "[util][overlay_map]") {
  Map original;
  original.assign({{"b", 2}, {"a", 1}, {"d", 4}, {"c", 3}});  // unsorted: assign sorts
  Map copy = original;
  copy.edit("a")->value = 10;
  copy.put({"e", 5});
  copy.erase("c");
  CHECK(copy.overlay_size() == 3);
  CHECK(original.overlay_size() == 0);
  CHECK(contents(original) == Model{{"a", 1}, {"b", 2}, {"c", 3}, {"d", 4}});
  CHECK(contents(copy) == Model{{"a", 10}, {"b", 2}, {"d", 4}, {"e", 5}});

  original.edit("b")->value = 20;
  original.erase("d");
  CHECK(contents(copy) == Model{{"a", 10}, {"b", 2}, {"d", 4}, {"e", 5}});
  CHECK(contents(original) == Model{{"a", 1}, {"b", 20}, {"c", 3}});

  copy.settle(8, 0);  // folded into a base of the copy's own
  CHECK(copy.overlay_size() == 0);
  copy.edit("b")->value = 200;
  CHECK(original.find("b")->value == 20);
  CHECK(original.find("e") == nullptr);
  CHECK(copy.find("c") == nullptr);
  CHECK(copy.edit("c") == nullptr);
  CHECK(contents(copy) == Model{{"a", 10}, {"b", 200}, {"d", 4}, {"e", 5}});

  // Of keys given twice the last is kept; erasing then putting a key back.
  Map twice;
  twice.assign({{"x", 1}, {"x", 2}, {"w", 0}});
  CHECK(contents(twice) == Model{{"w", 0}, {"x", 2}});
  twice.erase("x");
  twice.put({"x", 3});
  CHECK(contents(twice) == Model{{"w", 0}, {"x", 3}});
  twice.erase("y");  // absent: nothing
  twice.put({"y", 4});
  twice.erase("y");
  CHECK(twice.overlay_size() == 1);
  CHECK(contents(twice) == Model{{"w", 0}, {"x", 3}});
}

TEST_CASE("overlay map: random changes to copies of copies agree with a map each", "[util][overlay_map]") {
  const unsigned seed = GENERATE(1u, 2u, 3u, 4u);
  std::mt19937 rng(seed);
  std::vector<std::string> keys;
  for (int i = 0; i < 40; ++i) keys.push_back("k" + std::to_string(i * 7 % 40) + (i % 3 == 0 ? "/x" : ""));
  const auto key = [&] { return keys[std::uniform_int_distribution<std::size_t>(0, keys.size() - 1)(rng)]; };
  std::vector<Map> maps(1);
  std::vector<Model> models(1);
  {
    std::vector<Item> start;
    for (int i = 0; i < 25; ++i) start.push_back({key(), i});
    for (const Item& i : start) models[0][i.key] = i.value;  // the last of a key wins
    maps[0].assign(std::move(start));
  }
  for (int step = 0; step < 3000; ++step) {
    INFO("seed " << seed << ", step " << step);
    const std::size_t at = std::uniform_int_distribution<std::size_t>(0, maps.size() - 1)(rng);
    Map& m = maps[at];
    Model& model = models[at];
    const std::string k = key();
    switch (std::uniform_int_distribution<int>(0, 6)(rng)) {
      case 0:  // a copy
        if (maps.size() < 12) {
          maps.push_back(m);
          models.push_back(model);
        }
        break;
      case 1:
        m.put({k, step});
        model[k] = step;
        break;
      case 2:
        m.erase(k);
        model.erase(k);
        break;
      case 3:
        if (Item* i = m.edit(k)) {
          i->value = -step;
          model.at(k) = -step;
        } else {
          CHECK(model.count(k) == 0);
        }
        break;
      case 4:
        m.settle(std::uniform_int_distribution<std::size_t>(1, 4)(rng), 0);
        break;
      case 5:  // replaced whole
        if (step % 50 == 0) {
          std::vector<Item> all{{k, step}, {key(), step + 1}};
          m.assign(all);
          model.clear();
          for (const Item& i : all) model[i.key] = i.value;
        }
        break;
      default:
        break;
    }
    // Every map still holds exactly its own history.
    for (std::size_t i = 0; i < maps.size(); ++i) check_same(maps[i], models[i], keys);
  }
  CHECK(maps.size() > 4);
}
