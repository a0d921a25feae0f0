// The fixers: one per rule whose fix column (diag/rule_table.hpp) is
// certain or suggested — a table checked against the rule table at compile
// time (fixers.cpp), so no such rule is without one and no fixer serves a
// rule that declares none. A fixer reads the finding (rule, path, line,
// message) and the tree, re-reads the file it concerns with the ledger
// module's parsers, and answers with the edits or nothing: a fixer declines
// a finding it is not sure of (a log line that does not parse for another
// reason than its dashes), which is what makes "certain" true.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/fix/fix.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/rules/check_cache.hpp"
#include "ledgergate/rules/projects_yaml.hpp"
#include "ledgergate/util/line_index.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::fix {

// A file of the tree a fixer reads: its bytes and their lines.
class SourceFile {
 public:
  SourceFile(std::string path, std::string bytes) : m_path(std::move(path)), m_bytes(std::move(bytes)), m_lines(m_bytes) {}
  SourceFile(const SourceFile&) = delete;
  SourceFile& operator=(const SourceFile&) = delete;

  const std::string& path() const { return m_path; }
  const std::string& bytes() const { return m_bytes; }
  const util::LineIndex& lines() const { return m_lines; }

 private:
  std::string m_path;
  std::string m_bytes;
  util::LineIndex m_lines;
};

// What fixers read, each file once: the tree's files and projects.yaml's rows.
class FixContext {
 public:
  explicit FixContext(git::TreeSource& tree) : m_tree(tree) {}

  git::TreeSource& tree() { return m_tree; }
  // The regular file at `path`; nullptr when absent or not a regular file.
  Result<const SourceFile*> file(const std::string& path);
  // projects.yaml's rows; null when it is absent or does not parse as a mapping.
  Result<std::shared_ptr<const rules::ProjectsTable>> rows();

 private:
  git::TreeSource& m_tree;
  std::map<std::string, std::unique_ptr<SourceFile>, std::less<>> m_files;  // nullptr: absent
  rules::CheckCache m_cache;
  bool m_rows_read = false;
  std::shared_ptr<const rules::ProjectsTable> m_rows;
};

// Whether rule `id` has a fixer (exactly the certain and suggested rows).
bool has_fixer(std::string_view id);
// The fix `finding`'s rule offers for it on the tree `context` reads, or
// nullopt (no fixer, or the fixer declines). The fix's kind is the rule's.
// Errors: an unreadable file.
Result<std::optional<Fix>> fix_for(FixContext& context, const diag::Finding& finding);

// `line` with its first `count` field separators (after its first `skip`
// bytes) written as the ledger writes them, ` — `: a separator is a run of
// spaces and dashes holding a dash other than `-` (an em dash without its
// spaces, ` – `, ` ― `, ` − `), or hyphens with a space on each side (` - `,
// ` -- `); a hyphen inside a word or a date is not one. Later separators
// (free text) keep their dashes. nullopt when `line` has fewer than `count`.
std::optional<std::string> normalise_separators(std::string_view line, std::size_t skip, std::size_t count);

}  // namespace lg::fix
