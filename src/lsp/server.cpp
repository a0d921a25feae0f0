// The server's lifecycle, document sync and diagnostics; the requests about
// a document's content are in features.cpp.
#include "ledgergate/lsp/server.hpp"

#include <filesystem>

#include "ledgergate/git/repository.hpp"
#include "ledgergate/util/version.hpp"
#include "session.hpp"

namespace lg::lsp {
namespace {

// The folder a client's root (or a document's folder) stands for: its
// repository's top level when it is inside one, else itself; canonical.
std::string root_of(const std::string& dir) {
  std::string root = dir;
  if (auto repo = git::Repository::open(dir, true); repo && !repo->is_bare()) root = repo->workdir();
  std::error_code ec;
  std::filesystem::path canonical = std::filesystem::weakly_canonical(root, ec);
  std::string out = ec ? root : canonical.string();
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

std::string relative_to(const std::string& root, const std::string& file) {
  std::error_code ec;
  const std::filesystem::path canonical = std::filesystem::weakly_canonical(file, ec);
  const std::string path = ec ? file : canonical.string();
  if (root.empty() || path.size() <= root.size() + 1 || path.compare(0, root.size(), root) != 0 ||
      (root != "/" && path[root.size()] != '/')) {
    return {};
  }
  return path.substr(root == "/" ? 1 : root.size() + 1);
}

const json* member(const json& object, std::string_view key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

std::string string_member(const json& object, std::string_view key) {
  const json* v = member(object, key);
  return v && v->is_string() ? v->get<std::string>() : std::string();
}

json capabilities(util::Unit unit) {
  return json{
      {"positionEncoding", unit == util::Unit::byte ? "utf-8" : "utf-16"},
      {"textDocumentSync", {{"openClose", true}, {"change", 2}, {"save", {{"includeText", false}}}}},
      {"codeActionProvider", {{"codeActionKinds", {"quickfix", "source.fixAll.ledgergate"}}}},
      {"hoverProvider", true},
      {"completionProvider", {{"triggerCharacters", {" ", ":"}}}},
      {"definitionProvider", true},
      {"documentSymbolProvider", true},
      {"executeCommandProvider", {{"commands", {"ledgergate.explain"}}}},
  };
}

}  // namespace

void Server::State::notify(std::string_view method, json params) {
  send(json{{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
}

void Server::State::respond(const json& id, json result) {
  send(json{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
}

void Server::State::fail(const json& id, const RpcError& error) {
  send(json{{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", error.code}, {"message", error.message}}}});
}

namespace {

class Handler {
 public:
  explicit Handler(Server::State& state) : s(state) {}

  void message(const json& m) {
    const json* id = member(m, "id");
    const std::string method = string_member(m, "method");
    const json* params_ptr = member(m, "params");
    const json params = params_ptr ? *params_ptr : json::object();
    if (method.empty()) return;  // a response to one of ours (registerCapability)
    if (id) {
      request(*id, method, params);
    } else {
      notification(method, params);
    }
  }

  // Re-checks after the batch's text changes and publishes what is due.
  void settle() {
    if (!m_dirty) return;
    m_dirty = false;
    std::set<std::string> touched;
    if (s.workspace) {
      auto refreshed = s.workspace->refresh();
      if (refreshed) {
        touched = std::move(*refreshed);
        s.workspace_error.reset();
      } else if (s.workspace_error != refreshed.error().message) {
        s.workspace_error = refreshed.error().message;
        s.notify("window/showMessage", {{"type", 1}, {"message", "ledgergate: " + refreshed.error().message}});
      }
    }
    for (const auto& [uri, doc] : s.documents) {
      if (s.to_publish.count(uri) || (!doc.path.empty() && touched.count(doc.path))) publish(doc);
    }
    s.to_publish.clear();
  }

 private:
  void request(const json& id, const std::string& method, const json& params) {
    if (method == "initialize") {
      s.respond(id, initialize(params));
      return;
    }
    if (!s.initialized) return s.fail(id, {code::server_not_initialized, "initialize first"});
    if (s.shutdown) return s.fail(id, {code::invalid_request, "the server is shutting down"});
    if (method == "shutdown") {
      s.shutdown = true;
      return s.respond(id, nullptr);
    }
    settle();  // a request sees the buffers as they are now
    if (method == "workspace/executeCommand") {
      if (string_member(params, "command") != "ledgergate.explain") {
        return s.fail(id, {code::invalid_params, "unknown command"});
      }
      return s.respond(id, explain(s, params));
    }
    const Document* doc = document(params);
    if (method == "textDocument/codeAction" || method == "textDocument/hover" || method == "textDocument/completion" ||
        method == "textDocument/definition" || method == "textDocument/documentSymbol") {
      if (!doc) return s.respond(id, nullptr);
      if (method == "textDocument/codeAction") return s.respond(id, code_actions(s, *doc, params));
      if (method == "textDocument/hover") return s.respond(id, hover(s, *doc, params));
      if (method == "textDocument/completion") return s.respond(id, completion(s, *doc, params));
      if (method == "textDocument/definition") return s.respond(id, definition(s, *doc, params));
      return s.respond(id, document_symbols(s, *doc));
    }
    s.fail(id, {code::method_not_found, "unsupported method " + method});
  }

  void notification(const std::string& method, const json& params) {
    if (method == "exit") {
      s.exited = true;
      return;
    }
    if (!s.initialized || s.shutdown) return;
    if (method == "initialized") return register_watchers();
    if (method == "textDocument/didOpen") return open(params);
    if (method == "textDocument/didChange") return change(params);
    if (method == "textDocument/didSave") return saved(params);
    if (method == "textDocument/didClose") return close(params);
    if (method == "workspace/didChangeWatchedFiles") return watched(params);
  }

  json initialize(const json& params) {
    s.initialized = true;
    const json* general = member(params, "capabilities");
    if (general) general = member(*general, "general");
    if (const json* encodings = general ? member(*general, "positionEncodings") : nullptr; encodings && encodings->is_array()) {
      for (const json& e : *encodings) {
        if (e == "utf-8") s.unit = util::Unit::byte;
      }
    }
    if (const json* caps = member(params, "capabilities")) {
      if (const json* ws = member(*caps, "workspace")) {
        if (const json* w = member(*ws, "didChangeWatchedFiles")) {
          const json* dynamic = member(*w, "dynamicRegistration");
          s.watch_files = dynamic && dynamic->is_boolean() && dynamic->get<bool>();
        }
      }
    }
    std::string dir = s.options.root;
    if (dir.empty()) {
      std::string uri = string_member(params, "rootUri");
      if (const json* folders = member(params, "workspaceFolders"); uri.empty() && folders && folders->is_array() &&
                                                                    !folders->empty()) {
        uri = string_member(folders->front(), "uri");
      }
      if (auto path = path_of_uri(uri)) dir = *path;
      if (dir.empty()) dir = string_member(params, "rootPath");
    }
    if (!dir.empty()) open_root(dir);
    return json{{"capabilities", capabilities(s.unit)},
                {"serverInfo", {{"name", "ledgergate"}, {"version", std::string(util::k_version)}}}};
  }

  void open_root(const std::string& dir) {
    s.root = root_of(dir);
    auto ws = Workspace::open(s.root);
    if (ws) s.workspace = std::move(*ws);
  }

  void register_watchers() {
    if (!s.watch_files) return;
    json watchers = json::array();
    for (const char* glob : {"**/*.md", "**/*.yaml", "**/*.yml"}) watchers.push_back({{"globPattern", glob}});
    s.send(json{{"jsonrpc", "2.0"},
                {"id", "ledgergate-watch"},
                {"method", "client/registerCapability"},
                {"params",
                 {{"registrations",
                   {{{"id", "ledgergate-watch"},
                     {"method", "workspace/didChangeWatchedFiles"},
                     {"registerOptions", {{"watchers", watchers}}}}}}}}});
  }

  const Document* document(const json& params) {
    const json* td = member(params, "textDocument");
    if (!td) return nullptr;
    auto it = s.documents.find(string_member(*td, "uri"));
    return it == s.documents.end() ? nullptr : &it->second;
  }

  void open(const json& params) {
    const json* td = member(params, "textDocument");
    if (!td) return;
    Document doc;
    doc.uri = string_member(*td, "uri");
    doc.text = string_member(*td, "text");
    if (const json* v = member(*td, "version"); v && v->is_number_integer()) doc.version = v->get<int>();
    const auto file = path_of_uri(doc.uri);
    if (file && !s.workspace) open_root(std::filesystem::path(*file).parent_path().string());
    if (file && s.workspace) doc.path = relative_to(s.root, *file);
    if (!doc.path.empty()) s.workspace->set_buffer(doc.path, doc.text);
    s.to_publish.insert(doc.uri);
    s.documents[doc.uri] = std::move(doc);
    m_dirty = true;
  }

  void change(const json& params) {
    const json* td = member(params, "textDocument");
    if (!td) return;
    auto it = s.documents.find(string_member(*td, "uri"));
    if (it == s.documents.end()) return;
    Document& doc = it->second;
    if (const json* v = member(*td, "version"); v && v->is_number_integer()) doc.version = v->get<int>();
    if (const json* changes = member(params, "contentChanges"); changes && changes->is_array()) {
      for (const json& c : *changes) {
        const json* range = member(c, "range");
        const std::string text = string_member(c, "text");
        if (!range) {
          doc.text = text;
          continue;
        }
        const util::LineIndex lines(doc.text);
        const std::size_t begin = offset_of((*range)["start"], lines, s.unit);
        const std::size_t end = std::max(begin, offset_of((*range)["end"], lines, s.unit));
        doc.text.replace(begin, end - begin, text);
      }
    }
    if (!doc.path.empty()) s.workspace->set_buffer(doc.path, doc.text);
    s.to_publish.insert(doc.uri);
    m_dirty = true;
  }

  void saved(const json& params) {
    if (const Document* doc = document(params)) s.to_publish.insert(doc->uri);
    m_dirty = true;
  }

  void close(const json& params) {
    const json* td = member(params, "textDocument");
    if (!td) return;
    auto it = s.documents.find(string_member(*td, "uri"));
    if (it == s.documents.end()) return;
    if (!it->second.path.empty()) s.workspace->set_buffer(it->second.path, std::nullopt);
    s.notify("textDocument/publishDiagnostics", {{"uri", it->first}, {"diagnostics", json::array()}});
    s.to_publish.erase(it->first);
    s.documents.erase(it);
    m_dirty = true;
  }

  void watched(const json& params) {
    const json* changes = member(params, "changes");
    if (!s.workspace || !changes || !changes->is_array()) return;
    for (const json& c : *changes) {
      const auto file = path_of_uri(string_member(c, "uri"));
      const json* type = member(c, "type");
      if (!file || !type || !type->is_number_integer()) continue;
      const std::string path = relative_to(s.root, *file);
      const int t = type->get<int>();
      if (!path.empty()) s.workspace->file_changed(path, t == 1 ? 'A' : t == 3 ? 'D' : 'M');
    }
    m_dirty = true;
  }

  void publish(const Document& doc) {
    json diagnostics = json::array();
    if (s.workspace && !doc.path.empty()) {
      const util::LineIndex lines(doc.text);
      for (const diag::Finding& f : s.workspace->findings_at(doc.path)) {
        diagnostics.push_back(diagnostic_of(f, lines, s.unit));
      }
    }
    s.notify("textDocument/publishDiagnostics",
             {{"uri", doc.uri}, {"version", doc.version}, {"diagnostics", std::move(diagnostics)}});
  }

  Server::State& s;
  bool m_dirty = false;
};

}  // namespace

Server::Server(ServerOptions options) : m(std::make_unique<State>()) { m->options = std::move(options); }
Server::~Server() = default;

void Server::receive(std::string body) {
  json message = json::parse(body, nullptr, false);
  if (message.is_discarded() || !message.is_object()) {
    m->fail(nullptr, {code::parse_error, "the message is not a JSON object"});
    return;
  }
  m->queue.push_back(std::move(message));
}

std::vector<std::string> Server::process() {
  // A request cancelled before its turn is answered as cancelled, unrun.
  std::set<std::string> cancelled;
  for (const json& message : m->queue) {
    if (string_member(message, "method") != "$/cancelRequest") continue;
    if (const json* params = member(message, "params")) {
      if (const json* id = member(*params, "id")) cancelled.insert(id->dump());
    }
  }
  Handler handler(*m);
  std::vector<json> queue = std::move(m->queue);
  m->queue.clear();
  for (const json& message : queue) {
    if (m->exited) break;
    const json* id = member(message, "id");
    if (id && member(message, "method") && cancelled.count(id->dump())) {
      m->fail(*id, {code::request_cancelled, "cancelled"});
      continue;
    }
    try {
      handler.message(message);
    } catch (const json::exception& e) {
      if (id) m->fail(*id, {code::invalid_params, e.what()});
    }
  }
  handler.settle();
  return std::exchange(m->out, {});
}

bool Server::exited() const { return m->exited; }
int Server::exit_code() const { return m->shutdown ? 0 : 1; }

}  // namespace lg::lsp
