#include "mongo/db/matcher/expression_geo.h"

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {

GeoMatchExpression::GeoMatchExpression(StringData path, std::string opName,
                                       std::shared_ptr<const GeoQueryRegion> region)
    : PathMatchExpression(MatchType::kGeo, path, LeafArrayBehavior::kTraverse),
      _opName(std::move(opName)),
      _region(std::move(region)) {}

bool GeoMatchExpression::matchesSingleElement(const BSONElement& e, MatchDetails*) const {
    return _region->matchesElement(e);
}

void GeoMatchExpression::serialize(BSONObjBuilder* out) const {
    BSONObjBuilder sub(out->subobjStart(path()));
    sub.append(_opName, _region->operand());
    sub.done();
}

}  // namespace mongo
