// $geoNear: the documents of the collection ordered by distance to a point, each with its
// distance in `distanceField` (and its closest location in `includeLocs`).
//
//   {$geoNear: {near: <GeoJSON Point | legacy [x, y]>, distanceField: "<path>", key?,
//               spherical?, minDistance?, maxDistance?, query?, includeLocs?,
//               distanceMultiplier?}}
//
// Must be the first stage (40602). Needs a 2dsphere index on the collection: `key` names its
// field; without `key` there must be exactly one. Errors: IndexNotFound 27 ("$geoNear requires
// a 2d or 2dsphere index, but none were found", "There is more than one 2dsphere index on
// <ns>; unsure which to use for $geoNear"), TypeMismatch/BadValue/FailedToParse for options.
// Distances: meters for a GeoJSON `near`, radians for a legacy pair (then scaled by
// distanceMultiplier); output in ascending distance; documents whose key field holds no
// valid geometry are skipped.
//
// Execution: the stage reads its input (a collection scan attached by the pipeline) or, with
// maxDistance and a 2dsphere index on the key, its own FETCH + IXSCAN plan over the cells of
// the spherical cap of that radius (indexedCandidates()); it applies `query` (under the
// operation's collation), computes distances and sorts them in memory.
// The same class runs, under other names, inside the time-series rewrites
// (timeseries_geo_near.h): "$geoNearCursor" over buckets on `meta.<path>` before the unpack,
// and "$_internalGeoNearDistance" after the unpack for a measurement field.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mongo/db/pipeline/document_source.h"

namespace mongo {

class MatchExpression;
class PlanExecutor;

struct GeoNearSpec {
    BSONObj near;  // {near: <value>} (owned)
    bool nearIsGeoJSON = false;
    double nearLng = 0, nearLat = 0;
    std::string distanceField;
    std::string key;  // empty: the collection's only geo index
    bool spherical = false;
    std::optional<double> minDistance, maxDistance;
    BSONObj query;
    std::string includeLocs;
    double distanceMultiplier = 1;

    /**
     * Parses and validates the stage operand (throws). With `expCtx`, minDistance and
     * maxDistance may be expressions that do not read the document ($$let variables):
     * they are evaluated here.
     */
    static GeoNearSpec parse(const BSONElement& e, ExpressionContext* expCtx = nullptr);
    BSONObj toBSON() const;
    /** Meters per unit of the distances computed (earth radius for GeoJSON, else 1). */
    double radiusScale() const {
        return nearIsGeoJSON ? 6378.1 * 1000 : 1.0;
    }
};

class DocumentSourceGeoNear final : public DocumentSourceMaterialized {
public:
    static constexpr StringData kStageName = "$geoNear";
    static constexpr StringData kCursorStageName = "$geoNearCursor";
    static constexpr StringData kDistanceStageName = "$_internalGeoNearDistance";

    /** `name` is one of the three names above; only $geoNear checks the collection's indexes. */
    DocumentSourceGeoNear(std::shared_ptr<ExpressionContext> expCtx, GeoNearSpec spec,
                          std::string name);
    ~DocumentSourceGeoNear() override;

    const char* getSourceName() const override {
        return _name.c_str();
    }
    void serialize(BSONArrayBuilder* out) const override;
    StageConstraints constraints() const override;
    const GeoNearSpec& spec() const {
        return _spec;
    }

protected:
    std::vector<BSONObj> materialize() override;

private:
    /** The key field to read (resolving the collection's geo index for $geoNear). */
    std::string resolveKey() const;
    /**
     * For $geoNear/$geoNearCursor with maxDistance over a collection with a 2dsphere index
     * on `key`: a plan (FETCH + IXSCAN over the S2 covering of the spherical cap of radius
     * maxDistance) returning every document that may be within maxDistance; else null.
     */
    std::unique_ptr<PlanExecutor> indexedCandidates(const std::string& key);

    GeoNearSpec _spec;
    std::string _name;
    std::unique_ptr<MatchExpression> _query;
};

/** Field that carries the distance of a find with $near through its pipeline (then removed). */
constexpr StringData kNearQueryDistanceField = "__geoNearDistance";

/**
 * For a find filter with a top-level {<path>: {$near|$nearSphere: <point>, $maxDistance?,
 * $minDistance?}}: the equivalent {$geoNear: {key: <path>, query: <rest of the filter>,
 * distanceField: kNearQueryDistanceField, ...}}; nullopt when there is no $near. `*path` gets
 * the path. Throws BadValue for a malformed operand and NoQueryExecutionPlans 291 for a legacy
 * $near (it needs a 2d index, which this server does not build).
 */
std::optional<BSONObj> nearFilterToGeoNear(const BSONObj& filter, std::string* path);

/**
 * Throws NoQueryExecutionPlans ("unable to find index for $geoNear query", as upstream's
 * planner) unless an index of `nss` on `path` may answer the {$geoNear: ...} stage
 * nearFilterToGeoNear built: a 2d index any legacy point ($near flat, $nearSphere
 * spherical), a 2dsphere index only spherical queries ($near with GeoJSON, $nearSphere).
 */
void uassertNearQueryIndexed(OperationContext* opCtx, const NamespaceString& nss,
                             const BSONObj& geoNearStage, const std::string& path);

/**
 * The geo index key fields of the collection `nss` (fields whose key type is "2dsphere",
 * "2dsphere_bucket" or "2d"; not "hashed" or "text"), with their types.
 */
std::vector<std::pair<std::string, std::string>> geoIndexFields(OperationContext* opCtx,
                                                                const NamespaceString& nss);

}  // namespace mongo
