// One libFuzzer binary per target: LEDGERGATE_FUZZ_TARGET names it.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const lg::fuzz::Target* target = lg::fuzz::find_target(LEDGERGATE_FUZZ_TARGET);
  if (target == nullptr) std::abort();
  target->run(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
