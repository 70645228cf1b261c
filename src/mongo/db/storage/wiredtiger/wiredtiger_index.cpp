#include "mongo/db/storage/wiredtiger/wiredtiger_index.h"

#include <cstring>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_record_store.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_recovery_unit.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_util.h"
#include "mongo/db/storage/write_conflict_exception.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

using key_string::Discriminator;

void throwIfError(int rc, WT_CURSOR* c, StringData what) {
    if (rc == 0)
        return;
    throw DBException(wtRCToStatusOrThrowWCE(rc, c->session, what));
}

std::string_view itemView(const WT_ITEM& i) {
    return std::string_view(static_cast<const char*>(i.data), i.size);
}

int compareBytes(std::string_view a, std::string_view b) {
    return a.compare(b);
}

class WiredTigerIndexCursor : public SortedDataCursor {
public:
    WiredTigerIndexCursor(RecoveryUnit* ru, std::string uri, Ordering ord, bool unique,
                          bool forward)
        : _ru(ru), _uri(std::move(uri)), _ord(ord), _unique(unique), _forward(forward) {}

    std::optional<IndexKeyEntry> seek(const BSONObj& key, bool inclusive) override {
        bool before = (_forward == inclusive);
        key_string::Builder ks(
            _ord, key, before ? Discriminator::kExcludeBefore : Discriminator::kExcludeAfter);
        return seekBytes(ks.getView());
    }

    std::optional<IndexKeyEntry> seekExact(const BSONObj& key) override {
        auto e = seek(key, true);
        if (!e)
            return std::nullopt;
        key_string::Builder want(_ord, key);
        if (compareBytes(entryKeyBytes(), want.getView()) != 0)
            return std::nullopt;
        return e;
    }

    void setEndPosition(const BSONObj& key, bool inclusive) override {
        if (key.isEmpty()) {
            _end.reset();
            return;
        }
        bool after = (_forward == inclusive);
        key_string::Builder ks(
            _ord, key, after ? Discriminator::kExcludeAfter : Discriminator::kExcludeBefore);
        _end = ks.getBuffer();
    }

    std::optional<IndexKeyEntry> next() override {
        WT_CURSOR* c = cursor();
        int rc;
        if (_needRestore) {
            _needRestore = false;
            if (!_lastKey)
                return next();
            std::string last = *_lastKey;
            WT_ITEM k = makeItem(last);
            c->set_key(c, &k);
            int exact = 0;
            rc = c->search_near(c, &exact);
            if (rc == 0 && ((_forward && exact <= 0) || (!_forward && exact >= 0)))
                rc = advance(c);
        } else {
            rc = advance(c);
        }
        return finish(c, rc);
    }

    void save() override {
        _cursor.reset();
        _needRestore = true;
    }
    void restore() override {}

private:
    int advance(WT_CURSOR* c) {
        return _forward ? c->next(c) : c->prev(c);
    }

    std::optional<IndexKeyEntry> seekBytes(std::string_view bound) {
        WT_CURSOR* c = cursor();
        _needRestore = false;
        WT_ITEM k = makeItem(bound);
        c->set_key(c, &k);
        int exact = 0;
        int rc = c->search_near(c, &exact);
        if (rc == 0 && ((_forward && exact < 0) || (!_forward && exact > 0)))
            rc = advance(c);
        return finish(c, rc);
    }

    bool stoppedAtEndPosition() const override {
        return _stoppedAtEnd;
    }

    void setReturnKeys(bool returnKeys) override {
        _returnKeys = returnKeys;
    }

    std::string_view positionedKeyBytes() const override {
        if (_stoppedAtEnd)
            return _stopKey;
        return _lastKey ? std::string_view(*_lastKey) : std::string_view();
    }

    std::optional<IndexKeyEntry> finish(WT_CURSOR* c, int rc) {
        _stoppedAtEnd = false;
        if (rc == WT_NOTFOUND) {
            _lastKey.reset();
            return std::nullopt;
        }
        throwIfError(rc, c, "index cursor");
        WT_ITEM k{}, v{};
        throwIfError(c->get_key(c, &k), c, "get_key");
        throwIfError(c->get_value(c, &v), c, "get_value");
        std::string_view key = itemView(k), value = itemView(v);
        _stoppedAtEnd = false;
        if (_end) {
            int cmp = compareBytes(key, *_end);
            if ((_forward && cmp > 0) || (!_forward && cmp < 0)) {
                _stoppedAtEnd = true;
                _stopKey.assign(key.data(), key.size());
                return std::nullopt;
            }
        }
        _lastKey = std::string(key);
        IndexKeyEntry e;
        if (_unique) {
            e.loc = key_string::decodeRecordId(value);
            if (_returnKeys)
                e.key = key_string::toBson(key, _ord,
                                           std::string(value.substr(key_string::kRecordIdSize)));
        } else {
            e.loc = key_string::decodeRecordIdAtEnd(key);
            if (_returnKeys)
                e.key =
                    key_string::toBson(key_string::withoutRecordId(key), _ord, std::string(value));
        }
        return e;
    }

    std::string_view entryKeyBytes() const {
        std::string_view k = *_lastKey;
        return _unique ? k : key_string::withoutRecordId(k);
    }

    WT_CURSOR* cursor() {
        if (!_cursor)
            _cursor = WiredTigerRecoveryUnit::get(_ru)->openCursor(_uri);
        return _cursor.get();
    }

    RecoveryUnit* _ru;
    std::string _uri;
    Ordering _ord;
    bool _unique;
    bool _forward;
    WtCursor _cursor;
    std::optional<std::string> _end;
    std::optional<std::string> _lastKey;
    bool _needRestore = false;
    bool _stoppedAtEnd = false;
    std::string _stopKey;  // the entry past the end position, when _stoppedAtEnd
    bool _returnKeys = true;
};

}  // namespace

Status buildDupKeyErrorStatus(const IndexConfig& config, const BSONObj& key) {
    BSONObjBuilder b;
    auto kp = config.keyPattern.begin();
    for (auto e : key) {
        StringData name = kp.more() ? (*kp).fieldNameStringData() : StringData();
        b.appendAs(e, name);
        if (kp.more())
            ++kp;
    }
    return Status(ErrorCodes::DuplicateKey, "E11000 duplicate key error collection: " + config.ns +
                                                " index: " + config.indexName +
                                                " dup key: " + b.obj().toString());
}

WiredTigerIndex::WiredTigerIndex(std::string ident, std::string dbpath, IndexConfig config)
    : _ident(std::move(ident)),
      _uri(identToUri(_ident)),
      _path(dbpath + "/" + _ident + ".wt"),
      _config(std::move(config)),
      _ordering(Ordering::make(_config.keyPattern)) {}

std::string WiredTigerIndex::tableConfig(const StorageEngineOptions& options,
                                         const IndexConfig& config) {
    return std::string(
               "type=file,internal_page_max=16k,leaf_page_max=16k,checksum=on,"
               "prefix_compression=") +
           (options.indexPrefixCompression ? "true" : "false") +
           ",key_format=u,value_format=u,app_metadata=(formatVersion=" +
           (config.unique ? "2" : "1") + ")" +
           (config.tableConfig.empty() ? "" : "," + config.tableConfig);
}

Status WiredTigerIndex::insert(RecoveryUnit* ru, const BSONObj& key, RecordId loc,
                               bool dupsAllowed) {
    invariant(ru->inUnitOfWork());
    key_string::Builder ks(_ordering, key);
    if (!_config.unique) {
        ks.appendRecordId(loc);
        WtCursor c = WiredTigerRecoveryUnit::get(ru)->openCursor(_uri);
        WT_ITEM k = makeItem(ks.getView()), v = makeItem(ks.getTypeBits());
        c->set_key(c.get(), &k);
        c->set_value(c.get(), &v);
        return wtRCToStatusOrThrowWCE(c->insert(c.get()), c->session, "index insert");
    }
    WtCursor c = WiredTigerRecoveryUnit::get(ru)->openCursor(_uri, "overwrite=false");
    std::string value = key_string::encodeRecordId(loc) + ks.getTypeBits();
    WT_ITEM k = makeItem(ks.getView()), v = makeItem(value);
    c->set_key(c.get(), &k);
    c->set_value(c.get(), &v);
    int rc = c->insert(c.get());
    if (rc != WT_DUPLICATE_KEY)
        return wtRCToStatusOrThrowWCE(rc, c->session, "index insert");
    // The key exists: fine if it is this very record.
    c->set_key(c.get(), &k);
    rc = c->search(c.get());
    if (rc != 0)
        return wtRCToStatusOrThrowWCE(rc, c->session, "index insert");
    WT_ITEM old{};
    c->get_value(c.get(), &old);
    if (key_string::decodeRecordId(itemView(old)) == loc)
        return Status::OK();
    return buildDupKeyErrorStatus(_config, key);
}

void WiredTigerIndex::unindex(RecoveryUnit* ru, const BSONObj& key, RecordId loc) {
    invariant(ru->inUnitOfWork());
    key_string::Builder ks(_ordering, key);
    WtCursor c = WiredTigerRecoveryUnit::get(ru)->openCursor(_uri);
    if (!_config.unique)
        ks.appendRecordId(loc);
    WT_ITEM k = makeItem(ks.getView());
    c->set_key(c.get(), &k);
    if (_config.unique) {
        int rc = c->search(c.get());
        if (rc == WT_NOTFOUND)
            return;
        throwIfError(rc, c.get(), "unindex");
        WT_ITEM old{};
        c->get_value(c.get(), &old);
        if (key_string::decodeRecordId(itemView(old)) != loc)
            return;
    }
    int rc = c->remove(c.get());
    if (rc != WT_NOTFOUND)
        throwIfError(rc, c.get(), "unindex");
}

Status WiredTigerIndex::dupKeyCheck(RecoveryUnit* ru, const BSONObj& key, RecordId loc) {
    auto cursor = newCursor(ru, true);
    key_string::Builder want(_ordering, key);
    cursor->setEndPosition(key, true);
    for (auto e = cursor->seek(key, true); e; e = cursor->next()) {
        if (e->loc != loc)
            return buildDupKeyErrorStatus(_config, key);
    }
    return Status::OK();
}

std::unique_ptr<SortedDataCursor> WiredTigerIndex::newCursor(RecoveryUnit* ru, bool forward) const {
    return std::make_unique<WiredTigerIndexCursor>(ru, _uri, _ordering, _config.unique, forward);
}

long long WiredTigerIndex::numEntries(RecoveryUnit* ru) const {
    WtCursor c = WiredTigerRecoveryUnit::get(ru)->openCursor(_uri);
    long long n = 0;
    int rc;
    while ((rc = c->next(c.get())) == 0)
        ++n;
    if (rc != WT_NOTFOUND)
        throwIfError(rc, c.get(), "numEntries");
    return n;
}

long long WiredTigerIndex::storageSize(RecoveryUnit*) const {
    return identFileSize(_path);
}

bool WiredTigerIndex::isEmpty(RecoveryUnit* ru) const {
    WtCursor c = WiredTigerRecoveryUnit::get(ru)->openCursor(_uri);
    int rc = c->next(c.get());
    if (rc == WT_NOTFOUND)
        return true;
    throwIfError(rc, c.get(), "isEmpty");
    return false;
}

Status WiredTigerIndex::truncate(RecoveryUnit* ru) {
    invariant(ru->inUnitOfWork());
    WtCursor c = WiredTigerRecoveryUnit::get(ru)->openCursor(_uri);
    int rc;
    while ((rc = c->next(c.get())) == 0) {
        rc = c->remove(c.get());
        if (rc != 0)
            return wtRCToStatusOrThrowWCE(rc, c->session, "index truncate");
    }
    if (rc != WT_NOTFOUND)
        return wtRCToStatusOrThrowWCE(rc, c->session, "index truncate");
    return Status::OK();
}

}  // namespace mongo
