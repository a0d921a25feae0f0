// Working-tree status questions the CLI asks about a repository.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ledgergate/git/index_file.hpp"
#include "ledgergate/git/repository.hpp"

namespace lg::git {

// True when the index or working tree differs from HEAD under any of
// `pathspecs` (untracked files included, ignored ones not). Each pathspec is
// a literal path, a folder when it ends in '/'. The cost follows those
// paths, not the working tree: only the ledger's files are looked at (one
// lstat each against the stat data git keeps in the index), and libgit2's
// status is asked only about the files that leaves in doubt. Reads only.
// `threads`: how many threads look at the working files (0: one per core,
// up to four; 1: the calling thread alone); neither the answer nor the
// error depends on it. Errors: unreadable index or tree.
Result<bool> has_uncommitted_changes(const Repository& repo, const std::vector<std::string>& pathspecs,
                                     unsigned threads = 1);

// The working tree's side of that question read ahead, while the caller
// does other work: a thread of its own reads git's index file, then looks
// at the working files with the other threads `threads` allows. No thread
// is started when `threads` is 1 or the index file is smaller than
// `threads_from` bytes (k_uncommitted_threads_from, some 2,500 files:
// there the whole question costs a millisecond or two on one thread, about
// what starting and scheduling threads would), and the question is then
// asked on the calling thread alone. Nothing of it goes through libgit2
// (git's hash of a folder's tree aside, which needs no repository). When the index holds more than `max_files`
// entries under the pathspecs (k_uncommitted_max_files), the working files
// are not looked at and the answer is Uncommitted::not_looked. The
// caller may use `repo` meanwhile. Reads only.
inline constexpr std::uint64_t k_uncommitted_threads_from = 256u << 10;
// Above this many ledger files in the index, `check` does not look for
// uncommitted changes: one lstat per file (about 1 µs of system time each
// on a 2-core Intel Xeon VM) would cost more than the check of HEAD itself
// (at 5,000 files, 1.95x it on two idle cores; docs/performance.md, "The
// uncommitted-ledger notice").
inline constexpr std::size_t k_uncommitted_max_files = 4000;

// What a scan found under its pathspecs.
enum class Uncommitted : unsigned char {
  none,        // no uncommitted change
  changed,     // some uncommitted change
  not_looked,  // more files than the scan's bound: not looked for
};

// How long a folder must have been left alone (its modification and
// change times that far behind the clock) before a scan's memo keeps its
// file count: a folder changed again later then has other times, even on a
// file system that keeps them to the second or two.
inline constexpr std::chrono::seconds k_folder_settled{3};

// How an UncommittedScan reads.
struct ScanOptions {
  unsigned threads = 1;  // see has_uncommitted_changes
  std::uint64_t threads_from = k_uncommitted_threads_from;
  std::size_t max_files = k_uncommitted_max_files;
  // What a scan of the same repository and pathspecs left for the next one
  // (UncommittedScan::memo; empty: nothing).
  std::string memo;
  std::chrono::nanoseconds settled = k_folder_settled;
};

// A scan's memo: what it learned that lets the next scan in an unchanged
// repository do less, each part with what recognizes the file or folder it
// describes, so that a part that does not match what is there now is not
// used: where git's index file holds the entries under the pathspecs (the
// index recognized by its device, inode, size, times and checksum; the
// rest of the file is then not read: at 2,000 projects 0.2 of 2.9 MB, and
// past the bound of files none of it), and how many files each folder
// pathspec held (the folder recognized by its device, inode, modification
// and change times, kept once those are k_folder_settled old: the folder is
// then not listed when the index holds as many files there). Changing a
// folder's entries changes its times, as git's untracked cache relies on;
// a network file system whose client caches a folder's times may show an
// untracked file late, as git then does.

class UncommittedScan {
 public:
  UncommittedScan(const Repository& repo, std::vector<std::string> pathspecs, ScanOptions options);
  UncommittedScan(UncommittedScan&&) noexcept;
  UncommittedScan& operator=(UncommittedScan&&) noexcept;
  ~UncommittedScan();  // waits for the index read; the working files' look is cut short

  // After has_uncommitted_changes: the index's entries under the
  // pathspecs (0 when the index was not read by this reader).
  std::size_t files() const;

  // After has_uncommitted_changes: the memo for the next scan (see above)
  // when it differs from the one given; nullopt when there is nothing new
  // to keep.
  std::optional<std::string> memo() const;

  struct State;

 private:
  friend Result<Uncommitted> has_uncommitted_changes(const Repository& repo, UncommittedScan& ahead);
  std::unique_ptr<State> m_state;  // null for a bare repository
};

// The id of the tree a commit of `index` would have at `folder` ("dir/"):
// its entries there written as git writes a tree, each subfolder's first,
// and hashed (what git's cache-tree records for a valid folder); nullopt
// when the index holds nothing there. `check`'s notice compares it with
// HEAD's folder when the cache-tree's entry is invalid.
std::optional<ObjectId> index_folder_tree(const IndexListing& index, const std::string& folder);

// has_uncommitted_changes of `ahead`'s pathspecs, its working tree's side
// read ahead (`repo`: the repository the scan was started on). The same
// answer and the same errors, or not_looked past its bound; asked once.
Result<Uncommitted> has_uncommitted_changes(const Repository& repo, UncommittedScan& ahead);

}  // namespace lg::git
