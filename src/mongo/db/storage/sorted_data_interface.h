// SortedDataInterface: one index, stored in one WiredTiger table whose keys are
// KeyString bytes (README.md). Non-unique indexes store `key + RecordId -> typeBits`;
// unique indexes store `key -> RecordId + typeBits`, so two transactions inserting
// the same key conflict in WiredTiger instead of both succeeding.
//
// Thread safety: as RecordStore (shared object, one RecoveryUnit per thread).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/storage/key_string.h"
#include "mongo/db/storage/record_id.h"
#include "mongo/db/storage/recovery_unit.h"

namespace mongo {

/** What an index table needs to know about its index. */
struct IndexConfig {
    BSONObj keyPattern;  // e.g. {a: 1, b: -1}; gives the Ordering and dup-key messages
    bool unique = false;
    std::string indexName;    // for error messages ("a_1")
    std::string ns;           // for error messages ("db.coll")
    std::string tableConfig;  // engine table settings added at creation ("" for the defaults)
};

struct IndexKeyEntry {
    BSONObj key;  // {"": v1, "": v2, ...}, owned
    RecordId loc;
};

class SortedDataCursor {
public:
    virtual ~SortedDataCursor() = default;

    /**
     * Positions before the first entry whose key is >= `key` (forward) or <= `key`
     * (reverse), or > / < when !inclusive, and returns it (nullopt if none). `key`
     * may hold fewer fields than the index (a prefix). Field names are ignored.
     */
    virtual std::optional<IndexKeyEntry> seek(const BSONObj& key, bool inclusive) = 0;
    /** The entry with exactly this key (and, for non-unique, the first RecordId). */
    virtual std::optional<IndexKeyEntry> seekExact(const BSONObj& key) = 0;
    /**
     * Stops iteration after `key` (forward) / before it (reverse); inclusive
     * includes keys equal to it (prefixes allowed). An empty key clears the bound.
     */
    virtual void setEndPosition(const BSONObj& key, bool inclusive) = 0;
    /** The next entry (the first one if never positioned), or nullopt at the end/bound. */
    virtual std::optional<IndexKeyEntry> next() = 0;
    /** True when the last seek()/next() returned nullopt because an entry lay past the bound. */
    virtual bool stoppedAtEndPosition() const {
        return false;
    }
    /**
     * The stored key bytes of the entry the last seek()/next() stopped on: the one returned, or
     * the one past the end position (stoppedAtEndPosition()); empty when there was none. Valid
     * until the next call on the cursor. Multi-interval scans use it to count each key they
     * examine once.
     */
    virtual std::string_view positionedKeyBytes() const {
        return {};
    }
    /**
     * With false, entries come without their `key` (empty): a scan that needs only record
     * ids then skips decoding every key. Default true.
     */
    virtual void setReturnKeys(bool) {}
    /** Releases the position; restore() continues after the last entry returned. */
    virtual void save() = 0;
    virtual void restore() = 0;
};

class SortedDataInterface {
public:
    virtual ~SortedDataInterface() = default;

    virtual const std::string& ident() const = 0;
    virtual const IndexConfig& config() const = 0;

    /**
     * Adds (key, loc). For a unique index with !dupsAllowed, DuplicateKey (11000) if
     * another RecordId holds an equal key; inserting the same (key, loc) twice is OK.
     * REQUIRES: in a unit of work. Throws WriteConflictException on a conflict.
     */
    virtual Status insert(RecoveryUnit* ru, const BSONObj& key, RecordId loc, bool dupsAllowed) = 0;

    /** Removes (key, loc); a no-op if absent. REQUIRES: in a unit of work. */
    virtual void unindex(RecoveryUnit* ru, const BSONObj& key, RecordId loc) = 0;

    /** DuplicateKey if some RecordId other than `loc` holds `key`; OK otherwise. */
    virtual Status dupKeyCheck(RecoveryUnit* ru, const BSONObj& key, RecordId loc) = 0;

    virtual std::unique_ptr<SortedDataCursor> newCursor(RecoveryUnit* ru,
                                                        bool forward = true) const = 0;

    /** Number of entries: O(n) scan. */
    virtual long long numEntries(RecoveryUnit* ru) const = 0;
    virtual long long storageSize(RecoveryUnit* ru) const = 0;
    virtual bool isEmpty(RecoveryUnit* ru) const = 0;
    /** Removes every entry (transactionally). REQUIRES: in a unit of work. */
    virtual Status truncate(RecoveryUnit* ru) = 0;
};

/** The DuplicateKey status upstream-style: "E11000 duplicate key error collection: ...". */
Status buildDupKeyErrorStatus(const IndexConfig& config, const BSONObj& key);

}  // namespace mongo
