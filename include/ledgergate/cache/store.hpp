// The persistent fact cache: entries kept in files below the repository's
// common git directory (`<commondir>/ledgergate/cache/`, shared by linked
// worktrees, never in a working tree), each named by a kind and the hash of
// its key. An entry holds its format version, ledgergate's version, its full
// key, its payload and a 64-bit checksum over all of them; one that is
// truncated, corrupt, of another version or key, or unreadable is never
// trusted: the lookup misses and says why (a note, returned as a value),
// and the caller's next put rewrites it. Writes go through a temporary file
// and a rename (no lock: racing processes never block, the last rename
// wins, a reader sees a whole entry or none); a directory that cannot be
// written only means nothing is cached. A size budget evicts the least
// recently used entries of a kind after a Store's first put of it and every
// 32nd after that (so a long run of puts does not list the folder each
// time). A Store is used by one thread at a time; any number of Stores and
// processes may share a directory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lg::util {
class FileBytes;
}

namespace lg::cache {

class Encoder;

// The on-disk format's version: entries written with another are ignored.
inline constexpr int k_format_version = 2;  // 2: the checksum is util::hash64

// Per kind of entry (each kind is a folder of its own).
struct Budget {
  std::size_t max_entries = 512;           // files
  std::uint64_t max_bytes = 256ull << 20;  // their total size
};

class Store {
 public:
  // The cache of the repository whose common git directory is `common_dir`.
  static std::string dir_for(std::string_view common_dir);

  explicit Store(std::string dir, Budget budget = {});
  const std::string& dir() const { return m_dir; }
  const Budget& budget() const { return m_budget; }

  struct Lookup {
    // The entry's payload when present and whole: a view into `bytes`
    // (a large entry is mapped from the page cache, not copied).
    std::optional<std::string_view> payload;
    std::shared_ptr<const util::FileBytes> bytes;  // what `payload` lies in
    std::optional<std::string> note;               // why an entry that exists was not trusted
  };
  // The payload stored for (kind, key). A hit marks the entry used (its
  // time), which is what eviction orders by.
  Lookup get(std::string_view kind, std::string_view key) const;
  // Stores `payload` for (kind, key), then applies the budget (see above).
  // Returns false when nothing could be written (a read-only repository):
  // never an error.
  bool put(std::string_view kind, std::string_view key, std::string_view payload) const;
  // The same, for a payload `write` encodes, which it is asked for twice
  // (its length first, then its bytes, each handed to the file as written):
  // it must write the same bytes both times.
  bool put(std::string_view kind, std::string_view key, const std::function<void(Encoder&)>& write) const;
  // Removes the entry for (kind, key), if any (a failure is ignored).
  void remove(std::string_view kind, std::string_view key) const;
  // Removes the least recently used entries of each kind until the budget
  // holds (and temporary files older than a minute, left by killed writers).
  void evict() const;
  // Removes every entry; returns how many files were removed.
  std::size_t clear() const;

  // The file (kind, key) is stored in (for tests and `docs/cache.md`).
  std::string path_of(std::string_view kind, std::string_view key) const;

 private:
  void evict_kind(const std::string& kind_dir) const;
  // put() of a payload of `size` bytes that `write` encodes.
  bool put_sized(std::string_view kind, std::string_view key, std::size_t size,
                 const std::function<void(Encoder&)>& write) const;

  std::string m_dir;
  Budget m_budget;
  mutable unsigned m_puts = 0;
};

// Whether the persistent cache is on for this process: unless disable()
// was called (`--no-cache`) or LEDGERGATE_NO_CACHE is set to anything but
// "" or "0".
bool enabled();
void disable();
// For tests: turns it back on (the environment still decides).
void enable();

// The notes about entries not trusted, kept for the CLI to print once on
// stderr (each distinct note once per process). Thread-safe.
void add_note(std::string note);
std::vector<std::string> take_notes();

}  // namespace lg::cache
