// Baselines: today's known findings, recorded in a file (`--write-baseline`)
// so that a later `check` or `audit` (`--baseline FILE`) reports them as
// suppressed and fails only on new ones. A finding is matched by its rule,
// its path and a content fingerprint that does not depend on where in the
// file it sits, so unrelated edits (lines inserted above) do not resurrect
// it. The same match tells what a change did (attribute): a finding of the
// changed tree is pre-existing when the reference tree has it. Pure
// functions: the CLI reads and writes the file (docs/baseline.md).
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::diag {

// The finding's message with the line numbers it names ("line 12", "lines
// 3-5", "path:7") replaced by "#": what stays the same when lines move.
std::string normalised_message(std::string_view message);

// 16 lower-case hex digits: FNV-1a of the rule, the path and the normalised
// message. The same value is SARIF's `partialFingerprints` entry and the
// JSON findings' `fingerprint`.
std::string fingerprint(const Finding& f);

// The first line of every baseline file; the number is the format's version.
inline constexpr std::string_view k_baseline_header = "ledgergate-baseline 1";

class Baseline {
 public:
  // Parses a baseline file's text; an error names the line that is not of the format.
  static Result<Baseline> parse(std::string_view text);
  // The baseline of `findings` (every finding, whatever its severity).
  static Baseline of(const std::vector<Finding>& findings);
  // The file's text: the header, then one line per finding, sorted.
  std::string render() const;

  // Whether the baseline holds `f`; each entry matches one finding at most
  // (a rule reported twice on a path with one entry suppresses one of them).
  bool take(const Finding& f);
  // Takes the findings the baseline holds out of `findings` (keeping the
  // others' order) and returns them.
  std::vector<Finding> suppress(std::vector<Finding>& findings);
  std::size_t size() const { return m_size; }

 private:
  using Key = std::tuple<std::string, std::string, std::string>;  // rule, path, fingerprint
  struct Entry {
    std::size_t count = 0;
    std::string message;  // as recorded, for people reading the file
  };
  void add(Key key, std::string message);
  std::map<Key, Entry> m_entries;
  std::size_t m_size = 0;
};

// A file the change moved: the reference's findings on `from` are matched
// as findings on `to` (a message naming `from` names `to`).
struct PathMove {
  std::string from, to;
};

// Judges `findings` (the changed tree's) against `reference` (the reference
// tree's, found the same way): each finding's state becomes pre_existing
// when the reference has the same one (rule, path through `moves`,
// fingerprint), matched one to one as a multiset, so a second copy of an
// old finding is introduced; introduced otherwise. Returns the reference's
// findings the change has no match for (fixed), as the reference has them.
std::vector<Finding> attribute(std::vector<Finding>& findings, const std::vector<Finding>& reference,
                               const std::vector<PathMove>& moves = {});

}  // namespace lg::diag
