// Rollup levels of a time-series collection (this project's extension; format and rules:
// README.md beside this file): the parsed view of `timeseries.rollups`, the level
// collections' names, and the aggregation that computes a level's rows from measurements.
// Pure functions over the IDL structs; no catalog access. Thread safety: stateless.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/base/string_data.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/namespace_string.h"
#include "mongo/idl/timeseries_gen.h"

namespace mongo::timeseries::rollups {

/** The stored accumulators of a rollup field (bit set). */
enum Accumulator : unsigned {
    kMin = 1u << 0,
    kMax = 1u << 1,
    kSum = 1u << 2,
    kCount = 1u << 3,
    kFirst = 1u << 4,
    kLast = 1u << 5,
};
constexpr Accumulator kAllAccumulators[] = {kMin, kMax, kSum, kCount, kFirst, kLast};

/** "min", "max", "sum", "count", "first", "last": the row's sub-field names too. */
StringData accumulatorName(Accumulator acc);
/** The accumulator named `name`, or nullopt. */
std::optional<Accumulator> parseAccumulatorName(StringData name);

/** Row field names (README.md, "Row format"). */
inline constexpr StringData kRowTime = "t";
inline constexpr StringData kRowMeta = "m";
inline constexpr StringData kRowCount = "n";
inline constexpr StringData kRowMinTime = "tmin";
inline constexpr StringData kRowMaxTime = "tmax";
inline constexpr StringData kRowFields = "f";
/** Collection name prefix of the level collections: system.rollups.<coll>.<spanSeconds>. */
inline constexpr StringData kRollupsPrefix = "system.rollups.";

struct RollupField {
    std::string name;       // a top-level measurement field
    unsigned accumulators;  // Accumulator bits
};

struct RollupLevel {
    long long spanSeconds = 0;                    // row width; bins aligned like $dateTrunc
    std::optional<long long> expireAfterSeconds;  // none: rows are kept forever
    std::vector<RollupField> fields;              // in the order the options list them
    NamespaceString nss;                          // <db>.system.rollups.<coll>.<spanSeconds>

    /** The field's accumulator bits (0 when the level does not keep `field`). */
    unsigned accumulatorsOf(StringData field) const;
};

/** The row width of `rollup`: its granularity's preset (1, 60, 3600, 86400) or bucketSpanSeconds.
 */
long long getRollupSpanSeconds(const TimeseriesRollup& rollup);

/** <db>.system.rollups.<coll>.<spanSeconds> for the time-series view `viewNss`. */
NamespaceString makeRollupNss(const NamespaceString& viewNss, long long spanSeconds);
/** True for any collection named system.rollups.*. */
bool isRollupNss(const NamespaceString& nss);

/**
 * Checks `options.rollups` (README.md, "Options"): InvalidOptions (72) naming the first
 * broken rule, OK when the list is absent. `collectionExpireAfterSeconds` is the raw data's
 * retention (none: kept forever). The granularity or custom bucketing of `options` must be
 * validated already.
 */
Status validateRollups(const TimeseriesOptions& options,
                       std::optional<long long> collectionExpireAfterSeconds);

/**
 * The levels of `options.rollups`, finest first, for the view `viewNss`. REQUIRES: the
 * options passed validation (validateRollups); fields with unknown accumulator names are
 * skipped.
 */
std::vector<RollupLevel> getRollupLevels(const NamespaceString& viewNss,
                                         const TimeseriesOptions& options);

/**
 * The spans whose level collections a change of the rollups from `before` to `after`
 * rebuilds: levels that are new or whose fields changed, and levels removed (dropped).
 * A level whose span and fields stay keeps its rows (only its retention may change).
 */
std::vector<long long> levelsToRebuild(const TimeseriesOptions& before,
                                       const TimeseriesOptions& after);

/**
 * The aggregation (to run on the view) that computes `level`'s rows from the measurements
 * matching `measurementFilter` (a $match on the view; empty: all): $match, $group on
 * {t: bin of the time field, m: meta}, $project to the row format. Its output documents
 * are the rows, _id included, ready to be stored.
 */
std::vector<BSONObj> makeRowComputationPipeline(const TimeseriesOptions& options,
                                                const RollupLevel& level,
                                                const BSONObj& measurementFilter);

/** The bin (row time) of `timeMillis` for `spanSeconds`: aligned to 2000-01-01T00:00:00Z. */
long long binStartMillis(long long timeMillis, long long spanSeconds);

}  // namespace mongo::timeseries::rollups
