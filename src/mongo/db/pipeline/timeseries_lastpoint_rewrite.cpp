#include "mongo/db/pipeline/timeseries_lastpoint_rewrite.h"

#include <algorithm>
#include <string>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/pipeline/timeseries_rewrites.h"
#include "mongo/db/timeseries/timeseries_constants.h"

namespace mongo::timeseries_rewrite {

namespace {

constexpr StringData kBucketField = "bucket";
constexpr StringData kBoundField = "__lastPointBound";

bool metaUsable(const BucketSpec& spec) {
    if (!spec.metaField || !spec.includes(*spec.metaField))
        return false;
    return std::find(spec.computedMetaProjFields.begin(), spec.computedMetaProjFields.end(),
                     *spec.metaField) == spec.computedMetaProjFields.end();
}

int sortDirection(const BSONElement& e) {
    if (!e.isNumber())
        return 0;
    double d = e.numberDouble();
    return d == 1 ? 1 : d == -1 ? -1 : 0;
}

/** The group key: its measurement-level meta paths and the same key over buckets. */
struct GroupKey {
    std::vector<std::string> paths;  // "m", "m.a"
    BSONObj bucketKey;               // {_id: <key renamed to meta>}
};

/** "$m.a" -> path "m.a" appended to `key`, "$meta.a" appended to `out` under `name`. */
bool appendMetaPathKey(const BSONElement& e, StringData name, const BucketSpec& spec, GroupKey* key,
                       BSONObjBuilder* out) {
    if (e.type() != BSONType::kString)
        return false;
    StringData s = e.valueStringData();
    if (!s.starts_with("$") || s.starts_with("$$"))
        return false;
    auto renamed = renameMetaPath(s.substr(1), spec);
    if (!renamed)
        return false;
    key->paths.emplace_back(s.substr(1));
    out->append(name, "$" + *renamed);
    return true;
}

/** The group key: one "$<meta path>" (upstream rewrites no other key: null, objects, ...). */
std::optional<GroupKey> parseGroupKey(const BSONElement& id, const BucketSpec& spec) {
    GroupKey key;
    BSONObjBuilder b;
    if (!appendMetaPathKey(id, "_id", spec, &key, &b))
        return std::nullopt;
    key.bucketKey = b.obj();
    return key;
}

bool coveredByKey(StringData path, const GroupKey& key) {
    for (const auto& g : key.paths)
        if (path == g || (path.starts_with(g) && path.size() > g.size() && path[g.size()] == '.'))
            return true;
    return false;
}

/** Which end of the time order the accumulators select. */
struct Selection {
    bool latest = true;
    bool firstStyle = true;  // the bucket $group takes $first (else $last)
};

/**
 * One accumulator `{$first: e}` / `{$top: {sortBy: {t: d}, output: e}}`...: whether it
 * selects the latest measurement. `timeDir` is the $sort's time direction (0: no $sort).
 */
std::optional<Selection> accumulatorSelection(const BSONElement& acc, int timeDir,
                                              const BucketSpec& spec, const GroupKey& key) {
    const std::string& timeField = spec.timeField;
    if (acc.type() != BSONType::kObject || acc.embeddedObject().nFields() != 1)
        return std::nullopt;
    BSONElement op = acc.embeddedObject().firstElement();
    StringData name = op.fieldNameStringData();
    if (name == "$first" || name == "$last") {
        if (timeDir == 0)
            return std::nullopt;
        bool first = name == "$first";
        return Selection{first == (timeDir < 0), first};
    }
    const bool single = name == "$top" || name == "$bottom";
    if (!single && name != "$topN" && name != "$bottomN")
        return std::nullopt;
    if (op.type() != BSONType::kObject)
        return std::nullopt;
    if (!single) {
        // n must be the constant 1 (an expression, even one always 1, is not rewritten).
        BSONElement n = op.embeddedObject().getField("n");
        if (!n.isNumber() || n.numberDouble() != 1)
            return std::nullopt;
    }
    // sortBy: meta keys the group key determines (constant within a group), then the time.
    BSONElement sortBy = op.embeddedObject().getField("sortBy");
    if (sortBy.type() != BSONType::kObject || sortBy.embeddedObject().isEmpty())
        return std::nullopt;
    BSONElement t;
    for (auto k : sortBy.embeddedObject()) {
        if (!t.eoo() && !(renameMetaPath(t.fieldNameStringData(), spec) &&
                          coveredByKey(t.fieldNameStringData(), key) && sortDirection(t) != 0))
            return std::nullopt;
        t = k;
    }
    int dir = sortDirection(t);
    if (t.fieldNameStringData() != timeField || dir == 0)
        return std::nullopt;
    bool top = name == "$top" || name == "$topN";
    return Selection{top == (dir < 0), top};
}

/** The user's $sort: meta keys (all covered by the group key) then the time key. */
bool parseSort(const BSONObj& sortSpec, const BucketSpec& spec, const GroupKey& key,
               BSONObjBuilder* bucketSort, int* timeDir) {
    int n = sortSpec.nFields(), i = 0;
    for (auto e : sortSpec) {
        int dir = sortDirection(e);
        if (dir == 0)
            return false;
        StringData path = e.fieldNameStringData();
        if (++i == n) {
            if (path != spec.timeField)
                return false;
            *timeDir = dir;
            return true;
        }
        auto renamed = renameMetaPath(path, spec);
        if (!renamed || !coveredByKey(path, key))
            return false;
        bucketSort->append(*renamed, dir);
    }
    return false;
}

}  // namespace

std::optional<LastPointRewrite> rewriteLastPoint(const BSONObj& sortSpec, long long sortLimit,
                                                 const BSONObj& groupSpec, const BucketSpec& spec) {
    if (sortLimit > 0 || !metaUsable(spec) || !spec.includes(spec.timeField))
        return std::nullopt;
    auto key = parseGroupKey(groupSpec.getField("_id"), spec);
    if (!key)
        return std::nullopt;

    BSONObjBuilder bucketSort;
    int timeDir = 0;
    if (!sortSpec.isEmpty() && !parseSort(sortSpec, spec, *key, &bucketSort, &timeDir))
        return std::nullopt;

    std::optional<Selection> sel;
    // $top/$bottom[N]: several only when they are the same operator with the same sortBy (as
    // upstream, which merges such a set into one); $first/$last after the $sort may be several,
    // all selecting the same end.
    if (sortSpec.isEmpty()) {
        std::optional<BSONObj> common;  // {<op>: <sortBy>} of the first accumulator
        for (auto f : groupSpec) {
            if (f.fieldNameStringData() == "_id" || f.type() != BSONType::kObject ||
                f.embeddedObject().isEmpty())
                continue;
            BSONElement op = f.embeddedObject().firstElement();
            BSONElement sortBy =
                op.type() == BSONType::kObject ? op.embeddedObject()["sortBy"] : BSONElement();
            BSONObjBuilder key;
            if (sortBy.eoo())
                key.appendNull(op.fieldNameStringData());
            else
                key.appendAs(sortBy, op.fieldNameStringData());
            BSONObj k = key.obj();
            if (common && k.woCompare(*common) != 0)
                return std::nullopt;
            common = k;
        }
    }
    for (auto f : groupSpec) {
        if (f.fieldNameStringData() == "_id")
            continue;
        auto s = accumulatorSelection(f, timeDir, spec, *key);
        if (!s || (sel && s->latest != sel->latest))
            return std::nullopt;
        if (!sel)
            sel = s;
    }
    if (!sel)
        return std::nullopt;

    LastPointRewrite out;
    out.latest = sel->latest;
    const std::string maxTime = timeseries::controlMaxPath(spec.timeField);
    const std::string minTime = timeseries::controlMinPath(spec.timeField);
    if (sel->latest) {
        // $first over a descending order, $last over an ascending one: among buckets tied on
        // control.max the one scanned first (last) holds the measurement the user's $first
        // ($last) returns.
        bucketSort.append(maxTime, sel->firstStyle ? -1 : 1);
        out.bucketStages.push_back(BSON("$sort" << bucketSort.obj()));
        BSONObjBuilder group;
        group.appendElements(key->bucketKey);
        group.append(kBucketField, BSON((sel->firstStyle ? "$first" : "$last") << "$$ROOT"));
        out.bucketStages.push_back(BSON("$group" << group.obj()));
        out.bucketStages.push_back(
            BSON("$replaceRoot" << BSON("newRoot"
                                        << "$" + std::string(kBucketField))));
        return out;
    }
    BSONObjBuilder swf;
    swf.appendAs(key->bucketKey.firstElement(), "partitionBy");
    swf.append("output", BSON(kBoundField << BSON("$min"
                                                  << "$" + maxTime)));
    out.bucketStages.push_back(BSON("$setWindowFields" << swf.obj()));
    out.bucketStages.push_back(BSON(
        "$match" << BSON("$expr" << BSON("$lte" << BSON_ARRAY(
                                             "$" + minTime << "$" + std::string(kBoundField))))));
    out.bucketStages.push_back(BSON("$project" << BSON(kBoundField << 0)));
    return out;
}

}  // namespace mongo::timeseries_rewrite
