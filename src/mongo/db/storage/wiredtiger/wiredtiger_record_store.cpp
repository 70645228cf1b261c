#include "mongo/db/storage/wiredtiger/wiredtiger_record_store.h"

#include <filesystem>

#include "mongo/db/storage/wiredtiger/wiredtiger_recovery_unit.h"
#include "mongo/db/storage/write_conflict_exception.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

WiredTigerRecoveryUnit* wtRU(RecoveryUnit* ru) {
    return WiredTigerRecoveryUnit::get(ru);
}

/** Sets `*a` to `v` unless it already holds more. */
void raiseTo(std::atomic<std::int64_t>* a, std::int64_t v) {
    std::int64_t cur = a->load();
    while (cur < v && !a->compare_exchange_weak(cur, v)) {
    }
}

void throwIfError(int rc, WT_CURSOR* c, StringData what) {
    if (rc == 0)
        return;
    Status s = wtRCToStatusOrThrowWCE(rc, c->session, what);
    throw DBException(s);
}

BSONObj currentValue(WT_CURSOR* c) {
    WT_ITEM v{};
    throwIfError(c->get_value(c, &v), c, "get_value");
    return BSONObj::copyFrom(static_cast<const char*>(v.data), static_cast<int>(v.size));
}

class WiredTigerRecordCursor : public RecordCursor {
public:
    WiredTigerRecordCursor(RecoveryUnit* ru, std::string uri, bool forward)
        : _ru(ru), _uri(std::move(uri)), _forward(forward) {}

    std::optional<Record> nextIf(const std::function<bool(const BSONObj&)>& keep) override {
        while (true) {
            WT_CURSOR* c = cursor();
            if (!advance(c))
                return std::nullopt;
            WT_ITEM v{};
            throwIfError(c->get_value(c, &v), c, "get_value");
            if (keep(BSONObj(static_cast<const char*>(v.data))))
                return Record{_last, BSONObj::copyFrom(static_cast<const char*>(v.data),
                                                       static_cast<int>(v.size))};
        }
    }

    std::optional<Record> next() override {
        WT_CURSOR* c = cursor();
        if (!advance(c))
            return std::nullopt;
        return Record{_last, currentValue(c)};
    }

    /**
     * Moves to the next record (after a restore: after the last one returned) and makes it
     * `_last`; false at the end.
     */
    bool advance(WT_CURSOR* c) {
        if (_exhausted)
            return false;
        int rc;
        if (_needRestore && !_last.isNull()) {
            _needRestore = false;
            c->set_key(c, _last.getLong());
            int exact = 0;
            rc = c->search_near(c, &exact);
            if (rc == 0 && ((_forward && exact <= 0) || (!_forward && exact >= 0)))
                rc = _forward ? c->next(c) : c->prev(c);
        } else {
            _needRestore = false;
            rc = _forward ? c->next(c) : c->prev(c);
        }
        if (rc == WT_NOTFOUND)
            return false;
        throwIfError(rc, c, "record cursor next");
        std::int64_t k;
        throwIfError(c->get_key(c, &k), c, "get_key");
        if (_end && (_forward ? k > _end->getLong() : k < _end->getLong())) {
            _readPastBound = true;
            _needRestore = false;
            _last = RecordId(k);
            _exhausted = true;
            return false;
        }
        _last = RecordId(k);
        return true;
    }

    std::optional<Record> seekExact(RecordId id) override {
        WT_CURSOR* c = cursor();
        _needRestore = false;
        _exhausted = false;
        c->set_key(c, id.getLong());
        int rc = c->search(c);
        if (rc == WT_NOTFOUND) {
            // Continue after `id` on the next call.
            _last = id;
            _needRestore = true;
            return std::nullopt;
        }
        throwIfError(rc, c, "record cursor seekExact");
        return current(c);
    }

    void save() override {
        _cursor.reset();
        _needRestore = true;
    }
    void restore() override {}
    void setEndBound(RecordId bound) override {
        _end = bound;
    }
    bool readPastBound() const override {
        return _readPastBound;
    }

private:
    WT_CURSOR* cursor() {
        if (!_cursor)
            _cursor = wtRU(_ru)->openCursor(_uri);
        return _cursor.get();
    }
    Record current(WT_CURSOR* c) {
        std::int64_t k;
        throwIfError(c->get_key(c, &k), c, "get_key");
        _last = RecordId(k);
        return Record{_last, currentValue(c)};
    }

    RecoveryUnit* _ru;
    std::string _uri;
    bool _forward;
    WtCursor _cursor;
    RecordId _last;
    bool _needRestore = false;
    std::optional<RecordId> _end;  // setEndBound()
    bool _readPastBound = false;
    bool _exhausted = false;  // stopped at _end
};

}  // namespace

long long identFileSize(const std::string& path) {
    std::error_code ec;
    auto n = std::filesystem::file_size(path, ec);
    return ec ? 0 : static_cast<long long>(n);
}

WiredTigerRecordStore::WiredTigerRecordStore(std::string ident, std::string dbpath,
                                             std::shared_ptr<RecordStoreCounters> counters)
    : _ident(std::move(ident)),
      _uri(identToUri(_ident)),
      _path(dbpath + "/" + _ident + ".wt"),
      _counters(std::move(counters)) {}

std::string WiredTigerRecordStore::tableConfig(const StorageEngineOptions& options,
                                               StringData configString) {
    std::string cfg =
        "type=file,memory_page_max=10m,split_pct=90,leaf_value_max=64MB,checksum=on,"
        "block_compressor=" +
        options.collectionBlockCompressor + ",";
    if (!configString.empty()) {
        cfg.append(configString.data(), configString.size());
        cfg += ",";
    }
    return cfg + "key_format=q,value_format=u,app_metadata=(formatVersion=1)";
}

void WiredTigerRecordStore::updateStatsAfterRepair(long long numRecords, long long dataSize) {
    _counters->numRecords.store(numRecords);
    _counters->dataSize.store(dataSize);
}

Status WiredTigerRecordStore::loadCounters(WT_SESSION* s, StringData ident,
                                           RecordStoreCounters* counters) {
    auto sw = WtCursor::open(s, identToUri(ident), nullptr);
    if (!sw.isOK())
        return sw.getStatus();
    WT_CURSOR* c = sw.getValue().get();
    long long n = 0, bytes = 0;
    std::int64_t maxId = 0;
    int rc;
    while ((rc = c->next(c)) == 0) {
        std::int64_t k;
        WT_ITEM v{};
        c->get_key(c, &k);
        c->get_value(c, &v);
        ++n;
        bytes += static_cast<long long>(v.size);
        maxId = std::max(maxId, k);
    }
    if (rc != WT_NOTFOUND)
        return wtRCToStatus(rc, s, "loading record store counters");
    counters->numRecords = n;
    counters->dataSize = bytes;
    counters->nextId = maxId + 1;
    return Status::OK();
}

Status WiredTigerRecordStore::_insert(RecoveryUnit* ru, RecordId id, const char* data, int len,
                                      bool overwrite) {
    invariant(ru->inUnitOfWork());
    WtCursor c = wtRU(ru)->openCursor(_uri, overwrite ? nullptr : "overwrite=false");
    c->set_key(c.get(), id.getLong());
    WT_ITEM v = makeItem(std::string_view(data, len));
    c->set_value(c.get(), &v);
    int rc = c->insert(c.get());
    if (rc == WT_DUPLICATE_KEY)
        return Status(ErrorCodes::DuplicateKey, "record " + id.toString() + " exists");
    if (rc != 0)
        return wtRCToStatusOrThrowWCE(rc, c->session, "insertRecord");
    auto counters = _counters;
    ru->onCommit([counters, len] {
        counters->numRecords.fetch_add(1);
        counters->dataSize.fetch_add(len);
    });
    return Status::OK();
}

StatusWith<RecordId> WiredTigerRecordStore::insertRecord(RecoveryUnit* ru, const char* data,
                                                         int len) {
    RecordId id(_counters->nextId.fetch_add(1));
    Status s = _insert(ru, id, data, len, true);
    if (!s.isOK())
        return s;
    return id;
}

Status WiredTigerRecordStore::insertRecordWithId(RecoveryUnit* ru, RecordId id, const char* data,
                                                 int len) {
    invariant(id.isValid());
    raiseTo(&_counters->nextId, id.getLong() + 1);  // later generated ids stay above this one
    return _insert(ru, id, data, len, false);
}

std::optional<Record> WiredTigerRecordStore::randomRecord(RecoveryUnit* ru) const {
    WtCursor c = wtRU(ru)->openCursor(_uri, "next_random=true");
    int rc = c->next(c.get());
    if (rc == WT_NOTFOUND)
        return std::nullopt;
    throwIfError(rc, c.get(), "random cursor next");
    std::int64_t k;
    throwIfError(c->get_key(c.get(), &k), c.get(), "get_key");
    WT_ITEM v{};
    throwIfError(c->get_value(c.get(), &v), c.get(), "get_value");
    return Record{RecordId(k),
                  BSONObj::copyFrom(static_cast<const char*>(v.data), static_cast<int>(v.size))};
}

StatusWith<RecordId> WiredTigerRecordStore::insertRecordForTime(RecoveryUnit* ru, uint32_t seconds,
                                                                const char* data, int len) {
    const std::int64_t prefix = std::int64_t(seconds) << kTimeShift;
    for (int attempt = 0; attempt < 8; ++attempt) {
        std::int64_t n = _counters->timeSeq.fetch_add(1) & kTimeSeqMask;
        if (n == 0)
            n = _counters->timeSeq.fetch_add(1) & kTimeSeqMask;
        RecordId id(prefix | n);
        Status s = insertRecordWithId(ru, id, data, len);
        if (s.isOK())
            return id;
        if (s.code() != ErrorCodes::DuplicateKey)
            return s;
        // The sequence starts again at 1 after a restart (or wrapped): continue above the
        // last record of this second.
        WtCursor c = wtRU(ru)->openCursor(_uri);
        c->set_key(c.get(), prefix | kTimeSeqMask);
        int exact = 0;
        int rc = c->search_near(c.get(), &exact);
        if (rc == 0 && exact > 0)
            rc = c->prev(c.get());
        if (rc != 0 && rc != WT_NOTFOUND)
            return wtRCToStatusOrThrowWCE(rc, c->session, "insertRecordForTime search");
        std::int64_t last = 0;
        if (rc == 0)
            throwIfError(c->get_key(c.get(), &last), c.get(), "get_key");
        if ((last >> kTimeShift) == std::int64_t(seconds)) {
            if ((last & kTimeSeqMask) == kTimeSeqMask)
                break;  // this second is full
            raiseTo(&_counters->timeSeq, (last & kTimeSeqMask) + 1);
        }
    }
    return Status(ErrorCodes::DuplicateKey,
                  "no free record id for time " + std::to_string(seconds));
}

Status WiredTigerRecordStore::updateRecord(RecoveryUnit* ru, RecordId id, const char* data,
                                           int len) {
    invariant(ru->inUnitOfWork());
    WtCursor c = wtRU(ru)->openCursor(_uri);
    c->set_key(c.get(), id.getLong());
    int rc = c->search(c.get());
    if (rc == WT_NOTFOUND)
        return Status(ErrorCodes::NoSuchKey, "no record " + id.toString());
    if (rc != 0)
        return wtRCToStatusOrThrowWCE(rc, c->session, "updateRecord search");
    WT_ITEM old{};
    c->get_value(c.get(), &old);
    long long delta = static_cast<long long>(len) - static_cast<long long>(old.size);
    WT_ITEM v = makeItem(std::string_view(data, len));
    c->set_value(c.get(), &v);
    rc = c->update(c.get());
    if (rc != 0)
        return wtRCToStatusOrThrowWCE(rc, c->session, "updateRecord");
    auto counters = _counters;
    ru->onCommit([counters, delta] { counters->dataSize.fetch_add(delta); });
    return Status::OK();
}

void WiredTigerRecordStore::deleteRecord(RecoveryUnit* ru, RecordId id) {
    invariant(ru->inUnitOfWork());
    WtCursor c = wtRU(ru)->openCursor(_uri);
    c->set_key(c.get(), id.getLong());
    int rc = c->search(c.get());
    if (rc == WT_NOTFOUND)
        return;
    throwIfError(rc, c.get(), "deleteRecord search");
    WT_ITEM old{};
    c->get_value(c.get(), &old);
    long long len = static_cast<long long>(old.size);
    throwIfError(c->remove(c.get()), c.get(), "deleteRecord");
    auto counters = _counters;
    ru->onCommit([counters, len] {
        counters->numRecords.fetch_sub(1);
        counters->dataSize.fetch_sub(len);
    });
}

bool WiredTigerRecordStore::findRecordIf(RecoveryUnit* ru, RecordId id,
                                         const std::function<bool(const BSONObj&)>& keep,
                                         BSONObj* out, bool* kept) const {
    WtCursor c = wtRU(ru)->openCursor(_uri);
    c->set_key(c.get(), id.getLong());
    int rc = c->search(c.get());
    if (rc == WT_NOTFOUND)
        return false;
    throwIfError(rc, c.get(), "findRecord");
    WT_ITEM v{};
    throwIfError(c->get_value(c.get(), &v), c.get(), "get_value");
    *kept = keep(BSONObj(static_cast<const char*>(v.data)));
    if (*kept)
        *out = BSONObj::copyFrom(static_cast<const char*>(v.data), static_cast<int>(v.size));
    return true;
}

bool WiredTigerRecordStore::findRecord(RecoveryUnit* ru, RecordId id, BSONObj* out) const {
    BSONObj unused;
    bool kept = false;
    return findRecordIf(
        ru, id, [out](const BSONObj&) { return out != nullptr; }, out ? out : &unused, &kept);
}

std::unique_ptr<RecordCursor> WiredTigerRecordStore::getCursor(RecoveryUnit* ru,
                                                               bool forward) const {
    return std::make_unique<WiredTigerRecordCursor>(ru, _uri, forward);
}

long long WiredTigerRecordStore::numRecords(RecoveryUnit*) const {
    return std::max(0LL, _counters->numRecords.load());
}

long long WiredTigerRecordStore::dataSize(RecoveryUnit*) const {
    return std::max(0LL, _counters->dataSize.load());
}

long long WiredTigerRecordStore::storageSize(RecoveryUnit*) const {
    return identFileSize(_path);
}

Status WiredTigerRecordStore::truncate(RecoveryUnit* ru) {
    invariant(ru->inUnitOfWork());
    WtCursor c = wtRU(ru)->openCursor(_uri);
    long long n = 0, bytes = 0;
    int rc;
    while ((rc = c->next(c.get())) == 0) {
        WT_ITEM v{};
        c->get_value(c.get(), &v);
        bytes += static_cast<long long>(v.size);
        ++n;
        rc = c->remove(c.get());
        if (rc != 0)
            return wtRCToStatusOrThrowWCE(rc, c->session, "truncate");
    }
    if (rc != WT_NOTFOUND)
        return wtRCToStatusOrThrowWCE(rc, c->session, "truncate");
    auto counters = _counters;
    ru->onCommit([counters, n, bytes] {
        counters->numRecords.fetch_sub(n);
        counters->dataSize.fetch_sub(bytes);
    });
    return Status::OK();
}

}  // namespace mongo
