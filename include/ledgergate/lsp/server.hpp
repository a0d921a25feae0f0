// `ledgergate lsp`: a language server (LSP 3.17) for every ledger kind
// ledgergate checks. The server is a value that takes messages (JSON
// bodies, as framing.hpp cuts them) and answers with the messages to send;
// the CLI moves the bytes. Messages are queued as they arrive and handled
// in batches (process()): a request cancelled while queued is answered as
// cancelled without running, and every text change of a batch is applied
// before one incremental re-check, whose diagnostics are published for each
// open file they may have changed. The server never writes a file: fixes
// are workspace edits the editor applies.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace lg::lsp {

struct ServerOptions {
  std::string today;  // YYYY-MM-DD: the date completion offers
  std::string root;   // the folder to serve; "" = the client's root (its repository's top level)
};

class Server {
 public:
  explicit Server(ServerOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Queues one message body.
  void receive(std::string body);
  // Handles the queued messages; returns the bodies to send, in order.
  std::vector<std::string> process();
  // The client sent `exit`: stop reading. exit_code() is 0 after a
  // `shutdown` request, 1 without one (LSP 3.17, "Exit Notification").
  bool exited() const;
  int exit_code() const;
  // The input ended without `exit`: the exit code then (1).
  static constexpr int k_lost_client = 1;

  struct State;  // src/lsp/session.hpp

 private:
  std::unique_ptr<State> m;
};

}  // namespace lg::lsp
