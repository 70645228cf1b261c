// Collection: an open collection: its record store, its indexes and the
// document-level write path that keeps every index in step with the records
// (unique checks, multikey tracking, sparse and partial indexes).
//
// Thread safety: CRUD operations hold lock() shared for their whole unit of
// work; DDL (index builds and drops, collection drop/rename) holds it exclusive.
// The index list may only change under the exclusive lock.
#pragma once

#include <atomic>
#include <optional>

#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

#include "mongo/base/error_extra_info.h"
#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/catalog/index_descriptor.h"
#include "mongo/db/namespace_string.h"
#include "mongo/db/storage/record_store.h"
#include "mongo/db/storage/sorted_data_interface.h"

namespace mongo {

class CollatorInterface;
class MatchExpression;
class OperationContext;

struct IndexEntry {
    IndexDescriptor desc;
    std::string ident;
    std::unique_ptr<SortedDataInterface> sdi;
    std::shared_ptr<MatchExpression> partialFilter;  // null if none
    bool multikey = false;
    /**
     * Where the index is multikey (multikey_paths.h), grown by committed writes.
     * Thread safety: read and changed under `multikeyPathsMutex`.
     */
    MultikeyPaths multikeyPaths;
    mutable std::mutex multikeyPathsMutex;
    /** explain's multiKeyPaths ({field: [prefixes]}), or empty for an index kind without. */
    BSONObj multikeyPathsForExplain() const;
    /**
     * $indexStats' accesses: query plans that used this index since `accessesSince` (when
     * this entry was loaded or built). The planner counts one per plan.
     */
    std::atomic<long long> accessOps{0};
    Date_t accessesSince = Date_t::now();

    /** True when `doc` belongs in this (possibly partial) index. */
    bool covers(const BSONObj& doc) const;
};

/** Extra info of a DuplicateKey error: {keyPattern, keyValue}. */
/** Extra info of a DocumentValidationFailure: {errInfo: {failingDocumentId, details}}. */
class DocumentValidationFailureInfo : public ErrorExtraInfo {
public:
    explicit DocumentValidationFailureInfo(BSONObj errInfo) : _errInfo(errInfo.getOwned()) {}
    void serialize(BSONObjBuilder* bob) const override;

private:
    BSONObj _errInfo;
};

/**
 * Extra info of a CollectionUUIDMismatch: {db, collectionUUID, expectedCollection,
 * actualCollection} (the collection of the database that has the UUID, or null).
 */
class CollectionUUIDMismatchInfo : public ErrorExtraInfo {
public:
    CollectionUUIDMismatchInfo(std::string db, BSONObj uuid, std::string expected,
                               std::optional<std::string> actual)
        : _db(std::move(db)),
          _uuid(uuid.getOwned()),
          _expected(std::move(expected)),
          _actual(std::move(actual)) {}
    void serialize(BSONObjBuilder* bob) const override;

private:
    std::string _db;
    BSONObj _uuid;  // {"": <UUID>}
    std::string _expected;
    std::optional<std::string> _actual;
};

/**
 * Extra info of CannotConvertIndexToUnique (359): {violations: [{ids: [<_id>, ...]}, ...]},
 * one group per key held by several documents.
 */
class CannotConvertIndexToUniqueInfo : public ErrorExtraInfo {
public:
    explicit CannotConvertIndexToUniqueInfo(BSONObj violations)
        : _violations(violations.getOwned()) {}
    void serialize(BSONObjBuilder* bob) const override;

private:
    BSONObj _violations;  // an array
};

class DuplicateKeyErrorInfo : public ErrorExtraInfo {
public:
    DuplicateKeyErrorInfo(BSONObj keyPattern, BSONObj keyValue)
        : _keyPattern(keyPattern.getOwned()), _keyValue(keyValue.getOwned()) {}
    void serialize(BSONObjBuilder* bob) const override;
    const BSONObj& keyPattern() const {
        return _keyPattern;
    }
    const BSONObj& keyValue() const {
        return _keyValue;
    }

private:
    BSONObj _keyPattern;
    BSONObj _keyValue;
};

class Collection {
public:
    Collection(NamespaceString nss, RecordId catalogId, std::string uuid, BSONObj options,
               std::unique_ptr<RecordStore> rs);

    const NamespaceString& ns() const {
        return _nss;
    }
    RecordId catalogId() const {
        return _catalogId;
    }
    /** 16 raw bytes. */
    const std::string& uuid() const {
        return _uuid;
    }
    /** The create options as stored (uuid included). */
    const BSONObj& options() const {
        return _options;
    }
    RecordStore* recordStore() const {
        return _rs.get();
    }
    std::shared_mutex& lock() const {
        return _lock;
    }
    bool isDropped() const {
        return _dropped;
    }
    void markDropped() {
        _dropped = true;
    }
    void setNs(NamespaceString nss) {
        _nss = std::move(nss);
    }
    bool isCapped() const {
        return _options["capped"].trueValue();
    }
    bool isClustered() const {
        return _options["clusteredIndex"].ok();
    }
    /**
     * A time-series buckets collection created keyed by time: each bucket's RecordId comes
     * from the time of its ObjectId _id (RecordStore::insertRecordForTime; 0 for an _id that
     * is not an ObjectId), so that a scan of the clustered _id index over a range is a scan
     * of a RecordId range (FetchStage). Kept in the durable catalog entry
     * (DurableCatalog::kRecordIdsFromIdTime); collections made before it keep insertion-order ids.
     */
    bool recordIdsFromIdTime() const {
        return _recordIdsFromIdTime;
    }
    void setRecordIdsFromIdTime(bool on) {
        _recordIdsFromIdTime = on;
    }
    /**
     * The collection's default collation (agreed name), built once from options.collation
     * (the full spec stored by create); null for the simple collation.
     */
    const CollatorInterface* getDefaultCollator() const {
        return _defaultCollator.get();
    }
    /**
     * Applies the collection's validator (options.validator, validationLevel,
     * validationAction) to `doc` about to be written. `oldDoc` is the document being
     * replaced (moderate level lets updates of already-invalid documents through).
     * Throws DocumentValidationFailure 121 with errInfo.
     */
    void checkValidation(OperationContext* opCtx, const BSONObj& doc,
                         const BSONObj* oldDoc = nullptr) const;
    /** False when checkValidation(opCtx, doc) would throw for an insert of `doc`. */
    bool passesValidation(OperationContext* opCtx, const BSONObj& doc) const;

    const std::vector<std::shared_ptr<IndexEntry>>& indexes() const {
        return _indexes;
    }
    IndexEntry* findIndexByName(StringData name) const;
    /** Indexes whose key pattern equals `key` (several may, with other options). */
    std::vector<IndexEntry*> findIndexesByKeyPattern(const BSONObj& key) const;
    /** REQUIRES: lock() held exclusively. */
    void addIndex(std::shared_ptr<IndexEntry> entry);
    void removeIndex(StringData name);
    /** Puts `entry` in place of the index of the same name. REQUIRES: lock() exclusive. */
    void replaceIndex(std::shared_ptr<IndexEntry> entry);

    /**
     * Inserts `doc` (which must carry its _id) and its index keys. DuplicateKey
     * (thrown with DuplicateKeyErrorInfo) on a unique violation. REQUIRES: in a unit of work.
     */
    RecordId insertDocument(OperationContext* opCtx, const BSONObj& doc);
    /**
     * Replaces the record at `id` and moves index keys from `oldDoc` to `newDoc`.
     * `diff` ({$v: 2, diff}) describes a modifier update for the oplog; empty for
     * replacements.
     */
    void updateDocument(OperationContext* opCtx, RecordId id, const BSONObj& oldDoc,
                        const BSONObj& newDoc, const BSONObj& diff = BSONObj());
    /** Deletes the record and its index keys. */
    void deleteDocument(OperationContext* opCtx, RecordId id, const BSONObj& doc);
    /** Adds `doc`'s keys to one index (index builds). */
    void indexDocument(OperationContext* opCtx, IndexEntry* index, RecordId id, const BSONObj& doc);

    long long numRecords(OperationContext* opCtx) const;
    long long dataSize(OperationContext* opCtx) const;

    /**
     * Time-series catalog flags of a buckets collection (spec timeseries-semantics.md §2.2),
     * kept in the durable catalog entry beside the options (CollectionCatalog::
     * setTimeseriesFlag writes them). Mixed schema: unknown (absent) counts as "may have".
     */
    struct TimeseriesFlags {
        std::atomic<bool> mayHaveMixedSchemaData{true};
        std::atomic<bool> requiresExtendedRangeSupport{false};
        std::atomic<bool> bucketingParametersHaveChanged{false};
    };
    TimeseriesFlags& timeseriesFlags() {
        return _tsFlags;
    }
    const TimeseriesFlags& timeseriesFlags() const {
        return _tsFlags;
    }

private:
    void _insertKeys(OperationContext* opCtx, IndexEntry* index, RecordId id, const BSONObj& doc);
    void _insertKey(OperationContext* opCtx, IndexEntry* index, RecordId id, const BSONObj& key);
    void _removeKeys(OperationContext* opCtx, IndexEntry* index, RecordId id, const BSONObj& doc);
    void _markMultikey(OperationContext* opCtx, IndexEntry* index, const MultikeyPaths& paths);
    void _enforceCappedLimits(OperationContext* opCtx);

    NamespaceString _nss;
    RecordId _catalogId;
    bool _recordIdsFromIdTime = false;
    std::string _uuid;
    BSONObj _options;
    std::unique_ptr<RecordStore> _rs;
    std::shared_ptr<MatchExpression> _validator;                // null: none or validationLevel off
    std::shared_ptr<const CollatorInterface> _defaultCollator;  // null: simple
    std::vector<std::shared_ptr<IndexEntry>> _indexes;
    mutable std::shared_mutex _lock;
    bool _dropped = false;
    TimeseriesFlags _tsFlags;
};

/** Raises DuplicateKey for `key` in `index` (message and extra info as upstream). */
[[noreturn]] void throwDuplicateKey(const NamespaceString& nss, const IndexEntry& index,
                                    const BSONObj& key);

}  // namespace mongo
