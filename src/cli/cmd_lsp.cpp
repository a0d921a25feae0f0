// `ledgergate lsp`: the language server over stdio. The bytes move here: a
// blocking read, then whatever else is already waiting (so a burst of
// changes is handled as one batch and a cancellation can overtake its
// request), cut into messages (lsp/framing.hpp), handled by lsp::Server,
// and its answers written framed to stdout. Nothing else is printed on
// stdout; the exit code is the protocol's (0 after shutdown and exit, 1
// otherwise).
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <memory>

#include "commands.hpp"
#include "errors.hpp"
#include "ledgergate/lsp/framing.hpp"
#include "ledgergate/lsp/server.hpp"
#include "ledgergate/util/clock.hpp"
#include "ledgergate/util/fd.hpp"
#include "ledgergate/write/cortex_r.hpp"

namespace lg::cli {
namespace {

struct LspOptions {
  std::string today, root;
  bool stdio = false;
};

// Reads what stdin holds, waiting for it. False at the end of the input or on an error.
bool read_some(lsp::FrameReader& reader) {
  char buffer[65536];
  while (true) {
    const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    reader.feed(std::string_view(buffer, static_cast<std::size_t>(n)));
    return true;
  }
}

bool waiting() {
  pollfd p{STDIN_FILENO, POLLIN, 0};
  return ::poll(&p, 1, 0) > 0;
}

ExitCode run_lsp(const LspOptions& o) {
  std::signal(SIGPIPE, SIG_IGN);  // a client gone is an end of output, not a signal
  lsp::Server server(lsp::ServerOptions{o.today, o.root});
  lsp::FrameReader reader;
  bool open = true;
  while (open && !server.exited()) {
    open = read_some(reader);
    while (open && waiting()) open = read_some(reader);  // the rest of a burst joins the batch
    while (auto body = reader.next()) server.receive(std::move(*body));
    if (!reader.error().empty()) {
      print_error("lsp: " + reader.error());
      return ExitCode::error;
    }
    for (const std::string& out : server.process()) {
      if (!util::write_all(STDOUT_FILENO, lsp::frame(out))) return ExitCode::fail;
    }
  }
  if (!server.exited()) return static_cast<ExitCode>(lsp::Server::k_lost_client);
  return server.exit_code() == 0 ? ExitCode::pass : ExitCode::fail;
}

}  // namespace

void setup_lsp(CLI::App& app, Globals& globals) {
  auto o = std::make_shared<LspOptions>();
  CLI::App* cmd = app.add_subcommand(
      "lsp", "Run the language server (LSP 3.17 over stdin/stdout): diagnostics, quick fixes, hover, completion");
  cmd->add_flag("--stdio", o->stdio, "Speak over stdin and stdout (the default and only transport; for clients that pass it)");
  cmd->add_option("--root", o->root,
                  "Serve this folder (default: the client's workspace root, or the repository of the first file opened)");
  cmd->add_option("--today", o->today, "The date completion offers, YYYY-MM-DD (default: the local date)");
  cmd->callback([o, &globals] {
    if (o->today.empty()) {
      o->today = util::format_now("%Y-%m-%d", util::Zone::local);
    } else if (const auto date = write::today_value(o->today)) {
      o->today = *date;
    } else {
      throw CLI::ValidationError("--today", "must be YYYY-MM-DD, not " + o->today);
    }
    globals.exit_code = run_lsp(*o);
  });
}

}  // namespace lg::cli
