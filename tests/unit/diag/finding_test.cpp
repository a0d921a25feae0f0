#include <catch2/catch.hpp>

#include "ledgergate/diag/finding.hpp"

using lg::diag::Finding;
using lg::diag::same_finding;
using lg::diag::same_findings;

namespace {

Finding sample() {
  Finding f;
  f.rule = "ledger-log-newest-first";
  f.severity = lg::diag::Severity::error;
  f.location = {"HEAD", "projects/a.md", 7, 2};
  f.message = "log is not newest-first";
  f.peer = lg::diag::PeerForm::path_message;
  return f;
}

}  // namespace

TEST_CASE("finding: the same finding wherever and however it was judged", "[diag][finding]") {
  Finding other = sample();
  other.location.rev = "merged";
  other.state = lg::diag::FindingState::introduced;
  CHECK(same_finding(sample(), other));
  CHECK(same_findings({sample(), other}, {other, sample()}));
}

TEST_CASE("finding: any other field makes another finding", "[diag][finding]") {
  const auto differs = [](void (*change)(Finding&)) {
    Finding f = sample();
    change(f);
    return !same_finding(sample(), f) && !same_findings({sample()}, {f});
  };
  CHECK(differs([](Finding& f) { f.rule = "ledger-file-name"; }));
  CHECK(differs([](Finding& f) { f.severity = lg::diag::Severity::warning; }));
  CHECK(differs([](Finding& f) { f.location.path = "projects/b.md"; }));
  CHECK(differs([](Finding& f) { f.location.line = 8; }));
  CHECK(differs([](Finding& f) { f.location.column = 3; }));
  CHECK(differs([](Finding& f) { f.message = "log is newest-first"; }));
  CHECK(differs([](Finding& f) { f.peer = lg::diag::PeerForm::none; }));
  CHECK(differs([](Finding& f) { f.cannot_judge = true; }));
  CHECK_FALSE(same_findings({sample()}, {sample(), sample()}));
}
