// SASLprep (RFC 4013, the stringprep profile of RFC 3454) for SCRAM-SHA-256 user names
// and passwords. The tables are ICU's (usprep with USPREP_RFC4013_SASLPREP); nothing
// here reimplements them.
#pragma once

#include <string>

#include "mongo/base/status.h"
#include "mongo/base/string_data.h"

namespace mongo::auth {

/**
 * `input` (UTF-8) prepared by SASLprep as a stored string (unassigned code points are
 * refused). Returns BadValue for invalid UTF-8, prohibited characters (controls,
 * non-character code points...) or a bidirectional-rule violation. Pure ASCII printable
 * input is returned unchanged without calling ICU.
 */
StatusWith<std::string> saslPrep(StringData input);

}  // namespace mongo::auth
