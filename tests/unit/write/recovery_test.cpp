// Interrupted writes (write/recovery.hpp): a transaction left in the
// staging area as a writer killed at each point leaves it (the layout
// src/write/staging.hpp documents), then recovered, reported, or left alone
// while its writer runs.
#include <catch2/catch.hpp>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "ledgergate/util/fd.hpp"
#include "ledgergate/write/apply.hpp"
#include "ledgergate/write/recovery.hpp"
#include "unit/write/ledger_fixture.hpp"

using namespace lg;

namespace {

// The two files of the retire, as the write makes them.
std::string retired_rows() { return test::replaced(test::k_rows, "status: active", "status: retired"); }
std::string noted() { return test::replaced(test::k_ledger, "- 2026-09-01", "- 2026-09-03 — note — retired\n- 2026-09-01"); }

// The identity staging records of the file at `path` (device, inode, size, mtime).
std::string identity(const std::string& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino) + ":" + std::to_string(st.st_size) + ":" +
         std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec);
}

// A transaction of a retire (projects.yaml, then the ledger) in the folder
// area of `root`, left as a writer killed after `renamed` of its two
// renames leaves it; with `intent` false, killed before its commit point.
std::string leave_retire(const std::string& root, int renamed, bool intent = true) {
  const std::string tx = root + "/.ledgergate-write/999-0-1";
  std::filesystem::create_directories(tx);
  const std::string rows = root + "/projects.yaml", ledger = root + "/" + test::k_ledger_path;
  std::string text = "ledgergate write 1\nroot " + root + "\n";
  text += "file " + identity(rows) + " a0 projects.yaml\n";
  text += "file " + identity(ledger) + " a1 " + test::k_ledger_path + "\n";
  test::write_file(tx + "/a0", retired_rows());
  test::write_file(tx + "/a1", noted());
  if (intent) test::write_file(tx + "/intent", text);
  if (renamed >= 1) std::filesystem::rename(tx + "/a0", rows);
  if (renamed >= 2) std::filesystem::rename(tx + "/a1", ledger);
  return tx;
}

}  // namespace

TEST_CASE("recover_writes finishes a write killed between its renames", "[write][recovery]") {
  test::TempDir dir;
  test::write_tree(dir.path(), test::clean_tree());
  leave_retire(dir.path(), 1);
  auto pending = write::pending_writes(dir.path());
  REQUIRE(pending);
  REQUIRE(pending->size() == 1);
  CHECK((*pending)[0].pending == std::vector<std::string>{test::k_ledger_path});
  CHECK((*pending)[0].done == std::vector<std::string>{"projects.yaml"});
  CHECK_FALSE((*pending)[0].running);
  auto refused = write::refuse_pending_writes(dir.path());
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message ==
        "a ledgergate write was interrupted here: projects/single.md is not written yet (projects.yaml is); "
        "`ledgergate recover` (or the next ledgergate write here) finishes it");

  auto done = write::recover_writes(dir.path());
  REQUIRE(done);
  CHECK(done->finished == 1);
  CHECK(done->written == std::vector<std::string>{test::k_ledger_path});
  CHECK(done->kept.empty());
  CHECK(test::read_file(dir.path() + "/projects.yaml") == retired_rows());
  CHECK(test::read_file(dir.path() + "/" + test::k_ledger_path) == noted());
  CHECK_FALSE(std::filesystem::exists(dir.path() + "/.ledgergate-write"));
  CHECK(write::refuse_pending_writes(dir.path()));
}

TEST_CASE("recover_writes: killed at its commit point, after it, or before it", "[write][recovery]") {
  SECTION("no rename yet: both files written") {
    test::TempDir dir;
    test::write_tree(dir.path(), test::clean_tree());
    leave_retire(dir.path(), 0);
    auto done = write::recover_writes(dir.path());
    REQUIRE(done);
    CHECK(done->written == std::vector<std::string>{"projects.yaml", test::k_ledger_path});
    CHECK(test::read_file(dir.path() + "/projects.yaml") == retired_rows());
  }
  SECTION("every rename done: nothing to write, the record removed") {
    test::TempDir dir;
    test::write_tree(dir.path(), test::clean_tree());
    leave_retire(dir.path(), 2);
    auto done = write::recover_writes(dir.path());
    REQUIRE(done);
    CHECK(done->finished == 1);
    CHECK(done->written.empty());
    CHECK_FALSE(std::filesystem::exists(dir.path() + "/.ledgergate-write"));
  }
  SECTION("no intent: discarded, nothing written") {
    test::TempDir dir;
    test::write_tree(dir.path(), test::clean_tree());
    leave_retire(dir.path(), 0, false);
    CHECK(write::pending_writes(dir.path()).value().empty());
    auto done = write::recover_writes(dir.path());
    REQUIRE(done);
    CHECK(done->finished == 0);
    CHECK(done->discarded == 1);
    CHECK(test::read_tree(dir.path()) == test::clean_tree());
  }
}

TEST_CASE("recover_writes leaves a file that changed after the write began", "[write][recovery]") {
  test::TempDir dir;
  test::write_tree(dir.path(), test::clean_tree());
  leave_retire(dir.path(), 1);
  test::write_file(dir.path() + "/" + test::k_ledger_path, "edited by hand\n");
  auto done = write::recover_writes(dir.path());
  REQUIRE(done);
  CHECK(done->kept == std::vector<std::string>{test::k_ledger_path});
  CHECK(test::read_file(dir.path() + "/" + test::k_ledger_path) == "edited by hand\n");
  CHECK_FALSE(std::filesystem::exists(dir.path() + "/.ledgergate-write"));
}

TEST_CASE("recover_writes leaves a running writer's transaction alone", "[write][recovery]") {
  test::TempDir dir;
  test::write_tree(dir.path(), test::clean_tree());
  const std::string tx = leave_retire(dir.path(), 1);
  util::Fd held(::open(tx.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  REQUIRE(::flock(held.get(), LOCK_EX) == 0);  // as its writer holds it
  auto pending = write::pending_writes(dir.path());
  REQUIRE(pending);
  REQUIRE(pending->size() == 1);
  CHECK((*pending)[0].running);
  auto refused = write::refuse_pending_writes(dir.path());
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error().message, Catch::StartsWith("a ledgergate write is under way here"));
  auto done = write::recover_writes(dir.path());
  REQUIRE(done);
  CHECK(done->finished == 0);
  CHECK(std::filesystem::exists(tx + "/a1"));
  held.reset();  // the writer died
  CHECK(write::recover_writes(dir.path()).value().finished == 1);
  CHECK(test::read_file(dir.path() + "/" + test::k_ledger_path) == noted());
}

TEST_CASE("apply_to_directory finishes an interrupted write before it reads the tree", "[write][recovery]") {
  test::TempDir dir;
  test::write_tree(dir.path(), test::clean_tree());
  leave_retire(dir.path(), 1);
  auto applied = write::apply_to_directory(dir.path(), test::log_note("2026-09-04", "next"), {});
  REQUIRE(applied);
  const std::string ledger = test::read_file(dir.path() + "/" + test::k_ledger_path);
  CHECK(ledger.find("- 2026-09-04 — note — next\n- 2026-09-03 — note — retired\n") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir.path() + "/.ledgergate-write"));
}

TEST_CASE("recover_writes removes a gone writer's temporary file beside its target, not a running one's", "[write][recovery]") {
  test::TempDir dir;
  test::write_tree(dir.path(), test::clean_tree());
  const pid_t child = ::fork();  // a process that is gone once waited for
  REQUIRE(child >= 0);
  if (child == 0) ::_exit(0);
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  const std::string gone = "projects/.single.md.ledgergate-" + std::to_string(child) + "-0";
  const std::string running = "projects/.single.md.ledgergate-" + std::to_string(::getpid()) + "-1";
  test::write_file(dir.path() + "/" + gone, test::k_ledger);
  test::write_file(dir.path() + "/" + running, test::k_ledger);
  auto done = write::recover_writes(dir.path());
  REQUIRE(done);
  CHECK(done->removed == std::vector<std::string>{gone});
  CHECK_FALSE(std::filesystem::exists(dir.path() + "/" + gone));
  CHECK(std::filesystem::exists(dir.path() + "/" + running));
}
