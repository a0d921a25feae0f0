// The ruling detectors of the trial merge (see the header). Files are read
// through the era-P/T model (ledger/pt_file), each blob parsed once and kept
// in the check cache the merged tree's check reads next.
#include "ruling_semantic.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "ledgergate/ledger/pt_file.hpp"
#include "ledgergate/merge/rulings.hpp"
#include "ledgergate/util/text.hpp"

namespace lg::merge {
namespace {

using PtPtr = std::shared_ptr<const ledger::PtFile>;

bool ends_with_md(std::string_view p) { return p.size() > 3 && p.substr(p.size() - 3) == ".md"; }
bool is_pt_file(std::string_view p) {
  return (util::starts_with(p, "tasks/") || util::starts_with(p, "phases/")) && ends_with_md(p);
}

Result<PtPtr> parse(git::TreeSource& tree, const std::string& path, rules::CheckCache& cache) {
  LG_TRY(auto entry, tree.stat(path));
  if (!entry || (entry->kind != git::EntryKind::file && entry->kind != git::EntryKind::executable)) return PtPtr();
  if (entry->content_id) {
    if (auto hit = cache.pt_files().find(*entry->content_id)) return PtPtr(hit);
  }
  LG_TRY(std::string bytes, tree.read(path, *entry));
  auto parsed = std::make_shared<const ledger::PtFile>(ledger::parse_pt_file(bytes));
  if (entry->content_id) cache.pt_files().keep(*entry->content_id, parsed);
  return PtPtr(parsed);
}

std::string header(const PtPtr& f, std::string_view key) {
  return f ? std::string(util::strip(f->header.value(key))) : std::string();
}

std::string title_of(const PtPtr& f) { return f && f->title ? "\xE2\x80\x9C" + *f->title + "\xE2\x80\x9D" : "(no title)"; }

std::string day_of(const std::string& date) {
  return date.substr(0, 4) + "-" + date.substr(4, 2) + "-" + date.substr(6, 2);
}

// The rulings a side added (or moved in) since the merge base: id → path.
std::map<std::string, std::string> added_rulings(const std::vector<policy::Change>& changes) {
  std::map<std::string, std::string> out;
  for (const policy::Change& c : changes) {
    const char st = c.status.empty() ? ' ' : c.status[0];
    if (st != 'A' && st != 'R' && st != 'C') continue;
    if (auto id = ruling_id_of_path(c.path)) out.emplace(*id, c.path);
  }
  return out;
}

struct RulingInfo {
  std::string id, path, supersedes;
};

// Every ruling of `tree` (rulings/**, by id) with its Supersedes: value.
Result<void> collect_rulings(git::TreeSource& tree, const std::string& dir, rules::CheckCache& cache,
                             std::vector<RulingInfo>& out) {
  LG_TRY(auto below, git::list_recursive(tree, dir));
  for (const auto& [path, e] : below) {
    if (e.kind == git::EntryKind::directory) continue;
    const auto id = ruling_id_of_path(path);
    if (!id) continue;
    LG_TRY(PtPtr f, parse(tree, path, cache));
    out.push_back({*id, path, header(f, "Supersedes")});
  }
  return {};
}

Result<bool> has_ruling(git::TreeSource& tree, const std::string& id) {
  const auto parsed = parse_ruling_id(id);
  if (!parsed) return false;
  LG_TRY(auto entry, tree.stat(ruling_path(*parsed)));
  return entry.has_value();
}

// (a) The same id added on both sides with different content.
Result<void> id_collisions(const RulingSides& s, const std::map<std::string, std::string>& ours_added,
                           const std::map<std::string, std::string>& theirs_added, std::vector<SemanticConflict>& out) {
  for (const auto& [id, theirs_path] : theirs_added) {
    auto mine = ours_added.find(id);
    if (mine == ours_added.end()) continue;
    LG_TRY(auto o_id, git::entry_id(s.ours, mine->second));
    LG_TRY(auto t_id, git::entry_id(s.theirs, theirs_path));
    if (mine->second == theirs_path && o_id == t_id) continue;  // one ruling filed twice, byte for byte
    LG_TRY(PtPtr o, parse(s.ours, mine->second, s.cache));
    LG_TRY(PtPtr t, parse(s.theirs, theirs_path, s.cache));
    const RulingId parsed = *parse_ruling_id(id);
    LG_TRY(auto taken, ruling_ids_of_day(s.ours, parsed.date));
    LG_TRY(auto theirs_taken, ruling_ids_of_day(s.theirs, parsed.date));
    taken.insert(theirs_taken.begin(), theirs_taken.end());
    taken.insert(id);
    const auto next = next_free_ruling_id(parsed.date, taken);
    const std::string advice =
        next ? "; the next free id of " + day_of(parsed.date) + " across both sides is " + *next +
                   " (`ledgergate renumber " + id + " --to next --rev <branch>`)"
             : "; no id of " + day_of(parsed.date) + " is free on both sides";
    out.push_back({"ruling-id-assigned-twice", theirs_path,
                   "ruling id " + id + " assigned on both sides: BASE " + title_of(o) + ", HEAD " + title_of(t) + advice});
  }
  return {};
}

// (b) A ruling HEAD adds supersedes one that already has another successor
// on either side: the merged chain becomes a tree.
Result<void> chain_forks(const RulingSides& s, const std::map<std::string, std::string>& ours_added,
                         const std::map<std::string, std::string>& theirs_added, std::vector<SemanticConflict>& out) {
  std::vector<RulingInfo> heads;  // HEAD's added rulings that supersede something
  for (const auto& [id, path] : theirs_added) {
    LG_TRY(PtPtr f, parse(s.theirs, path, s.cache));
    const std::string sup = header(f, "Supersedes");
    if (!sup.empty() && sup != id) heads.push_back({id, path, sup});
  }
  if (heads.empty()) return {};
  std::vector<RulingInfo> ours_all, theirs_all;
  if (auto r = collect_rulings(s.ours, "rulings", s.cache, ours_all); !r) return r;
  if (auto r = collect_rulings(s.theirs, "rulings", s.cache, theirs_all); !r) return r;
  for (const RulingInfo& z : heads) {
    // The other successors of z.supersedes, each with the side it comes from.
    std::map<std::string, std::string> others;  // id → where
    for (const RulingInfo& w : ours_all) {
      if (w.supersedes != z.supersedes || w.id == z.id) continue;
      LG_TRY(bool in_base, has_ruling(s.base, w.id));
      others.emplace(w.id, in_base ? "in the merge base, so on both sides"
                                   : (ours_added.count(w.id) ? "added on BASE" : "on BASE"));
    }
    for (const RulingInfo& w : theirs_all) {
      if (w.supersedes != z.supersedes || w.id == z.id || others.count(w.id)) continue;
      LG_TRY(bool in_base, has_ruling(s.base, w.id));
      others.emplace(w.id, in_base ? "in the merge base" : "also added on HEAD");
    }
    if (others.empty()) continue;
    std::string list;
    for (const auto& [id, where] : others) list += (list.empty() ? "" : ", ") + id + " (" + where + ")";
    out.push_back({"ruling-chain-fork", z.path,
                   "HEAD's " + z.id + " (" + z.path + ") supersedes " + z.supersedes + ", which " + list +
                       " already supersede" + (others.size() == 1 ? "s" : "") + ": after the merge " + z.supersedes +
                       " has " + std::to_string(others.size() + 1) + " successors \xE2\x80\x94 a chain, not a tree"});
  }
  return {};
}

struct Citation {
  std::string path, kind, id;
};

// The references a side's version of `path` holds that the merge base's
// version of it does not.
Result<std::vector<Citation>> new_citations(git::TreeSource& side, git::TreeSource& base, const std::string& path,
                                            rules::CheckCache& cache) {
  auto refs = [&](const PtPtr& f) {
    std::vector<Citation> out;
    if (!f) return out;
    if (is_pt_file(path)) {
      if (auto v = header(f, "Ruling"); !v.empty()) out.push_back({path, "Ruling:", v});
      for (const ledger::PtRun& r : f->runs) {
        if (r.ruled && !util::strip(*r.ruled).empty()) {
          out.push_back({path, "ruled: (run " + r.ident + ")", std::string(util::strip(*r.ruled))});
        }
      }
    } else if (auto v = header(f, "Supersedes"); !v.empty()) {
      out.push_back({path, "Supersedes:", v});
    }
    return out;
  };
  LG_TRY(PtPtr now, parse(side, path, cache));
  LG_TRY(PtPtr before, parse(base, path, cache));
  std::vector<Citation> out;
  const auto old = refs(before);
  for (Citation& c : refs(now)) {
    const bool had = std::any_of(old.begin(), old.end(), [&](const Citation& o) { return o.id == c.id && o.kind == c.kind; });
    if (!had) out.push_back(std::move(c));
  }
  return out;
}

// (c) A reference a side added that resolves on that side but not after the
// merge (the other side removed or moved the ruling).
Result<void> dangling(const RulingSides& s, std::vector<SemanticConflict>& out) {
  struct Side {
    const char* name;
    const char* other;
    git::TreeSource& tree;
    const std::vector<policy::Change>& changes;
  };
  for (const Side& side : {Side{"HEAD", "BASE", s.theirs, s.theirs_changes}, Side{"BASE", "HEAD", s.ours, s.ours_changes}}) {
    for (const policy::Change& c : side.changes) {
      if (c.status == "D" || !(is_pt_file(c.path) || ruling_id_of_path(c.path))) continue;
      LG_TRY(auto cites, new_citations(side.tree, s.base, c.path, s.cache));
      for (const Citation& cite : cites) {
        LG_TRY(bool here, has_ruling(side.tree, cite.id));
        if (!here) continue;  // dangles on its own side already: the check reports it
        LG_TRY(bool in_b, has_ruling(s.base, cite.id));
        LG_TRY(bool in_o, has_ruling(s.ours, cite.id));
        LG_TRY(bool in_t, has_ruling(s.theirs, cite.id));
        const bool merged = (in_o && in_t) || (in_o && !in_b) || (in_t && !in_b);
        if (merged) continue;
        out.push_back({"ruling-ref-dangles", cite.path,
                       std::string(side.name) + "'s " + cite.path + " cites " + cite.kind + " " + cite.id + ", which " +
                           side.other + " removed (" + ruling_path(*parse_ruling_id(cite.id)) +
                           "): it dangles after the merge"});
      }
    }
  }
  return {};
}

}  // namespace

Result<std::vector<SemanticConflict>> detect_ruling_conflicts(const RulingSides& s) {
  std::vector<SemanticConflict> out;
  const auto ours_added = added_rulings(s.ours_changes);
  const auto theirs_added = added_rulings(s.theirs_changes);
  if (auto r = id_collisions(s, ours_added, theirs_added, out); !r) return r.error();
  if (auto r = chain_forks(s, ours_added, theirs_added, out); !r) return r.error();
  if (auto r = dangling(s, out); !r) return r.error();
  return out;
}

}  // namespace lg::merge
