#include "mongo/db/timeseries/bucket_geo_within_match_expression.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/column/bsoncolumn.h"
#include "mongo/db/matcher/expression_geo.h"
#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/timeseries/timeseries_constants.h"

namespace mongo {

InternalBucketGeoWithinMatchExpression::InternalBucketGeoWithinMatchExpression(
    std::shared_ptr<const GeoQueryRegion> region, std::string field)
    : MatchExpression(MatchType::kInternalBucketGeoWithin),
      _region(std::move(region)),
      _field(std::move(field)) {}

StatusWith<std::unique_ptr<MatchExpression>> InternalBucketGeoWithinMatchExpression::parse(
    const BSONElement& e) {
    if (e.type() != BSONType::kObject)
        return Status(ErrorCodes::BadValue, "$_internalBucketGeoWithin must be an object");
    BSONObj o = e.Obj();
    BSONElement within = o["withinRegion"];
    BSONElement intersects = o["intersectsRegion"];
    BSONElement field = o["field"];
    if (o.nFields() != 2 || (within.eoo() == intersects.eoo()) ||
        field.type() != BSONType::kString || field.valueStringData().empty())
        return Status(ErrorCodes::FailedToParse,
                      "$_internalBucketGeoWithin requires 'withinRegion' and 'field'");
    BSONElement region = within.eoo() ? intersects : within;
    if (region.type() != BSONType::kObject)
        return Status(ErrorCodes::TypeMismatch, "withinRegion must be an object");
    auto sw = GeoQueryRegion::parse(
        within.eoo() ? GeoQueryRegion::Op::kIntersects : GeoQueryRegion::Op::kWithin, region.Obj(),
        GeoQueryRegion::Origin::kInternal);
    if (!sw.isOK())
        return sw.getStatus();
    return std::unique_ptr<MatchExpression>(
        std::make_unique<InternalBucketGeoWithinMatchExpression>(sw.getValue(), field.str()));
}

bool InternalBucketGeoWithinMatchExpression::matches(const BSONObj& bucket, MatchDetails*) const {
    // Exact per-measurement test on the bucket's data column of the field's top component;
    // anything unexpected keeps the bucket (a loose predicate never drops a match).
    StringData top = StringData(_field).substr(0, StringData(_field).find('.'));
    BSONElement data = bucket[timeseries::kBucketDataFieldName];
    if (data.type() != BSONType::kObject)
        return true;
    BSONElement column = data.Obj().getField(top);
    if (column.eoo())
        return false;  // no measurement of the bucket has the field
    GeoMatchExpression perValue(_field, "$geoWithin", _region);
    auto test = [&](const BSONElement& v) {
        BSONObjBuilder b;
        b.appendAs(v, top);
        return perValue.matches(b.obj(), nullptr);
    };
    if (column.type() == BSONType::kObject) {
        for (BSONElement v : column.Obj())
            if (test(v))
                return true;
        return false;
    }
    if (column.type() != BSONType::kBinData)
        return true;
    BSONColumn col(column);
    auto it = col.begin();
    while (it.next()) {
        if (!it.missing() && test(it.value()))
            return true;
    }
    return !it.status().isOK();
}

void InternalBucketGeoWithinMatchExpression::serialize(BSONObjBuilder* out) const {
    BSONObjBuilder sub(out->subobjStart(kName));
    sub.append(_region->op() == GeoQueryRegion::Op::kWithin ? "withinRegion" : "intersectsRegion",
               _region->operand());
    sub.append("field", _field);
    sub.done();
}

namespace {
const bool gRegistered = [] {
    registerTopLevelMatchOperator(InternalBucketGeoWithinMatchExpression::kName,
                                  &InternalBucketGeoWithinMatchExpression::parse);
    return true;
}();
}  // namespace

}  // namespace mongo
