// The key file of internal (cluster member) authentication: --keyFile /
// security.keyFile. Read and checked at start-up only; replica-set members will use the
// key for SCRAM-SHA-256 as the __system user.
#pragma once

#include <string>

#include "mongo/base/status.h"

namespace mongo::auth {

/**
 * Reads the key in `path`: refuses (BadValue/InvalidPath) a missing file, a file readable
 * or writable by group or others ("permissions on <path> are too open"), characters
 * outside base64 (whitespace is ignored), or a key outside 6..1024 characters.
 */
StatusWith<std::string> readSecurityKeyFile(const std::string& path);

}  // namespace mongo::auth
