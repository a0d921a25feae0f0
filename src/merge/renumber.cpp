// `renumber`: the plan (references found through the era-P/T file model,
// rewritten line by line on the raw bytes), the check of the result through
// an overlay of the branch's tree, and the two ways to write it.
#include "ledgergate/merge/renumber.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "ledgergate/git/commit.hpp"
#include "ledgergate/git/objects.hpp"
#include "ledgergate/git/refs.hpp"
#include "ledgergate/git/trial_repo.hpp"
#include "ledgergate/ledger/pt_file.hpp"
#include "ledgergate/ledger/text_file.hpp"
#include "ledgergate/merge/rulings.hpp"
#include "ledgergate/util/assert.hpp"
#include "ledgergate/util/text.hpp"

namespace fs = std::filesystem;

namespace lg::merge {
namespace {

bool id_char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '-' || c == '_';
}

// The offsets of `id` in `line` as a whole token (no id character on either side).
std::vector<std::size_t> token_offsets(std::string_view line, std::string_view id) {
  std::vector<std::size_t> out;
  for (std::size_t at = line.find(id); at != std::string_view::npos; at = line.find(id, at + 1)) {
    const bool left = at == 0 || !id_char(line[at - 1]);
    const bool right = at + id.size() == line.size() || !id_char(line[at + id.size()]);
    if (left && right) out.push_back(at);
  }
  return out;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool is_pt_path(std::string_view path) {
  return (util::starts_with(path, "tasks/") || util::starts_with(path, "phases/")) && ends_with(path, ".md");
}

bool is_ruling_path(std::string_view path) { return util::starts_with(path, "rulings/") && ends_with(path, ".md"); }

// Raw lines with their terminators (\n, \r\n or \r: the reader's universal
// newlines), so line i here is line i of the decoded text.
std::vector<std::string_view> raw_lines(std::string_view bytes) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (bytes[i] == '\n' || bytes[i] == '\r') {
      std::size_t end = i + 1;
      if (bytes[i] == '\r' && i + 1 < bytes.size() && bytes[i + 1] == '\n') end = i + 2;
      out.push_back(bytes.substr(start, end - start));
      start = end;
      i = end - 1;
    }
  }
  if (start < bytes.size()) out.push_back(bytes.substr(start));
  return out;
}

std::string_view content_of(std::string_view raw) {
  while (!raw.empty() && (raw.back() == '\n' || raw.back() == '\r')) raw.remove_suffix(1);
  return raw;
}

// A tree source that is `base` with some files replaced, added or removed:
// what the check reads to judge a plan before anything is written.
class OverlaySource final : public git::TreeSource {
 public:
  OverlaySource(git::TreeSource& base, const std::vector<FileEdit>& edits) : m_base(base) {
    for (const FileEdit& e : edits) m_edits[e.path] = e.text;
  }
  const std::string& rev() const override { return m_base.rev(); }

  Result<std::optional<std::vector<git::Entry>>> list(std::string_view dir) override {
    LG_TRY(auto listed, m_base.list(dir));
    std::map<std::string, git::Entry> by_name;
    if (listed) {
      for (git::Entry& e : *listed) by_name[e.name] = std::move(e);
    }
    const std::string prefix = dir.empty() ? std::string() : std::string(dir) + "/";
    bool touched = false;
    for (const auto& [path, text] : m_edits) {
      if (!util::starts_with(path, prefix)) continue;
      const std::string rest = path.substr(prefix.size());
      const std::size_t slash = rest.find('/');
      touched = true;
      if (slash == std::string::npos) {
        if (!text) {
          by_name.erase(rest);
        } else {
          by_name[rest] = git::Entry{rest, git::EntryKind::file, std::nullopt};
        }
      } else {
        const std::string sub = rest.substr(0, slash);
        git::Entry& e = by_name[sub];
        e.name = sub;
        e.kind = git::EntryKind::directory;
        e.content_id.reset();  // its content differs from the base tree's
      }
    }
    if (!listed && !touched) return std::optional<std::vector<git::Entry>>();
    std::vector<git::Entry> out;
    for (auto& kv : by_name) out.push_back(std::move(kv.second));
    return std::optional<std::vector<git::Entry>>(std::move(out));
  }

  Result<std::optional<git::Entry>> stat(std::string_view path) override {
    const std::string p(path);
    if (auto it = m_edits.find(p); it != m_edits.end()) {
      if (!it->second) return std::optional<git::Entry>();
      return std::optional<git::Entry>(git::Entry{p.substr(p.rfind('/') + 1), git::EntryKind::file, std::nullopt});
    }
    for (const auto& kv : m_edits) {
      if (kv.second && util::starts_with(kv.first, p + "/")) {
        return std::optional<git::Entry>(git::Entry{p.substr(p.rfind('/') + 1), git::EntryKind::directory, std::nullopt});
      }
    }
    return m_base.stat(path);
  }

  Result<std::string> read(std::string_view path, const git::Entry& entry) override {
    if (auto it = m_edits.find(std::string(path)); it != m_edits.end() && it->second) return *it->second;
    return m_base.read(path, entry);
  }

 private:
  git::TreeSource& m_base;
  std::map<std::string, std::optional<std::string>> m_edits;
};

Result<void> walk(git::TreeSource& tree, const std::string& dir, std::string_view id, std::vector<RulingRef>& out) {
  LG_TRY(auto below, git::list_recursive(tree, dir));
  for (const auto& [path, e] : below) {
    if ((e.kind != git::EntryKind::file && e.kind != git::EntryKind::executable) || !ends_with(path, ".md")) continue;
    const auto own = ruling_id_of_path(path);
    const bool named = own && *own == id;
    if (named) out.push_back({path, 0, "file"});
    LG_TRY(std::string bytes, tree.read(path, e));
    for (RulingRef& r : find_ruling_refs(path, bytes, id)) out.push_back(std::move(r));
  }
  return {};
}

// A finding as the comparison sees it: the new id and path read as the old,
// and the message as a bag of words (renumbering may reorder an id list:
// "has 2 successors (A, B)").
std::string finding_key(const diag::Finding& f, const RenumberPlan* plan) {
  std::string path = f.location.path;
  std::string message = f.message;
  if (plan) {
    if (path == plan->new_path) path = plan->old_path;
    for (auto at = message.find(plan->new_path); at != std::string::npos; at = message.find(plan->new_path, at + 1)) {
      message.replace(at, plan->new_path.size(), plan->old_path);
    }
    for (auto at = message.find(plan->new_id); at != std::string::npos; at = message.find(plan->new_id, at + 1)) {
      message.replace(at, plan->new_id.size(), plan->old_id);
    }
  }
  std::vector<std::string> words;
  std::string word;
  for (char c : message + " ") {
    if (c == ' ' || c == ',' || c == '(' || c == ')') {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    } else {
      word += c;
    }
  }
  std::sort(words.begin(), words.end());
  return f.rule + "\x1f" + std::string(diag::to_string(f.severity)) + "\x1f" + path + "\x1f" + util::join(words, " ");
}

std::string describe_ref(const RulingRef& r) {
  if (r.kind == "file") return r.path + " is filed";
  return r.path + ":" + std::to_string(r.line) + " cites it (" + r.kind + ")";
}

}  // namespace

std::vector<RulingRef> find_ruling_refs(std::string_view path, std::string_view bytes, std::string_view id) {
  std::vector<RulingRef> out;
  if (id.empty() || bytes.find(id) == std::string_view::npos) return out;
  const bool pt = is_pt_path(path);
  const bool ruling = is_ruling_path(path);
  if (!pt && !ruling) return out;
  const ledger::PtFile f = ledger::parse_pt_file(bytes);
  const ledger::TextFile text = ledger::decode_text(bytes);
  const std::string p(path);
  auto header_refs = [&](std::string_view key, const char* kind) {
    for (const auto* list : {&f.header.fields, &f.header.duplicates}) {
      for (const ledger::HeaderField& h : *list) {
        if (h.key == key && util::strip(h.value) == id) out.push_back({p, h.line, kind});
      }
    }
  };
  if (ruling) {
    const auto own = ruling_id_of_path(path);
    const auto title_tokens = f.title ? token_offsets(*f.title, id) : std::vector<std::size_t>{};
    if (own && *own == id && !title_tokens.empty() && title_tokens.front() == 0) {
      out.push_back({p, 1, "title"});
    }
    header_refs("Supersedes", "Supersedes:");
  } else {
    header_refs("Ruling", "Ruling:");
    for (const ledger::Section& s : f.sections) {
      if (s.in_fence || (s.name != "Runs" && s.name != "Ruling")) continue;
      for (int i = s.body_begin; i < s.body_end && static_cast<std::size_t>(i) < text.line_count(); ++i) {
        const std::string_view line = text.line(static_cast<std::size_t>(i));
        if (s.name == "Runs") {
          const auto cont = ledger::match_pt_continuation(util::dash(line));
          if (cont && cont->first == "ruled" && util::strip(cont->second) == id) out.push_back({p, i + 1, "ruled:"});
        } else if (!token_offsets(line, id).empty()) {
          out.push_back({p, i + 1, "## Ruling"});
        }
      }
    }
  }
  std::sort(out.begin(), out.end(), [](const RulingRef& a, const RulingRef& b) { return a.line < b.line; });
  out.erase(std::unique(out.begin(), out.end(),
                        [](const RulingRef& a, const RulingRef& b) { return a.line == b.line && a.kind == b.kind; }),
            out.end());
  return out;
}

std::string rewrite_ruling_refs(std::string_view bytes, const std::vector<RulingRef>& refs, std::string_view old_id,
                                std::string_view new_id) {
  std::set<int> lines;
  for (const RulingRef& r : refs) {
    if (r.line > 0) lines.insert(r.line);
  }
  const auto raw = raw_lines(bytes);
  std::string out;
  out.reserve(bytes.size() + refs.size() * 4);
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (!lines.count(static_cast<int>(i) + 1)) {
      out += raw[i];
      continue;
    }
    const std::string_view content = content_of(raw[i]);
    std::size_t from = 0;
    for (std::size_t at : token_offsets(content, old_id)) {
      out += content.substr(from, at - from);
      out += new_id;
      from = at + old_id.size();
    }
    out += raw[i].substr(from);
  }
  return out;
}

Result<std::vector<RulingRef>> ruling_refs_in_tree(git::TreeSource& tree, std::string_view id) {
  std::vector<RulingRef> out;
  for (const char* dir : {"phases", "rulings", "tasks"}) {
    if (auto r = walk(tree, dir, id, out); !r) return r.error();
  }
  std::stable_sort(out.begin(), out.end(), [](const RulingRef& a, const RulingRef& b) {
    return a.path != b.path ? a.path < b.path : a.line < b.line;
  });
  return out;
}

std::string renumber_message(const RenumberPlan& plan) {
  return "renumber " + plan.old_id + " \xE2\x86\x92 " + plan.new_id + "\n";
}

Result<RenumberPlan> plan_renumber(git::TreeSource& branch, git::TreeSource& upstream, git::TreeSource& merge_base,
                                   const RenumberRequest& request, const rules::CheckOptions& check) {
  const auto old_id = parse_ruling_id(request.id);
  if (!old_id) return make_error(ErrorKind::usage, "'" + request.id + "' is not a ruling id (R-YYYYMMDD-nn)");
  RenumberPlan plan;
  plan.old_id = old_id->id;
  LG_TRY(auto refs, ruling_refs_in_tree(branch, plan.old_id));
  std::vector<std::string> files;
  for (const RulingRef& r : refs) {
    if (r.kind == "file") files.push_back(r.path);
  }
  if (files.empty()) return make_error(ErrorKind::not_found, "no ruling " + plan.old_id + " on " + request.branch_label);
  if (files.size() > 1) {
    return make_error(ErrorKind::invalid_input,
                      plan.old_id + " is filed twice on " + request.branch_label + ": " + files[0] + ", " + files[1]);
  }
  plan.old_path = files[0];

  LG_TRY(auto public_refs, ruling_refs_in_tree(merge_base, plan.old_id));
  if (!public_refs.empty()) {
    plan.refusal = plan.old_id + " is already public: " + describe_ref(public_refs.front()) + " in the merge base with " +
                   request.upstream_label + "; renumber only an id the branch itself assigned";
    return plan;
  }

  std::set<std::string> taken;
  if (request.to == "next") {
    LG_TRY(auto mine, ruling_ids_of_day(branch, old_id->date));
    LG_TRY(auto theirs, ruling_ids_of_day(upstream, old_id->date));
    taken = mine;
    taken.insert(theirs.begin(), theirs.end());
    taken.insert(plan.old_id);
    const auto next = next_free_ruling_id(old_id->date, taken);
    if (!next) {
      plan.refusal = "no free ruling id on " + old_id->date + ": 99 rulings already filed that day";
      return plan;
    }
    plan.new_id = *next;
  } else {
    const auto to = parse_ruling_id(request.to);
    if (!to) return make_error(ErrorKind::usage, "--to '" + request.to + "' is not a ruling id (R-YYYYMMDD-nn) or next");
    if (to->id == plan.old_id) return make_error(ErrorKind::usage, "--to names the id itself: nothing to renumber");
    LG_TRY(auto mine, ruling_ids_of_day(branch, to->date));
    LG_TRY(auto theirs, ruling_ids_of_day(upstream, to->date));
    if (mine.count(to->id) || theirs.count(to->id)) {
      plan.refusal = to->id + " is already taken on " + (mine.count(to->id) ? request.branch_label : request.upstream_label);
      return plan;
    }
    plan.new_id = to->id;
  }
  plan.new_path = ruling_path(*parse_ruling_id(plan.new_id));
  if (plan.new_path != plan.old_path) {
    LG_TRY(auto occupied, branch.stat(plan.new_path));
    if (occupied) {
      plan.refusal = plan.new_path + " already exists on " + request.branch_label;
      return plan;
    }
  }

  // The edits: every file holding a reference, rewritten; the ruling moved.
  std::map<std::string, std::vector<RulingRef>> by_path;
  for (const RulingRef& r : refs) {
    if (r.kind != "file") by_path[r.path].push_back(r);
  }
  by_path.try_emplace(plan.old_path);  // moved even when its title does not name the id
  std::vector<FileEdit> rewritten;
  for (const auto& [path, file_refs] : by_path) {
    LG_TRY(auto bytes, git::read_regular_file(branch, path));
    if (!bytes) return make_error(ErrorKind::invalid_input, path + " is not a regular file on " + request.branch_label);
    FileEdit edit{path, rewrite_ruling_refs(*bytes, file_refs, plan.old_id, plan.new_id), {}};
    for (const RulingRef& r : file_refs) {
      if (std::find(edit.kinds.begin(), edit.kinds.end(), r.kind) == edit.kinds.end()) edit.kinds.push_back(r.kind);
    }
    if (path == plan.old_path) {
      edit.path = plan.new_path;
      plan.edits.insert(plan.edits.begin(), std::move(edit));
    } else {
      rewritten.push_back(std::move(edit));
    }
  }
  for (FileEdit& e : rewritten) plan.edits.push_back(std::move(e));
  if (plan.new_path != plan.old_path) plan.edits.push_back({plan.old_path, std::nullopt, {}});

  // The result must not check worse than the branch does now.
  rules::CheckCache cache;
  LG_TRY(rules::CheckReport before, rules::check_tree(branch, check, cache));
  OverlaySource result(branch, plan.edits);
  LG_TRY(rules::CheckReport after, rules::check_tree(result, check, cache));
  if (before.cannot_judge() || after.cannot_judge()) {
    return make_error(ErrorKind::invalid_input, "cannot judge the branch's ledger: the check could not read every file");
  }
  std::multiset<std::string> had;
  for (const diag::Finding& f : before.findings) had.insert(finding_key(f, nullptr));
  for (const diag::Finding& f : after.findings) {
    auto it = had.find(finding_key(f, &plan));
    if (it != had.end()) {
      had.erase(it);
    } else {
      plan.added_findings.push_back(f);
    }
  }
  if (!plan.added_findings.empty()) {
    plan.refusal = "the result would not check clean: it adds " + std::to_string(plan.added_findings.size()) +
                   " finding(s) to " + request.branch_label;
  }
  return plan;
}

Result<git::ObjectId> commit_renumber(const git::Repository& repo, const std::string& ref_name,
                                      const git::ObjectId& expected_tip, const RenumberPlan& plan) {
  LEDGERGATE_ASSERT(!plan.refused());
  LG_TRY(git::TrialRepo trial, git::TrialRepo::open(repo));
  LG_TRY(git::ObjectId tip_tree, repo.commit_tree(expected_tip));
  // A file keeps its executable bit; anything else is written as a regular file.
  auto mode_of = [&](const std::string& path) {
    const auto e = git::tree_entry_at(trial.repo(), tip_tree, path);
    const bool executable = e && *e && (*e)->mode == git::FileMode::executable;
    return executable ? git::FileMode::executable : git::FileMode::blob;
  };
  std::vector<git::TreeUpdate> updates;
  for (const FileEdit& e : plan.edits) {
    git::TreeUpdate u{e.path, std::nullopt, git::FileMode::blob};
    if (e.text) {
      LG_TRY(u.id, trial.write_blob(*e.text));
      u.mode = mode_of(e.path == plan.new_path ? plan.old_path : e.path);
    }
    updates.push_back(std::move(u));
  }
  const Result<git::ObjectId> tree = git::update_tree(trial.repo(), tip_tree, updates);
  if (!tree) return tree.error().with_context("building the renumbered tree");
  if (auto r = trial.persist(repo, *tree); !r) return r.error();

  const std::string message = renumber_message(plan);
  auto commit = git::write_commit(repo, *tree, {expected_tip}, message);
  if (!commit) return commit.error();
  const std::string log = "ledgergate: " + message.substr(0, message.size() - 1);
  const Result<bool> moved = git::update_ref_if(repo, ref_name, *commit, expected_tip, log);
  if (!moved) return moved.error().with_context("updating " + ref_name);
  if (!*moved) {
    return make_error(ErrorKind::git, ref_name + " moved while renumbering (expected " + expected_tip.hex() +
                                          "): the ref was not updated; run renumber again");
  }
  return *commit;
}

Result<void> write_renumber(const std::string& root, const RenumberPlan& plan) {
  LEDGERGATE_ASSERT(!plan.refused());
  for (const FileEdit& e : plan.edits) {
    if (!e.text) continue;
    const fs::path target = fs::path(root) / e.path;
    const fs::path source = fs::path(root) / (e.path == plan.new_path ? plan.old_path : e.path);
    std::error_code ec;
    fs::create_directories(target.parent_path(), ec);
    if (ec) return make_error(ErrorKind::io, "creating " + target.parent_path().string() + ": " + ec.message());
    const fs::path tmp = target.string() + ".ledgergate-" + std::to_string(getpid());
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      out.write(e.text->data(), static_cast<std::streamsize>(e.text->size()));
      out.close();
      if (!out) {
        fs::remove(tmp, ec);
        return make_error(ErrorKind::io, "writing " + tmp.string());
      }
    }
    const auto perms = fs::status(source, ec).permissions();
    if (!ec) fs::permissions(tmp, perms, ec);
    fs::rename(tmp, target, ec);
    if (ec) {
      std::error_code ignored;
      fs::remove(tmp, ignored);
      return make_error(ErrorKind::io, "replacing " + target.string() + ": " + ec.message());
    }
  }
  for (const FileEdit& e : plan.edits) {
    if (e.text) continue;
    std::error_code ec;
    fs::remove(fs::path(root) / e.path, ec);
    if (ec) return make_error(ErrorKind::io, "removing " + e.path + ": " + ec.message());
  }
  return {};
}

}  // namespace lg::merge
