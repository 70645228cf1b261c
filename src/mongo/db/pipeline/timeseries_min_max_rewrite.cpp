#include "mongo/db/pipeline/timeseries_min_max_rewrite.h"

#include <map>
#include <set>

#include "mongo/bson/bson_comparator.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/pipeline/bucket_unpacker.h"
#include "mongo/db/pipeline/expression_context.h"
#include "mongo/db/timeseries/timeseries_constants.h"
#include "mongo/util/assert_util.h"

namespace mongo {

namespace {

bool isNullish(const BSONElement& e) {
    return e.eoo() || e.type() == BSONType::kNull || e.type() == BSONType::kUndefined;
}

bool unsafeMin(const BSONElement& e) {
    return e.type() == BSONType::kNull || e.type() == BSONType::kUndefined || e.isABSONObj();
}

bool unsafeMax(const BSONElement& e) {
    return e.isABSONObj();
}

std::vector<std::string> parseNames(const BSONElement& e) {
    uassert(ErrorCodes::FailedToParse,
            std::string(DocumentSourceInternalTimeseriesExactMinMax::kStageName) +
                " field lists must be arrays of strings",
            e.type() == BSONType::kArray);
    std::vector<std::string> out;
    for (auto f : e.embeddedObject()) {
        uassert(ErrorCodes::FailedToParse, "field names must be strings",
                f.type() == BSONType::kString);
        out.push_back(f.str());
    }
    return out;
}

/** {"": v} holders of the exact accumulator values, by field (null when only nulls). */
using Exact = std::map<std::string, BSONObj>;

void rebuildBounds(const BSONElement& bounds, const Exact& exact, BSONObjBuilder* control) {
    BSONObjBuilder b(control->subobjStart(bounds.fieldNameStringData()));
    for (auto f : bounds.embeddedObject()) {
        auto it = exact.find(std::string(f.fieldNameStringData()));
        if (it == exact.end())
            b.append(f);
        else
            b.appendAs(it->second.firstElement(), f.fieldNameStringData());
    }
}

}  // namespace

DocumentSourceInternalTimeseriesExactMinMax::DocumentSourceInternalTimeseriesExactMinMax(
    std::shared_ptr<ExpressionContext> expCtx, std::string timeField,
    std::vector<std::string> minFields, std::vector<std::string> maxFields)
    : DocumentSource(std::move(expCtx)),
      _timeField(std::move(timeField)),
      _minFields(std::move(minFields)),
      _maxFields(std::move(maxFields)) {}

StagePtr DocumentSourceInternalTimeseriesExactMinMax::createFromBson(
    const BSONElement& spec, const std::shared_ptr<ExpressionContext>& expCtx) {
    uassert(ErrorCodes::FailedToParse, std::string(kStageName) + " spec must be an object",
            spec.type() == BSONType::kObject);
    std::string timeField;
    std::vector<std::string> mins, maxs;
    for (auto e : spec.embeddedObject()) {
        StringData f = e.fieldNameStringData();
        if (f == "timeField") {
            uassert(ErrorCodes::FailedToParse, "timeField must be a string",
                    e.type() == BSONType::kString);
            timeField = e.str();
        } else if (f == "min") {
            mins = parseNames(e);
        } else if (f == "max") {
            maxs = parseNames(e);
        } else {
            uasserted(
                ErrorCodes::FailedToParse,
                "unrecognized parameter to " + std::string(kStageName) + ": " + std::string(f));
        }
    }
    uassert(ErrorCodes::FailedToParse, std::string(kStageName) + " requires a timeField",
            !timeField.empty());
    return std::make_unique<DocumentSourceInternalTimeseriesExactMinMax>(
        expCtx, std::move(timeField), std::move(mins), std::move(maxs));
}

BSONObj DocumentSourceInternalTimeseriesExactMinMax::makeBoundsExact(
    const BSONObj& bucket, const std::string& timeField, const std::vector<std::string>& minFields,
    const std::vector<std::string>& maxFields, bool* unpacked, const StringComparator* strings) {
    if (unpacked)
        *unpacked = false;
    auto objectAt = [](const BSONObj& o, StringData f) {
        BSONElement e = o.getField(f);
        return e.type() == BSONType::kObject ? e.embeddedObject() : BSONObj();
    };
    BSONObj control = objectAt(bucket, timeseries::kBucketControlFieldName);
    BSONObj minObj = objectAt(control, timeseries::kBucketControlMinFieldName),
            maxObj = objectAt(control, timeseries::kBucketControlMaxFieldName);
    std::set<std::string> needMin, needMax;
    for (const auto& f : minFields)
        if (unsafeMin(minObj.getField(f)))
            needMin.insert(f);
    for (const auto& f : maxFields)
        if (unsafeMax(maxObj.getField(f)))
            needMax.insert(f);
    if (needMin.empty() && needMax.empty())
        return bucket;
    if (unpacked)
        *unpacked = true;

    BucketSpec spec;
    spec.timeField = timeField;
    spec.behavior = BucketSpec::Behavior::kInclude;
    spec.fieldSet.insert(needMin.begin(), needMin.end());
    spec.fieldSet.insert(needMax.begin(), needMax.end());
    BucketUnpacker unpacker(spec);
    unpacker.reset(bucket);
    Exact exactMin, exactMax;
    auto consider = [strings](Exact* acc, const std::string& f, const BSONElement& v, int sign) {
        if (isNullish(v))
            return;
        auto it = acc->find(f);
        if (it == acc->end() || it->second.firstElement().isNull() ||
            sign * compareElementValues(v, it->second.firstElement(), strings) < 0) {
            BSONObjBuilder h;
            h.appendAs(v, "");
            (*acc)[f] = h.obj();
        }
    };
    for (const auto& f : needMin)
        exactMin[f] = BSON("" << BSONNULL);
    for (const auto& f : needMax)
        exactMax[f] = BSON("" << BSONNULL);
    while (unpacker.hasNext()) {
        BSONObj m = unpacker.getNext();
        for (const auto& f : needMin)
            consider(&exactMin, f, m.getField(f), 1);
        for (const auto& f : needMax)
            consider(&exactMax, f, m.getField(f), -1);
    }

    BSONObjBuilder out;
    for (auto e : bucket) {
        if (e.fieldNameStringData() != timeseries::kBucketControlFieldName ||
            e.type() != BSONType::kObject) {
            out.append(e);
            continue;
        }
        BSONObjBuilder c(out.subobjStart(timeseries::kBucketControlFieldName));
        for (auto ce : e.embeddedObject()) {
            StringData n = ce.fieldNameStringData();
            if (n == timeseries::kBucketControlMinFieldName && ce.type() == BSONType::kObject)
                rebuildBounds(ce, exactMin, &c);
            else if (n == timeseries::kBucketControlMaxFieldName && ce.type() == BSONType::kObject)
                rebuildBounds(ce, exactMax, &c);
            else
                c.append(ce);
        }
    }
    return out.obj();
}

std::optional<BSONObj> DocumentSourceInternalTimeseriesExactMinMax::getNext() {
    auto bucket = _source->getNext();
    if (!bucket)
        return std::nullopt;
    bool unpacked = false;
    BSONObj out = makeBoundsExact(*bucket, _timeField, _minFields, _maxFields, &unpacked,
                                  _expCtx->getCollator());
    if (unpacked)
        ++_bucketsUnpacked;
    return out;
}

void DocumentSourceInternalTimeseriesExactMinMax::appendExplainStats(BSONObjBuilder* b) const {
    b->append("nBucketsUnpacked", _bucketsUnpacked);
}

void DocumentSourceInternalTimeseriesExactMinMax::serialize(BSONArrayBuilder* out) const {
    BSONObjBuilder stage(out->subobjStart());
    BSONObjBuilder b(stage.subobjStart(kStageName));
    b.append("timeField", _timeField);
    BSONArrayBuilder mins(b.subarrayStart("min"));
    for (const auto& f : _minFields)
        mins.append(f);
    mins.done();
    BSONArrayBuilder maxs(b.subarrayStart("max"));
    for (const auto& f : _maxFields)
        maxs.append(f);
}

namespace {
const bool kRegistered = [] {
    registerDocumentSource(
        DocumentSourceInternalTimeseriesExactMinMax::kStageName,
        [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& ctx) {
            std::vector<StagePtr> v;
            v.push_back(DocumentSourceInternalTimeseriesExactMinMax::createFromBson(e, ctx));
            return v;
        });
    return true;
}();
}  // namespace

}  // namespace mongo
