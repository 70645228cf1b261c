#include "mongo/db/storage/disk_space_monitor.h"

#include <sys/statvfs.h>

#include <atomic>
#include <chrono>
#include <mutex>

namespace mongo {
namespace {

std::mutex gPathMutex;
std::string gPath;
std::atomic<long long> gCachedBytes{-1};
std::atomic<long long> gCachedAtMicros{0};
constexpr long long kRefreshMicros = 100'000;

long long nowMicros() {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

}  // namespace

void setDiskSpaceMonitorPath(const std::string& dbpath) {
    std::lock_guard<std::mutex> lk(gPathMutex);
    gPath = dbpath;
    gCachedAtMicros.store(0);
}

long long availableDiskSpaceBytes() {
    long long now = nowMicros();
    long long at = gCachedAtMicros.load(std::memory_order_relaxed);
    if (at != 0 && now - at < kRefreshMicros)
        return gCachedBytes.load(std::memory_order_relaxed);
    std::string path;
    {
        std::lock_guard<std::mutex> lk(gPathMutex);
        path = gPath;
    }
    long long bytes = -1;
    struct statvfs st;
    if (!path.empty() && statvfs(path.c_str(), &st) == 0)
        bytes = static_cast<long long>(st.f_bavail) * static_cast<long long>(st.f_frsize);
    gCachedBytes.store(bytes, std::memory_order_relaxed);
    gCachedAtMicros.store(now, std::memory_order_relaxed);
    return bytes;
}

}  // namespace mongo
