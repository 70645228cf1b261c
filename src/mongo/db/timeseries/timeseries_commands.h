// The DDL side of time-series collections in the server (spec timeseries-semantics.md
// §1.3-§1.7, §2.3, §2.4, §3.11): create / drop / listCollections / collMod / collStats of
// the pair "view <coll> + clustered collection system.buckets.<coll>".
//
// Called from thin hooks in src/mongo/db/commands/ (ddl_cmds.cpp, list_cmds.cpp,
// stats_cmds.cpp). Functions throw DBException (uassert) with upstream's codes, like the
// command code around them.
// Thread safety: as the catalog functions they call (all may run concurrently).
#pragma once

#include <functional>
#include <memory>
#include <optional>

#include "mongo/bson/bsonobj.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/namespace_string.h"
#include "mongo/idl/ddl_commands_gen.h"
#include "mongo/idl/timeseries_gen.h"

namespace mongo {
class Collection;
class CollatorInterface;
class OperationContext;
struct ViewDefinition;
}  // namespace mongo

namespace mongo::timeseries {

/** A time-series collection as seen from its user namespace. */
struct TimeseriesCollection {
    NamespaceString viewNss;
    NamespaceString bucketsNss;
    std::shared_ptr<Collection> buckets;
    TimeseriesOptions options;
};

/**
 * A raw bucket inserted directly into `buckets` (spec §2.5): when the collection is not
 * flagged as possibly holding mixed-schema buckets, a bucket whose control.min/max show a
 * field with two shapes is refused with CannotInsertTimeseriesBucketsWithMixedSchema (408).
 */
Status checkDirectBucketInsert(const Collection& buckets, const BSONObj& bucket);

/**
 * Points `ts` at `buckets`, the buckets collection the caller locked for a statement;
 * NamespaceNotFound when it is gone (dropped since `ts` was looked up).
 */
void attachBuckets(TimeseriesCollection* ts, std::shared_ptr<Collection> buckets);

/**
 * The default collation of a buckets collection (null: simple), shared with (and keeping
 * alive) `buckets`: control.min/max order strings with it (§3.6), and queries whose
 * collation matches it may use bucket-level predicates on strings (§5.3.1).
 */
std::shared_ptr<const CollatorInterface> getBucketsCollator(
    const std::shared_ptr<Collection>& buckets);

/** The stored `timeseries` options of a buckets collection, or nullopt when it has none. */
std::optional<TimeseriesOptions> getBucketsTimeseriesOptions(const Collection& buckets);

/**
 * `nss` is a view on system.buckets.<same name> whose buckets collection exists and has
 * time-series options: its description, else nullopt.
 */
std::optional<TimeseriesCollection> lookupTimeseriesCollection(OperationContext* opCtx,
                                                               const NamespaceString& nss);

/** True when `view` is the view half of a time-series collection (viewOn = its buckets ns). */
bool isTimeseriesViewDefinition(const ViewDefinition& view);

/**
 * create with `timeseries` (`cmd` is the whole create command body) on a user namespace
 * (creates buckets collection, default index and view) or on system.buckets.<coll>
 * (buckets collection only). Validation order and codes of §1.3, idempotency of §1.5.
 */
void createTimeseriesCollection(OperationContext* opCtx, const NamespaceString& nss,
                                const BSONObj& cmd);

/**
 * drop of either half of a time-series collection (§2.4). Returns false when `nss` is
 * not time-series related (the caller then runs the ordinary drop).
 */
bool dropTimeseriesCollection(OperationContext* opCtx, const NamespaceString& nss,
                              BSONObjBuilder& result);

/** The listCollections entry of a time-series view (type "timeseries"). */
BSONObj makeTimeseriesListCollectionsEntry(OperationContext* opCtx, const ViewDefinition& view,
                                           bool nameOnly);

/**
 * collMod on a time-series view (`cmd` parsed, `body` the whole command): expireAfterSeconds
 * (number or "off"), timeseries (bucketing parameters, §1.7),
 * timeseriesBucketsMayHaveMixedSchemaData, index {keyPattern|name, hidden}; everything else
 * InvalidOptions. All is validated before the first change. Returns false when `nss` is not a
 * time-series view. On system.buckets.* the hook raises InvalidNamespace itself (see
 * checkCollModNamespace).
 */
bool collModTimeseriesCollection(OperationContext* opCtx, const NamespaceString& nss,
                                 const CollModCommand& cmd, const BSONObj& body,
                                 BSONObjBuilder& result);

/** collMod addressed to system.buckets.*: InvalidNamespace. */
void checkCollModNamespace(const NamespaceString& nss);

/**
 * renameCollection from or to a time-series view, of a buckets collection to a namespace
 * that is not a buckets one, or of another collection to a buckets namespace:
 * IllegalOperation 20 (spec §2.3).
 */
void checkRenameNamespaces(OperationContext* opCtx, const NamespaceString& from,
                           const NamespaceString& to);

/**
 * The `timeseries` section of collStats on a time-series view (§3.11): bucketsNs,
 * bucketCount, avgBucketSize (when buckets exist) and the collection's execution counters.
 * The caller reports the buckets collection's storage figures without count/avgObjSize.
 */
void appendTimeseriesStatsSection(OperationContext* opCtx, const TimeseriesCollection& ts,
                                  BSONObjBuilder& result);

/** serverStatus().bucketCatalog. */
void appendBucketCatalogServerStatus(BSONObjBuilder& result);

}  // namespace mongo::timeseries
