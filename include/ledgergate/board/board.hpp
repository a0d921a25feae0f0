// The board (docs/board.md): the newest era's (cortex-projects) page of every
// project's state, as a value. One card per active project (status, summary,
// `## Now`, the runs on the cluster, the last LOG_WINDOW log entries), the
// other rows listed compactly, the check-in stamp, the tree's `check`
// verdict and findings, and the project's home link read from the tree's
// own files (PyAutoCortex's schema decision 48). Read from a tree source (a commit's objects,
// no checkout); the renderers are report/board_md and report/board_html.
// Nothing here depends on the clock: the same tree gives the same board
// (a run's staleness is judged against the tree's own newest date).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/diag/verdict.hpp"
#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/ledger/check_options.hpp"
#include "ledgergate/ledger/project_ledger.hpp"
#include "ledgergate/util/result.hpp"

namespace lg::board {

// The reference conductor's LOG_WINDOW (spec §4.2): a card's log entries.
inline constexpr std::size_t k_log_window = 5;
inline constexpr std::string_view k_checkin_yaml = "checkin.yaml";
// A run open or running for more days than this is stale (the policy's
// `board_stale_days`, docs/policy.md).
inline constexpr int k_default_stale_days = 14;

// A run line of a card, with its age.
struct Run {
  ledger::RunLine line;
  // Days from the run's date to the board's as_of; nullopt when either is not a date.
  std::optional<long> age_days;
  bool stale = false;  // open or running, and older than the stale threshold
};

struct Card {
  std::string key;
  std::string status;     // the projects.yaml row's status
  std::string partition;  // the row's partition ("" when absent)
  std::string path;       // "projects/<key>.md"
  bool has_ledger = false;
  std::string summary;    // the title's summary ("" without a ledger or a readable title)
  std::string issue;      // the `Issue:` header value ("" when absent)
  std::string now;        // the `## Now` text (lines joined with "\n", stripped)
  std::vector<Run> runs;
  std::vector<ledger::LogEntry> log;  // the newest k_log_window entries, newest first
  std::size_t log_total = 0;          // every entry of the log
  std::string updated;                // the first (newest) log entry's date, "" when the log is empty
};

// A row listed compactly (dormant, planned, retired, or any other status).
struct Listed {
  std::string key;
  std::string status;
  std::string path;       // "projects/<key>.md" when the ledger exists, else ""
  std::string summary;    // the ledger's summary, else the row's note, else ""
};

struct Checkin {
  enum class State { absent, ok, unreadable };
  State state = State::absent;
  std::string stamp;  // the `refreshed:` value when ok
};
// The check-in's problem as the reference conductor words it (spec §5.3).
inline constexpr std::string_view k_checkin_problem =
    "checkin.yaml: no readable `refreshed: <UTC ISO>` — read as never checked in";

// Reads checkin.yaml's bytes (nullopt: absent) as the R-era conductor does.
Checkin read_checkin(const std::optional<std::string>& bytes);

// The project's GitHub home ("https://github.com/OWNER/REPO", no trailing
// slash) from the first such link in README.md, then AGENTS.md, of the tree
// (decision 48); nullopt when neither has one. `text` is one file's bytes.
std::optional<std::string> github_home_in(std::string_view text);
// "https://github.com/OWNER/REPO" from a remote URL
// (https://github.com/O/R[.git], git@github.com:O/R[.git], ssh://git@github.com/O/R); nullopt otherwise.
std::optional<std::string> github_home_of_remote(std::string_view url);

struct Board {
  std::string profile;                 // the profile checked ("cortex-projects")
  diag::Verdict verdict = diag::Verdict::pass;
  std::vector<diag::Finding> findings; // check's findings, in its order
  std::vector<Card> active;            // projects.yaml order
  std::vector<Listed> resting;         // dormant and planned (and any other non-active, non-retired status)
  std::vector<Listed> retired;
  Checkin checkin;
  std::optional<std::string> home;     // see github_home_in
  std::string home_source;             // "README.md", "AGENTS.md", "git remote" or ""
  // The day runs are aged against: the newest date the tree holds (a card's
  // newest log entry, the check-in stamp's day), so that the same tree gives
  // the same board whenever it is rendered; "" when the tree holds none.
  std::string as_of;
  int stale_days = k_default_stale_days;
};

struct BoardOptions {
  ledger::CheckOptions check;           // what the tree's policy yields
  // The home used when the tree's files name none: the repository's remote
  // URL (the caller reads it; "" when there is no remote).
  std::string remote_url;
  int stale_days = k_default_stale_days;  // the policy's `board_stale_days`
};

// The project's home and where it was read: github_home_in of README.md,
// then of AGENTS.md, then github_home_of_remote(remote_url).
struct Home {
  std::string url;     // "https://github.com/OWNER/REPO"
  std::string source;  // "README.md", "AGENTS.md" or "git remote"
};
Result<std::optional<Home>> read_home(git::TreeSource& tree, std::string_view remote_url);

// Reads the board of `tree`. Errors: an unreadable tree, a tree that is not
// of the cortex-projects era (the board is the newest era's page), a
// projects.yaml that cannot be read as rows.
Result<Board> read_board(git::TreeSource& tree, const BoardOptions& options);

}  // namespace lg::board
