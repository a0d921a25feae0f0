// The cross-commit invariants of one commit against its first parent
// (spec §6.3, §6.4): archive/ never changes and moves into it keep their
// content; a ledger edited in place keeps its history (compare_ledgers, the
// old version rebuilt from the fingerprint seen last at its path where it
// can be); eras P and T (pt_commit_events); open-requirements files
// (check_open_requirements_between). Each finding is an event of the
// commit. The fingerprints and the era-P/T history live here, between
// commits. Private to audit/.
#pragma once

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "fingerprint.hpp"
#include "findings.hpp"
#include "ledger_versions.hpp"
#include "pt_history.hpp"
#include "walk.hpp"

namespace lg::audit {

class InvariantPass {
 public:
  InvariantPass(const git::Repository& repo, LedgerVersions& versions) : m_repo(repo), m_versions(versions) {}

  // A new commit: forgets the ruling ids the last one deleted.
  void begin_commit() { m_pt_history.deleted_now.clear(); }
  // The events of `c` (tree `tree`, checked as `profile` under `options`)
  // from `parent`, `changes` being the diff between them. Errors: an object
  // that cannot be read.
  Result<void> run(const CommitFacts& c, git::TreeSource& tree, const ledger::Profile& profile,
                   const rules::CheckOptions& options, const CommitFacts& parent,
                   const std::vector<git::DiffEntry>& changes, Events& events);

  // The ruling ids whose files this commit deleted or renamed away, and
  // those of a commit replayed from the result cache, given back.
  const std::vector<std::string>& deleted_now() const { return m_pt_history.deleted_now; }
  void give_back(const std::vector<std::string>& deleted_ruling_ids);

 private:
  struct Step;
  Result<void> archive(const Step& step, const git::DiffEntry& e);
  Result<void> ledger_edit(const Step& step, const git::DiffEntry& e);
  Result<void> compare_versions(const Step& step, const git::DiffEntry& e);

  const git::Repository& m_repo;
  LedgerVersions& m_versions;
  // Per ledger path, the version seen last: its blob id and fingerprint.
  std::unordered_map<std::string, std::pair<git::ObjectId, Fingerprint>> m_seen;
  PtHistory m_pt_history;  // eras P and T: ruling ids deleted so far
};

}  // namespace lg::audit
