#include "loose_guard.hpp"

#include "ledgergate/git/tree_source.hpp"

#include <git2/sys/odb_backend.h>
#include <zlib.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <new>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace lg::git {
namespace {

using ReadFn = int (*)(void**, size_t*, git_object_t*, git_odb_backend*, const git_oid*);
using HeaderFn = int (*)(size_t*, git_object_t*, git_odb_backend*, const git_oid*);

struct Guarded {
  std::string objects_dir;
  ReadFn read = nullptr;
  HeaderFn read_header = nullptr;
};

std::mutex g_mutex;
std::unordered_map<const git_odb_backend*, Guarded> g_guarded;

std::optional<Guarded> guarded(const git_odb_backend* b) {
  const std::lock_guard lock(g_mutex);
  auto it = g_guarded.find(b);
  if (it == g_guarded.end()) return std::nullopt;
  return it->second;
}

std::string hex_of(const git_oid* id) {
  char hex[GIT_OID_HEXSZ + 1];
  git_oid_tostr(hex, sizeof hex, id);
  return hex;
}

// Not there: packed, in an alternate, or unreadable (libgit2 reads it as
// before and says so); foreign: not a zlib stream (libgit2's old
// "pack-like" loose format, left to it); large: its header states more
// than the caller's limit, so its body is not inflated at all.
struct Loose {
  enum class State { absent, foreign, bad, large, good } state = State::absent;
  std::string why;  // when bad
  git_object_t type = GIT_OBJECT_INVALID;
  std::size_t size = 0;  // the size its header states
  std::string body;      // when good
};

// A loose file's zlib stream, inflated on demand from the file in chunks.
class LooseStream {
 public:
  enum class Step { full, end, truncated, corrupt };

  explicit LooseStream(int fd) : m_fd(fd) {}
  ~LooseStream() {
    if (m_started) inflateEnd(&m_zs);
    ::close(m_fd);
  }
  LooseStream(const LooseStream&) = delete;
  LooseStream& operator=(const LooseStream&) = delete;

  // Whether the file opens with a zlib header (read before inflating).
  bool zlib_header() {
    refill();
    const auto* p = m_zs.next_in;
    if (m_zs.avail_in < 2 || (p[0] & 0x8F) != 0x08 || ((unsigned{p[0]} << 8) | p[1]) % 31 != 0) return false;
    m_started = inflateInit(&m_zs) == Z_OK;
    return m_started;
  }

  // Inflates at most `n` bytes into `out`, adding how many to `got`: full
  // (`out` is full; the stream may go on), end (the stream ended),
  // truncated (the file ended first) or corrupt.
  Step inflate_into(char* out, std::size_t n, std::size_t& got) {
    while (n > 0) {
      const auto chunk = static_cast<uInt>(std::min<std::size_t>(n, 1u << 30));
      m_zs.next_out = reinterpret_cast<Bytef*>(out);
      m_zs.avail_out = chunk;
      const int rc = inflate_some();
      const std::size_t made = chunk - m_zs.avail_out;
      got += made;
      out += made;
      n -= made;
      if (rc == Z_STREAM_END) return Step::end;
      if (rc != Z_OK) return rc == Z_BUF_ERROR ? Step::truncated : Step::corrupt;
    }
    return Step::full;
  }

 private:
  // One inflate step that makes progress, reading the file as needed:
  // Z_OK with the output full, Z_STREAM_END, or an error (Z_BUF_ERROR:
  // the file ended in the middle of the stream).
  int inflate_some() {
    for (;;) {
      if (m_zs.avail_in == 0) refill();
      const int rc = inflate(&m_zs, Z_NO_FLUSH);
      if (rc == Z_STREAM_END || (rc != Z_OK && rc != Z_BUF_ERROR)) return rc;
      if (m_zs.avail_out == 0) return Z_OK;
      if (m_zs.avail_in == 0 && m_eof) return Z_BUF_ERROR;
      if (rc == Z_BUF_ERROR && m_zs.avail_in != 0) return Z_DATA_ERROR;  // no progress with input and room
    }
  }

  void refill() {
    if (m_eof) return;
    for (;;) {
      const ssize_t n = ::read(m_fd, m_buf, sizeof m_buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        m_eof = true;  // a read error reads as the file's end: the stream is then truncated
        return;
      }
      m_zs.next_in = reinterpret_cast<Bytef*>(m_buf);
      m_zs.avail_in = static_cast<uInt>(n);
      return;
    }
  }

  int m_fd;
  z_stream m_zs{};
  bool m_started = false;
  bool m_eof = false;
  char m_buf[65536];
};

Loose bad_loose(std::string why) {
  Loose l;
  l.state = Loose::State::bad;
  l.why = std::move(why);
  return l;
}

std::string_view truncated_or_corrupt(LooseStream::Step step) {
  return step == LooseStream::Step::truncated ? "its loose file is truncated" : "its loose file is corrupt";
}

// The loose file of `id` below `dir`: its header inflated and checked
// first, then, unless it states more than `body_limit` bytes, its body,
// inflated into a buffer of the stated size and never past it (a stream
// that holds more is bad as soon as it does). A bomb (a small file that
// inflates to gigabytes) costs the header when it states its size, and
// at most what it states otherwise.
Loose inflate_loose(const std::string& dir, const git_oid* id, std::size_t body_limit) {
  const std::string hex = hex_of(id);
  const std::string path = dir + "/" + hex.substr(0, 2) + "/" + hex.substr(2);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Loose{};
  LooseStream stream(fd);
  if (!stream.zlib_header()) {
    Loose l;
    l.state = Loose::State::foreign;
    return l;
  }
  // "<type> <decimal size>\0": at most 32 bytes for any size that fits.
  char head[32];
  std::size_t got = 0;
  LooseStream::Step step = stream.inflate_into(head, sizeof head, got);
  if (step == LooseStream::Step::corrupt) return bad_loose(std::string(truncated_or_corrupt(step)));
  const std::string_view text(head, got);
  const auto nul = text.find('\0');
  const auto space = text.find(' ');
  if (nul == std::string_view::npos && step == LooseStream::Step::truncated) {
    return bad_loose(std::string(truncated_or_corrupt(step)));
  }
  if (nul == std::string_view::npos || space == std::string_view::npos || space > nul) {
    return bad_loose("its loose header is malformed");
  }
  Loose l;
  l.type = git_object_string2type(std::string(text.substr(0, space)).c_str());
  const std::string_view size_text = text.substr(space + 1, nul - space - 1);
  if (l.type == GIT_OBJECT_INVALID || size_text.empty() || size_text.size() > 19 ||
      size_text.find_first_not_of("0123456789") != std::string_view::npos) {
    return bad_loose("its loose header is malformed");
  }
  l.size = std::stoull(std::string(size_text));
  if (l.size > body_limit) {
    l.state = Loose::State::large;
    return l;
  }
  const std::string stated = std::to_string(l.size);
  const std::string_view start = text.substr(nul + 1);
  if (start.size() > l.size) return bad_loose("its loose header declares " + stated + " bytes, the file holds more");
  l.body.resize(l.size);
  std::copy(start.begin(), start.end(), l.body.begin());
  std::size_t filled = start.size();
  if (step == LooseStream::Step::full) step = stream.inflate_into(l.body.data() + filled, l.size - filled, filled);
  if (step == LooseStream::Step::full) {  // the body is whole: the stream must end here
    char extra = 0;
    std::size_t more = 0;
    step = stream.inflate_into(&extra, 1, more);
    if (more > 0) return bad_loose("its loose header declares " + stated + " bytes, the file holds more");
  }
  if (step != LooseStream::Step::end) return bad_loose(std::string(truncated_or_corrupt(step)));
  if (filled != l.size) {
    return bad_loose("its loose header declares " + stated + " bytes, the file holds " + std::to_string(filled));
  }
  l.state = Loose::State::good;
  return l;
}

int refuse(const git_oid* id, const std::string& why) {
  git_error_set_str(GIT_ERROR_ODB, ("object " + hex_of(id) + ": " + why).c_str());
  return GIT_ERROR;
}

// 0 when `bytes` of `type` hash to `id`, else an error naming both.
int check_hash(const git_oid* id, const void* bytes, std::size_t size, git_object_t type) {
  git_oid actual;
  if (git_odb_hash(&actual, bytes, size, type) < 0) return refuse(id, "cannot hash it");
  if (!git_oid_equal(&actual, id)) return refuse(id, "object hash mismatch: its bytes hash to " + hex_of(&actual));
  return 0;
}

// A whole read, hashed here (libgit2's odb does not re-hash what it reads,
// Libgit2Session): a good loose file is answered from the guard's own
// inflate (libgit2's loose backend would inflate it a second time); one the
// guard leaves to libgit2 (in an alternate or a push quarantine, or in the
// old "pack-like" format) is hashed after libgit2 read it.
int guarded_read(void** out, size_t* len, git_object_t* type, git_odb_backend* b, const git_oid* id) {
  const auto g = guarded(b);
  if (!g) return GIT_ERROR;
  try {
    const Loose l = inflate_loose(g->objects_dir, id, std::numeric_limits<std::size_t>::max());
    if (l.state == Loose::State::bad) return refuse(id, l.why);
    if (l.state != Loose::State::good) {
      const int rc = g->read(out, len, type, b, id);
      if (rc < 0) return rc;
      if (const int bad = check_hash(id, *out, *len, *type); bad < 0) {
        git_odb_backend_data_free(b, *out);
        *out = nullptr;
        return bad;
      }
      return 0;
    }
    if (const int bad = check_hash(id, l.body.data(), l.body.size(), l.type); bad < 0) return bad;
    auto* data = static_cast<char*>(git_odb_backend_data_alloc(b, l.body.size() + 1));
    if (!data) return GIT_ERROR;
    std::memcpy(data, l.body.data(), l.body.size());
    data[l.body.size()] = '\0';
    *out = data;
    *len = l.body.size();
    *type = l.type;
    return 0;
  } catch (const std::bad_alloc&) {
    return refuse(id, "its stated size cannot be allocated");
  }
}

// A header read: the guard hashes the loose file, up to k_max_blob_bytes. A
// header stating more is answered from the header alone (nothing larger is
// read whole to be judged; a whole read is hashed by guarded_read), so a
// bomb is refused at the cost of its first bytes.
int guarded_read_header(size_t* len, git_object_t* type, git_odb_backend* b, const git_oid* id) {
  const auto g = guarded(b);
  if (!g) return GIT_ERROR;
  try {
    const Loose l = inflate_loose(g->objects_dir, id, k_max_blob_bytes);
    if (l.state == Loose::State::bad) return refuse(id, l.why);
    if (l.state == Loose::State::good) {
      if (const int bad = check_hash(id, l.body.data(), l.body.size(), l.type); bad < 0) return bad;
    } else if (l.state != Loose::State::large) {
      return g->read_header(len, type, b, id);
    }
    *len = l.size;
    *type = l.type;
    return 0;
  } catch (const std::bad_alloc&) {
    return refuse(id, "its stated size cannot be allocated");
  }
}

}  // namespace

int confirm_object(git_odb* odb, const git_oid* id) {
  // The backends in the odb's order (the packs before the loose folder).
  for (std::size_t i = 0; i < git_odb_num_backends(odb); ++i) {
    git_odb_backend* b = nullptr;
    if (const int rc = git_odb_get_backend(&b, odb, i); rc < 0) return rc;
    if (b->read_header == guarded_read_header) {
      std::size_t len = 0;
      git_object_t type = GIT_OBJECT_INVALID;
      const int rc = guarded_read_header(&len, &type, b, id);
      if (rc != GIT_ENOTFOUND) return rc;
    } else if (b->exists && b->exists(b, id)) {
      return 0;
    }
  }
  // A pack added since the odb last looked (git_odb_exists refreshes).
  return git_odb_exists(odb, id) ? 0 : GIT_ENOTFOUND;
}

int guard_loose_reads(git_repository* repo) {
  git_odb* odb = nullptr;
  if (const int rc = git_repository_odb(&odb, repo); rc < 0) return rc;
  const std::string objects_dir = std::string(git_repository_commondir(repo)) + "objects";
  int rc = 0;
  for (std::size_t i = 0; i < git_odb_num_backends(odb) && rc == 0; ++i) {
    git_odb_backend* b = nullptr;
    if ((rc = git_odb_get_backend(&b, odb, i)) < 0) break;
    // The loose backend is the disk one that writes objects one by one.
    if (b->read == nullptr || b->writestream == nullptr || b->read == guarded_read) continue;
    {
      const std::lock_guard lock(g_mutex);
      g_guarded[b] = Guarded{objects_dir, b->read, b->read_header};
    }
    b->read = guarded_read;
    if (b->read_header) b->read_header = guarded_read_header;
  }
  git_odb_free(odb);
  return rc;
}

}  // namespace lg::git
