// libFuzzer target: arbitrary bytes that validate as BSON are parsed as geometries (each
// top-level value as a stored value, each object as GeoJSON and as a query operand). Parsing
// must never abort inside S2; a failure must be BadValue; a success must support every
// predicate.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/geo/geo_query.h"
#include "mongo/db/geo/geometry_container.h"

namespace {

void check(bool cond) {
    if (!cond)
        std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace mongo;
    std::string input(reinterpret_cast<const char*>(data), size);
    if (!validateBSON(input.data(), input.size()).isOK())
        return 0;
    BSONObj obj(input.data());
    auto probe = pointFromLngLat(1, 2);
    for (BSONElement e : obj) {
        auto stored = GeometryContainer::parseStored(e);
        check(stored.isOK() || stored.getStatus().code() == ErrorCodes::BadValue);
        if (stored.isOK() && stored.getValue().isSphereValid()) {
            (void)stored.getValue().coveringCellIds();
            (void)stored.getValue().minDistanceRadians(probe);
            (void)stored.getValue().intersects(stored.getValue());
        }
        if (e.type() != BSONType::kObject)
            continue;
        for (auto op : {GeoQueryRegion::Op::kWithin, GeoQueryRegion::Op::kIntersects}) {
            auto region = GeoQueryRegion::parse(op, e.Obj());
            check(region.isOK() || region.getStatus().code() == ErrorCodes::BadValue);
            if (region.isOK())
                (void)region.getValue()->matchesElement(e);
        }
    }
    return 0;
}
