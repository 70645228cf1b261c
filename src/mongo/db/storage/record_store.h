// RecordStore: one collection's documents, `int64 RecordId -> BSON bytes`, stored
// in one WiredTiger table (see README.md). Writes go through a RecoveryUnit inside
// a WriteUnitOfWork; a WT_ROLLBACK conflict throws WriteConflictException.
//
// Thread safety: a RecordStore object may be shared by threads, each with its own
// RecoveryUnit. Counters are shared by every RecordStore of the same ident.
#pragma once

#include <functional>

#include <memory>
#include <optional>
#include <string>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/storage/record_id.h"
#include "mongo/db/storage/recovery_unit.h"

namespace mongo {

struct Record {
    RecordId id;
    BSONObj data;  // owned
};

/** Iterates a record store in RecordId order (or reverse). */
class RecordCursor {
public:
    virtual ~RecordCursor() = default;
    /** The next record, or nullopt at the end. */
    virtual std::optional<Record> next() = 0;
    /**
     * The next record for which `keep` returns true on a view of its bytes (valid during the
     * call only), copied; those skipped are not copied. nullopt at the end. `keep` may throw
     * (interrupts): the cursor is then positioned after the record it was given.
     */
    virtual std::optional<Record> nextIf(const std::function<bool(const BSONObj&)>& keep) {
        while (auto r = next())
            if (keep(r->data))
                return r;
        return std::nullopt;
    }
    /** Positions on `id` and returns it, or nullopt if absent (next() then continues after it). */
    virtual std::optional<Record> seekExact(RecordId id) = 0;
    /**
     * Ends the iteration at `bound`: next() and nextIf() return nullopt once the next record
     * lies past it (after it going forward, before it going backward); that record is read
     * (readPastBound() is then true) but not returned.
     */
    virtual void setEndBound(RecordId bound) = 0;
    virtual bool readPastBound() const = 0;
    /** Releases the WiredTiger cursor position (e.g. before abandonSnapshot()). */
    virtual void save() = 0;
    /** Repositions after save(): continues after the last record returned. */
    virtual void restore() = 0;
};

class RecordStore {
public:
    virtual ~RecordStore() = default;

    virtual const std::string& ident() const = 0;

    /**
     * Inserts a record under a fresh RecordId (greater than every id ever handed out
     * by this store, also across restarts). REQUIRES: in a unit of work.
     * Throws WriteConflictException on a conflict.
     */
    virtual StatusWith<RecordId> insertRecord(RecoveryUnit* ru, const char* data, int len) = 0;

    /** Inserts under a caller-chosen id (e.g. replaying). DuplicateKey if it exists. */
    virtual Status insertRecordWithId(RecoveryUnit* ru, RecordId id, const char* data, int len) = 0;

    /**
     * Inserts a record keyed by a time in seconds (the _id time of a time-series bucket):
     * RecordId = seconds << 31 | n, with n >= 1 not yet used for that second. The records
     * of a range of seconds are then a range of RecordIds (timeRangeStart/End), which a
     * bounded scan reads without an index. REQUIRES: in a unit of work. Throws
     * WriteConflictException on a conflict.
     */
    virtual StatusWith<RecordId> insertRecordForTime(RecoveryUnit* ru, uint32_t seconds,
                                                     const char* data, int len) = 0;
    /** The smallest and the largest RecordId insertRecordForTime() gives for `seconds`. */
    static RecordId timeRangeStart(uint32_t seconds) {
        return RecordId((std::int64_t(seconds) << kTimeShift) | 1);
    }
    static RecordId timeRangeEnd(uint32_t seconds) {
        return RecordId((std::int64_t(seconds) << kTimeShift) | kTimeSeqMask);
    }
    static constexpr int kTimeShift = 31;
    static constexpr std::int64_t kTimeSeqMask = (std::int64_t(1) << kTimeShift) - 1;

    /** Replaces the record's bytes; NoSuchKey if absent. REQUIRES: in a unit of work. */
    virtual Status updateRecord(RecoveryUnit* ru, RecordId id, const char* data, int len) = 0;

    /** Deletes the record (no-op if absent). REQUIRES: in a unit of work. */
    virtual void deleteRecord(RecoveryUnit* ru, RecordId id) = 0;

    /** Reads the record into `out` (owned copy); false if absent. */
    virtual bool findRecord(RecoveryUnit* ru, RecordId id, BSONObj* out) const = 0;

    /**
     * A record picked at random (WiredTiger's random cursor: a random leaf page, then a
     * random record in it), copied; nullopt when the store is empty.
     */
    virtual std::optional<Record> randomRecord(RecoveryUnit* ru) const = 0;

    /**
     * Like findRecord, but the record is copied into `out` only when `keep` returns true for
     * a view of its bytes (valid during the call only); `*kept` tells which. A fetch that
     * filters then copies only the records it returns. False if absent.
     */
    virtual bool findRecordIf(RecoveryUnit* ru, RecordId id,
                              const std::function<bool(const BSONObj&)>& keep, BSONObj* out,
                              bool* kept) const {
        BSONObj doc;
        if (!findRecord(ru, id, &doc))
            return false;
        *kept = keep(doc);
        if (*kept)
            *out = std::move(doc);
        return true;
    }

    virtual std::unique_ptr<RecordCursor> getCursor(RecoveryUnit* ru,
                                                    bool forward = true) const = 0;

    /** Committed count and total BSON bytes; O(1) (in-memory counters). */
    virtual long long numRecords(RecoveryUnit* ru) const = 0;
    virtual long long dataSize(RecoveryUnit* ru) const = 0;
    /** Size of the table's file on disk in bytes. */
    virtual long long storageSize(RecoveryUnit* ru) const = 0;
    /**
     * Replaces the count and data size with figures counted by a full scan (validate), as
     * they may be approximate after an unclean shutdown (README.md, "Size storer").
     */
    virtual void updateStatsAfterRepair(long long numRecords, long long dataSize) = 0;

    /** Deletes every record (transactionally). REQUIRES: in a unit of work. */
    virtual Status truncate(RecoveryUnit* ru) = 0;
};

}  // namespace mongo
