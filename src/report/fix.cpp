// `fix`'s lines, the unified diff of `fix --diff`, and a fix as JSON.
#include "ledgergate/report/fix.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "ledgergate/diag/severity_counts.hpp"
#include "ledgergate/report/format.hpp"
#include "ledgergate/util/line_index.hpp"
#include "ledgergate/util/quote.hpp"

namespace lg::report {
namespace {

std::string where(const diag::Finding& f) {
  return f.location.line > 0 ? fmt::format("{}:{}", f.location.path, f.location.line) : f.location.path;
}

// ---- the unified diff --------------------------------------------------------

struct Lines {
  std::vector<std::string_view> text;  // each line with its line end
};

Lines split(std::string_view bytes) {
  Lines out;
  const util::LineIndex index(bytes);
  for (std::size_t i = 0; i < index.line_count(); ++i) {
    const std::size_t begin = index.line_begin(i), end = index.next_line(i);
    if (end > begin) out.text.push_back(bytes.substr(begin, end - begin));
  }
  return out;
}

// One line of the diff: ' ', '-' or '+' and the line (index into a or b).
struct Op {
  char kind;
  std::size_t a, b;
};

// The edit script between a and b: common prefix and suffix, and a longest
// common subsequence of the middle (one replaced block when it is too big).
std::vector<Op> script(const Lines& a, const Lines& b) {
  std::size_t pre = 0;
  while (pre < a.text.size() && pre < b.text.size() && a.text[pre] == b.text[pre]) ++pre;
  std::size_t suf = 0;
  while (suf < a.text.size() - pre && suf < b.text.size() - pre &&
         a.text[a.text.size() - 1 - suf] == b.text[b.text.size() - 1 - suf]) {
    ++suf;
  }
  const std::size_t n = a.text.size() - pre - suf, m = b.text.size() - pre - suf;
  std::vector<Op> ops;
  for (std::size_t i = 0; i < pre; ++i) ops.push_back(Op{' ', i, i});
  if (n * m <= 4'000'000) {
    std::vector<std::vector<std::uint32_t>> lcs(n + 1, std::vector<std::uint32_t>(m + 1, 0));
    for (std::size_t i = n; i-- > 0;) {
      for (std::size_t j = m; j-- > 0;) {
        lcs[i][j] = a.text[pre + i] == b.text[pre + j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
      }
    }
    std::size_t i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a.text[pre + i] == b.text[pre + j]) {
        ops.push_back(Op{' ', pre + i++, pre + j++});
      } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
        ops.push_back(Op{'-', pre + i++, pre + j});  // deletions first, as git prints them
      } else {
        ops.push_back(Op{'+', pre + i, pre + j++});
      }
    }
  } else {
    for (std::size_t i = 0; i < n; ++i) ops.push_back(Op{'-', pre + i, pre});
    for (std::size_t j = 0; j < m; ++j) ops.push_back(Op{'+', pre + n, pre + j});
  }
  for (std::size_t k = 0; k < suf; ++k) ops.push_back(Op{' ', pre + n + k, pre + m + k});
  return ops;
}

// "N" or "N,M" of a hunk header (git's convention: an empty side starts one line early).
std::string hunk_range(std::size_t start, std::size_t count) {
  if (count == 1) return std::to_string(start + 1);
  return fmt::format("{},{}", count == 0 ? start : start + 1, count);
}

void append_line(std::string& out, char kind, std::string_view line) {
  out += kind;
  if (!line.empty() && (line.back() == '\n' || line.back() == '\r')) {
    out += line;
  } else {
    out.append(line).append("\n\\ No newline at end of file\n");
  }
}

std::string file_diff(const fix::ChangedFile& f) {
  const Lines a = split(f.before), b = split(f.after);
  const std::vector<Op> ops = script(a, b);
  constexpr std::size_t k_context = 3;
  std::string out = fmt::format("--- a/{0}\n+++ b/{0}\n", f.path);
  // Changes closer than twice the context share a hunk.
  std::vector<std::pair<std::size_t, std::size_t>> groups;  // [first change, last change + 1)
  for (std::size_t k = 0; k < ops.size(); ++k) {
    if (ops[k].kind == ' ') continue;
    if (!groups.empty() && k - groups.back().second <= 2 * k_context) {
      groups.back().second = k + 1;
    } else {
      groups.emplace_back(k, k + 1);
    }
  }
  for (const auto& [first, last] : groups) {
    const std::size_t begin = first >= k_context ? first - k_context : 0;
    const std::size_t end = std::min(ops.size(), last + k_context);
    std::size_t a_count = 0, b_count = 0;
    for (std::size_t t = begin; t < end; ++t) {
      a_count += ops[t].kind != '+' ? std::size_t{1} : std::size_t{0};
      b_count += ops[t].kind != '-' ? std::size_t{1} : std::size_t{0};
    }
    out += fmt::format("@@ -{} +{} @@\n", hunk_range(ops[begin].a, a_count), hunk_range(ops[begin].b, b_count));
    for (std::size_t t = begin; t < end; ++t) {
      const Op& op = ops[t];
      append_line(out, op.kind, op.kind == '+' ? b.text[op.b] : a.text[op.a]);
    }
  }
  return out;
}

}  // namespace

std::string render_fix(const fix::FixReport& r, bool color) {
  std::string out;
  for (const fix::AppliedFix& a : r.applied) {
    out += fmt::format("{}: fixed: {} [{}]\n", where(a.finding), a.fix.title, a.fix.rule);
  }
  for (const fix::RefusedFix& x : r.refused) {
    out += fmt::format("{}: refused: {} [{}]: it would add: {}: {} [{}]\n", where(x.finding), x.fix.title, x.fix.rule,
                       where(x.added), util::escape_controls(x.added.message), x.added.rule);
  }
  out += render_text(r.after, color);
  return out;
}

std::string render_fix_summary(const fix::FixReport& r, bool written) {
  const diag::SeverityCounts n = diag::count_severities(r.after);
  std::string refused = r.refused.empty() ? "" : fmt::format(", {} refused", r.refused.size());
  return fmt::format("ledgergate fix: {} fix(es) in {} file(s) {}{}; {} finding(s) left ({} error(s), {} warning(s))\n",
                     r.applied.size(), r.files.size(), written ? "written" : "not written", refused, r.after.size(),
                     n.errors, n.warnings);
}

std::string render_fix_diff(const std::vector<fix::ChangedFile>& files) {
  std::string out;
  for (const fix::ChangedFile& f : files) out += file_diff(f);
  return out;
}

void write_fix(util::JsonWriter& w, const fix::Fix& f) {
  w.begin_object().key("kind").string(diag::to_string(f.kind)).key("description").string(f.title);
  w.key("edits").begin_array();
  for (const fix::Edit& e : f.edits) {
    w.begin_object().key("path").string(e.path).key("range").begin_object();
    w.key("start").begin_object().key("line").number(e.from.line + 1).key("column").number(e.from.code_point + 1);
    w.end_object().key("end").begin_object().key("line").number(e.to.line + 1).key("column").number(e.to.code_point + 1);
    w.end_object().end_object();
    w.key("bytes").begin_object().key("start").number(e.begin).key("end").number(e.end).end_object();
    w.key("text").string(e.text).end_object();
  }
  w.end_array().end_object();
}

}  // namespace lg::report
