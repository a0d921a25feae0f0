// Private to src/lsp: the server's state and what its handlers share —
// open documents, positions in the negotiated encoding, URIs, and the
// finding → diagnostic mapping. Protocol JSON is nlohmann::json here and
// nowhere outside src/lsp.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "ledgergate/diag/finding.hpp"
#include "ledgergate/lsp/server.hpp"
#include "ledgergate/lsp/workspace.hpp"
#include "ledgergate/util/line_index.hpp"

namespace lg::lsp {

using json = nlohmann::json;

// JSON-RPC and LSP error codes.
namespace code {
inline constexpr int parse_error = -32700;
inline constexpr int invalid_request = -32600;
inline constexpr int method_not_found = -32601;
inline constexpr int invalid_params = -32602;
inline constexpr int internal_error = -32603;
inline constexpr int server_not_initialized = -32002;
inline constexpr int request_cancelled = -32800;
}  // namespace code

// A request's error answer.
struct RpcError {
  int code;
  std::string message;
};

// What kind of ledger file a path is, for completion and symbols.
enum class FileKind { other, projects_yaml, project_ledger, pt_file, ruling, open_requirements, policy };

struct Document {
  std::string uri;
  std::string path;  // repository-relative; "" when outside the root
  int version = 0;
  std::string text;
};

struct Server::State {
  ServerOptions options;
  std::vector<json> queue;
  std::vector<std::string> out;
  bool initialized = false, shutdown = false, exited = false;
  util::Unit unit = util::Unit::utf16;  // the position encoding agreed
  bool watch_files = false;           // the client registers file watchers on request
  std::string root;                   // absolute, no trailing '/'
  std::unique_ptr<Workspace> workspace;
  std::map<std::string, Document> documents;  // by URI
  std::set<std::string> to_publish;           // URIs whose diagnostics are due
  std::optional<std::string> workspace_error;  // the last refresh's error, shown once

  void send(json message) { out.push_back(message.dump()); }
  void notify(std::string_view method, json params);
  void respond(const json& id, json result);
  void fail(const json& id, const RpcError& error);
};

// file:// URIs ↔ absolute paths (percent-decoding and -encoding).
std::optional<std::string> path_of_uri(std::string_view uri);
std::string uri_of_path(std::string_view path);

FileKind kind_of(std::string_view path, std::string_view orl_glob);

// A finding's range in `text` (a line's content, or from its column).
json range_of(const diag::Finding& f, const util::LineIndex& lines, util::Unit unit);
json diagnostic_of(const diag::Finding& f, const util::LineIndex& lines, util::Unit unit);
json position(int line, int character);
// An LSP position's byte offset in `lines`.
std::size_t offset_of(const json& pos, const util::LineIndex& lines, util::Unit unit);

// The handlers of src/lsp/features.cpp: each answers a request's params.
json code_actions(Server::State& s, const Document& doc, const json& params);
json hover(Server::State& s, const Document& doc, const json& params);
json completion(Server::State& s, const Document& doc, const json& params);
json definition(Server::State& s, const Document& doc, const json& params);
json document_symbols(Server::State& s, const Document& doc);
// `ledgergate.explain RULE`: the rule's explanation (the command's result,
// also shown with window/showMessage).
json explain(Server::State& s, const json& params);

}  // namespace lg::lsp
