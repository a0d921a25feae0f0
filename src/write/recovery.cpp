// recover_writes and pending_writes (recovery.hpp) over the staging area.
#include "ledgergate/write/recovery.hpp"

#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>

#include "ledgergate/util/temp_name.hpp"
#include "staging.hpp"

namespace lg::write {
namespace {

std::string canonical(const std::string& path) {
  std::error_code ec;
  const auto c = std::filesystem::weakly_canonical(path, ec);
  std::string out = ec ? path : c.generic_string();
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

// `rel` below `root` as a path below `folder` (which holds `root`); nullopt
// when `root` is not `folder` nor below it.
std::optional<std::string> below(const std::string& folder, const std::string& root, const std::string& rel) {
  if (root == folder) return rel;
  if (root.rfind(folder + "/", 0) != 0) return std::nullopt;
  return root.substr(folder.size() + 1) + "/" + rel;
}

// The writers' temporary files below `folder` whose process is gone,
// removed; their paths below `folder`.
std::vector<std::string> remove_dead_temps(const std::string& folder) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  std::error_code ec;
  fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const fs::directory_entry& e = *it;
    const std::string name = e.path().filename().string();
    if (name == ".git" || (it.depth() == 0 && name == ".ledgergate-write")) {
      it.disable_recursion_pending();
      continue;
    }
    std::error_code kind_ec;
    if (!e.is_regular_file(kind_ec) || e.is_symlink(kind_ec)) continue;
    const long pid = util::writer_temp_pid(name);
    if (pid <= 0 || (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH)) continue;
    std::error_code rm_ec;
    if (fs::remove(e.path(), rm_ec)) out.push_back(fs::relative(e.path(), folder, rm_ec).generic_string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

Result<RecoveryReport> recover_writes(const std::string& folder) {
  LG_TRY(const util::Fd lock, staging::lock_folder(folder));
  LG_TRY(const staging::Recovery r, staging::recover(staging::area_for(folder), folder));
  return RecoveryReport{r.finished, r.discarded, r.written, r.kept, remove_dead_temps(folder)};
}

Result<std::vector<PendingWrite>> pending_writes(const std::string& folder) {
  const staging::Area area = staging::area_for(folder);
  LG_TRY(const std::vector<staging::Pending> found, staging::pending(area));
  const std::string top = canonical(folder);
  std::vector<PendingWrite> out;
  for (const staging::Pending& p : found) {
    const std::string root = canonical(p.root);
    if (!below(top, root, "")) continue;
    PendingWrite w;
    w.running = p.running;
    for (const std::string& rel : p.pending) w.pending.push_back(*below(top, root, rel));
    for (const std::string& rel : p.done) w.done.push_back(*below(top, root, rel));
    out.push_back(std::move(w));
  }
  return out;
}

Result<void> refuse_pending_writes(const std::string& folder) {
  LG_TRY(const std::vector<PendingWrite> writes, pending_writes(folder));
  if (writes.empty()) return {};
  const PendingWrite& w = writes.front();
  const auto joined = [](const std::vector<std::string>& paths) {
    std::string out;
    for (const std::string& p : paths) out += (out.empty() ? "" : ", ") + p;
    return out;
  };
  if (w.running) {
    return make_error(ErrorKind::invalid_input, "a ledgergate write is under way here (" + joined(w.pending) +
                                                    "): check again when it has ended");
  }
  std::string message = "a ledgergate write was interrupted here: " + joined(w.pending) +
                        (w.pending.size() == 1 ? " is" : " are") + " not written yet";
  if (!w.done.empty()) message += " (" + joined(w.done) + (w.done.size() == 1 ? " is" : " are") + ")";
  message += "; `ledgergate recover` (or the next ledgergate write here) finishes it";
  return make_error(ErrorKind::invalid_input, message);
}

}  // namespace lg::write
