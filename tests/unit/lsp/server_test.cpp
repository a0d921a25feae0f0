// The language server in process: lifecycle, diagnostics over buffers laid
// on the tree (cross-file included), the quick fix and its effect, hover,
// completion, definition, symbols, cancellation, UTF-16 positions, and the
// incremental check (a ledger edit is not a whole check).
#include "ledgergate/lsp/server.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "ledgergate/lsp/framing.hpp"
#include "ledgergate/lsp/workspace.hpp"
#include "ledgergate/util/line_index.hpp"
#include "support/peer_cases.hpp"

namespace lg::test {
namespace {

using json = nlohmann::json;

class Client {
 public:
  explicit Client(const std::string& root) : m_root(root), m_server(lsp::ServerOptions{"2026-09-14", ""}) {
    const json r = request("initialize", {{"rootUri", "file://" + root}, {"capabilities", json::object()}});
    REQUIRE(r["result"]["capabilities"]["positionEncoding"] == "utf-16");
    notify("initialized", json::object());
  }

  std::string uri(const std::string& path) const { return "file://" + m_root + "/" + path; }

  // Sends and returns everything the server answered.
  std::vector<json> send(const json& message) {
    m_server.receive(message.dump());
    return flush();
  }
  std::vector<json> flush() {
    std::vector<json> out;
    for (const std::string& body : m_server.process()) out.push_back(json::parse(body));
    for (const json& m : out) {
      if (m.value("method", "") == "textDocument/publishDiagnostics") m_diagnostics[m["params"]["uri"]] = m["params"]["diagnostics"];
    }
    return out;
  }
  void queue(const json& message) { m_server.receive(message.dump()); }
  std::vector<json> notify(const std::string& method, const json& params) {
    return send({{"jsonrpc", "2.0"}, {"method", method}, {"params", params}});
  }
  json request(const std::string& method, const json& params) {
    const int id = ++m_id;
    for (const json& m : send({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}})) {
      if (m.contains("id") && m["id"] == id) return m;
    }
    FAIL("no answer to " << method);
    return nullptr;
  }
  void open(const std::string& path, const std::string& text) {
    m_text[path] = text;
    notify("textDocument/didOpen",
           {{"textDocument", {{"uri", uri(path)}, {"languageId", "markdown"}, {"version", 1}, {"text", text}}}});
  }
  void replace(const std::string& path, const std::string& text) {
    m_text[path] = text;
    notify("textDocument/didChange", {{"textDocument", {{"uri", uri(path)}, {"version", ++m_version}}},
                                      {"contentChanges", {{{"text", text}}}}});
  }
  json diagnostics(const std::string& path) { return m_diagnostics.count(uri(path)) ? m_diagnostics[uri(path)] : json(); }
  const std::string& text(const std::string& path) { return m_text[path]; }
  lsp::Server& server() { return m_server; }

 private:
  std::string m_root;
  lsp::Server m_server;
  int m_id = 0, m_version = 1;
  std::map<std::string, json> m_diagnostics;
  std::map<std::string, std::string> m_text;
};

// `text` with LSP text edits (UTF-16 positions) applied, last first.
std::string applied(std::string text, json edits) {
  std::sort(edits.begin(), edits.end(), [](const json& a, const json& b) {
    return std::make_pair(a["range"]["start"]["line"].get<int>(), a["range"]["start"]["character"].get<int>()) >
           std::make_pair(b["range"]["start"]["line"].get<int>(), b["range"]["start"]["character"].get<int>());
  });
  for (const json& e : edits) {
    const util::LineIndex lines(text);
    const auto at = [&](const json& p) {
      return lines.offset(util::Position{p["line"].get<int>(), p["character"].get<int>()}, util::Unit::utf16);
    };
    const std::size_t begin = at(e["range"]["start"]), end = at(e["range"]["end"]);
    text = text.substr(0, begin) + e["newText"].get<std::string>() + text.substr(end);
  }
  return text;
}

std::string with(std::string text, std::string_view good, std::string_view bad) {
  const std::size_t at = text.find(good);
  REQUIRE(at != std::string::npos);
  return text.replace(at, good.size(), bad);
}

struct Tree {
  TempDir dir;
  FileMap files = peer_fixture(peer_cases(), "R-skeleton");
  Tree() { write_tree(dir.path(), files); }
};

}  // namespace

TEST_CASE("lsp: a planted error is a diagnostic, its quick fix removes it", "[lsp]") {
  Tree t;
  Client c(t.dir.path());
  const std::string path = "projects/example.md";
  c.open(path, with(t.files.at(path), "Project: example", "Project: other"));
  const json d = c.diagnostics(path);
  REQUIRE(d.size() == 1);
  CHECK(d[0]["code"] == "ledger-project-equals-key");
  CHECK(d[0]["severity"] == 1);
  CHECK(d[0]["range"]["start"] == json{{"line", 2}, {"character", 0}});
  CHECK(d[0]["range"]["end"] == json{{"line", 2}, {"character", 14}});

  const json actions = c.request("textDocument/codeAction", {{"textDocument", {{"uri", c.uri(path)}}},
                                                             {"range", d[0]["range"]},
                                                             {"context", {{"diagnostics", d}}}})["result"];
  const auto fix = std::find_if(actions.begin(), actions.end(), [](const json& a) { return a.contains("edit"); });
  REQUIRE(fix != actions.end());
  CHECK((*fix)["kind"] == "quickfix");
  CHECK((*fix)["isPreferred"] == true);
  CHECK(std::any_of(actions.begin(), actions.end(), [](const json& a) {
    return a.contains("command") && a["command"]["command"] == "ledgergate.explain";
  }));
  const std::string fixed = applied(c.text(path), (*fix)["edit"]["changes"][c.uri(path)]);
  CHECK(fixed == t.files.at(path));
  c.replace(path, fixed);
  CHECK(c.diagnostics(path).empty());
}

TEST_CASE("lsp: an edit of projects.yaml re-checks the open ledgers it feeds", "[lsp]") {
  Tree t;
  Client c(t.dir.path());
  c.open("projects/example.md", t.files.at("projects/example.md"));
  CHECK(c.diagnostics("projects/example.md").empty());
  // Retired while its ledger still lists runs: a finding in the ledger, from a buffer of projects.yaml.
  c.open("projects.yaml", with(t.files.at("projects.yaml"), "  partition: both\n  status: active\n  note: \"the fixture",
                               "  partition: both\n  status: retired\n  note: \"the fixture"));
  const json d = c.diagnostics("projects/example.md");
  REQUIRE(d.size() == 1);
  CHECK(d[0]["code"] == "ledger-retired-has-no-runs");
}

TEST_CASE("lsp: hover, completion, definition and symbols", "[lsp]") {
  Tree t;
  Client c(t.dir.path());
  const std::string path = "projects/example.md";
  c.open(path, with(t.files.at(path), "Project: example", "Project: other"));
  const auto at = [&](int line, int character) {
    return json{{"textDocument", {{"uri", c.uri(path)}}}, {"position", {{"line", line}, {"character", character}}}};
  };
  const json hover = c.request("textDocument/hover", at(2, 3))["result"];
  CHECK(hover["contents"]["value"].get<std::string>().find("ledger-project-equals-key") != std::string::npos);

  // A log line's kind, after "- DATE — ".
  c.replace(path, with(c.text(path), "## Log\n\n", "## Log\n\n- 2026-09-14 \xE2\x80\x94 \n"));
  json items = c.request("textDocument/completion", at(18, 15))["result"];
  std::set<std::string> labels;
  for (const json& i : items) labels.insert(i["label"]);
  CHECK(labels == std::set<std::string>{"run", "result", "lesson", "note"});
  // The date at the start of an entry: today.
  c.replace(path, with(c.text(path), "- 2026-09-14 \xE2\x80\x94 \n", "- \n"));
  items = c.request("textDocument/completion", at(18, 2))["result"];
  REQUIRE(items.size() == 1);
  CHECK(items[0]["label"] == "2026-09-14");

  // `example` in the title: the ledger is this file; its projects.yaml row.
  const json defs = c.request("textDocument/definition", at(0, 4))["result"];
  REQUIRE(defs.size() == 1);
  CHECK(defs[0]["uri"] == c.uri("projects.yaml"));
  CHECK(defs[0]["range"]["start"]["line"] == 3);

  const json symbols = c.request("textDocument/documentSymbol", {{"textDocument", {{"uri", c.uri(path)}}}})["result"];
  std::vector<std::string> names;
  for (const json& s : symbols) names.push_back(s["name"]);
  CHECK(names == std::vector<std::string>{"# example \xE2\x80\x94 Does the example pipeline recover the truth on the fixture lens",
                                          "## Now", "## Runs", "## Log"});
  CHECK(symbols[2]["children"].size() == 2);
  CHECK(symbols[2]["children"][0]["name"] == "3002_[0-3]");
}

TEST_CASE("lsp: positions are UTF-16 code units", "[lsp]") {
  Tree t;
  Client c(t.dir.path());
  const std::string path = "projects/example.md";
  // \U0001F600 is two UTF-16 units (one code point, four bytes).
  c.open(path, with(t.files.at(path), "Wave 2 is", "\xF0\x9F\x98\x80 Wave 2 is"));
  // "example " inserted at character 3 (UTF-16), after the emoji and its space.
  c.notify("textDocument/didChange",
           {{"textDocument", {{"uri", c.uri(path)}, {"version", 2}}},
            {"contentChanges", {{{"range", {{"start", {{"line", 7}, {"character", 3}}}, {"end", {{"line", 7}, {"character", 3}}}}},
                                  {"text", "example "}}}}});
  // Character 3 is now the `e` of `example`: its definition is its projects.yaml row.
  const json defs = c.request("textDocument/definition", {{"textDocument", {{"uri", c.uri(path)}}},
                                                          {"position", {{"line", 7}, {"character", 3}}}})["result"];
  REQUIRE(defs.size() == 1);
  CHECK(defs[0]["uri"] == c.uri("projects.yaml"));
}

TEST_CASE("lsp: a task file (era T): diagnostics, state completion, a ruling id's definition", "[lsp]") {
  TempDir dir;
  const FileMap files = peer_fixture(peer_cases(), "T-skeleton");
  write_tree(dir.path(), files);
  Client c(dir.path());
  const std::string path = "tasks/example/05_running_array.md";
  c.open(path, with(files.at(path), "State: running", "State: runing"));
  const json d = c.diagnostics(path);
  CHECK(std::any_of(d.begin(), d.end(), [](const json& x) {
    return x["code"] == "pt-state-legal" && x["range"]["start"]["line"] == 4;
  }));
  const auto at = [&](int line, int character) {
    return json{{"textDocument", {{"uri", c.uri(path)}}}, {"position", {{"line", line}, {"character", character}}}};
  };
  c.replace(path, with(files.at(path), "State: running", "State: "));
  std::set<std::string> labels;
  const json items = c.request("textDocument/completion", at(4, 7))["result"];
  for (const json& i : items) labels.insert(i["label"]);
  CHECK(labels.count("awaiting-ruling") == 1);
  CHECK(labels.size() == 10);
  // `Ruling: R-20260901-03` (line 10): its file.
  const json defs = c.request("textDocument/definition", at(9, 12))["result"];
  REQUIRE(defs.size() == 1);
  CHECK(defs[0]["uri"] == c.uri("rulings/2026/09/R-20260901-03.md"));
}

TEST_CASE("lsp: lifecycle, cancellation and errors", "[lsp]") {
  Tree t;
  {
    lsp::Server s({"2026-09-14", ""});
    s.receive(json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "textDocument/hover"}, {"params", json::object()}}.dump());
    const json r = json::parse(s.process().at(0));
    CHECK(r["error"]["code"] == -32002);  // not initialized
  }
  Client c(t.dir.path());
  // A request cancelled while queued is answered as cancelled.
  c.queue({{"jsonrpc", "2.0"}, {"id", 77}, {"method", "textDocument/documentSymbol"},
           {"params", {{"textDocument", {{"uri", c.uri("projects/example.md")}}}}}});
  c.queue({{"jsonrpc", "2.0"}, {"method", "$/cancelRequest"}, {"params", {{"id", 77}}}});
  const std::vector<json> out = c.flush();
  REQUIRE(out.size() == 1);
  CHECK(out[0]["error"]["code"] == -32800);
  CHECK(c.request("no/such", json::object())["error"]["code"] == -32601);
  c.send(json::parse("{\"jsonrpc\": \"2.0\"}"));  // neither request nor notification: ignored
  CHECK(c.request("shutdown", nullptr)["result"].is_null());
  CHECK(c.request("textDocument/hover", json::object())["error"]["code"] == -32600);
  CHECK_FALSE(c.server().exited());
  c.notify("exit", nullptr);
  CHECK(c.server().exited());
  CHECK(c.server().exit_code() == 0);

  lsp::Server abrupt({"2026-09-14", ""});
  abrupt.receive(json{{"jsonrpc", "2.0"}, {"method", "exit"}}.dump());
  abrupt.process();
  CHECK(abrupt.exited());
  CHECK(abrupt.exit_code() == 1);
}

TEST_CASE("lsp workspace: a ledger edit re-checks that ledger alone", "[lsp]") {
  Tree t;
  auto ws = lsp::Workspace::open(t.dir.path());
  REQUIRE(ws.has_value());
  REQUIRE((*ws)->refresh().has_value());
  CHECK((*ws)->whole_checks() == 1);
  (*ws)->set_buffer("projects/single.md", with(t.files.at("projects/single.md"), "Project: single", "Project: x"));
  auto touched = (*ws)->refresh();
  REQUIRE(touched.has_value());
  CHECK(*touched == std::set<std::string>{"projects/single.md"});
  CHECK((*ws)->whole_checks() == 1);
  CHECK((*ws)->findings_at("projects/single.md").size() == 1);
  // projects.yaml: the ledgers its change affects, and the file itself.
  (*ws)->set_buffer("projects.yaml", with(t.files.at("projects.yaml"), "  partition: ral\n  status: active",
                                          "  partition: ral\n  status: dormant"));
  touched = (*ws)->refresh();
  REQUIRE(touched.has_value());
  CHECK(touched->count("projects/single.md") == 1);
  CHECK(touched->count("projects/example.md") == 0);
  CHECK((*ws)->whole_checks() == 1);
  // The buffer taken away: the file on disk counts again.
  (*ws)->set_buffer("projects/single.md", std::nullopt);
  REQUIRE((*ws)->refresh().has_value());
  CHECK((*ws)->findings_at("projects/single.md").empty());
  CHECK((*ws)->whole_checks() == 1);
}

TEST_CASE("lsp framing: Content-Length frames, split anywhere", "[lsp]") {
  const std::string a = lsp::frame("{\"a\":1}"), b = lsp::frame("{\"b\":\"\xC3\xA9\"}");
  const std::string stream = a + b;
  for (std::size_t cut = 0; cut <= stream.size(); ++cut) {
    lsp::FrameReader r;
    r.feed(stream.substr(0, cut));
    std::vector<std::string> bodies;
    while (auto body = r.next()) bodies.push_back(*body);
    r.feed(stream.substr(cut));
    while (auto body = r.next()) bodies.push_back(*body);
    CHECK(bodies == std::vector<std::string>{"{\"a\":1}", "{\"b\":\"\xC3\xA9\"}"});
  }
  lsp::FrameReader bad;
  bad.feed("Content-Type: x\r\n\r\n{}");
  CHECK_FALSE(bad.next());
  CHECK_FALSE(bad.error().empty());
}

}  // namespace lg::test
