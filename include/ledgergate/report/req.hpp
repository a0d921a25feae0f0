// `req summary`'s renderings of an open-requirements summary
// (lg::rules::orl_summary): text and one JSON document. Pure functions.
#pragma once

#include <string>

#include "ledgergate/rules/orl_protocol.hpp"

namespace lg::report {

std::string render_orl_summary_text(const rules::OrlSummary& s, const std::string& path);
std::string render_orl_summary_json(const rules::OrlSummary& s, const std::string& path);

}  // namespace lg::report
