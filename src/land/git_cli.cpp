// `git fetch` / `git push --force-with-lease` as child processes.
#include "ledgergate/land/git_cli.hpp"

#include "ledgergate/land/process.hpp"

namespace lg::land {
namespace {

// No prompt can hang a CI job; messages in the C locale so they parse.
const std::vector<std::pair<std::string, std::string>>& git_env() {
  static const std::vector<std::pair<std::string, std::string>> env = {
      {"GIT_TERMINAL_PROMPT", "0"}, {"LC_ALL", "C"}, {"LANGUAGE", ""}};
  return env;
}

std::string trimmed(std::string_view s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.remove_suffix(1);
  return std::string(s);
}

// git's stderr as one line: lines trimmed, blank ones dropped, joined by "; ".
std::string one_line(std::string_view text) {
  std::string out;
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    std::string_view line = text.substr(pos, end - pos);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.remove_suffix(1);
    while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
    if (!line.empty()) out += (out.empty() ? "" : "; ") + std::string(line);
    pos = end + 1;
  }
  return out;
}

bool contains(std::string_view hay, std::string_view needle) { return hay.find(needle) != std::string_view::npos; }

}  // namespace

PushOutcome classify_push(int exit_code, std::string_view out, std::string_view err) {
  // Porcelain status lines: "<flag>\t<from>:<to>\t<summary> (<reason>)".
  std::string_view status_line;
  for (std::size_t pos = 0; pos < out.size();) {
    const std::size_t end = std::min(out.find('\n', pos), out.size());
    const std::string_view line = out.substr(pos, end - pos);
    if (line.size() > 1 && line[1] == '\t') status_line = line;
    pos = end + 1;
  }
  const std::string detail =
      status_line.empty() ? one_line(err) : trimmed(status_line.substr(status_line.rfind('\t') + 1));
  if (exit_code == 0 && !status_line.empty() && status_line[0] != '!') return {PushKind::pushed, detail};
  // The lease failed (the remote ref is not what we expected), or the ref
  // moved between the advertisement and the update (its lock was held or
  // its old value no longer matched): someone else wrote it first.
  const std::string_view why = status_line.empty() ? err : status_line;
  for (std::string_view race : {"stale info", "fetch first", "non-fast-forward", "failed to update ref",
                                "cannot lock ref", "failed to lock", "incorrect old value"}) {
    if (contains(why, race)) return {PushKind::lost_race, detail};
  }
  const std::string messages = one_line(err);
  if (status_line.empty() || messages.empty()) return {PushKind::refused, detail.empty() ? messages : detail};
  return {PushKind::refused, detail + ": " + messages};
}

std::vector<std::string> GitCli::command(const std::vector<std::string>& args) const {
  std::vector<std::string> argv = {"git", "--git-dir=" + m_git_dir};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

Result<void> GitCli::fetch(const std::vector<std::string>& refspecs, bool prune) const {
  std::vector<std::string> args = {"fetch", "--quiet", "--no-tags", "--no-write-fetch-head"};
  if (prune) args.emplace_back("--prune");
  args.insert(args.end(), {"--", m_remote});
  args.insert(args.end(), refspecs.begin(), refspecs.end());
  LG_TRY(ProcessResult r, run_process(command(args), git_env()));
  if (r.exit_code != 0) {
    return make_error(ErrorKind::git, "git fetch " + m_remote + " failed: " + one_line(r.err));
  }
  return {};
}

Result<PushOutcome> GitCli::push_cas(const std::string& ref, const std::string& expected,
                                     const std::string& new_value) const {
  const std::vector<std::string> args = {"push", "--porcelain", "--force-with-lease=" + ref + ":" + expected, "--",
                                         m_remote, new_value + ":" + ref};
  LG_TRY(ProcessResult r, run_process(command(args), git_env()));
  return classify_push(r.exit_code, r.out, r.err);
}

}  // namespace lg::land
