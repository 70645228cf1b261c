// Geospatial match expressions:
//   GeoMatchExpression                  <path>: {$geoWithin|$within|$geoIntersects: <operand>}
//   InternalBucketGeoWithinMatchExpression
//       $_internalBucketGeoWithin: {withinRegion: {$geometry|$centerSphere|...}, field: "<f>"}
//     on a time-series bucket: true when the bucket MAY hold a measurement whose `<f>` lies in
//     the region (it never rejects a bucket holding a matching point; a bucket whose
//     control.min/max of <f> cannot be read is kept).
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

class InternalBucketGeoWithinMatchExpression : public MatchExpression {
public:
    static constexpr StringData kName = "$_internalBucketGeoWithin";

    InternalBucketGeoWithinMatchExpression(std::shared_ptr<const GeoQueryRegion> region,
                                           std::string field);
    /** Parses the operand {withinRegion: {...}, field: "<f>"}. */
    static StatusWith<std::unique_ptr<MatchExpression>> parse(const BSONElement& e);
    bool matches(const BSONObj& bucket, MatchDetails* details) const override;
    void serialize(BSONObjBuilder* out) const override;
    const std::string& field() const {
        return _field;
    }
    const GeoQueryRegion& region() const {
        return *_region;
    }

private:
    std::shared_ptr<const GeoQueryRegion> _region;
    std::string _field;
};

}  // namespace mongo
