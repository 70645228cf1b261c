#include "mongo/db/storage/wiredtiger/wiredtiger_kv_engine.h"

#include <wiredtiger.h>

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_index.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_record_store.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_recovery_unit.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_session_cache.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_util.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_zstd_compressor.h"
#include "mongo/util/assert_util.h"
#include "mongo/util/log.h"

namespace mongo {
namespace {

constexpr const char* kExtensions =
    "extensions=[/usr/lib/x86_64-linux-gnu/libwiredtiger_snappy.so,"
    "/usr/lib/x86_64-linux-gnu/libwiredtiger_zlib.so]";

bool validCompressor(const std::string& c, bool allowZstd) {
    return c == "none" || c == "snappy" || c == "zlib" || (allowZstd && c == "zstd");
}

std::string openConfig(const StorageEngineOptions& o) {
    long long cacheMB = o.cacheSizeGB > 0 ? static_cast<long long>(o.cacheSizeGB * 1024) : 256;
    std::string journal = o.journalCompressor == "zstd" ? "snappy" : o.journalCompressor;
    std::ostringstream ss;
    ss << "create,cache_size=" << std::max(cacheMB, 1LL) << "M,session_max=1000,"
       << "config_base=false,"  // never persist (and re-read) WiredTiger.basecfg
       << "log=(enabled=true,archive=true,prealloc=false,file_max=" << o.journalFileMaxMB
       << "MB" << (journal == "none" ? std::string() : ",compressor=" + journal) << "),"
       << "file_manager=(close_idle_time=600),statistics_log=(wait=0),"
       << kExtensions;
    if (!o.engineConfigString.empty())
        ss << "," << o.engineConfigString;
    return ss.str();
}

// Routes WiredTiger's own messages into the server log instead of stdout/stderr.
int handleWtError(WT_EVENT_HANDLER*, WT_SESSION*, int error, const char* message) {
    // EBUSY on drop is expected and retried; keep it out of the error log.
    if (error == EBUSY)
        LOGV2_DEBUG(22433, 1, "WiredTiger busy", BSON("message" << message));
    else
        LOGV2_ERROR(22435, "WiredTiger error", BSON("error" << error << "message" << message));
    return 0;
}

int handleWtMessage(WT_EVENT_HANDLER*, WT_SESSION*, const char* message) {
    LOGV2_OPTIONS(22430, logv2::Component::kStorage, "WiredTiger message",
                  BSON("message" << message));
    return 0;
}

WT_EVENT_HANDLER gEventHandler = {handleWtError, handleWtMessage, nullptr, nullptr};

}  // namespace

class WiredTigerKVEngine::Impl {
public:
    StorageEngineOptions opts;
    WT_CONNECTION* conn = nullptr;
    std::unique_ptr<WiredTigerSessionCache> cache;

    std::mutex mutex;  // guards everything below
    std::map<std::string, std::shared_ptr<RecordStoreCounters>> counters;
    std::vector<std::string> pendingDrops;
    std::condition_variable cv;
    bool stopping = false;
    bool closed = false;
    std::thread background;

    Status withSession(const std::function<int(WT_SESSION*)>& f, StringData what) {
        WtSession s = cache->acquire();
        int rc = f(s.get());
        Status st = wtRCToStatus(rc, s.get(), what);
        cache->release(std::move(s));
        return st;
    }

    Status tryDrop(const std::string& ident) {
        std::string uri = identToUri(ident);
        Status st = Status::OK();
        for (int attempt = 0; attempt < 10; ++attempt) {
            st = withSession([&](WT_SESSION* s) { return s->drop(s, uri.c_str(), "force=true"); },
                             "drop " + ident);
            if (st.code() != ErrorCodes::LockBusy)
                return st;
            cache->closeIdle();  // cached cursors of idle sessions may hold the table
            std::this_thread::sleep_for(std::chrono::milliseconds(5 * (attempt + 1)));
        }
        return st;
    }

    void backgroundLoop() {
        logv2::setThreadName("WTCheckpointThread");
        auto lastCheckpoint = std::chrono::steady_clock::now();
        std::unique_lock lk(mutex);
        while (!stopping) {
            cv.wait_for(lk, std::chrono::milliseconds(std::max(opts.journalCommitIntervalMs, 1)));
            if (stopping)
                break;
            lk.unlock();
            Status st = withSession([](WT_SESSION* s) { return s->log_flush(s, "sync=on"); },
                                    "journal flush");
            if (!st.isOK())
                LOGV2_WARNING(22434, "Journal flush failed", BSON("error" << st.toString()));
            auto now = std::chrono::steady_clock::now();
            if (opts.syncdelaySecs > 0 && now - lastCheckpoint >= std::chrono::seconds(opts.syncdelaySecs)) {
                lastCheckpoint = now;
                st = withSession([](WT_SESSION* s) { return s->checkpoint(s, nullptr); },
                                 "checkpoint");
                if (!st.isOK())
                    LOGV2_WARNING(22430, "Checkpoint failed", BSON("error" << st.toString()));
                retryPendingDrops();
            }
            lk.lock();
        }
    }

    void retryPendingDrops() {
        std::vector<std::string> drops;
        {
            std::lock_guard lk(mutex);
            drops.swap(pendingDrops);
        }
        for (auto& ident : drops) {
            if (!tryDrop(ident).isOK()) {
                std::lock_guard lk(mutex);
                pendingDrops.push_back(ident);
            }
        }
    }
};

StatusWith<std::unique_ptr<WiredTigerKVEngine>> WiredTigerKVEngine::open(
    const StorageEngineOptions& options) {
    if (!validCompressor(options.collectionBlockCompressor, true))
        return Status(ErrorCodes::BadValue, "invalid collection block compressor: " +
                          options.collectionBlockCompressor);
    if (!validCompressor(options.journalCompressor, true))
        return Status(ErrorCodes::BadValue,
                      "invalid journal compressor: " + options.journalCompressor);
    auto impl = std::make_unique<Impl>();
    impl->opts = options;
    std::string config = openConfig(options);
    int rc = wiredtiger_open(options.dbpath.c_str(), &gEventHandler, config.c_str(), &impl->conn);
    if (rc == EBUSY)
        return Status(ErrorCodes::DBPathInUse,
                      "Unable to lock the lock file: " + options.dbpath +
                          "/WiredTiger.lock. Another mongod instance is already running on the " +
                          options.dbpath + " directory");
    if (rc != 0)
        return wtRCToStatus(rc, nullptr, "wiredtiger_open " + options.dbpath);
    Status st = registerZstdCompressor(impl->conn);
    if (!st.isOK()) {
        impl->conn->close(impl->conn, nullptr);
        return st;
    }
    impl->cache = std::make_unique<WiredTigerSessionCache>(impl->conn);
    LOGV2_OPTIONS(4795906, logv2::Component::kStorage, "WiredTiger opened",
                  BSON("dbpath" << options.dbpath << "config" << config));
    Impl* raw = impl.get();
    std::unique_ptr<WiredTigerKVEngine> engine(new WiredTigerKVEngine(std::move(impl)));
    raw->background = std::thread([raw] { raw->backgroundLoop(); });
    return engine;
}

WiredTigerKVEngine::WiredTigerKVEngine(std::unique_ptr<Impl> impl) : _impl(std::move(impl)) {}

WiredTigerKVEngine::~WiredTigerKVEngine() {
    cleanShutdown();
}

const StorageEngineOptions& WiredTigerKVEngine::options() const {
    return _impl->opts;
}

std::unique_ptr<RecoveryUnit> WiredTigerKVEngine::newRecoveryUnit() {
    return std::make_unique<WiredTigerRecoveryUnit>(_impl->cache.get());
}

Status WiredTigerKVEngine::createRecordStore(StringData ident, StringData configString) {
    std::string uri = identToUri(ident);
    std::string cfg = WiredTigerRecordStore::tableConfig(_impl->opts, configString);
    return _impl->withSession(
        [&](WT_SESSION* s) { return s->create(s, uri.c_str(), cfg.c_str()); },
        "create " + uri);
}

std::string WiredTigerKVEngine::getCreationString(StringData ident) {
    const std::string uri = identToUri(ident);
    std::string out;
    Status st = _impl->withSession(
        [&](WT_SESSION* s) {
            // "metadata:create" yields the configuration given to WT_SESSION::create, merged
            // with the defaults (for a table: its column group's, which holds the file's).
            WT_CURSOR* c = nullptr;
            int rc = s->open_cursor(s, "metadata:create", nullptr, nullptr, &c);
            if (rc != 0)
                return rc;
            c->set_key(c, uri.c_str());
            rc = c->search(c);
            if (rc == 0) {
                const char* v = nullptr;
                rc = c->get_value(c, &v);
                if (rc == 0 && v)
                    out = v;
            }
            c->close(c);
            return rc == WT_NOTFOUND ? 0 : rc;
        },
        "reading the creation config of " + uri);
    if (!st.isOK())
        LOGV2_WARNING(4795910, "Cannot read a table's creation config",
                      BSON("uri" << uri << "error" << st.toString()));
    return out;
}

std::unique_ptr<RecordStore> WiredTigerKVEngine::getRecordStore(StringData ident) {
    std::string id(ident);
    std::shared_ptr<RecordStoreCounters> counters;
    {
        std::lock_guard lk(_impl->mutex);
        auto& slot = _impl->counters[id];
        if (!slot) {
            auto fresh = std::make_shared<RecordStoreCounters>();
            Status st = _impl->withSession(
                [&](WT_SESSION* s) {
                    Status l = WiredTigerRecordStore::loadCounters(s, id, fresh.get());
                    return l.isOK() ? 0 : (l.code() == ErrorCodes::NoSuchKey ? WT_NOTFOUND : EINVAL);
                },
                "loading counters of " + id);
            if (!st.isOK()) {
                _impl->counters.erase(id);
                return nullptr;
            }
            slot = fresh;
        }
        counters = slot;
    }
    return std::make_unique<WiredTigerRecordStore>(id, _impl->opts.dbpath, counters);
}

Status WiredTigerKVEngine::createSortedDataInterface(StringData ident, const IndexConfig& config) {
    std::string uri = identToUri(ident);
    std::string cfg = WiredTigerIndex::tableConfig(_impl->opts, config);
    return _impl->withSession(
        [&](WT_SESSION* s) { return s->create(s, uri.c_str(), cfg.c_str()); },
        "create " + uri);
}

std::unique_ptr<SortedDataInterface> WiredTigerKVEngine::getSortedDataInterface(
    StringData ident, const IndexConfig& config) {
    return std::make_unique<WiredTigerIndex>(std::string(ident), _impl->opts.dbpath, config);
}

Status WiredTigerKVEngine::dropIdent(StringData ident) {
    std::string id(ident);
    Status st = _impl->tryDrop(id);
    std::lock_guard lk(_impl->mutex);
    _impl->counters.erase(id);
    if (st.code() == ErrorCodes::LockBusy) {
        LOGV2_OPTIONS(22237, logv2::Component::kStorage, "Table busy; drop queued",
                      BSON("ident" << id));
        _impl->pendingDrops.push_back(id);
        return Status::OK();
    }
    return st;
}

std::vector<std::string> WiredTigerKVEngine::getAllIdents() {
    std::vector<std::string> out;
    Status st = _impl->withSession(
        [&](WT_SESSION* s) {
            WT_CURSOR* c = nullptr;
            int rc = s->open_cursor(s, "metadata:", nullptr, nullptr, &c);
            if (rc != 0)
                return rc;
            while ((rc = c->next(c)) == 0) {
                const char* key = nullptr;
                c->get_key(c, &key);
                std::string_view k(key);
                if (k.substr(0, 6) == "table:")
                    out.emplace_back(k.substr(6));
            }
            c->close(c);
            return rc == WT_NOTFOUND ? 0 : rc;
        },
        "listing idents");
    invariantWithMsg(st.isOK(), st.toString());
    return out;
}

bool WiredTigerKVEngine::hasIdent(StringData ident) {
    for (auto& i : getAllIdents())
        if (i == ident)
            return true;
    return false;
}

Status WiredTigerKVEngine::compact(StringData ident) {
    const std::string uri = identToUri(ident);
    Status st = _impl->withSession(
        [&](WT_SESSION* s) { return s->compact(s, uri.c_str(), nullptr); }, "compact " + uri);
    if (st.code() == ErrorCodes::ExceededTimeLimit || st.code() == ErrorCodes::LockBusy)
        return Status(ErrorCodes::Interrupted, "compact of " + uri + " interrupted: " + st.reason());
    return st;
}

Status WiredTigerKVEngine::checkpoint() {
    return _impl->withSession([](WT_SESSION* s) { return s->checkpoint(s, nullptr); },
                              "checkpoint");
}

void WiredTigerKVEngine::cleanShutdown() {
    {
        std::lock_guard lk(_impl->mutex);
        if (_impl->closed)
            return;
        _impl->closed = true;
        _impl->stopping = true;
    }
    _impl->cv.notify_all();
    if (_impl->background.joinable())
        _impl->background.join();
    _impl->retryPendingDrops();
    _impl->cache.reset();  // closes idle sessions
    // WT_CONNECTION::close writes a final checkpoint.
    int rc = _impl->conn->close(_impl->conn, nullptr);
    if (rc != 0)
        LOGV2_ERROR(22436, "WiredTiger close failed",
                    BSON("error" << wtRCToStatus(rc, nullptr, "close").toString()));
    else
        LOGV2_OPTIONS(4795902, logv2::Component::kStorage, "WiredTiger closed",
                      BSON("dbpath" << _impl->opts.dbpath));
    _impl->conn = nullptr;
}

}  // namespace mongo
