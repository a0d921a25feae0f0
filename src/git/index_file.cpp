// git's index file format (Documentation/gitformat-index.txt): a 12-byte
// header ("DIRC", version, entry count), the entries sorted by path then
// stage, extensions (4-byte signature, 4-byte size), a 20-byte checksum.
#include "ledgergate/git/index_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>

#include "ledgergate/util/fd.hpp"
#include "ledgergate/util/file_bytes.hpp"
#include "ledgergate/util/word_bytes.hpp"

namespace lg::git {

namespace {

constexpr std::size_t k_header_size = 12;
constexpr std::size_t k_checksum_size = ObjectId::k_raw_size;
// ctime, mtime (8 bytes each), dev, ino, mode, uid, gid, size (4 each), id, flags.
constexpr std::size_t k_mode_at = 24;
constexpr std::size_t k_id_at = 40;
constexpr std::size_t k_flags_at = k_id_at + ObjectId::k_raw_size;  // 60
constexpr std::size_t k_name_at = k_flags_at + 2;                    // 62; 64 with extended flags

constexpr unsigned k_flag_extended = 0x4000;
constexpr unsigned k_stage_mask = 0x3000;
constexpr unsigned k_name_mask = 0x0fff;
// The extended flags git knows: skip-worktree, intent-to-add.
constexpr unsigned k_known_extended = 0x4000 | 0x2000;

unsigned be16(const unsigned char* p) { return (unsigned{p[0]} << 8) | unsigned{p[1]}; }

// git's offset varint (varint.c): nullopt on overflow or past `end`.
std::optional<std::size_t> decode_varint(const unsigned char*& p, const unsigned char* end) {
  if (p == end) return std::nullopt;
  unsigned char c = *p++;
  std::size_t value = c & 127u;
  while (c & 128u) {
    if (p == end || value >= (std::numeric_limits<std::size_t>::max() >> 8)) return std::nullopt;
    c = *p++;
    value = ((value + 1) << 7) | (c & 127u);
  }
  return value;
}

bool known_mode(std::uint32_t mode) {
  return mode == 0100644 || mode == 0100755 || mode == 0120000 || mode == 0160000;
}

// Paths libgit2 refuses to read (traversal, ".git") or that another of its
// rules may touch: left to it.
bool plain_path(std::string_view path) {
  if (path.empty()) return false;
  std::size_t start = 0;
  while (true) {
    const std::size_t slash = path.find('/', start);
    const std::string_view c = path.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (c.empty() || c == "." || c == "..") return false;
    // ".git" in any case, and its look-alikes (".git.", ".git~1"...); not ".github".
    if (c.size() >= 4 && c[0] == '.' && (c[1] | 0x20) == 'g' && (c[2] | 0x20) == 'i' && (c[3] | 0x20) == 't' &&
        (c.size() == 4 || !(std::isalnum(static_cast<unsigned char>(c[4])) || c[4] == '-' || c[4] == '_'))) {
      return false;
    }
    if (c.find('\\') != std::string_view::npos) return false;
    if (slash == std::string_view::npos) return true;
    start = slash + 1;
  }
}

// An entry's path in a version 4 index: the previous path (`built`) cut by
// a varint and extended by a NUL-terminated suffix at `name`. Returns the
// position after it; nullopt when malformed.
std::optional<const unsigned char*> read_v4_path(const unsigned char* name, const unsigned char* limit,
                                                 std::size_t name_len, std::string& built) {
  const std::optional<std::size_t> strip = decode_varint(name, limit);
  if (!strip || *strip > built.size()) return std::nullopt;
  const auto* nul = static_cast<const unsigned char*>(std::memchr(name, '\0', static_cast<std::size_t>(limit - name)));
  if (!nul) return std::nullopt;
  built.resize(built.size() - *strip);
  built.append(reinterpret_cast<const char*>(name), static_cast<std::size_t>(nul - name));
  if (name_len != k_name_mask && name_len != built.size()) return std::nullopt;
  return nul + 1;
}

// An entry's path in a version 2 or 3 index, at `name_at` in the entry at
// `entry` (`room` bytes to the body's end), and the entry's padded size;
// nullopt when malformed.
std::optional<std::pair<std::string_view, std::size_t>> read_v23_path(const unsigned char* entry, std::size_t room,
                                                                      std::size_t name_at, std::size_t name_len) {
  const unsigned char* name = entry + name_at;
  const auto* nul = static_cast<const unsigned char*>(std::memchr(name, '\0', room - name_at));
  if (!nul) return std::nullopt;
  const auto len = static_cast<std::size_t>(nul - name);
  if (name_len != k_name_mask ? len != name_len : len < k_name_mask) return std::nullopt;
  // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
  const std::size_t entry_size = (name_at + len + 8) & ~std::size_t{7};
  if (room < entry_size) return std::nullopt;
  for (std::size_t i = name_at + len; i < entry_size; ++i) {
    if (entry[i] != 0) return std::nullopt;
  }
  return std::make_pair(std::string_view(reinterpret_cast<const char*>(name), len), entry_size);
}

// An entry's fixed part (gitformat-index.txt): where its name starts, its
// stage, its recorded name length, its mode and whether an extended flag
// (skip-worktree, intent-to-add) is set; nullopt for an entry this reader
// declines (an unknown extended flag, an unknown mode: sparse-index
// directories among them) or that `room` bytes cannot hold.
struct EntryHead {
  std::size_t name_at = k_name_at;
  unsigned stage = 0;
  std::size_t name_len = 0;
  std::uint32_t mode = 0;
  bool flagged = false;
};

std::optional<EntryHead> entry_head(const unsigned char* entry, std::size_t room, std::uint32_t version) {
  if (room < k_name_at + 1) return std::nullopt;
  const unsigned flags = be16(entry + k_flags_at);
  EntryHead head;
  head.stage = (flags & k_stage_mask) >> 12;
  head.name_len = flags & k_name_mask;
  head.mode = util::load_be32(entry + k_mode_at);
  if (flags & k_flag_extended) {
    if (version < 3 || room < k_name_at + 3) return std::nullopt;
    const unsigned extended = be16(entry + k_name_at);
    if (extended & ~k_known_extended) return std::nullopt;
    head.flagged = (extended & k_known_extended) != 0;
    head.name_at += 2;
  }
  if (!known_mode(head.mode)) return std::nullopt;
  return head;
}

// An index's header (signature, version, count) over a file of `size`
// bytes, `data` holding its first k_header_size; nullopt for a file too
// small or too large, another signature, a version other than 2 to 4, or a
// count the body cannot hold (each entry takes at least 63 bytes).
struct IndexHeader {
  std::uint32_t version = 0;
  std::uint32_t count = 0;
  std::size_t body_end = 0;  // where the extensions end and the checksum starts
};

std::optional<IndexHeader> index_header(const unsigned char* data, std::size_t size) {
  if (size < k_header_size + k_checksum_size || size > std::numeric_limits<std::uint32_t>::max()) return std::nullopt;
  if (std::memcmp(data, "DIRC", 4) != 0) return std::nullopt;
  IndexHeader h{util::load_be32(data + 4), util::load_be32(data + 8), size - k_checksum_size};
  if (h.version < 2 || h.version > 4 || h.count > (h.body_end - k_header_size) / (k_name_at + 1)) return std::nullopt;
  return h;
}

// Extensions: an upper-case first letter marks one a reader may skip; any
// other ("link": a split index, "sdir": a sparse one) must be understood.
// With `cache_tree`, git's cache-tree extension ("TREE") is kept there.
bool skip_extensions(const unsigned char* data, std::size_t pos, std::size_t body_end, std::string* cache_tree) {
  while (body_end - pos > 0) {
    if (body_end - pos < 8) return false;
    const unsigned char* ext = data + pos;
    if (ext[0] < 'A' || ext[0] > 'Z') return false;
    const std::uint32_t ext_size = util::load_be32(ext + 4);
    if (ext_size > body_end - pos - 8) return false;
    if (cache_tree && std::memcmp(ext, "TREE", 4) == 0) cache_tree->assign(reinterpret_cast<const char*>(ext + 8), ext_size);
    pos += 8 + std::size_t{ext_size};
  }
  return true;
}

// An index file read front to back through one small buffer, for a walk
// that steps over its entries: a mapped 30 MB index costs a fault (or a
// miss of the translation cache) per page touched, which on a virtual
// machine is most of the walk; a buffer the kernel copies into stays
// mapped and hot.
class StreamedFile {
 public:
  static constexpr std::size_t k_capacity = 64 * 1024;
  explicit StreamedFile(int fd) : m_fd(fd), m_buffer(new unsigned char[k_capacity]) {}

  // Makes `n` bytes from the current position available (at most the
  // buffer's capacity); false at the end of the file or on an error, with
  // what there was available.
  bool fill(std::size_t n) {
    if (m_end - m_start >= n) return true;
    if (n > k_capacity) return false;
    if (m_start > 0) {
      std::memmove(m_buffer.get(), m_buffer.get() + m_start, m_end - m_start);
      m_end -= m_start;
      m_offset += m_start;
      m_start = 0;
    }
    while (m_end < n) {
      const ssize_t got = ::read(m_fd, m_buffer.get() + m_end, k_capacity - m_end);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) return false;
      m_end += static_cast<std::size_t>(got);
    }
    return true;
  }
  const unsigned char* here() const { return m_buffer.get() + m_start; }
  std::size_t available() const { return m_end - m_start; }
  // The file offset of the current position.
  std::size_t offset() const { return m_offset + m_start; }
  void advance(std::size_t n) { m_start += n; }
  // Copies the next `n` bytes into `out`, past the buffer by reading
  // straight into it; false at the end of the file or on an error.
  bool take(std::size_t n, std::string& out) {
    out.resize(n);
    const std::size_t buffered = std::min(n, available());
    std::memcpy(out.data(), here(), buffered);
    m_start += buffered;
    if (buffered == n) return true;
    m_offset += m_end;  // the buffer is spent: the file is read from here
    m_start = m_end = 0;
    for (std::size_t done = buffered; done < n;) {
      const ssize_t got = ::read(m_fd, out.data() + done, n - done);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) return false;
      done += static_cast<std::size_t>(got);
    }
    m_offset += n - buffered;
    return true;
  }
  // Steps over `n` bytes, past the buffer by seeking.
  bool skip(std::size_t n) {
    if (n <= available()) {
      m_start += n;
      return true;
    }
    const std::size_t to = offset() + n;
    if (::lseek(m_fd, static_cast<off_t>(to), SEEK_SET) < 0) return false;
    m_offset = to;
    m_start = m_end = 0;
    return true;
  }

 private:
  int m_fd;
  std::unique_ptr<unsigned char[]> m_buffer;
  std::size_t m_start = 0;   // the current position in the buffer
  std::size_t m_end = 0;     // the end of the bytes read
  std::size_t m_offset = 0;  // the file offset of the buffer's first byte
};

// The extensions from `in`'s position to the body's end (at file offset
// `body_end`), as skip_extensions reads them: `tree` is handed the size of
// git's cache-tree extension ("TREE") and reads it (all of it, or false),
// the others are stepped over unread.
template <class OnTree>
bool streamed_extensions(StreamedFile& in, std::size_t body_end, OnTree&& tree) {
  while (in.offset() < body_end) {
    if (body_end - in.offset() < 8 || !in.fill(8)) return false;
    const unsigned char* ext = in.here();
    if (ext[0] < 'A' || ext[0] > 'Z') return false;
    const std::uint32_t ext_size = util::load_be32(ext + 4);
    const bool is_tree = std::memcmp(ext, "TREE", 4) == 0;
    in.advance(8);
    if (ext_size > body_end - in.offset()) return false;
    if (is_tree ? !tree(std::size_t{ext_size}) : !in.skip(ext_size)) return false;
  }
  return true;
}

// One pass over an index's entries into an IndexListing. Each step returns
// false when the file is malformed (or of a kind this reader declines).
// With `only`, the entries it names alone, with their stat data.
class Parser {
 public:
  Parser(std::string_view bytes, bool keep_paths_in_file, const std::span<const std::string>* only)
      : m_data(reinterpret_cast<const unsigned char*>(bytes.data())), m_size(bytes.size()),
        m_in_file(keep_paths_in_file), m_only(only) {
    if (m_only) {
      for (const std::string& p : *m_only) {
        if (!p.empty()) m_first[static_cast<unsigned char>(p[0])] = true;
      }
    }
  }

  // The header: signature, version, count.
  bool header() {
    const std::optional<IndexHeader> h = index_header(m_data, m_size);
    if (!h) return false;
    m_version = h->version;
    m_count = h->count;
    m_body_end = h->body_end;
    m_in_file = m_in_file && m_version < 4;  // paths left where they lie
    if (m_only) {
      // Room for every entry is only address space: what is kept of it is
      // written once, never copied on growing (at 270,000 entries, a
      // vector grown by doubling touches twice its pages).
      out.items.reserve(m_count);
      out.stats.reserve(m_count);
      out.paths.reserve(std::min<std::size_t>(m_body_end, std::size_t{m_count} * 32));
      return true;
    }
    out.items.reserve(m_count);
    if (!m_in_file) out.paths.reserve(std::min<std::size_t>(m_body_end, std::size_t{m_count} * 32));
    return true;
  }

  // Reads the entries from `in` instead, through its buffer (`size`: the
  // file's); before header(), with the buffer holding the file's start.
  void stream(StreamedFile& in, std::size_t size) {
    m_stream = &in;
    m_size = size;
    m_in_file = false;
  }

  bool entries() {
    if (m_stream) {
      m_file_body_end = m_body_end;
      if (!slide()) return false;
    }
    if (!step_entries(m_count)) return false;
    if (m_stream) {
      m_stream->advance(m_pos);
      m_pos = 0;
      if (m_span) close_span();
      const bool read = streamed_extensions(*m_stream, m_file_body_end, [this](std::size_t size) {
        return m_only ? m_stream->take(size, out.cache_tree) : m_stream->skip(size);
      });
      if (read && m_span && m_span->version != 0) {
        // The trailing checksum, which tells the same bytes (unless git
        // was told not to write it: index.skipHash writes zeros).
        if (m_stream->fill(k_checksum_size)) {
          m_span->checksum = ObjectId::from_bytes(m_stream->here());
        } else {
          m_span->version = 0;
        }
      }
      return read;
    }
    return skip_extensions(m_data, m_pos, m_body_end, m_only ? &out.cache_tree : nullptr);
  }

  // Streamed, with `only`: records in `span` where the entries it keeps
  // (or finds unmerged) lie (IndexSpan); a version 4 index records none.
  void record_span(IndexSpan& span) { m_span = &span; }

  // Streamed, with `only`, after header(): the entries `span` covers alone
  // (an earlier read's of the same file), then the extensions. False when
  // the header is not the span's or the entries are not where it says.
  bool span_entries(const IndexSpan& span) {
    const std::size_t body_end = m_body_end;
    if (m_version == 4 || span.version != m_version || span.count != m_count) return false;
    if (span.begin < k_header_size || span.begin > span.end || span.end > span.extensions ||
        span.extensions > body_end || span.first > span.last || span.last > m_count) {
      return false;
    }
    m_stream->advance(m_pos);
    m_pos = 0;
    if (!m_stream->skip(span.begin - m_stream->offset())) return false;
    m_file_body_end = span.end;
    if (!slide() || !step_entries(span.last - span.first)) return false;
    m_stream->advance(m_pos);
    m_pos = 0;
    if (m_stream->offset() != span.end || !m_stream->skip(span.extensions - span.end)) return false;
    const bool read = streamed_extensions(*m_stream, body_end, [this](std::size_t size) {
      return m_stream->take(size, out.cache_tree);
    });
    return read && m_stream->fill(k_checksum_size) &&
           std::memcmp(m_stream->here(), span.checksum.bytes(), k_checksum_size) == 0;
  }

  bool in_file() const { return m_in_file; }
  // The entries read from a mapped file give its pages back behind them
  // (a 29.8 MB index is not held whole for the few paths looked up again).
  void give_back_behind(util::PagesBehind& behind) { m_behind = &behind; }
  IndexListing out;

 private:
  // Streamed: an entry is read whole from the buffer, which holds at least
  // this much of what follows (an entry longer, its path over 8,000 bytes,
  // declines the file); what is left of the buffer moves to its start.
  static constexpr std::size_t k_window_room = 8 * 1024;

  // The next `count` entries, from the current position.
  bool step_entries(std::uint32_t count) {
    for (std::uint32_t n = 0; n < count;) {
      if (m_stream && !m_last_window && m_body_end - m_pos < k_window_room && !slide()) return false;
      if (m_only && m_version < 4) {
        const std::uint32_t skipped = skip_unnamed(count - n);
        if (skipped > 0) {
          n += skipped;
          m_entry_number += skipped;
          continue;
        }
      }
      if (!entry(n)) return false;
      ++n;
      ++m_entry_number;
      if (m_behind) m_behind->passed(reinterpret_cast<const char*>(m_data + m_pos));
    }
    return true;
  }

  // The file offset of the buffer position `pos`.
  std::uint64_t file_offset(std::size_t pos) const { return m_stream ? m_stream->offset() + pos : pos; }

  // The entry that started at buffer position `at` (and ends at m_pos) is
  // one the span must cover.
  void mark(std::size_t at) {
    if (!m_span || m_version == 4) return;
    if (!m_marked) {
      m_span->begin = file_offset(at);
      m_span->first = m_entry_number;
      m_marked = true;
    }
    m_span->end = file_offset(m_pos);
    m_span->last = m_entry_number + 1;
  }

  // The span's header fields and end, the entries read (the stream at the
  // extensions).
  void close_span() {
    if (m_version == 4) {  // no span: version 0
      *m_span = IndexSpan{};
      return;
    }
    m_span->version = m_version;
    m_span->count = m_count;
    m_span->extensions = m_stream->offset();
    if (!m_marked) {
      m_span->begin = m_span->end = m_span->extensions;
      m_span->first = m_span->last = m_count;
    }
  }

  // Streamed: the buffer moved on to the current position and filled, and
  // the bytes parsed (m_data, m_pos, m_body_end) made its.
  bool slide() {
    m_stream->advance(m_pos);
    const std::size_t left = m_file_body_end - m_stream->offset();
    if (!m_stream->fill(std::min(left, StreamedFile::k_capacity))) return false;
    m_data = m_stream->here();
    m_pos = 0;
    m_body_end = std::min(left, m_stream->available());
    m_last_window = m_body_end == left;
    return true;
  }

  // With `only`, in a version 2 or 3 index: steps over the entries from
  // the current position (at most `left`) whose path's first byte starts
  // none of `only`'s (most of a big index), each by its recorded length,
  // its mode checked as entry_head checks it, in one tight loop; returns
  // how many. It stops, with nothing of it read, at any other entry
  // (extended flags, a long path, malformed bytes: entry() judges it), and
  // where a streamed buffer must slide.
  std::uint32_t skip_unnamed(std::uint32_t left) {
    const unsigned char* const data = m_data;
    const std::size_t body_end = m_body_end;
    // Streamed, an entry is read only with k_window_room bytes ahead (or in
    // the last window); past its fixed part, its recorded length decides.
    const std::size_t min_room = m_stream && !m_last_window ? k_window_room : k_name_at + 1;
    std::size_t pos = m_pos;
    std::uint32_t n = 0;
    while (n < left && body_end - pos >= min_room) {
      const unsigned char* entry = data + pos;
      const unsigned flags = be16(entry + k_flags_at);
      if ((flags & k_flag_extended) || (flags & k_name_mask) == k_name_mask || m_first[entry[k_name_at]]) break;
      const std::size_t entry_size = (k_name_at + (flags & k_name_mask) + 8) & ~std::size_t{7};
      if (body_end - pos < entry_size || !known_mode(util::load_be32(entry + k_mode_at))) break;
      pos += entry_size;
      ++n;
    }
    m_pos = pos;
    return n;
  }

  bool entry(std::uint32_t n) {
    const std::size_t at = m_pos;
    const unsigned char* entry = m_data + m_pos;
    const std::optional<EntryHead> head = entry_head(entry, m_body_end - m_pos, m_version);
    if (!head) return false;
    const auto [name_at, stage, name_len, mode, flagged] = *head;
    const unsigned char* name = entry + name_at;
    std::string_view path;
    if (m_version == 4) {
      const auto next = read_v4_path(name, m_data + m_body_end, name_len, m_built);
      if (!next) return false;
      path = m_built;
      m_pos = static_cast<std::size_t>(*next - m_data);
    } else if (m_only && name_len != k_name_mask &&
               (!m_first[*name] ||  // most of a big index starts with a byte none of `only` does
                !path_in(*m_only, std::string_view(reinterpret_cast<const char*>(name),
                                                   std::min<std::size_t>(name_len, m_body_end - m_pos - name_at))))) {
      // An entry `only` does not name is stepped over by its recorded
      // length, unread: nothing of it is kept, so nothing of it is checked.
      const std::size_t entry_size = (name_at + name_len + 8) & ~std::size_t{7};
      if (m_body_end - m_pos < entry_size) return false;
      m_pos += entry_size;
      return true;
    } else {
      const auto read = read_v23_path(entry, m_body_end - m_pos, name_at, name_len);
      if (!read) return false;
      path = read->first;
      m_pos += read->second;
    }
    if (!plain_path(path) || !in_order(n, path, stage)) return false;
    if (stage != 0) {
      out.unmerged = true;
      mark(at);
      return true;
    }
    // (A version 2 or 3 path of a recorded length was matched above.)
    if (m_only && (m_version == 4 || name_len == k_name_mask) && !path_in(*m_only, path)) return true;
    IndexListing::Item item;
    item.size = static_cast<std::uint32_t>(path.size());
    item.mode = mode;
    item.id = ObjectId::from_bytes(entry + k_id_at);
    if (m_in_file) {
      item.offset = static_cast<std::uint32_t>(name - m_data);
    } else {
      item.offset = static_cast<std::uint32_t>(out.paths.size());
      out.paths.append(path);
      out.paths.push_back('\0');
    }
    out.items.push_back(item);
    mark(at);
    if (m_only) {
      // ctime and mtime (seconds, nanoseconds), dev, ino; past the mode (24): uid, gid, size.
      const auto word = [entry](std::size_t offset) { return util::load_be32(entry + offset); };
      out.stats.push_back(
          IndexStat{word(0), word(4), word(8), word(12), word(16), word(20), word(28), word(32), word(36), flagged});
    }
    return true;
  }

  // git's order: by path bytes, then stage; each (path, stage) once.
  bool in_order(std::uint32_t n, std::string_view path, unsigned stage) {
    if (n > 0) {
      const int order = m_previous_path.compare(path);
      if (order > 0 || (order == 0 && m_previous_stage >= stage)) return false;
    }
    if (m_version == 4 || m_stream) {  // `m_built`, or the streamed buffer, changes with the next entry
      m_previous.assign(path);
      m_previous_path = m_previous;
    } else {
      m_previous_path = path;
    }
    m_previous_stage = stage;
    return true;
  }

  const unsigned char* m_data;
  std::size_t m_size;
  bool m_in_file;
  const std::span<const std::string>* m_only;
  std::array<bool, 256> m_first{};  // the first bytes of `only`'s paths
  std::uint32_t m_version = 0;
  std::uint32_t m_count = 0;
  std::size_t m_body_end = 0;
  std::size_t m_pos = k_header_size;
  std::string m_built;             // v4: the current entry's path (the previous one's, cut and extended)
  std::string m_previous;          // v4: the previous entry's path
  std::string_view m_previous_path;
  unsigned m_previous_stage = 0;
  StreamedFile* m_stream = nullptr;  // see stream()
  std::size_t m_file_body_end = 0;   // streamed: the body's end in the file (m_body_end: in the buffer)
  bool m_last_window = false;        // streamed: the buffer holds the rest of the body
  std::uint32_t m_entry_number = 0;  // of the entry at the current position, from where the read started
  IndexSpan* m_span = nullptr;       // see record_span()
  bool m_marked = false;             // the span has its first entry
  util::PagesBehind* m_behind = nullptr;  // see give_back_behind()
};

// Parses `bytes`; with `file` (which holds them), version 2 and 3 paths are
// left where they lie.
std::optional<IndexListing> parse(std::string_view bytes, std::shared_ptr<const util::FileBytes> file) {
  Parser p(bytes, file != nullptr, nullptr);
  util::PagesBehind behind(file.get());
  p.give_back_behind(behind);
  if (!p.header() || !p.entries()) return std::nullopt;
  behind.finish();
  if (p.in_file()) p.out.file = std::move(file);
  return std::move(p.out);
}

}  // namespace

std::optional<IndexListing> parse_index_file(std::string_view bytes) { return parse(bytes, nullptr); }

std::optional<IndexListing> parse_index_file(std::shared_ptr<const util::FileBytes> file) {
  const std::string_view bytes = file->bytes();
  return parse(bytes, std::move(file));
}

bool path_in(std::span<const std::string> only, std::string_view path) {
  for (const std::string& p : only) {
    // The first byte first: most of a big index is under none of `only`.
    if (p.empty() || path.empty() || path[0] != p[0]) continue;
    if (p.back() == '/' ? path.starts_with(p) : path == p) return true;
  }
  return false;
}

namespace {

// The regular file at `path` opened for a streamed read (see StreamedFile),
// and its size; nullopt when it cannot be opened or is no regular file.
// `st`, when given, gets the opened file's stat data.
std::optional<std::size_t> open_streamed(const std::string& path, util::Fd& fd, struct stat* st = nullptr) {
  fd = util::Fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  struct stat own {};
  struct stat& s = st ? *st : own;
  if (fd.get() < 0 || ::fstat(fd.get(), &s) != 0 || !S_ISREG(s.st_mode)) return std::nullopt;
  return static_cast<std::size_t>(s.st_size);
}

// read_index_stat's read, the entries read by `read` (the parser after its
// header): all of them, or a span's.
template <class Read>
std::optional<IndexListing> read_stat_entries(const std::string& path, std::span<const std::string> only,
                                              struct stat* st, Read&& read) {
  // Read through a small buffer, not mapped (see StreamedFile): of a big
  // index, only the few entries `only` names are kept.
  util::Fd fd;
  const std::optional<std::size_t> size = open_streamed(path, fd, st);
  if (!size) return std::nullopt;
  StreamedFile in(fd.get());
  if (!in.fill(k_header_size)) return std::nullopt;
  Parser p(std::string_view(reinterpret_cast<const char*>(in.here()), in.available()), false, &only);
  p.stream(in, *size);
  if (!p.header() || !read(p)) return std::nullopt;
  return std::move(p.out);
}

}  // namespace

std::optional<IndexListing> read_index_stat(const std::string& path, std::span<const std::string> only) {
  return read_stat_entries(path, only, nullptr, [](Parser& p) { return p.entries(); });
}

std::optional<IndexListing> read_index_stat(const std::string& path, std::span<const std::string> only,
                                            IndexSpan& span, struct stat& st) {
  span = IndexSpan{};
  return read_stat_entries(path, only, &st, [&span](Parser& p) {
    p.record_span(span);
    return p.entries();
  });
}

std::optional<IndexListing> read_index_stat_span(const std::string& path, std::span<const std::string> only,
                                                 const IndexSpan& span, const std::function<bool(const struct stat&)>& same) {
  struct stat st {};
  return read_stat_entries(path, only, &st, [&](Parser& p) { return same(st) && p.span_entries(span); });
}

namespace {

// The size of the entry at `in`'s position (version `version`), or 0 when
// it is malformed or of a kind the reader declines; `stage` gets its stage.
std::size_t entry_size(StreamedFile& in, std::uint32_t version, unsigned& stage) {
  if (!in.fill(k_name_at + 1)) return 0;
  in.fill(k_name_at + 3);  // an extended entry's flags, when the file holds them
  const std::optional<EntryHead> head = entry_head(in.here(), in.available(), version);
  if (!head) return 0;
  stage = head->stage;
  const std::size_t name_at = head->name_at;
  const std::size_t name_len = head->name_len;
  if (version < 4 && name_len != k_name_mask) return (name_at + name_len + 8) & ~std::size_t{7};
  // A long path (version 2, 3), or version 4's varint and NUL-terminated
  // suffix: the end is the NUL's place, looked for as far as the buffer
  // holds.
  std::size_t searched = name_at;
  if (version == 4) {  // the varint before the suffix (its last byte may be 0)
    while (true) {
      if (searched >= in.available() && !in.fill(searched + 1)) return 0;
      if ((in.here()[searched++] & 0x80u) == 0) break;
    }
  }
  while (true) {
    const void* nul = std::memchr(in.here() + searched, '\0', in.available() - searched);
    if (nul) {
      const auto end = static_cast<std::size_t>(static_cast<const unsigned char*>(nul) - in.here()) + 1;
      return version < 4 ? (end - 1 + 8) & ~std::size_t{7} : end;
    }
    searched = in.available();
    if (!in.fill(searched + 1)) return 0;
  }
}

std::optional<ObjectId> tail_tree_root(int fd, const IndexHeader& header);

}  // namespace

std::optional<IndexTree> read_index_tree(const std::string& path) {
  util::Fd fd;
  const std::optional<std::size_t> size = open_streamed(path, fd);
  if (!size) return std::nullopt;
  StreamedFile in(fd.get());
  if (!in.fill(k_header_size)) return std::nullopt;
  const std::optional<IndexHeader> header = index_header(in.here(), *size);
  if (!header) return std::nullopt;
  // A valid root found from the file's end: the entries are not stepped
  // over (29.8 MB at 20,000 projects). git keeps no valid root beside an
  // entry at a stage above 0 (writing one invalidates the cache-tree up to
  // the root, and no tree is written while one is there), so none is.
  if (const std::optional<ObjectId> root = tail_tree_root(fd.get(), *header)) return IndexTree{root, false};
  const auto [version, count, body_end] = *header;
  in.advance(k_header_size);
  IndexTree out;
  for (std::uint32_t n = 0; n < count; ++n) {
    unsigned stage = 0;
    const std::size_t step = entry_size(in, version, stage);
    if (step == 0 || !in.fill(step) || in.offset() + step > body_end) return std::nullopt;
    if (stage != 0) out.unmerged = true;
    in.advance(step);
  }
  // The extensions: only the cache-tree's root entry is read.
  const bool read = streamed_extensions(in, body_end, [&in, &out](std::size_t tree_size) {
    const std::size_t head = std::min<std::size_t>(tree_size, 64);
    if (!in.fill(head)) return false;
    out.root = cached_tree_id(std::string_view(reinterpret_cast<const char*>(in.here()), head), "");
    return in.skip(tree_size);
  });
  if (!read) return std::nullopt;
  return out;
}

namespace {

// One cache-tree entry (gitformat-index.txt, "Cache tree"): its path
// component, NUL, the entry count (-1: invalid), a space, the subtree count,
// a newline, and the tree id when the entry is valid; then its subtrees.
// Read where it lies, byte by byte: a walk to one folder steps over every
// entry before it (at 270,000 files, tens of thousands).
struct CacheTreeNode {
  std::string_view name;
  long entries = 0;  // -1: invalid
  long subtrees = 0;
  const unsigned char* id = nullptr;  // the tree id's bytes; null when the entry is invalid
};

// A count of 1 to 11 characters (an optional '-', then digits) ended by
// `end`, at `p`; false when malformed. `p` moves past `end`.
// (Inlined: a walk to a folder reads two for each entry before it.)
[[gnu::always_inline]] inline bool ascii_number(const char*& p, const char* limit, char end, long& value,
                                                bool& negative) {
  const char* const stop = limit - p > 11 ? p + 11 : limit;
  negative = p != limit && *p == '-';
  if (negative) ++p;
  const char* const digits = p;
  long v = 0;
  while (p != stop && static_cast<unsigned char>(*p - '0') < 10) v = v * 10 + (*p++ - '0');
  value = v;
  if (p == digits || p == limit || *p != end) return false;
  ++p;
  return true;
}

bool cache_tree_node(const char*& p, const char* limit, CacheTreeNode& node) {
  const auto* nul = static_cast<const char*>(std::memchr(p, '\0', static_cast<std::size_t>(limit - p)));
  if (!nul) return false;
  node.name = std::string_view(p, static_cast<std::size_t>(nul - p));
  p = nul + 1;
  long entries = 0;
  bool below_zero = false;
  bool negative = false;
  if (!ascii_number(p, limit, ' ', entries, below_zero) || !ascii_number(p, limit, '\n', node.subtrees, negative) ||
      negative) {
    return false;
  }
  node.entries = below_zero ? -entries : entries;
  node.id = nullptr;
  if (!below_zero || entries == 0) {
    if (static_cast<std::size_t>(limit - p) < ObjectId::k_raw_size) return false;
    node.id = reinterpret_cast<const unsigned char*>(p);
    p += ObjectId::k_raw_size;
  }
  return true;
}

// Steps over the `count` entries at `p` with every entry below them (a
// preorder list: each entry's subtrees follow it).
bool skip_cache_trees(const char*& p, const char* limit, long count) {
  CacheTreeNode node;
  for (long pending = count; pending > 0; --pending) {
    if (!cache_tree_node(p, limit, node) || node.subtrees > limit - p) return false;
    pending += node.subtrees;
  }
  return true;
}

// Reads the bytes [from, to) of `fd` into `out`, the file offset untouched.
bool read_at(int fd, std::size_t from, std::size_t to, char* out) {
  for (std::size_t done = 0; done < to - from;) {
    const ssize_t got = ::pread(fd, out + done, to - from - done, static_cast<off_t>(from + done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    done += static_cast<std::size_t>(got);
  }
  return true;
}

// What a "TREE" header at `at` of `tail` (the file's last bytes up to the
// checksum) would be: no extension there (its size or the extensions after
// it do not run exactly to the end, or its entries are no cache-tree that
// fills it), the cache-tree with a valid root holding `count` entries, or
// one without (an invalid root, or another count).
enum class TailCandidate : unsigned char { none, valid, invalid };

TailCandidate tail_candidate(std::string_view tail, std::size_t at, std::uint32_t count, ObjectId& root) {
  const auto* const data = reinterpret_cast<const unsigned char*>(tail.data());
  if (tail.size() - at < 8) return TailCandidate::none;
  const std::size_t tree_end = at + 8 + std::size_t{util::load_be32(data + at + 4)};
  if (tree_end > tail.size()) return TailCandidate::none;
  // The extensions after it, each an optional one (upper-case first
  // letter), end where the checksum starts.
  for (std::size_t pos = tree_end; pos != tail.size();) {
    if (tail.size() - pos < 8 || data[pos] < 'A' || data[pos] > 'Z') return TailCandidate::none;
    const std::size_t next = pos + 8 + std::size_t{util::load_be32(data + pos + 4)};
    if (next > tail.size()) return TailCandidate::none;
    pos = next;
  }
  // The root entry (an empty name), then every entry below it, filling the
  // extension exactly.
  const char* p = tail.data() + at + 8;
  const char* const limit = tail.data() + tree_end;
  CacheTreeNode node;
  if (!cache_tree_node(p, limit, node) || !node.name.empty() || node.subtrees > limit - p ||
      !skip_cache_trees(p, limit, node.subtrees) || p != limit) {
    return TailCandidate::none;
  }
  if (!node.id || node.entries != static_cast<long>(count)) return TailCandidate::invalid;
  root = ObjectId::from_bytes(node.id);
  return TailCandidate::valid;
}

// The index's cache-tree root, when valid, found from the file's end. git
// records where the entries end only with index.threads (the "EOIE"
// extension), and the entries are most of the file, so its last bytes are
// read instead, a window at a time (256 KiB, then four times as much, up
// to a quarter of the file), and searched backwards for the cache-tree's
// header: "TREE", a size whose extension and every one after it (each an
// optional one) end exactly at the checksum, and entries that fill it
// exactly, their root valid and holding as many entries as the header
// counts. The first such from the end is git's: an earlier one would have
// to run through git's. nullopt when there is none, or its root is not
// valid, or the index is small (under 1 MiB: stepping over its entries
// costs less than looking), or a required extension follows (a sparse
// index): the entries are then stepped over.
std::optional<ObjectId> tail_tree_root(int fd, const IndexHeader& header) {
  constexpr std::size_t k_first_window = std::size_t{256} << 10;
  const std::size_t body_end = header.body_end;
  if (body_end < 4 * k_first_window) return std::nullopt;
  std::size_t looked_from = body_end;  // candidates from here on were looked at
  for (std::size_t window = k_first_window; window <= body_end / 4; window *= 4) {
    const std::size_t start = body_end - window;
    const auto bytes = std::make_unique_for_overwrite<char[]>(window);
    if (!read_at(fd, start, body_end, bytes.get())) return std::nullopt;
    const std::string_view tail(bytes.get(), window);
    // Each 'T' from the end (memrchr: a vectorised scan), then its header.
    for (std::size_t at = std::min(looked_from - start, tail.size()); at > 0;) {
      const void* t = ::memrchr(tail.data(), 'T', at);
      if (!t) break;
      at = static_cast<std::size_t>(static_cast<const char*>(t) - tail.data());
      if (tail.size() - at < 4 || std::memcmp(tail.data() + at, "TREE", 4) != 0) continue;
      ObjectId root;
      switch (tail_candidate(tail, at, header.count, root)) {
        case TailCandidate::valid:
          return root;
        case TailCandidate::invalid:
          return std::nullopt;
        case TailCandidate::none:
          break;
      }
    }
    looked_from = start;
  }
  return std::nullopt;
}

}  // namespace

std::optional<ObjectId> cached_tree_id(std::string_view cache_tree, std::string_view dir) {
  const char* p = cache_tree.data();
  const char* const limit = p + cache_tree.size();
  CacheTreeNode node;
  if (!cache_tree_node(p, limit, node) || !node.name.empty()) return std::nullopt;  // the root
  while (!dir.empty()) {
    const std::size_t slash = dir.find('/');
    const std::string_view want = dir.substr(0, slash);
    dir = slash == std::string_view::npos ? std::string_view() : dir.substr(slash + 1);
    bool found = false;
    for (long i = node.subtrees; i > 0 && !found; --i) {
      CacheTreeNode child;
      if (!cache_tree_node(p, limit, child)) return std::nullopt;
      if (child.name == want) {
        node = child;
        found = true;
      } else if (child.subtrees > limit - p || !skip_cache_trees(p, limit, child.subtrees)) {
        return std::nullopt;
      }
    }
    if (!found) return std::nullopt;
  }
  if (!node.id) return std::nullopt;
  return ObjectId::from_bytes(node.id);
}

std::optional<IndexListing> read_index_file(const std::string& path) {
  // Mapped, as git maps it: an index of megabytes is parsed where it lies
  // in the page cache, not copied first.
  int error = 0;
  auto file = util::FileBytes::read(path, error, std::numeric_limits<std::uint32_t>::max());
  if (!file) return std::nullopt;
  return parse_index_file(std::move(file));
}

}  // namespace lg::git
