// Merge bases in git's order and the virtual merge base of a criss-cross
// history (see the header). The order matters: the bases are folded in
// reverse, the first of each pair is "Temporary merge branch 1", and a
// conflict inside the virtual base keeps both sides' text in that order.
#include "ledgergate/merge/virtual_base.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>

#include "ledgergate/git/commit.hpp"
#include "ledgergate/git/objects.hpp"
#include "ledgergate/merge/tree_merge.hpp"

namespace lg::merge {
namespace {

enum : unsigned { parent1 = 1u, parent2 = 2u, stale = 4u, result_flag = 8u };

// The commit graph as git's commit-reach.c sees it, with virtual commits
// (merge-ort's make_virtual_commit: a tree, two parents, date 0).
class Graph {
 public:
  explicit Graph(git::TrialRepo& repo) : m_repo(repo) {}

  Result<std::size_t> real(const git::ObjectId& id) {
    if (auto it = m_index.find(id); it != m_index.end()) return it->second;
    Result<git::CommitInfo> commit = git::read_commit(m_repo.repo(), id);
    if (!commit) return commit.error().with_context("reading commit " + id.hex());
    Node n;
    n.id = id;
    n.date = static_cast<std::int64_t>(commit->time);
    n.tree = commit->tree;
    n.parent_ids = std::move(commit->parents);
    m_nodes.push_back(std::move(n));
    m_index.emplace(id, m_nodes.size() - 1);
    return m_nodes.size() - 1;
  }

  std::size_t add_virtual(const git::ObjectId& tree, std::size_t p1, std::size_t p2) {
    Node n;
    n.is_virtual = true;
    n.tree = tree;
    n.parents = {p1, p2};
    n.parsed = true;
    m_nodes.push_back(std::move(n));
    return m_nodes.size() - 1;
  }

  Result<const std::vector<std::size_t>*> parents(std::size_t i) {
    if (!m_nodes[i].parsed) {
      std::vector<std::size_t> ps;
      const std::vector<git::ObjectId> ids = m_nodes[i].parent_ids;
      for (const git::ObjectId& p : ids) {
        LG_TRY(std::size_t pi, real(p));
        ps.push_back(pi);
      }
      m_nodes[i].parents = std::move(ps);
      m_nodes[i].parsed = true;
    }
    return &m_nodes[i].parents;
  }

  std::int64_t date(std::size_t i) const { return m_nodes[i].date; }
  const git::ObjectId& tree(std::size_t i) const { return m_nodes[i].tree; }
  const git::ObjectId& id(std::size_t i) const { return m_nodes[i].id; }
  bool is_virtual(std::size_t i) const { return m_nodes[i].is_virtual; }
  std::size_t size() const { return m_nodes.size(); }
  git::TrialRepo& repo() { return m_repo; }

 private:
  struct Node {
    git::ObjectId id;
    bool is_virtual = false;
    std::int64_t date = 0;
    git::ObjectId tree;
    std::vector<git::ObjectId> parent_ids;
    std::vector<std::size_t> parents;
    bool parsed = false;
  };
  git::TrialRepo& m_repo;
  std::vector<Node> m_nodes;
  std::map<git::ObjectId, std::size_t> m_index;
};

// commit_list_insert_by_date: after every entry at least as new.
void insert_by_date(std::vector<std::size_t>& list, std::size_t c, const Graph& g) {
  auto it = list.begin();
  while (it != list.end() && g.date(*it) >= g.date(c)) ++it;
  list.insert(it, c);
}

// paint_down_to_common() without generation numbers: a priority queue by
// committer date, newest first, equal dates first in first out.
Result<std::vector<std::size_t>> paint_down(Graph& g, std::size_t one, std::size_t two,
                                            std::map<std::size_t, unsigned>& flags) {
  struct Item {
    std::size_t commit;
    std::uint64_t ctr;
  };
  std::uint64_t ctr = 0;
  std::vector<Item> heap;
  const auto later = [&g](const Item& a, const Item& b) {  // "a pops after b"
    if (g.date(a.commit) != g.date(b.commit)) return g.date(a.commit) < g.date(b.commit);
    return a.ctr > b.ctr;
  };
  const auto put = [&](std::size_t c) {
    heap.push_back({c, ctr++});
    std::push_heap(heap.begin(), heap.end(), later);
  };
  std::vector<std::size_t> result;
  flags[one] |= parent1;
  put(one);
  flags[two] |= parent2;
  put(two);
  const auto has_nonstale = [&] {
    return std::any_of(heap.begin(), heap.end(), [&](const Item& i) { return !(flags[i.commit] & stale); });
  };
  while (has_nonstale()) {
    std::pop_heap(heap.begin(), heap.end(), later);
    const std::size_t c = heap.back().commit;
    heap.pop_back();
    unsigned f = flags[c] & (parent1 | parent2 | stale);
    if (f == (parent1 | parent2)) {
      if (!(flags[c] & result_flag)) {
        flags[c] |= result_flag;
        insert_by_date(result, c, g);
      }
      f |= stale;
    }
    LG_TRY(const std::vector<std::size_t>* ps, g.parents(c));
    for (std::size_t p : *ps) {
      if ((flags[p] & f) == f) continue;
      flags[p] |= f;
      put(p);
    }
  }
  return result;
}

bool has_commit_graph(const git::TrialRepo& repo) {
  namespace fs = std::filesystem;
  std::vector<fs::path> objects = {fs::path(repo.repo().git_dir()) / "objects"};
  std::ifstream alternates(objects[0] / "info" / "alternates");
  for (std::string line; std::getline(alternates, line);) {
    if (!line.empty() && line[0] != '#') objects.emplace_back(line);
  }
  std::error_code ec;
  return std::any_of(objects.begin(), objects.end(), [&](const fs::path& o) {
    return fs::exists(o / "info" / "commit-graph", ec) || fs::exists(o / "info" / "commit-graphs", ec);
  });
}

// get_merge_bases(one, two) (commit-reach.c, git 2.39).
Result<std::vector<std::size_t>> merge_bases(Graph& g, std::size_t one, std::size_t two) {
  if (one == two) return std::vector<std::size_t>{one};
  std::map<std::size_t, unsigned> flags;
  LG_TRY(std::vector<std::size_t> list, paint_down(g, one, two, flags));
  std::vector<std::size_t> found;
  for (std::size_t c : list) {
    if (!(flags[c] & stale)) insert_by_date(found, c, g);
  }
  if (found.size() <= 1) return found;
  // remove_redundant(): drop any base that is an ancestor of another, keeping the order.
  std::vector<bool> redundant(found.size(), false);
  for (std::size_t i = 0; i < found.size(); ++i) {
    for (std::size_t j = 0; j < found.size() && !redundant[i]; ++j) {
      if (i == j || redundant[j] || g.is_virtual(found[i]) || g.is_virtual(found[j])) continue;
      const Result<bool> descends = git::is_descendant_of(g.repo().repo(), g.id(found[j]), g.id(found[i]));
      if (!descends) return descends.error().with_context("walking the history");
      if (*descends) redundant[i] = true;
    }
  }
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < found.size(); ++i) {
    if (!redundant[i]) insert_by_date(out, found[i], g);
  }
  for (std::size_t i = 1; i < out.size(); ++i) {
    if (g.date(out[i]) == g.date(out[i - 1]) && has_commit_graph(g.repo())) {
      return make_error(ErrorKind::invalid_input,
                        "criss-cross history: merge bases with equal commit dates in a repository with a "
                        "commit-graph; git's order of the merge bases (by generation) is not reproduced");
    }
  }
  return out;
}

Result<git::ObjectId> empty_tree(git::TrialRepo& repo) {
  auto builder = git::TreeBuilder::open(repo.repo(), nullptr);
  if (!builder) return builder.error().with_context("building the empty tree");
  const Result<git::ObjectId> id = builder->write();
  if (!id) return id.error().with_context("writing the empty tree");
  return *id;
}

Result<git::ObjectId> fold(Graph& g, std::vector<std::size_t> bases, int depth);

// merge_ort_internal() at `depth`: h1 and h2 over their own merge bases.
Result<git::ObjectId> merge_internal(Graph& g, std::size_t h1, std::size_t h2, int depth) {
  LG_TRY(std::vector<std::size_t> bases, merge_bases(g, h1, h2));
  git::ObjectId base_tree;
  if (bases.empty()) {
    LG_TRY(base_tree, empty_tree(g.repo()));
  } else {
    LG_TRY(base_tree, fold(g, bases, depth + 1));
  }
  return merge_trees_virtual(g.repo(), base_tree, g.tree(h1), g.tree(h2), depth);
}

// The bases (get_merge_bases order) reversed and folded: each virtual base so
// far merged with the next base at `depth`.
Result<git::ObjectId> fold(Graph& g, std::vector<std::size_t> bases, int depth) {
  std::reverse(bases.begin(), bases.end());
  std::size_t merged = bases.front();
  for (std::size_t i = 1; i < bases.size(); ++i) {
    LG_TRY(git::ObjectId tree, merge_internal(g, merged, bases[i], depth));
    merged = g.add_virtual(tree, merged, bases[i]);
  }
  return g.tree(merged);
}

}  // namespace

Result<std::vector<git::ObjectId>> merge_bases_git_order(git::TrialRepo& repo, const git::ObjectId& a, const git::ObjectId& b) {
  Graph g(repo);
  LG_TRY(std::size_t one, g.real(a));
  LG_TRY(std::size_t two, g.real(b));
  LG_TRY(std::vector<std::size_t> bases, merge_bases(g, one, two));
  std::vector<git::ObjectId> out;
  for (std::size_t i : bases) out.push_back(g.id(i));
  return out;
}

Result<git::ObjectId> virtual_merge_base(git::TrialRepo& repo, const std::vector<git::ObjectId>& bases) {
  Graph g(repo);
  std::vector<std::size_t> nodes;
  for (const git::ObjectId& id : bases) {
    LG_TRY(std::size_t n, g.real(id));
    nodes.push_back(n);
  }
  if (nodes.empty()) return empty_tree(repo);
  return fold(g, nodes, 1);
}

}  // namespace lg::merge
