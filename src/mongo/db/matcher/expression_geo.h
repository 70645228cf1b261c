// Geospatial match expressions:
//   GeoMatchExpression                  <path>: {$geoWithin|$within|$geoIntersects: <operand>}
// (The bucket-level $_internalBucketGeoWithin lives with the time-series names:
// mongo/db/timeseries/bucket_geo_within_match_expression.h.)
#pragma once

#include <memory>

#include "mongo/db/geo/geo_query.h"
#include "mongo/db/matcher/expression.h"

namespace mongo {

class GeoMatchExpression : public PathMatchExpression {
public:
    /** `opName` is the operator as written ($geoWithin, $within or $geoIntersects). */
    GeoMatchExpression(StringData path, std::string opName,
                       std::shared_ptr<const GeoQueryRegion> region);
    bool matchesSingleElement(const BSONElement& e, MatchDetails* details) const override;
    void serialize(BSONObjBuilder* out) const override;
    const GeoQueryRegion& region() const {
        return *_region;
    }
    std::shared_ptr<const GeoQueryRegion> sharedRegion() const {
        return _region;
    }

private:
    std::string _opName;
    std::shared_ptr<const GeoQueryRegion> _region;
};

}  // namespace mongo
