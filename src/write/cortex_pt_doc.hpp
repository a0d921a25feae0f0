// Pieces the era-P/T verbs share (private to src/write): a phase/task file
// being edited line by line (raw_lines.hpp: every line keeps its own ending;
// re-parsed after each edit, so positions always come from the parse), and
// the tree look-ups the verbs make.
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/ledger/pt_file.hpp"
#include "ledgergate/rules/cortex_eras.hpp"
#include "ledgergate/rules/projects_yaml.hpp"
#include "ledgergate/util/result.hpp"
#include "ledgergate/write/cortex_pt.hpp"
#include "ledgergate/write/edit.hpp"
#include "raw_lines.hpp"

namespace lg::write::pt {

inline constexpr std::string_view k_dash = "\xE2\x80\x94";   // —
inline constexpr std::string_view k_arrow = "\xE2\x86\x92";  // →

// A phase or task file under edit. Header keys missing from the file are
// inserted at their slot in `canonical` (the era's key order).
class PtDoc {
 public:
  PtDoc(std::string rel, std::string_view bytes, std::span<const std::string_view> canonical);
  const std::string& rel() const { return m_rel; }
  const ledger::PtFile& file() const { return m_file; }
  std::string_view value(std::string_view key) const { return m_file.header.value(key); }

  // `Key: value` (a bare `Key:` for an empty value) in place of the key's
  // line and its `- item` lines, or inserted at the key's canonical slot.
  void set_header(std::string_view key, std::string_view value);
  // Appends `lines` to section `name` after its last non-blank line (a lone
  // `(none)` placeholder is replaced when `replace_none`); false when the
  // file has no such section.
  bool append_to_section(std::string_view name, const std::vector<std::string>& lines, bool replace_none);
  // Inserts `line` after the run's line and its continuation lines.
  void add_continuation(const ledger::PtRun& run, std::string line);
  std::string bytes() const { return m_lines.bytes(); }

 private:
  void reparse();
  std::size_t item_lines_after(std::size_t index) const;  // `- item` lines following a header line

  std::string m_rel;
  std::span<const std::string_view> m_canonical;
  RawLines m_lines;
  ledger::PtFile m_file;
};

// The phase/task file a FILE argument names (absolute, or relative to the
// root): its document, or the reference's refusal.
Result<std::variant<PtDoc, Refusal>> open_target(git::TreeSource& tree, const PtContext& context,
                                                 const std::string& ref);

// projects.yaml read with the era's reader (P1: the restricted subset).
struct ProjectRows {
  rules::ProjectsTable table;
  std::vector<std::string> problems;  // its findings as the reference's checker prints them
};
Result<ProjectRows> load_project_rows(git::TreeSource& tree, const rules::PtEra& era);
// "project {p} is not a projects.yaml key" (+ " ({first problem})").
std::string unknown_project(const ProjectRows& rows, std::string_view project);

// The partition a new run line is written with: `--partition`, else the
// row's own; a refusal when neither decides.
std::variant<std::string, Refusal> run_partition(const ProjectRows& rows, std::string_view project,
                                                 const std::optional<std::string>& flag);

// The regular *.md files below `dir` (recursive), in Python Path order.
Result<std::vector<std::string>> md_files(git::TreeSource& tree, const std::string& dir);

struct Ruling {
  std::string path, id;
  ledger::PtFile file;
};
// Every ruling file (rulings/**/*.md but rulings/AGENTS.md), in path order.
Result<std::vector<Ruling>> load_rulings(git::TreeSource& tree);

// Python's str.capitalize() on an ASCII key.
std::string capitalize(std::string_view s);

// What each verb's class holds for its one run over a tree.
template <class Args>
class VerbState {
 public:
  VerbState(const PtContext& context, const Args& args, git::TreeSource& tree)
      : m_cx(context), m_era(*context.era), m_args(args), m_tree(tree) {}

 protected:
  const PtContext& m_cx;
  const rules::PtEra& m_era;
  const Args& m_args;
  git::TreeSource& m_tree;
};

// The editor that runs a fresh `Verb(context, args, tree).run()` on each
// tree it is given (a verb's state lives for one run).
template <class Verb, class Args>
Editor verb_editor(PtContext context, Args args) {
  return [context = std::move(context), args = std::move(args)](git::TreeSource& tree) -> Result<Outcome> {
    return Verb(context, args, tree).run();
  };
}

}  // namespace lg::write::pt
