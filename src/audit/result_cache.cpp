// The per-commit result cache: length-prefixed fields, a checksum, written
// atomically.
#include "result_cache.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ledgergate/util/hash.hpp"
#include "ledgergate/util/version.hpp"
#include "ledgergate/rules/registry.hpp"

namespace lg::audit {

namespace {

constexpr std::string_view k_magic = "ledgergate-audit-cache 3\n";

class Writer {
 public:
  void field(std::string_view s) {
    m_out += std::to_string(s.size());
    m_out += ':';
    m_out += s;
  }
  void number(long long n) { field(std::to_string(n)); }
  void finding(const diag::Finding& f) {
    field(f.rule);
    number(static_cast<int>(f.severity));
    field(f.location.rev);
    field(f.location.path);
    number(f.location.line);
    number(f.location.column);
    field(f.message);
    number(static_cast<int>(f.peer));
    number(f.cannot_judge ? 1 : 0);
  }
  void findings(const std::vector<diag::Finding>& list) {
    number(static_cast<long long>(list.size()));
    for (const diag::Finding& f : list) finding(f);
  }
  std::string take() { return std::move(m_out); }

 private:
  std::string m_out;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : m_in(in) {}
  bool ok() const { return m_ok; }
  bool at_end() const { return m_in.empty(); }
  std::string field() {
    const std::size_t colon = m_in.find(':');
    if (!m_ok || colon == std::string_view::npos || colon == 0 || colon > 12) return fail();
    std::size_t size = 0;
    for (char c : m_in.substr(0, colon)) {
      if (c < '0' || c > '9') return fail();
      size = size * 10 + static_cast<std::size_t>(c - '0');
    }
    if (m_in.size() - colon - 1 < size) return fail();
    std::string out(m_in.substr(colon + 1, size));
    m_in.remove_prefix(colon + 1 + size);
    return out;
  }
  long long number(long long lo, long long hi) {
    const std::string text = field();
    if (!m_ok || text.empty() || text.size() > 12) return fail(), 0;
    long long n = 0;
    bool negative = text[0] == '-';
    for (std::size_t i = negative ? 1 : 0; i < text.size(); ++i) {
      if (text[i] < '0' || text[i] > '9') return fail(), 0;
      n = n * 10 + (text[i] - '0');
    }
    if (negative) n = -n;
    if (n < lo || n > hi) return fail(), 0;
    return n;
  }
  diag::Finding finding() {
    diag::Finding f;
    f.rule = field();
    f.severity = static_cast<diag::Severity>(number(0, 2));
    f.location.rev = field();
    f.location.path = field();
    f.location.line = static_cast<int>(number(0, 1LL << 31));
    f.location.column = static_cast<int>(number(0, 1LL << 31));
    f.message = field();
    f.peer = static_cast<diag::PeerForm>(number(0, 2));
    f.cannot_judge = number(0, 1) == 1;
    if (m_ok && rules::find_rule(f.rule) == nullptr) fail();  // a rule this build does not know
    return f;
  }
  std::vector<diag::Finding> findings() {
    const long long n = number(0, 1 << 24);
    std::vector<diag::Finding> out;
    for (long long i = 0; m_ok && i < n; ++i) out.push_back(finding());
    return out;
  }

 private:
  std::string fail() {
    m_ok = false;
    return {};
  }
  std::string_view m_in;
  bool m_ok = true;
};

}  // namespace

std::string cache_fingerprint(bool first_parent) {
  std::string text = "ledgergate " + std::string(util::k_version);
  for (const rules::RuleInfo& r : rules::all_rules()) {
    text += fmt::format("\n{} {} {}", r.id, static_cast<int>(r.severity), r.profile);
  }
  text += first_parent ? "\nfirst-parent" : "\nall-parents";
  return fmt::format("{:016x}", util::fnv1a(text));
}

ResultCache::ResultCache(std::string dir, std::string fingerprint)
    : m_dir(std::move(dir)), m_fingerprint(std::move(fingerprint)) {}

std::string ResultCache::path_of(const std::string& commit) const {
  return m_dir + "/" + commit.substr(0, 2) + "/" + commit.substr(2) + "." + m_fingerprint;
}

std::optional<CachedCommit> ResultCache::load(const std::string& commit) const {
  std::ifstream in(path_of(commit), std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  // magic, body, then "checksum <16 hex>\n"
  constexpr std::size_t k_trailer = 9 + 16 + 1;
  if (text.size() < k_magic.size() + k_trailer || text.compare(0, k_magic.size(), k_magic) != 0) return std::nullopt;
  const std::string_view body(text.data() + k_magic.size(), text.size() - k_magic.size() - k_trailer);
  if (text.substr(text.size() - k_trailer) != fmt::format("checksum {:016x}\n", util::fnv1a(body))) return std::nullopt;
  Reader r(body);
  if (r.field() != commit || r.field() != m_fingerprint) return std::nullopt;
  CachedCommit out;
  out.profile = r.field();
  out.events = r.findings();
  out.merge_events = r.findings();
  const long long ids = r.number(0, 1 << 24);
  for (long long i = 0; r.ok() && i < ids; ++i) out.deleted_ruling_ids.push_back(r.field());
  out.delta = r.number(0, 1) == 1;
  const long long paths = r.number(0, 1 << 24);
  for (long long i = 0; r.ok() && i < paths; ++i) {
    std::string path = r.field();
    out.findings[path] = r.findings();
  }
  if (!r.ok() || !r.at_end()) return std::nullopt;
  return out;
}

Result<void> ResultCache::store(const std::string& commit, const CachedCommit& entry) const {
  Writer w;
  w.field(commit);
  w.field(m_fingerprint);
  w.field(entry.profile);
  w.findings(entry.events);
  w.findings(entry.merge_events);
  w.number(static_cast<long long>(entry.deleted_ruling_ids.size()));
  for (const std::string& id : entry.deleted_ruling_ids) w.field(id);
  w.number(entry.delta ? 1 : 0);
  w.number(static_cast<long long>(entry.findings.size()));
  for (const auto& [path, list] : entry.findings) {
    w.field(path);
    w.findings(list);
  }
  const std::string body = w.take();
  const std::string text = std::string(k_magic) + body + fmt::format("checksum {:016x}\n", util::fnv1a(body));
  const std::string path = path_of(commit);
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  if (ec) return make_error(ErrorKind::io, "audit cache: creating " + path + ": " + ec.message());
  static std::atomic<unsigned> counter{0};
  const std::string temp = fmt::format("{}.tmp-{}-{}", path, ::getpid(), counter++);
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.flush();
    if (!out) {
      std::filesystem::remove(temp, ec);
      return make_error(ErrorKind::io, "audit cache: writing " + temp);
    }
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::filesystem::remove(temp, ec);
    return make_error(ErrorKind::io, "audit cache: renaming " + temp + ": " + why);
  }
  return {};
}

}  // namespace lg::audit
