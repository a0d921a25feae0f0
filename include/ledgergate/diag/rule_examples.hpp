// Per-rule examples for `explain` and docs/rules.md: the file a rule concerns,
// a good and a bad text, and a one-sentence fix. An example is an edit of a
// profile's skeleton ledger (a peer-cases fixture): "replace GOOD with BAD in
// PATH of SKELETON"; an empty `good` means the bad text is a whole new file
// at PATH that the skeleton does not have. A history rule (audit-*, orl-h-*)
// reads the pair as before → after: the skeleton is the older version, the
// edit the newer one. The unit test
// tests/unit/diag/rule_examples_test.cpp materialises every example and checks
// that the good tree has no finding of the rule and the bad tree has one, and
// that every catalogue row has an example. Pure data in diag, like the table.
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace lg::diag {

// How a row's example is made from its skeleton. `edit`: replace `good` with
// `bad` in `path` (above). `remove_file`: the bad tree is the skeleton without
// `path`; `good` and `bad` describe the two trees in prose. `symlink`: the
// bad tree has a symlink at `path` (a folder tree, as `--root` reads it) whose
// target is `bad`; `good` describes the regular file. `described`: the
// example needs more than one tree or edit (a history shape, an unreadable
// object); `good`, `bad` and `fix` are prose, and the unit test names exactly
// these rules as the unverified ones. `history`: `good` and `bad` are two
// short scripted histories played after a first commit of the skeleton on
// branch main; the test runs `audit` of main (a merge-* rule: the trial
// merge of branch topic into main) and requires no finding of the rule for
// the good one and one for the bad one. A script is one step a line:
//   edit PATH: OLD => NEW   the first OLD in PATH becomes NEW ("\n": a newline)
//   add PATH: TEXT          a new file ("\n": a newline)
//   remove PATH
//   move FROM => TO         a file; or, when FROM ends in '/', every file under it
//   commit MESSAGE          commits the files on the current branch
//   branch NAME             a new branch at the current commit, switched to
//   orphan NAME             a new branch without commits or files, switched to
//   switch NAME
//   merge NAME              the files of the merge of NAME into the current branch
//                           (each path as the side that changed it since their
//                           last common commit); the next commit has both parents
enum class ExampleKind { edit, remove_file, symlink, described, history };

struct RuleExample {
  std::string_view id;        // the rule (a rule_table row's id)
  std::string_view skeleton;  // the ledger edited: a peer-cases fixture ("R-skeleton",
                              // "T-skeleton", "P-skeleton", "P1-skeleton") or "ORL-skeleton"
                              // (fixtures/ledgers/open-requirements)
  std::string_view path;      // the file the example concerns
  std::string_view good;      // text present in the skeleton's file ("" = the file is absent)
  std::string_view bad;       // what replaces it (the whole file when `good` is empty)
  std::string_view fix;       // one sentence
  ExampleKind kind = ExampleKind::edit;
};

std::span<const RuleExample> all_rule_examples();
std::optional<RuleExample> find_rule_example(std::string_view id);

}  // namespace lg::diag
