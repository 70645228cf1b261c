// $_internalBucketGeoWithin: {withinRegion|intersectsRegion: {...}, field: "<f>"}, a match
// expression on time-series *buckets*: true when the bucket MAY hold a measurement whose `<f>`
// lies in the region. It never rejects a bucket holding a matching point; a bucket whose data
// column of <f> cannot be read is kept. The optimiser writes it (bucket-level predicates of a
// $geoWithin on a measurement field); the matcher's parser knows it through the operator
// registry (registerTopLevelMatchOperator), so the matcher does not know the bucket layout.
#pragma once

#include <memory>
#include <string>

#include "mongo/db/geo/geo_query.h"
#include "mongo/db/matcher/expression.h"

namespace mongo {

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
