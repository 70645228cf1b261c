#include "mongo/db/storage/wiredtiger/wiredtiger_kv_engine.h"

#include <wiredtiger.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>
#include <tuple>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_index.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_record_store.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_recovery_unit.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_session_cache.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_util.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_zstd_compressor.h"
#include "mongo/logv2/log.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

// snappy and zlib from the Debian package; zstd from this binary ("local"), loaded during the
// open so that recovery can replay into zstd tables (time-series buckets).
std::string extensionsConfig() {
    return "extensions=[/usr/lib/x86_64-linux-gnu/libwiredtiger_snappy.so,"
           "/usr/lib/x86_64-linux-gnu/libwiredtiger_zlib.so," +
           zstdExtensionConfig() + "]";
}

// The size storer: one entry per collection table, {numRecords, dataSize} as BSON, keyed by
// ident, written at every checkpoint and at clean shutdown (README.md, "Size storer").
constexpr const char* kSizeStorerUri = "table:sizeStorer";
constexpr const char* kSizeStorerConfig = "key_format=S,value_format=u";

bool validCompressor(const std::string& c, bool allowZstd) {
    return c == "none" || c == "snappy" || c == "zlib" || (allowZstd && c == "zstd");
}

std::string openConfig(const StorageEngineOptions& o) {
    long long cacheMB = o.cacheSizeGB > 0 ? static_cast<long long>(o.cacheSizeGB * 1024) : 256;
    std::string journal = o.journalCompressor == "zstd" ? "snappy" : o.journalCompressor;
    std::ostringstream ss;
    ss << "create,cache_size=" << std::max(cacheMB, 1LL) << "M,session_max=1000,"
       << "config_base=false,"  // never persist (and re-read) WiredTiger.basecfg
       << "log=(enabled=true,archive=true,prealloc=false,file_max=" << o.journalFileMaxMB << "MB"
       << (journal == "none" ? std::string() : ",compressor=" + journal) << "),"
       << "file_manager=(close_idle_time=600),statistics_log=(wait=0)," << extensionsConfig();
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

    // Serialises size storer flushes with the removal of a dropped table's entry, so that a
    // flush never writes back the entry of a table dropped meanwhile.
    std::mutex flushMutex;
    std::atomic<long long> countersScanned{0};

    std::mutex mutex;  // guards everything below
    std::map<std::string, std::shared_ptr<RecordStoreCounters>> counters;
    // What the size storer holds for each ident of `counters` (numRecords, dataSize).
    std::map<std::string, std::pair<long long, long long>> flushed;
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
            if (opts.syncdelaySecs > 0 &&
                now - lastCheckpoint >= std::chrono::seconds(opts.syncdelaySecs)) {
                lastCheckpoint = now;
                st = flushSizes();
                if (!st.isOK())
                    LOGV2_WARNING(4795912, "Size storer flush failed",
                                  BSON("error" << st.toString()));
                st = withSession([](WT_SESSION* s) { return s->checkpoint(s, nullptr); },
                                 "checkpoint");
                if (!st.isOK())
                    LOGV2_WARNING(22430, "Checkpoint failed", BSON("error" << st.toString()));
                retryPendingDrops();
            }
            lk.lock();
        }
    }

    /**
     * Fills `c` from the size storer entry of `ident` and the table's last RecordId (one
     * cursor step); *found = false (and `c` untouched) when there is no entry.
     */
    Status loadPersistedCounters(const std::string& ident, RecordStoreCounters* c, bool* found) {
        *found = false;
        return withSession(
            [&](WT_SESSION* s) {
                WT_CURSOR* ss = nullptr;
                int rc = s->open_cursor(s, kSizeStorerUri, nullptr, nullptr, &ss);
                if (rc != 0)
                    return rc;
                ss->set_key(ss, ident.c_str());
                rc = ss->search(ss);
                BSONObj sizes;
                if (rc == 0) {
                    WT_ITEM v{};
                    rc = ss->get_value(ss, &v);
                    if (rc == 0 && v.size >= 5)
                        sizes = BSONObj::copyFrom(static_cast<const char*>(v.data),
                                                  static_cast<int>(v.size));
                }
                ss->close(ss);
                if (rc == WT_NOTFOUND || (rc == 0 && sizes.isEmpty()))
                    return 0;
                if (rc != 0)
                    return rc;
                const std::string uri = identToUri(ident);
                WT_CURSOR* t = nullptr;
                rc = s->open_cursor(s, uri.c_str(), nullptr, nullptr, &t);
                if (rc != 0)
                    return rc;
                std::int64_t last = 0;
                rc = t->prev(t);
                if (rc == 0)
                    rc = t->get_key(t, &last);
                t->close(t);
                if (rc != 0 && rc != WT_NOTFOUND)
                    return rc;
                c->numRecords = std::max(0LL, sizes["numRecords"].numberLong());
                c->dataSize = std::max(0LL, sizes["dataSize"].numberLong());
                c->nextId = last + 1;
                *found = true;
                return 0;
            },
            "loading the sizes of " + ident);
    }

    /** Writes the counters that changed since the last flush to the size storer. */
    Status flushSizes() {
        std::lock_guard f(flushMutex);
        std::vector<std::tuple<std::string, long long, long long>> dirty;
        {
            std::lock_guard lk(mutex);
            for (const auto& [ident, c] : counters) {
                std::pair<long long, long long> now{std::max(0LL, c->numRecords.load()),
                                                    std::max(0LL, c->dataSize.load())};
                auto it = flushed.find(ident);
                if (it == flushed.end() || it->second != now)
                    dirty.emplace_back(ident, now.first, now.second);
            }
        }
        if (dirty.empty())
            return Status::OK();
        Status st = withSession(
            [&](WT_SESSION* s) {
                int rc = s->begin_transaction(s, "isolation=snapshot");
                if (rc != 0)
                    return rc;
                WT_CURSOR* c = nullptr;
                rc = s->open_cursor(s, kSizeStorerUri, nullptr, nullptr, &c);
                for (const auto& [ident, n, bytes] : dirty) {
                    if (rc != 0)
                        break;
                    BSONObj v = BSON("numRecords" << n << "dataSize" << bytes);
                    WT_ITEM item = makeItem(std::string_view(v.objdata(), v.objsize()));
                    c->set_key(c, ident.c_str());
                    c->set_value(c, &item);
                    rc = c->insert(c);
                }
                if (c)
                    c->close(c);
                if (rc != 0) {
                    s->rollback_transaction(s, nullptr);
                    return rc;
                }
                return s->commit_transaction(s, nullptr);
            },
            "flushing the size storer");
        if (!st.isOK())
            return st;
        std::lock_guard lk(mutex);
        for (const auto& [ident, n, bytes] : dirty)
            if (counters.count(ident))
                flushed[ident] = {n, bytes};
        return Status::OK();
    }

    /** Removes the size storer entry of a dropped table. Caller holds flushMutex. */
    void forgetSizes(const std::string& ident) {
        {
            std::lock_guard lk(mutex);
            counters.erase(ident);
            flushed.erase(ident);
        }
        Status st = withSession(
            [&](WT_SESSION* s) {
                WT_CURSOR* c = nullptr;
                int rc = s->open_cursor(s, kSizeStorerUri, nullptr, nullptr, &c);
                if (rc != 0)
                    return rc;
                c->set_key(c, ident.c_str());
                rc = c->remove(c);
                c->close(c);
                return rc == WT_NOTFOUND ? 0 : rc;
            },
            "removing the sizes of " + ident);
        if (!st.isOK())
            LOGV2_WARNING(4795911, "Cannot remove a size storer entry",
                          BSON("ident" << ident << "error" << st.toString()));
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
        return Status(ErrorCodes::BadValue,
                      "invalid collection block compressor: " + options.collectionBlockCompressor);
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
    Status st = Status::OK();
    impl->cache = std::make_unique<WiredTigerSessionCache>(impl->conn);
    st = impl->withSession(
        [](WT_SESSION* s) { return s->create(s, kSizeStorerUri, kSizeStorerConfig); },
        "creating the size storer");
    if (!st.isOK()) {
        impl->cache.reset();
        impl->conn->close(impl->conn, nullptr);
        return st;
    }
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
    return _impl->withSession([&](WT_SESSION* s) { return s->create(s, uri.c_str(), cfg.c_str()); },
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
        auto it = _impl->counters.find(id);
        if (it != _impl->counters.end())
            counters = it->second;
    }
    if (!counters) {
        // First use of the table in this process: the persisted sizes and the last RecordId
        // when the size storer has them, else a scan of the table (a table of an older data
        // directory, or one never flushed before a crash). Outside the engine mutex, so that
        // loading one table does not stall every other.
        auto fresh = std::make_shared<RecordStoreCounters>();
        bool found = false;
        Status st = _impl->loadPersistedCounters(id, fresh.get(), &found);
        if (st.isOK() && !found) {
            st = _impl->withSession(
                [&](WT_SESSION* s) {
                    Status l = WiredTigerRecordStore::loadCounters(s, id, fresh.get());
                    return l.isOK() ? 0
                                    : (l.code() == ErrorCodes::NoSuchKey ? WT_NOTFOUND : EINVAL);
                },
                "loading counters of " + id);
            if (st.isOK()) {
                _impl->countersScanned.fetch_add(1);
                if (fresh->numRecords.load() > 0)
                    LOGV2_OPTIONS(4795913, logv2::Component::kStorage,
                                  "Counted a table by scanning it",
                                  BSON("ident" << id << "numRecords" << fresh->numRecords.load()));
            }
        }
        if (!st.isOK())
            return nullptr;
        std::lock_guard lk(_impl->mutex);
        auto& slot = _impl->counters[id];
        if (!slot) {
            slot = fresh;
            if (found)
                _impl->flushed[id] = {fresh->numRecords.load(), fresh->dataSize.load()};
        }
        counters = slot;
    }
    return std::make_unique<WiredTigerRecordStore>(id, _impl->opts.dbpath, counters);
}

long long WiredTigerKVEngine::tablesCountedByScan() const {
    return _impl->countersScanned.load();
}

Status WiredTigerKVEngine::flushSizeStorer() {
    return _impl->flushSizes();
}

Status WiredTigerKVEngine::createSortedDataInterface(StringData ident, const IndexConfig& config) {
    std::string uri = identToUri(ident);
    std::string cfg = WiredTigerIndex::tableConfig(_impl->opts, config);
    return _impl->withSession([&](WT_SESSION* s) { return s->create(s, uri.c_str(), cfg.c_str()); },
                              "create " + uri);
}

std::unique_ptr<SortedDataInterface> WiredTigerKVEngine::getSortedDataInterface(
    StringData ident, const IndexConfig& config) {
    return std::make_unique<WiredTigerIndex>(std::string(ident), _impl->opts.dbpath, config);
}

Status WiredTigerKVEngine::dropIdent(StringData ident) {
    std::string id(ident);
    Status st = _impl->tryDrop(id);
    {
        std::lock_guard f(_impl->flushMutex);
        _impl->forgetSizes(id);
    }
    std::lock_guard lk(_impl->mutex);
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
        return Status(ErrorCodes::Interrupted,
                      "compact of " + uri + " interrupted: " + st.reason());
    return st;
}

Status WiredTigerKVEngine::checkpoint() {
    Status st = _impl->flushSizes();
    if (!st.isOK())
        return st;
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
    Status flushed = _impl->flushSizes();
    if (!flushed.isOK())
        LOGV2_WARNING(4795912, "Size storer flush failed", BSON("error" << flushed.toString()));
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
