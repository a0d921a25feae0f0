// The absolute path of the running ledgergate, which the hook shims and the
// merge driver's command run.
#pragma once

#include <string>

#include "ledgergate/util/result.hpp"

namespace lg::cli {

Result<std::string> own_binary();

}  // namespace lg::cli
