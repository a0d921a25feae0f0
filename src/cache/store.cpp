// The persistent store (store.hpp): one file per entry, checked on read,
// written through a temporary file and a rename, evicted by last use.
#include "ledgergate/cache/store.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <set>

#include "ledgergate/cache/codec.hpp"
#include "ledgergate/util/fd.hpp"
#include "ledgergate/util/file_bytes.hpp"
#include "ledgergate/util/hash.hpp"
#include "ledgergate/util/version.hpp"

namespace lg::cache {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view k_temp_prefix = ".tmp-";

std::string header() { return fmt::format("ledgergate-cache {} {}\n", k_format_version, util::k_version); }

std::string trailer(std::uint64_t checksum) { return fmt::format("checksum {:016x}\n", checksum); }
std::string trailer(std::string_view covered) { return trailer(util::hash64(covered)); }
constexpr std::size_t k_trailer_size = 9 + 16 + 1;

std::atomic<bool> g_disabled{false};
std::mutex g_notes_mutex;
std::vector<std::string> g_notes;
std::set<std::string> g_noted;

}  // namespace

std::string Store::dir_for(std::string_view common_dir) {
  std::string dir(common_dir);
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  return dir + "/ledgergate/cache";
}

Store::Store(std::string dir, Budget budget) : m_dir(std::move(dir)), m_budget(budget) {}

std::string Store::path_of(std::string_view kind, std::string_view key) const {
  return fmt::format("{}/{}/{:016x}", m_dir, kind, util::fnv1a(key));
}

Store::Lookup Store::get(std::string_view kind, std::string_view key) const {
  const std::string path = path_of(kind, key);
  int error = 0;
  std::shared_ptr<const util::FileBytes> file = util::FileBytes::read(path, error);
  const auto untrusted = [&path](std::string_view why) {
    return Lookup{std::nullopt, nullptr, fmt::format("cache entry {} ignored ({}); it is rebuilt", path, why)};
  };
  if (!file) {
    if (error == ENOENT || error == ENOTDIR) return {};
    return untrusted(std::string("unreadable: ") + std::strerror(error));
  }
  const std::string_view text = file->bytes();
  const std::string head = header();
  if (text.size() < head.size() + k_trailer_size) return untrusted("truncated");
  if (!text.starts_with(head)) {
    if (text.starts_with("ledgergate-cache ")) return untrusted("written by another version");
    return untrusted("not a cache entry");
  }
  const std::string_view covered = text.substr(0, text.size() - k_trailer_size);
  if (text.substr(covered.size()) != trailer(covered)) return untrusted("checksum mismatch");
  Decoder d(covered.substr(head.size()));
  const std::string_view stored_kind = d.field_view();
  const std::string_view stored_key = d.field_view();
  const std::string_view payload = d.field_view();
  if (!d.ok() || !d.at_end()) return untrusted("malformed");
  if (stored_kind != kind || stored_key != key) return {};  // another key with the same hash: a miss
  ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);           // marks it used; fails quietly when read-only
  return Lookup{payload, std::move(file), std::nullopt};
}

bool Store::put(std::string_view kind, std::string_view key, std::string_view payload) const {
  return put_sized(kind, key, payload.size(), [payload](Encoder& e) { e.raw(payload); });
}

bool Store::put(std::string_view kind, std::string_view key, const std::function<void(Encoder&)>& write) const {
  std::size_t size = 0;
  Encoder counting([&size](std::string_view piece) { size += piece.size(); });
  write(counting);
  counting.flush();
  return put_sized(kind, key, size, write);
}

// The header, the kind, the key and the payload's length, then the payload
// as `write` encodes it, straight to the file: a facts pack of 20,000
// ledgers is 8 MB, and the entry built whole held it twice more at
// `check`'s peak.
bool Store::put_sized(std::string_view kind, std::string_view key, std::size_t size,
                      const std::function<void(Encoder&)>& write) const {
  const std::string path = path_of(kind, key);
  const std::string dir = fs::path(path).parent_path().string();
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return false;
  Encoder e;
  e.field(kind);
  e.field(key);
  const std::string head = header() + e.take() + std::to_string(size) + ':';
  util::Hash64 checksum(head.size() + size);
  checksum.add(head);
  static std::atomic<unsigned> counter{0};
  const std::string temp = fmt::format("{}/{}{}-{}", dir, k_temp_prefix, ::getpid(), counter++);
  {
    util::Fd fd(::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
    if (fd.get() < 0) return false;
    bool ok = util::write_all(fd.get(), head);
    std::size_t written = 0;
    Encoder writing([&](std::string_view piece) {
      written += piece.size();
      checksum.add(piece);
      ok = ok && util::write_all(fd.get(), piece);
    });
    write(writing);
    writing.flush();
    // A writer that gave another length the second time leaves no entry.
    ok = ok && written == size && util::write_all(fd.get(), trailer(checksum.value()));
    if (!ok || !fd.close()) {
      ::unlink(temp.c_str());
      return false;
    }
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    ::unlink(temp.c_str());
    return false;
  }
  if (m_puts++ % 32 == 0) evict_kind(dir);
  return true;
}

void Store::remove(std::string_view kind, std::string_view key) const {
  ::unlink(path_of(kind, key).c_str());
}

void Store::evict() const {
  std::error_code ec;
  for (fs::directory_iterator kinds(m_dir, ec), end; !ec && kinds != end; kinds.increment(ec)) {
    std::error_code ec2;
    if (kinds->is_directory(ec2)) evict_kind(kinds->path().string());
  }
}

void Store::evict_kind(const std::string& kind_dir) const {
  struct File {
    fs::path path;
    fs::file_time_type used;
    std::uintmax_t size;
  };
  std::vector<File> files;
  std::uint64_t bytes = 0;
  const auto now = fs::file_time_type::clock::now();
  std::error_code ec;
  for (fs::directory_iterator it(kind_dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code ec2;
    if (!it->is_regular_file(ec2)) continue;
    const auto used = it->last_write_time(ec2);
    if (ec2) continue;
    if (it->path().filename().string().starts_with(k_temp_prefix)) {
      if (now - used > std::chrono::minutes(1)) fs::remove(it->path(), ec2);
      continue;
    }
    const std::uintmax_t size = it->file_size(ec2);
    if (ec2) continue;
    files.push_back(File{it->path(), used, size});
    bytes += size;
  }
  if (files.size() <= m_budget.max_entries && bytes <= m_budget.max_bytes) return;
  std::sort(files.begin(), files.end(), [](const File& a, const File& b) { return a.used < b.used; });
  std::size_t count = files.size();
  for (const File& f : files) {
    if (count <= m_budget.max_entries && bytes <= m_budget.max_bytes) break;
    std::error_code ec2;
    if (fs::remove(f.path, ec2)) {
      --count;
      bytes -= f.size;
    }
  }
}

std::size_t Store::clear() const {
  std::error_code ec;
  if (!fs::exists(m_dir, ec)) return 0;
  const std::uintmax_t n = fs::remove_all(m_dir, ec);
  return ec ? 0 : static_cast<std::size_t>(n);
}

bool enabled() {
  if (g_disabled.load()) return false;
  const char* env = std::getenv("LEDGERGATE_NO_CACHE");
  return env == nullptr || env[0] == '\0' || std::string_view(env) == "0";
}
void disable() { g_disabled.store(true); }
void enable() { g_disabled.store(false); }

void add_note(std::string note) {
  std::lock_guard lock(g_notes_mutex);
  if (g_noted.insert(note).second) g_notes.push_back(std::move(note));
}

std::vector<std::string> take_notes() {
  std::lock_guard lock(g_notes_mutex);
  return std::exchange(g_notes, {});
}

}  // namespace lg::cache
