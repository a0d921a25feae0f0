// apply_to_directory: validate, then write atomically under the root's lock.
#include <catch2/catch.hpp>
#include <fcntl.h>
#include <sys/stat.h>

#include <atomic>
#include <filesystem>
#include <thread>

#include "ledgergate/write/apply.hpp"
#include "unit/write/ledger_fixture.hpp"

using namespace lg;

namespace {

mode_t mode_of(const std::string& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

// Every name in `dir`, recursively (a temporary file left behind shows here).
std::vector<std::string> names_below(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    out.push_back(std::filesystem::relative(e.path(), dir).string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("apply_to_directory writes a good edit and reports it", "[write]") {
  test::TempDir dir;
  test::write_tree(dir.path(), test::clean_tree());
  auto applied = write::apply_to_directory(dir.path(), test::log_note("2026-09-03", "pulled"), {});
  REQUIRE(applied);
  REQUIRE(std::holds_alternative<write::Change>(applied->outcome));
  CHECK(std::get<write::Change>(applied->outcome).message == "projects/single.md: logged");
  CHECK(applied->written == std::vector<std::string>{test::k_ledger_path});
  CHECK_FALSE(applied->commit);
  const std::string after = test::read_file(dir.path() + "/" + test::k_ledger_path);
  CHECK(after.find("- 2026-09-03 — note — pulled\n- 2026-09-01 — note — ledger opened\n") != std::string::npos);
  CHECK(names_below(dir.path()) == std::vector<std::string>{"projects", "projects.yaml", "projects/single.md"});
}

TEST_CASE("apply_to_directory refuses an edit that adds a finding and writes nothing", "[write]") {
  test::TempDir dir;
  test::write_tree(dir.path(), test::clean_tree());
  const std::string path = dir.path() + "/" + test::k_ledger_path;
  SECTION("a backdated entry breaks newest-first (G-02)") {
    auto applied = write::apply_to_directory(dir.path(), test::log_note("2026-08-01", "late"), {});
    REQUIRE(applied);
    REQUIRE(std::holds_alternative<write::Refusal>(applied->outcome));
    CHECK(std::get<write::Refusal>(applied->outcome).message.starts_with("the edit would add a finding: projects/single.md"));
  }
  SECTION("a broken title does not read back (G-01)") {
    std::string bad = test::k_ledger;
    test::replace_once(bad, "# single — ", "# other — ");
    auto applied = write::apply_to_directory(dir.path(), test::overwrite(bad), {});
    REQUIRE(applied);
    REQUIRE(std::holds_alternative<write::Refusal>(applied->outcome));
    CHECK(std::get<write::Refusal>(applied->outcome).message.starts_with("the edit would not read back: title must be `# single"));
  }
  CHECK(test::read_file(path) == test::k_ledger);
  CHECK(names_below(dir.path()) == std::vector<std::string>{"projects", "projects.yaml", "projects/single.md"});
}

TEST_CASE("apply_to_directory passes a refusal through and writes nothing for an empty change", "[write]") {
  test::TempDir dir;
  test::write_tree(dir.path(), test::clean_tree());
  const write::Editor refuse = [](git::TreeSource&) -> Result<write::Outcome> { return write::Outcome(write::Refusal{"no"}); };
  auto refused = write::apply_to_directory(dir.path(), refuse, {});
  REQUIRE(refused);
  CHECK(std::get<write::Refusal>(refused->outcome).message == "no");
  const write::Editor idle = [](git::TreeSource&) -> Result<write::Outcome> {
    return write::Outcome(write::Change{{}, "already running"});
  };
  auto idled = write::apply_to_directory(dir.path(), idle, {});
  REQUIRE(idled);
  CHECK(idled->written.empty());
  CHECK(std::get<write::Change>(idled->outcome).message == "already running");
}

TEST_CASE("apply_to_directory keeps the mode of a file it replaces", "[write]") {
  test::TempDir dir;
  test::write_tree(dir.path(), test::clean_tree());
  const std::string path = dir.path() + "/" + test::k_ledger_path;
  REQUIRE(::chmod(path.c_str(), 0600) == 0);
  REQUIRE(write::apply_to_directory(dir.path(), test::log_note("2026-09-03", "kept"), {}));
  CHECK(mode_of(path) == 0600);
}

TEST_CASE("apply_to_directory leaves a refused file's bytes and mtime as they were", "[write]") {
  test::TempDir dir;
  test::write_tree(dir.path(), test::clean_tree());
  const std::string path = dir.path() + "/" + test::k_ledger_path;
  const struct timespec old_times[2] = {{1000000000, 0}, {1000000000, 0}};
  REQUIRE(::utimensat(AT_FDCWD, path.c_str(), old_times, 0) == 0);
  auto applied = write::apply_to_directory(dir.path(), test::log_note("2026-08-01", "late"), {});
  REQUIRE(applied);
  REQUIRE(std::holds_alternative<write::Refusal>(applied->outcome));
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  CHECK(st.st_mtim.tv_sec == 1000000000);
  CHECK(test::read_file(path) == test::k_ledger);
}

TEST_CASE("apply_to_directory creates a new file 0644 less the umask, and its folder", "[write]") {
  test::TempDir dir;
  test::write_tree(dir.path(), {{"projects.yaml", test::k_rows}});
  const mode_t old_mask = ::umask(022);
  auto applied = write::apply_to_directory(dir.path(), test::overwrite(test::k_ledger), {});
  ::umask(old_mask);
  REQUIRE(applied);
  CHECK(applied->written == std::vector<std::string>{test::k_ledger_path});
  CHECK(test::read_file(dir.path() + "/" + test::k_ledger_path) == test::k_ledger);
  CHECK(mode_of(dir.path() + "/" + test::k_ledger_path) == 0644);
}

TEST_CASE("apply_to_directory writes nothing and leaves no temporary file when a write fails", "[write]") {
  test::TempDir dir;
  test::write_tree(dir.path(), test::clean_tree());
  // The third file's folder is a regular file: staging it fails after the
  // first two were staged, the second in folders made for it.
  const write::Editor two = [](git::TreeSource&) -> Result<write::Outcome> {
    return write::Outcome(write::Change{
        {{test::k_ledger_path, "first\n"}, {"notes/new/a.md", "new\n"}, {"projects.yaml/x", "second\n"}}, "three"});
  };
  write::ApplyOptions unchecked;
  unchecked.validate = false;
  auto applied = write::apply_to_directory(dir.path(), two, unchecked);
  REQUIRE_FALSE(applied);
  CHECK(applied.error().kind == ErrorKind::io);
  CHECK(test::read_file(dir.path() + "/" + test::k_ledger_path) == test::k_ledger);
  CHECK(names_below(dir.path()) == std::vector<std::string>{"projects", "projects.yaml", "projects/single.md"});
}

TEST_CASE("apply_to_directory refuses a path that leaves the tree", "[write]") {
  test::TempDir dir;
  test::write_tree(dir.path(), test::clean_tree());
  write::ApplyOptions unchecked;
  unchecked.validate = false;
  for (const std::string path : {"../escape", "/abs", "projects//x", "./x", ".git/config", ""}) {
    INFO(path);
    const write::Editor bad = [path](git::TreeSource&) -> Result<write::Outcome> {
      return write::Outcome(write::Change{{{path, "x\n"}}, "bad"});
    };
    auto applied = write::apply_to_directory(dir.path(), bad, unchecked);
    REQUIRE_FALSE(applied);
    CHECK(applied.error().kind == ErrorKind::invalid_input);
  }
  CHECK(names_below(dir.path()) == std::vector<std::string>{"projects", "projects.yaml", "projects/single.md"});
}

TEST_CASE("apply_to_directory: a folder that is not there is a usage error", "[write]") {
  auto applied = write::apply_to_directory("/nonexistent/ledgergate-root", test::overwrite("x"), {});
  REQUIRE_FALSE(applied);
  CHECK(applied.error().kind == ErrorKind::usage);
}

// Without the lock, two read-edit-write cycles overlap and one entry is lost.
TEST_CASE("apply_to_directory: two concurrent writers of one file lose nothing", "[write][lock]") {
  test::TempDir dir;
  test::write_tree(dir.path(), test::clean_tree());
  constexpr int k_each = 20;
  std::atomic<int> failures{0};
  const auto writer = [&](const std::string& who) {
    for (int i = 0; i < k_each; ++i) {
      auto applied = write::apply_to_directory(dir.path(), test::log_note("2026-09-03", who + std::to_string(i)), {});
      if (!applied || !std::holds_alternative<write::Change>(applied->outcome)) ++failures;
    }
  };
  std::thread a(writer, "a"), b(writer, "b");
  a.join();
  b.join();
  CHECK(failures == 0);
  const std::string after = test::read_file(dir.path() + "/" + test::k_ledger_path);
  for (const std::string who : {"a", "b"}) {
    for (int i = 0; i < k_each; ++i) {
      INFO(who << i);
      CHECK(after.find("— note — " + who + std::to_string(i) + "\n") != std::string::npos);
    }
  }
  CHECK(names_below(dir.path()) == std::vector<std::string>{"projects", "projects.yaml", "projects/single.md"});
}

TEST_CASE("apply_to_directory never writes through a symlinked folder", "[write][symlink]") {
  // projects -> ../victim/projects: the ledger the editor would reach is
  // outside the root. Reading sees a symlink (no ledger there), and a write
  // to a path through it is an error; the victim is untouched either way.
  test::TempDir dir;
  test::write_tree(dir.path(), {{"victim/projects/single.md", test::k_ledger}, {"root/projects.yaml", test::k_rows}});
  std::filesystem::create_symlink("../victim/projects", dir.path() + "/root/projects");
  const std::string root = dir.path() + "/root";
  auto refused = write::apply_to_directory(root, test::log_note("2026-09-03", "through the link"), {});
  REQUIRE(refused);
  CHECK(std::holds_alternative<write::Refusal>(refused->outcome));
  write::ApplyOptions unchecked;
  unchecked.validate = false;
  auto written = write::apply_to_directory(root, test::overwrite("replaced\n"), unchecked);
  REQUIRE_FALSE(written);
  CHECK(written.error().message == "cannot write projects/single.md: projects is a symbolic link");
  CHECK(test::read_file(dir.path() + "/victim/projects/single.md") == test::k_ledger);
  // A symlinked file is not replaced either (nor what it points at).
  std::filesystem::remove(root + "/projects");
  std::filesystem::create_directory(root + "/projects");
  std::filesystem::create_symlink("../../victim/projects/single.md", root + "/projects/single.md");
  auto onto_link = write::apply_to_directory(root, test::overwrite("replaced\n"), unchecked);
  REQUIRE_FALSE(onto_link);
  CHECK(onto_link.error().message == "cannot write projects/single.md: it is a symbolic link");
  CHECK(test::read_file(dir.path() + "/victim/projects/single.md") == test::k_ledger);
  CHECK(std::filesystem::is_symlink(root + "/projects/single.md"));
}

TEST_CASE("apply_to_directory in a working tree stages in the git directory and leaves nothing", "[write]") {
  test::TempDir dir;
  REQUIRE(test::run_quiet("git init -q " + dir.path()) == 0);
  test::write_tree(dir.path(), test::clean_tree());
  const write::Editor both = [](git::TreeSource&) -> Result<write::Outcome> {
    return write::Outcome(write::Change{{{"projects.yaml", test::k_rows + "\n"}, {test::k_ledger_path, test::k_ledger + "\n"}},
                                        "both"});
  };
  write::ApplyOptions unchecked;
  unchecked.validate = false;
  REQUIRE(write::apply_to_directory(dir.path(), both, unchecked));
  CHECK(test::read_file(dir.path() + "/projects.yaml") == test::k_rows + "\n");
  std::vector<std::string> outside;
  for (const std::string& n : names_below(dir.path())) {
    if (n != ".git" && n.rfind(".git/", 0) != 0) outside.push_back(n);
  }
  CHECK(outside == std::vector<std::string>{"projects", "projects.yaml", "projects/single.md"});
  // The staging area is there, and empty.
  CHECK(std::filesystem::is_empty(dir.path() + "/.git/ledgergate/write"));
}
