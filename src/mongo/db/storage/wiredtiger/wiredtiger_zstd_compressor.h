// An in-process WT_COMPRESSOR named "zstd" over libzstd, registered with
// WT_CONNECTION::add_compressor right after wiredtiger_open (the Debian package
// ships no zstd extension). Block layout: README.md ("zstd blocks").
#pragma once

#include <wiredtiger.h>

#include "mongo/base/status.h"

namespace mongo {

/** Registers "zstd" on `conn` (once per connection). */
Status registerZstdCompressor(WT_CONNECTION* conn);

}  // namespace mongo
