// Verdict names.
#include "ledgergate/diag/verdict.hpp"

namespace lg::diag {

std::string_view to_string(Verdict v) {
  switch (v) {
    case Verdict::pass: return "pass";
    case Verdict::fail: return "fail";
    case Verdict::error: return "error";
  }
  return "error";
}

}  // namespace lg::diag
