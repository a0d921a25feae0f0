// The era-T/P1 `after:` keys of the peer CLI cases (support/peer_cli.hpp):
// a file's light header (read with the ledger parser, as `check` reads it),
// its `## Ruling` section, the rulings a `rule` wrote and the states of the
// files they rule on, and CT-66's "unchanged" statement.
#include <catch2/catch.hpp>

#include "ledgergate/ledger/pt_file.hpp"
#include "ledgergate/ledger/text_file.hpp"
#include "ledgergate/util/text.hpp"
#include "support/peer_cli.hpp"

namespace lg::test {
namespace {

const std::string& file_after(const CliStep& step, const std::string& path) {
  INFO("file " << path);
  const auto it = step.after.find(path);
  REQUIRE(it != step.after.end());
  return it->second;
}

ledger::PtFile parsed(const CliStep& step, const std::string& path) {
  return ledger::parse_pt_file(file_after(step, path));
}

// {file: {Key: value}}: each key's header value compared by `same`.
template <class Same>
AfterCheck header_check(Same same) {
  return [same](const YAML::Node& value, const CliStep& step, const CliCase&) {
    for (const auto& file : value) {
      const auto path = file.first.as<std::string>();
      const ledger::PtFile f = parsed(step, path);
      for (const auto& kv : file.second) {
        const auto key = kv.first.as<std::string>();
        INFO(path << " " << key << ":");
        same(std::string(f.header.value(key)), kv.second.as<std::string>());
      }
    }
  };
}

// The path of ruling `id` (R-YYYYMMDD-nn) under rulings/YYYY/MM/.
std::string ruling_path(const std::string& id) {
  return "rulings/" + id.substr(2, 4) + "/" + id.substr(6, 2) + "/" + id + ".md";
}

std::string head_key(const CliCase& c) { return c.era == "P1" ? "Phase" : "Task"; }

// The text of `path`'s lines before its first `## Runs` line without the
// `State:` and `Runs:` header lines, and its text from `## Ruling` on.
std::pair<std::string, std::string> outside_the_edit(const std::string& text) {
  const ledger::TextFile file = ledger::decode_text(text);
  std::string head;
  std::size_t i = 0;
  for (; i < file.line_count() && file.line(i) != "## Runs"; ++i) {
    const std::string_view line = file.line(i);
    if (!util::starts_with(line, "State:") && !util::starts_with(line, "Runs:")) head += std::string(line) + "\n";
  }
  const auto ruling = text.find("\n## Ruling\n");
  return {head, ruling == std::string::npos ? std::string() : text.substr(ruling)};
}

const bool k_pt = [] {
  register_after_check("header", header_check([](const std::string& got, const std::string& want) {
                         CHECK(got == want);
                       }));
  register_after_check("header_startswith", header_check([](const std::string& got, const std::string& want) {
                         CHECK_THAT(got, Catch::StartsWith(want));
                       }));
  register_after_check("header_absent", [](const YAML::Node& value, const CliStep& step, const CliCase&) {
    for (const auto& file : value) {
      const auto path = file.first.as<std::string>();
      const ledger::PtFile f = parsed(step, path);
      for (const auto& key : file.second) {
        INFO(path << " " << key.as<std::string>() << ":");
        CHECK(f.header.find(key.as<std::string>()) == nullptr);
      }
    }
  });
  register_after_check("task_ruling_section_contains", [](const YAML::Node& value, const CliStep& step, const CliCase&) {
    for (const auto& kv : value) {
      const auto path = kv.first.as<std::string>();
      const ledger::TextFile text = ledger::decode_text(file_after(step, path));
      const ledger::PtFile f = ledger::parse_pt_file(text.text);
      const ledger::Section* s = f.section("Ruling");
      REQUIRE(s != nullptr);
      std::string body;
      for (int i = s->body_begin; i < s->body_end; ++i) body += std::string(text.line(static_cast<std::size_t>(i))) + "\n";
      CHECK_THAT(body, Catch::Contains(kv.second.as<std::string>()));
    }
  });
  // {id: target}: each ruling exists and rules on its target.
  register_after_check("rulings", [](const YAML::Node& value, const CliStep& step, const CliCase& c) {
    for (const auto& kv : value) {
      const auto id = kv.first.as<std::string>();
      INFO("ruling " << id);
      CHECK(parsed(step, ruling_path(id)).header.value(head_key(c)) == kv.second.as<std::string>());
    }
  });
  // Every ruling of the step's `rulings:` key has these header values (and body text).
  register_after_check("each_ruling", [](const YAML::Node& value, const CliStep& step, const CliCase&) {
    REQUIRE(step.node["after"]["rulings"]);
    for (const auto& r : step.node["after"]["rulings"]) {
      const std::string path = ruling_path(r.first.as<std::string>());
      const std::string& text = file_after(step, path);
      const ledger::PtFile f = ledger::parse_pt_file(text);
      for (const auto& kv : value) {
        const auto key = kv.first.as<std::string>();
        INFO(path << " " << key);
        if (key == "body_contains") {
          CHECK_THAT(text, Catch::Contains(kv.second.as<std::string>()));
        } else {
          CHECK(f.header.value(key) == kv.second.as<std::string>());
        }
      }
    }
  });
  // Every file the step's `rulings:` rule on is in this state.
  register_after_check("each_target_state", [](const YAML::Node& value, const CliStep& step, const CliCase&) {
    REQUIRE(step.node["after"]["rulings"]);
    for (const auto& r : step.node["after"]["rulings"]) {
      const auto target = r.second.as<std::string>();
      INFO("target " << target);
      CHECK(parsed(step, target).header.value("State") == value.as<std::string>());
    }
  });
  // CT-66: "the text before `## Runs` differs only by State and the
  // inserted `Runs:` line; the text after `## Ruling` is identical", for
  // every file the step changed.
  register_after_check("unchanged", [](const YAML::Node&, const CliStep& step, const CliCase&) {
    int changed = 0;
    for (const auto& [path, text] : step.after) {
      const auto was = step.before.find(path);
      if (was == step.before.end() || was->second == text) continue;
      ++changed;
      INFO("file " << path);
      CHECK(outside_the_edit(was->second) == outside_the_edit(text));
    }
    CHECK(changed > 0);
  });
  register_divergence("CT-83", 2,
                      {1, "the edit would add a finding: tasks/example/11_next.md: ## Where to look names nowhere",
                       "planned → gated leaves the template's placeholder bullet on a task past planned (T-F22): the "
                       "reference writes it, ledgergate refuses"});
  return true;
}();

}  // namespace
}  // namespace lg::test
