#include "loose_guard.hpp"

#include <git2/sys/odb_backend.h>
#include <zlib.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
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

// The loose file of `id` below `dir`, inflated and its header checked.
struct Loose {
  enum class State { absent, foreign, bad, good } state = State::absent;
  std::string why;  // when bad
  git_object_t type = GIT_OBJECT_INVALID;
  std::string inflated;  // "type size\0" then the body
  std::size_t body_at = 0;
  std::string_view body() const { return std::string_view(inflated).substr(body_at); }
};

// Not there: packed, in an alternate, or unreadable (libgit2 reads it as
// before and says so); foreign: not a zlib stream (libgit2's old
// "pack-like" loose format, left to it).
Loose inflate_loose(const std::string& dir, const git_oid* id) {
  Loose l;
  const std::string hex = hex_of(id);
  const std::string path = dir + "/" + hex.substr(0, 2) + "/" + hex.substr(2);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return l;
  std::string data;
  char chunk[65536];
  for (;;) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    data.append(chunk, static_cast<std::size_t>(n));
  }
  ::close(fd);
  if (data.size() < 2 || (static_cast<unsigned char>(data[0]) & 0x8F) != 0x08 ||
      ((static_cast<unsigned>(static_cast<unsigned char>(data[0])) << 8) | static_cast<unsigned char>(data[1])) % 31 != 0) {
    l.state = Loose::State::foreign;
    return l;
  }
  const auto bad = [&l](std::string why) {
    l.state = Loose::State::bad;
    l.why = std::move(why);
    return l;
  };
  z_stream zs{};
  if (inflateInit(&zs) != Z_OK) return bad("cannot inflate");
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  std::string& out = l.inflated;
  int rc = Z_OK;
  char buf[65536];
  while (rc == Z_OK) {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof buf;
    rc = inflate(&zs, Z_NO_FLUSH);
    out.append(buf, sizeof buf - zs.avail_out);
    if (rc == Z_BUF_ERROR || (rc == Z_OK && zs.avail_in == 0 && zs.avail_out != 0)) {
      rc = Z_BUF_ERROR;
      break;  // no more input and no end of stream: truncated
    }
  }
  inflateEnd(&zs);
  if (rc != Z_STREAM_END) return bad(rc == Z_BUF_ERROR ? "its loose file is truncated" : "its loose file is corrupt");
  const auto nul = out.find('\0');
  const auto space = out.find(' ');
  if (nul == std::string::npos || space == std::string::npos || space > nul) return bad("its loose header is malformed");
  l.type = git_object_string2type(out.substr(0, space).c_str());
  const std::string size_text = out.substr(space + 1, nul - space - 1);
  if (l.type == GIT_OBJECT_INVALID || size_text.empty() || size_text.size() > 19 ||
      size_text.find_first_not_of("0123456789") != std::string::npos) {
    return bad("its loose header is malformed");
  }
  l.body_at = nul + 1;
  const std::size_t body = out.size() - l.body_at;
  if (std::stoull(size_text) != body) {
    return bad("its loose header declares " + size_text + " bytes, the file holds " + std::to_string(body));
  }
  l.state = Loose::State::good;
  return l;
}

int refuse(const git_oid* id, const std::string& why) {
  git_error_set_str(GIT_ERROR_ODB, ("object " + hex_of(id) + ": " + why).c_str());
  return GIT_ERROR;
}

// A whole read: a good loose file is answered from the guard's own inflate
// (libgit2's loose backend would inflate it a second time); the odb hashes
// what is returned (GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, Libgit2Session).
int guarded_read(void** out, size_t* len, git_object_t* type, git_odb_backend* b, const git_oid* id) {
  const auto g = guarded(b);
  if (!g) return GIT_ERROR;
  const Loose l = inflate_loose(g->objects_dir, id);
  if (l.state == Loose::State::bad) return refuse(id, l.why);
  if (l.state != Loose::State::good) return g->read(out, len, type, b, id);
  const std::string_view body = l.body();
  auto* data = static_cast<char*>(git_odb_backend_data_alloc(b, body.size() + 1));
  if (!data) return GIT_ERROR;
  std::memcpy(data, body.data(), body.size());
  data[body.size()] = '\0';
  *out = data;
  *len = body.size();
  *type = l.type;
  return 0;
}

// A header read is not hashed by libgit2: the guard hashes the loose file.
int guarded_read_header(size_t* len, git_object_t* type, git_odb_backend* b, const git_oid* id) {
  const auto g = guarded(b);
  if (!g) return GIT_ERROR;
  const Loose l = inflate_loose(g->objects_dir, id);
  if (l.state == Loose::State::bad) return refuse(id, l.why);
  if (l.state != Loose::State::good) return g->read_header(len, type, b, id);
  const std::string_view body = l.body();
  git_oid actual;
  if (git_odb_hash(&actual, body.data(), body.size(), l.type) < 0) return refuse(id, "cannot hash it");
  if (!git_oid_equal(&actual, id)) return refuse(id, "object hash mismatch: its bytes hash to " + hex_of(&actual));
  *len = body.size();
  *type = l.type;
  return 0;
}

}  // namespace

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
