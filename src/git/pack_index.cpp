#include "pack_index.hpp"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <string_view>
#include <utility>

#include "ledgergate/util/word_bytes.hpp"

namespace lg::git {

namespace {

constexpr std::size_t k_header = 8;  // "\377tOc", then version 2
constexpr std::size_t k_fanout = 256 * 4;
constexpr std::size_t k_raw = ObjectId::k_raw_size;
constexpr std::size_t k_trailer = 2 * k_raw;  // the pack's checksum, the index's

// The number of objects a version 2 index of `length` bytes at `map` lists;
// 0 when it is not one this reader takes.
std::uint32_t v2_count(const unsigned char* map, std::size_t length) {
  if (length < k_header + k_fanout + k_trailer) return 0;
  if (std::memcmp(map, "\377tOc", 4) != 0 || util::load_be32(map + 4) != 2) return 0;
  std::uint32_t previous = 0;
  for (std::size_t i = 0; i < 256; ++i) {
    const std::uint32_t n = util::load_be32(map + k_header + 4 * i);
    if (n < previous) return 0;
    previous = n;
  }
  // Per object: its id, its CRC and a 4-byte offset; an 8-byte offset for
  // each one past 2 GiB at most.
  const std::size_t n = previous;
  const std::size_t least = k_header + k_fanout + n * (k_raw + 8) + k_trailer;
  if (length < least || length > least + n * 8) return 0;
  return previous;
}

}  // namespace

PackIndexes PackIndexes::open(const std::string& objects_dir) {
  PackIndexes out;
  const std::string dir = objects_dir + "/pack/";
  DIR* d = ::opendir(dir.c_str());
  if (!d) return out;
  std::vector<std::string> names;
  while (const dirent* e = ::readdir(d)) {
    const std::string_view name(e->d_name);
    if (name.starts_with("pack-") && name.ends_with(".idx")) names.emplace_back(name);
  }
  ::closedir(d);
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    const std::string pack = dir + name.substr(0, name.size() - 4) + ".pack";
    struct stat st {};
    if (::stat(pack.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    int error = 0;
    std::shared_ptr<const util::FileBytes> file = util::FileBytes::read(dir + name, error);
    if (!file) continue;
    const std::string_view bytes = file->bytes();
    const std::uint32_t count = v2_count(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
    if (count == 0) continue;
    Index index;
    for (std::size_t i = 0; i < 256; ++i) {
      index.fanout[i] = util::load_be32(reinterpret_cast<const unsigned char*>(bytes.data()) + k_header + 4 * i);
    }
    index.behind = util::PagesBehind(file.get());
    index.file = std::move(file);
    index.count = count;
    out.m_indexes.push_back(std::move(index));
  }
  return out;
}

void PackIndexes::passed(const ObjectId& id) {
  const unsigned char lead = id.bytes()[0];
  for (Index& index : m_indexes) {
    const auto* map = reinterpret_cast<const unsigned char*>(index.file->bytes().data());
    const std::uint32_t first = lead == 0 ? 0 : index.fanout[lead - 1u];
    const std::size_t at = k_header + k_fanout + std::size_t{std::min(first, index.count)} * k_raw;
    index.behind.passed(reinterpret_cast<const char*>(map + at));
  }
}

bool PackIndexes::contains(const ObjectId& id) const {
  // The pack that held the last id found is asked first (as libgit2 does):
  // in a repository of many packs, ids confirmed together mostly lie in
  // one.
  const std::size_t n = m_indexes.size();
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = k == 0 ? m_last : (k <= m_last ? k - 1 : k);
    if (lists(m_indexes[i], id)) {
      m_last = i;
      return true;
    }
  }
  return false;
}

bool PackIndexes::lists(const Index& index, const ObjectId& id) {
  const unsigned char* want = id.bytes();
  const std::uint64_t want_lead = util::load_be64(want);
  const auto* map = reinterpret_cast<const unsigned char*>(index.file->bytes().data());
  const std::uint32_t first = want[0] == 0 ? 0 : index.fanout[want[0] - 1u];
  const std::uint32_t last = index.fanout[want[0]];
  const unsigned char* ids = map + k_header + k_fanout;
  // By the first eight bytes as a number (one compare), the rest only
  // when they tie.
  std::uint32_t lo = first, hi = std::min(last, index.count);
  while (lo < hi) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    const unsigned char* at = ids + std::size_t{mid} * k_raw;
    const std::uint64_t l = util::load_be64(at);
    const int c = l != want_lead ? (l < want_lead ? -1 : 1) : std::memcmp(at + 8, want + 8, k_raw - 8);
    if (c == 0) return true;
    if (c < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return false;
}

}  // namespace lg::git
