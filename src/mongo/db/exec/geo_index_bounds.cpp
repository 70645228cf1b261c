#include "mongo/db/exec/geo_index_bounds.h"

#include <algorithm>

#include <s2/s1angle.h>
#include <s2/s2cap.h>
#include <s2/s2cell_id.h>
#include <s2/s2region_coverer.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/index_key_generator.h"
#include "mongo/db/geo/geo_query.h"
#include "mongo/db/matcher/expression_geo.h"
#include "mongo/db/timeseries/bucket_geo_within_match_expression.h"
#include "mongo/db/timeseries/timeseries_constants.h"

namespace mongo::geo_index_bounds {

namespace {

/** Slack added to a cap's radius so rounding never leaves a point at distance r uncovered. */
constexpr double kCapSlackRadians = 1e-9;

long long signedId(S2CellId c) {
    return static_cast<long long>(c.id());
}

std::vector<S2CellId> capCovering(const S2Point& center, double radius) {
    S2RegionCoverer::Options opts;
    opts.set_max_level(kS2IndexFinestLevel);
    opts.set_max_cells(kS2IndexMaxCells);
    S2RegionCoverer coverer(opts);
    S2Cap cap = S2Cap(center, S1Angle::Radians(std::min(radius + kCapSlackRadians, M_PI)));
    std::vector<S2CellId> cells;
    coverer.GetCovering(cap, &cells);
    return cells;
}

void collect(const MatchExpression* e, std::vector<GeoPredicate>* out) {
    switch (e->matchType()) {
        case MatchExpression::MatchType::kAnd:
            for (size_t i = 0; i < e->numChildren(); ++i)
                collect(e->getChild(i), out);
            return;
        case MatchExpression::MatchType::kGeo: {
            auto* g = static_cast<const GeoMatchExpression*>(e);
            out->push_back({g->path(), false, &g->region()});
            return;
        }
        case MatchExpression::MatchType::kInternalBucketGeoWithin: {
            auto* g = static_cast<const InternalBucketGeoWithinMatchExpression*>(e);
            // A dotted field is not the column a 2dsphere_bucket index on data.<f> reads.
            if (g->field().find('.') == std::string::npos)
                out->push_back({std::string(timeseries::kDataFieldNamePrefix) + g->field(), true,
                                &g->region()});
            return;
        }
        default:
            return;
    }
}

std::string pointString(const BSONObj& key) {
    std::string v = key.firstElement().toString(false);
    return "[" + v + ", " + v + "]";
}

}  // namespace

std::vector<CellInterval> intervalsForCovering(const std::vector<S2CellId>& cells) {
    std::vector<CellInterval> all;
    for (S2CellId c : cells) {
        if (!c.is_valid())
            continue;
        for (int level = 0; level < c.level(); ++level) {
            long long p = signedId(c.parent(level));
            all.push_back({p, p});
        }
        // A cell's range never crosses the sign boundary (face 4 starts at 2^63).
        all.push_back({signedId(c.range_min()), signedId(c.range_max())});
    }
    std::sort(all.begin(), all.end(),
              [](const CellInterval& a, const CellInterval& b) { return a.low < b.low; });
    std::vector<CellInterval> merged;
    for (const auto& iv : all) {
        // low - 1 cannot overflow: the smallest cell id as a signed number is LLONG_MIN + 1.
        if (!merged.empty() && iv.low - 1 <= merged.back().high)
            merged.back().high = std::max(merged.back().high, iv.high);
        else
            merged.push_back(iv);
    }
    return merged;
}

std::optional<std::vector<CellInterval>> intervalsForRegion(const GeoQueryRegion& region) {
    switch (region.shape()) {
        case GeoQueryRegion::Shape::kGeometry: {
            std::vector<S2CellId> cells;
            for (long long id : region.geometry().coveringCellIds())
                cells.push_back(S2CellId(static_cast<uint64_t>(id)));
            return intervalsForCovering(cells);
        }
        case GeoQueryRegion::Shape::kCenterSphere:
            return intervalsForCovering(capCovering(region.center(), region.radius()));
        default:
            return std::nullopt;
    }
}

std::string toString(const CellInterval& interval) {
    return "[" + std::to_string(interval.low) + ", " + std::to_string(interval.high) + "]";
}

std::vector<GeoPredicate> findGeoPredicates(const MatchExpression* filter) {
    std::vector<GeoPredicate> out;
    if (filter)
        collect(filter, &out);
    return out;
}

std::optional<IndexBounds> boundsForIndex(
    const IndexEntry& index, const std::vector<GeoPredicate>& preds,
    const std::function<std::optional<BSONObj>(const std::string&)>& equalityFor) {
    static const BSONObj kMaxKey = BSON("" << MAXKEY);
    static const std::string kAll = "[" + BSON("" << MINKEY).firstElement().toString(false) + ", " +
                                    kMaxKey.firstElement().toString(false) + "]";
    BSONObjBuilder prefix, explain;
    std::optional<std::vector<CellInterval>> cells;
    for (auto kf : index.desc.keyPattern) {
        std::string field(kf.fieldNameStringData());
        BSONArrayBuilder arr(explain.subarrayStart(field));
        if (cells) {  // after the geo field: unbounded
            arr.append(kAll);
            continue;
        }
        if (isGeoKeyType(kf)) {
            if (kf.valueStringData() == "2d")
                return std::nullopt;  // grid cells, not S2 cells: scanned whole
            const bool bucketKey = kf.valueStringData() == "2dsphere_bucket";
            for (const auto& p : preds)
                if (p.keyField == field && p.bucket == bucketKey &&
                    (cells = intervalsForRegion(*p.region)))
                    break;
            if (!cells)
                return std::nullopt;
            for (const auto& iv : *cells)
                arr.append(toString(iv));
            continue;
        }
        std::optional<BSONObj> eq = equalityFor(field);
        if (!eq)
            return std::nullopt;
        prefix.appendAs(eq->firstElement(), "");
        arr.append(pointString(*eq));
    }
    if (!cells)
        return std::nullopt;
    IndexBounds bounds;
    const BSONObj p = prefix.obj();
    auto key = [&](const BSONElement& last) {
        BSONObjBuilder b;
        b.appendElements(p);
        b.appendAs(last, "");
        return b.obj();
    };
    for (const auto& iv : *cells) {
        BSONObj lo = BSON("" << iv.low), hi = BSON("" << iv.high);
        bounds.intervals.push_back({key(lo.firstElement()), key(hi.firstElement())});
    }
    if (bounds.intervals.empty())  // nothing can match: one interval no geo key falls in
        bounds.intervals.push_back({key(kMaxKey.firstElement()), key(kMaxKey.firstElement())});
    bounds.explain = explain.obj();
    return bounds;
}

}  // namespace mongo::geo_index_bounds
