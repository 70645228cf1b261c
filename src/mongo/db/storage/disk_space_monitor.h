// Free space of the filesystem that holds the data directory, for refusing writes before
// WiredTiger runs out of space: a journal write that fails with ENOSPC is a WiredTiger panic
// (the process must exit), so the server must stop taking writes while there is still room
// for the journal and for the dirty pages of the cache to reach disk.
//
// Thread safety: all functions may be called from any thread.
#pragma once

#include <string>

namespace mongo {

/** The directory whose filesystem is watched (set once at start-up, before the listener). */
void setDiskSpaceMonitorPath(const std::string& dbpath);

/**
 * Free bytes available to the server on that filesystem (statvfs f_bavail), read again at
 * most every 100 ms; -1 when no path is set or statvfs fails.
 */
long long availableDiskSpaceBytes();

}  // namespace mongo
