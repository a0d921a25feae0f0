// Committer identity: environment first (as git does), then configuration.
#include "signature.hpp"

#include <cstdlib>
#include <ctime>
#include <string>

namespace lg::git {
namespace {

// "@<epoch>" or "YYYY-MM-DDTHH:MM:SSZ" (UTC); nullopt when unparseable.
std::optional<git_time_t> parse_date(const std::string& s) {
  if (!s.empty() && s[0] == '@') {
    char* end = nullptr;
    const long long v = std::strtoll(s.c_str() + 1, &end, 10);
    if (end == s.c_str() + 1) return std::nullopt;
    return static_cast<git_time_t>(v);
  }
  std::tm tm{};
  if (!strptime(s.c_str(), "%Y-%m-%dT%H:%M:%SZ", &tm)) return std::nullopt;
  return static_cast<git_time_t>(timegm(&tm));
}

}  // namespace

Result<SignaturePtr> committer_signature(const Repository& repo) {
  const char* name = std::getenv("GIT_COMMITTER_NAME");
  const char* email = std::getenv("GIT_COMMITTER_EMAIL");
  git_signature* sig = nullptr;
  if (name && email) {
    const char* date = std::getenv("GIT_COMMITTER_DATE");
    int rc = 0;
    if (date && *date) {
      const auto when = parse_date(date);
      if (!when) return make_error(ErrorKind::usage, std::string("GIT_COMMITTER_DATE is not @epoch or ISO-8601: ") + date);
      rc = git_signature_new(&sig, name, email, *when, 0);
    } else {
      rc = git_signature_now(&sig, name, email);
    }
    if (rc < 0) return libgit2_error(rc, "making the committer signature");
    return SignaturePtr(sig);
  }
  if (git_signature_default(&sig, repo.raw()) < 0) {
    return make_error(ErrorKind::usage, "no committer identity: set user.name and user.email");
  }
  return SignaturePtr(sig);
}

}  // namespace lg::git
