// Query translation for deletes and updates of measurements through a time-series view
// (spec timeseries-semantics.md §6.3, §6.4): the user's predicate on measurements is split
// into a filter on bucket documents (meta predicates renamed to `meta`, loose bucket-level
// predicates of §5.3 with assumeNoMixedSchemaData, closed buckets excluded) and a residual
// predicate on the unpacked measurements. User index hints become bucket index hints.
//
// Callers: timeseries_write_ops.cpp (the delete/update engines) and explain.
// Pure functions; thread-safe.
#pragma once

#include <optional>
#include <string>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/idl/timeseries_gen.h"

namespace mongo::timeseries {

/** {"control.closed": {$not: {$eq: true}}}: closed buckets are never modified. */
BSONObj closedBucketFilter();

/**
 * `query` with every path on the metaField (or below it) renamed to `meta`, when the whole
 * predicate only reads the metaField (through $and/$or/$nor); nullopt otherwise (any other
 * field, or a top-level operator such as $expr, $where or $comment). {} maps to {}.
 */
std::optional<BSONObj> renameMetaOnlyPredicate(const BSONObj& query,
                                               const std::optional<std::string>& metaField);

struct TimeseriesQuerySplit {
    /** Over bucket documents; always includes closedBucketFilter(). */
    BSONObj bucketFilter;
    /**
     * Over measurements: the original predicate, or {} when bucketFilter is exact (the query
     * is empty or only reads the metaField) so whole buckets may be deleted unread.
     */
    BSONObj residualFilter;
    bool hasResidual() const {
        return !residualFilter.isEmpty();
    }
};

/** The split of §6.3. Never fails: unmappable parts are only left out of bucketFilter. */
/**
 * `usesExtendedRange`: the collection may hold times outside [1970, 2106) (its catalog flag);
 * then no _id bounds are derived from time predicates. `collationMatchesDefault` false (the
 * statement's collation is not the collection's): string comparisons on measurement fields
 * give no bucket predicate (§5.3.1).
 */
TimeseriesQuerySplit splitTimeseriesQuery(const TimeseriesOptions& options, const BSONObj& query,
                                          bool usesExtendedRange = true,
                                          bool collationMatchesDefault = true);

/**
 * A delete/update `hint` on the view -> the hint for the buckets collection: {} and
 * {$natural: ±1} and {$hint: <name>} unchanged, a key pattern converted like an index key
 * (§4.1). BadValue when the key pattern does not convert.
 */
StatusWith<BSONObj> translateTimeseriesHint(const TimeseriesOptions& options, const BSONObj& hint);

}  // namespace mongo::timeseries
