#include "ledgergate/hooks/install.hpp"
#include "ledgergate/hooks/run.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "support/fixture_tree.hpp"

using namespace lg;
namespace fs = std::filesystem;

namespace {

mode_t mode_of(const std::string& path) {
  struct stat st {};
  REQUIRE(::lstat(path.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

std::string canonical_dir(const std::string& dir) { return fs::weakly_canonical(dir).string() + "/"; }

void set_config(const std::string& repo_dir, const char* key, const char* value) {
  auto repo = git::Repository::open(repo_dir, false);
  REQUIRE(repo);
  git_config* cfg = nullptr;
  REQUIRE(git_repository_config(&cfg, repo->raw()) == 0);
  CHECK(git_config_set_string(cfg, key, value) == 0);
  git_config_free(cfg);
}

std::string hooks_dir_of(const std::string& repo_dir) {
  auto repo = git::Repository::open(repo_dir, false);
  REQUIRE(repo);
  auto dir = hooks::hooks_dir(*repo);
  REQUIRE(dir);
  REQUIRE(dir->back() == '/');
  return canonical_dir(dir->substr(0, dir->size() - 1));
}

}  // namespace

TEST_CASE("hooks: the shims are the templates in hooks/, with the binary's path", "[hooks]") {
  for (const std::string_view name : hooks::known_hooks()) {
    const std::string path = std::string(LEDGERGATE_SOURCE_DIR) + "/hooks/" + std::string(name);
    CHECK(test::read_file(path) == hooks::render_shim(name, "ledgergate"));
    CHECK((mode_of(path) & 0111) != 0);
  }
  const std::string shim = hooks::render_shim("pre-push", "/opt/it's here/ledgergate");
  CHECK(shim.find("\nrecorded='/opt/it'\\''s here/ledgergate'\n") != std::string::npos);
  CHECK(shim.find("\nexec \"$lg\" hooks run pre-push \"$@\"\n") != std::string::npos);
  CHECK(shim.find("elif lg=\"$(command -v ledgergate)\"; then") != std::string::npos);
  CHECK(hooks::is_our_shim(shim));
  CHECK_FALSE(hooks::is_our_shim("#!/bin/sh\necho '# ledgergate: managed hook'\n"));
}

TEST_CASE("hooks: status names the recorded binary and whether it is still there", "[hooks]") {
  test::TempDir dir;
  const std::string hooks_dir = dir.path() + "/hooks/";
  const std::string bin = dir.path() + "/it's bin/ledgergate";
  fs::create_directories(dir.path() + "/it's bin");
  test::write_file(bin, "#!/bin/sh\n");
  ::chmod(bin.c_str(), 0755);
  REQUIRE(hooks::install_hook(hooks_dir, "pre-commit", bin));
  auto there = hooks::hook_status(hooks_dir, "pre-commit");
  REQUIRE(there);
  CHECK(there->binary == bin);
  CHECK(there->binary_runs);
  CHECK(there->fallback.empty());
  fs::remove(bin);
  auto gone = hooks::hook_status(hooks_dir, "pre-commit");
  REQUIRE(gone);
  CHECK(gone->binary == bin);
  CHECK_FALSE(gone->binary_runs);
  // A shim written before the PATH fallback (an `exec '<binary>'` line) is read too.
  test::write_file(hooks_dir + "pre-push", std::string("#!/bin/sh\n") + std::string(hooks::k_marker) +
                                               "\nexec '/old place/ledgergate' hooks run pre-push \"$@\"\n");
  auto old = hooks::hook_status(hooks_dir, "pre-push");
  REQUIRE(old);
  CHECK(old->state == hooks::HookState::ours);
  CHECK(old->binary == "/old place/ledgergate");
  CHECK_FALSE(old->binary_runs);
}

TEST_CASE("hooks: the folder is the one git uses", "[hooks]") {
  test::TempDir dir;
  test::commit_tree(dir.path(), {{"a", "a"}}, "c1");
  CHECK(hooks_dir_of(dir.path()) == canonical_dir(dir.path() + "/.git/hooks"));
  set_config(dir.path(), "core.hooksPath", "tools/githooks");  // relative: from the working tree's root
  CHECK(hooks_dir_of(dir.path()) == canonical_dir(dir.path() + "/tools/githooks"));
  set_config(dir.path(), "core.hooksPath", "/srv/hooks/");
  CHECK(hooks_dir_of(dir.path()) == "/srv/hooks/");

  test::TempDir bare_dir;
  git_repository* raw = nullptr;
  REQUIRE(git_repository_init(&raw, bare_dir.path().c_str(), 1) == 0);
  git_repository_free(raw);
  CHECK(hooks_dir_of(bare_dir.path()) == canonical_dir(bare_dir.path() + "/hooks"));
  set_config(bare_dir.path(), "core.hooksPath", "custom");  // relative: from the git dir
  CHECK(hooks_dir_of(bare_dir.path()) == canonical_dir(bare_dir.path() + "/custom"));
  auto repo = git::Repository::open(bare_dir.path(), false);
  REQUIRE(repo);
  CHECK(hooks::default_hooks(repo->is_bare()) == std::vector<std::string>{"pre-receive", "update"});
}

TEST_CASE("hooks: install creates the folder, is idempotent, and uninstall removes the shim", "[hooks]") {
  test::TempDir tmp;
  const std::string dir = tmp.path() + "/a/b/hooks/";
  auto first = hooks::install_hook(dir, "pre-commit", "/usr/bin/ledgergate");
  REQUIRE(first);
  CHECK(first->action == hooks::Action::installed);
  CHECK(test::read_file(dir + "pre-commit") == hooks::render_shim("pre-commit", "/usr/bin/ledgergate"));
  CHECK(mode_of(dir + "pre-commit") == 0755);
  auto again = hooks::install_hook(dir, "pre-commit", "/usr/bin/ledgergate");
  REQUIRE(again);
  CHECK(again->action == hooks::Action::unchanged);
  ::chmod((dir + "pre-commit").c_str(), 0700);
  auto moved = hooks::install_hook(dir, "pre-commit", "/opt/ledgergate");
  REQUIRE(moved);
  CHECK(moved->action == hooks::Action::updated);
  CHECK(mode_of(dir + "pre-commit") == 0700);  // the mode is kept
  auto status = hooks::hook_status(dir, "pre-commit");
  REQUIRE(status);
  CHECK(status->state == hooks::HookState::ours);
  CHECK(status->binary == "/opt/ledgergate");
  CHECK_FALSE(status->chained);
  auto removed = hooks::uninstall_hook(dir, "pre-commit");
  REQUIRE(removed);
  CHECK(removed->action == hooks::Action::removed);
  CHECK_FALSE(fs::exists(dir + "pre-commit"));
  auto nothing = hooks::uninstall_hook(dir, "pre-commit");
  REQUIRE(nothing);
  CHECK(nothing->action == hooks::Action::not_present);
  CHECK(test::read_tree(dir).empty());  // no temporary file left behind
}

TEST_CASE("hooks: a foreign hook is kept beside and restored byte for byte", "[hooks]") {
  test::TempDir tmp;
  const std::string dir = tmp.path() + "/";
  const std::string foreign = "#!/bin/sh\r\necho mine\n\x01\xff";
  test::write_file(dir + "pre-push", foreign);
  ::chmod((dir + "pre-push").c_str(), 0710);
  auto installed = hooks::install_hook(dir, "pre-push", "ledgergate");
  REQUIRE(installed);
  CHECK(installed->action == hooks::Action::chained);
  CHECK(test::read_file(dir + "pre-push.ledgergate-orig") == foreign);
  CHECK(mode_of(dir + "pre-push.ledgergate-orig") == 0710);
  auto status = hooks::hook_status(dir, "pre-push");
  REQUIRE(status);
  CHECK(status->chained);
  auto twice = hooks::install_hook(dir, "pre-push", "ledgergate");
  REQUIRE(twice);
  CHECK(twice->action == hooks::Action::unchanged);
  auto restored = hooks::uninstall_hook(dir, "pre-push");
  REQUIRE(restored);
  CHECK(restored->action == hooks::Action::restored);
  CHECK(test::read_file(dir + "pre-push") == foreign);
  CHECK(mode_of(dir + "pre-push") == 0710);
  CHECK_FALSE(fs::exists(dir + "pre-push.ledgergate-orig"));
  auto left = hooks::uninstall_hook(dir, "pre-push");
  REQUIRE(left);
  CHECK(left->action == hooks::Action::not_ours);
  CHECK(test::read_file(dir + "pre-push") == foreign);
}

TEST_CASE("hooks: a symlinked hook stays a symlink", "[hooks]") {
  test::TempDir tmp;
  const std::string dir = tmp.path() + "/";
  REQUIRE(::symlink("../shared/pre-commit", (dir + "pre-commit").c_str()) == 0);
  auto installed = hooks::install_hook(dir, "pre-commit", "ledgergate");
  REQUIRE(installed);
  CHECK(installed->action == hooks::Action::chained);
  CHECK(fs::is_symlink(dir + "pre-commit.ledgergate-orig"));
  CHECK_FALSE(fs::is_symlink(dir + "pre-commit"));
  REQUIRE(hooks::uninstall_hook(dir, "pre-commit"));
  REQUIRE(fs::is_symlink(dir + "pre-commit"));
  CHECK(fs::read_symlink(dir + "pre-commit") == "../shared/pre-commit");
}

TEST_CASE("hooks: a kept original is never overwritten", "[hooks]") {
  test::TempDir tmp;
  const std::string dir = tmp.path() + "/";
  test::write_file(dir + "pre-commit", "#!/bin/sh\necho new\n");
  test::write_file(dir + "pre-commit.ledgergate-orig", "#!/bin/sh\necho old\n");
  auto refused = hooks::install_hook(dir, "pre-commit", "ledgergate");
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message.find("already exists") != std::string::npos);
  CHECK(test::read_file(dir + "pre-commit") == "#!/bin/sh\necho new\n");
  CHECK(test::read_file(dir + "pre-commit.ledgergate-orig") == "#!/bin/sh\necho old\n");
}

TEST_CASE("hooks: a hook kept as a relative link to another hook still runs that hook's original",
          "[hooks]") {
  test::TempDir tmp;
  const std::string dir = tmp.path() + "/";
  const std::string script = "#!/bin/sh\necho \"$0\" >> " + tmp.path() + "/ran\n";
  test::write_file(dir + "pre-push", script);
  ::chmod((dir + "pre-push").c_str(), 0755);
  REQUIRE(::symlink("pre-push", (dir + "pre-merge-commit").c_str()) == 0);
  // Either order of install: the link ends at our pre-push shim.
  for (const char* name : {"pre-merge-commit", "pre-push"}) {
    auto installed = hooks::install_hook(dir, name, "/usr/bin/ledgergate");
    REQUIRE(installed);
    CHECK(installed->action == hooks::Action::chained);
  }
  CHECK(hooks::is_our_shim(test::read_file(dir + "pre-push")));
  CHECK(fs::read_symlink(dir + "pre-merge-commit.ledgergate-orig") == "pre-push");
  const std::string kept = canonical_dir(tmp.path()) + "pre-push.ledgergate-orig";
  auto run = hooks::original_to_run(dir, "pre-merge-commit");
  REQUIRE(run);
  CHECK(*run == kept);
  auto status = hooks::run_original(dir, "pre-merge-commit", {}, nullptr);
  REQUIRE(status);
  CHECK(*status == 0);
  CHECK(test::read_file(tmp.path() + "/ran") == kept + "\n");
  // Uninstall puts both back as they were: the script, and the relative link.
  for (const char* name : {"pre-push", "pre-merge-commit"}) REQUIRE(hooks::uninstall_hook(dir, name));
  CHECK(test::read_file(dir + "pre-push") == script);
  REQUIRE(fs::is_symlink(dir + "pre-merge-commit"));
  CHECK(fs::read_symlink(dir + "pre-merge-commit") == "pre-push");
  // A link that leads to a shim keeping nothing runs nothing (git would have run our hook).
  REQUIRE(hooks::install_hook(dir, "pre-commit", "/usr/bin/ledgergate"));
  REQUIRE(::symlink("pre-commit", (dir + "update.ledgergate-orig").c_str()) == 0);
  auto none = hooks::original_to_run(dir, "update");
  REQUIRE(none);
  CHECK(none->empty());
}
