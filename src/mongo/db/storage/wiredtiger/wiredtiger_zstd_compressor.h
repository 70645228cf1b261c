// An in-process WT_COMPRESSOR named "zstd" over libzstd, registered as a "local" extension
// during wiredtiger_open (the Debian package ships no zstd extension; registering after the
// open is too late for crash recovery of zstd tables). Block layout: README.md ("zstd blocks").
#pragma once

#include <string>

#include <wiredtiger.h>

#include "mongo/base/status.h"

namespace mongo {

/** The compressor's WT_COMPRESSOR (used by the extension entry point below). */
extern WT_COMPRESSOR gZstd;

/** The exported extension entry (extern "C"; WiredTiger looks it up in this binary). */
constexpr const char* kZstdExtensionEntry = "mongo_wt_zstd_extension_init";

/**
 * The `extensions=[...]` element that registers "zstd" while wiredtiger_open runs, so that
 * recovery can already read zstd tables: a "local" extension (this binary), whose entry is
 * mongo_wt_zstd_extension_init. Calling this also links the compressor into the program.
 */
std::string zstdExtensionConfig();

}  // namespace mongo
