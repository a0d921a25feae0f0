// The short lines beside the commands' reports.
#include "ledgergate/report/notices.hpp"

#include <fmt/format.h>

#include "ledgergate/util/quote.hpp"

namespace lg::report {

std::string render_cache_note(std::string_view note) { return "ledgergate: note: " + std::string(note) + "\n"; }

std::string render_uncommitted_note() {
  return "ledgergate: note: checked HEAD; the working tree has uncommitted ledger changes "
         "(use --index or --worktree to check them)\n";
}

std::string render_uncommitted_not_looked_note(std::size_t files, std::size_t bound) {
  return fmt::format("ledgergate: note: checked HEAD; uncommitted ledger changes were not looked for ({} ledger files, "
                     "over {}: use --index or --worktree to check them)\n",
                     files, bound);
}

std::string render_uncommitted_unknown_note(std::string_view why) {
  return fmt::format("ledgergate: note: checked HEAD; could not tell whether the working tree has uncommitted ledger "
                     "changes ({})\n",
                     util::escape_controls(why));
}

std::string render_cortex_error(std::string_view message) {
  return fmt::format("cortex check: {}\n", util::escape_cortex(message));
}

std::string render_hook_refusal(std::string_view hook, std::string_view why) {
  return fmt::format("ledgergate {}: refused: {}\n", hook, why);
}

std::string render_original_hook_refusal(std::string_view hook, std::string_view path, int status) {
  return render_hook_refusal(hook, fmt::format("the original hook {} exited {}", path, status));
}

std::string render_req_refusal(std::string_view verb, std::string_view why) {
  return fmt::format("ledgergate: req {}: refused: {}\n", verb, why);
}

std::string render_req_blocked(std::string_view verb, std::string_view path) {
  return fmt::format("ledgergate: req {}: refused: the result would break the rules above; {} is unchanged\n", verb,
                     path);
}

std::string render_req_summary_failure(std::string_view why) { return fmt::format("ledgergate: req summary: {}\n", why); }

std::string render_written_id(const git::ObjectId& id) { return id.hex() + "\n"; }

std::string render_merge_commit_refused() { return "ledgergate: the verdict is fail: no merge commit written\n"; }

std::string render_recovery(const write::RecoveryReport& r) {
  const auto joined = [](const std::vector<std::string>& paths) {
    std::string out;
    for (const std::string& p : paths) out += (out.empty() ? "" : ", ") + p;
    return out;
  };
  const auto writes = [](int n) { return n == 1 ? std::string("1 write") : fmt::format("{} writes", n); };
  std::string out;
  if (r.finished > 0) {
    out += fmt::format("recover: finished {} interrupted before the end", writes(r.finished));
    out += r.written.empty() ? "\n" : fmt::format(": wrote {}\n", joined(r.written));
  }
  if (!r.kept.empty()) {
    out += fmt::format("recover: left {} as it is: changed after the write began\n", joined(r.kept));
  }
  if (r.discarded > 0) {
    out += fmt::format("recover: discarded {} interrupted before writing anything\n", writes(r.discarded));
  }
  if (!r.removed.empty()) {
    out += fmt::format("recover: removed the temporary files of writers that are gone: {}\n", joined(r.removed));
  }
  if (out.empty()) out = "recover: nothing was interrupted\n";
  return out;
}

std::string render_renumber_written() { return "working tree updated (nothing staged)\n"; }

std::string render_renumber_commit(const git::ObjectId& commit, std::string_view ref, const git::ObjectId& was) {
  return fmt::format("commit {} on {} (was {})\n", commit.hex(), ref, was.short_hex());
}

std::string render_progress(std::size_t done, std::size_t total, double per_second) {
  constexpr std::size_t k_width = 30;
  const std::size_t filled = total == 0 ? k_width : done * k_width / total;
  return fmt::format("\r[{}{}] {}/{} commits, {:.0f}/s{}", std::string(filled, '#'), std::string(k_width - filled, '.'),
                     done, total, per_second, done == total ? "\n" : "");
}

}  // namespace lg::report
