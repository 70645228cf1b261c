#include "mongo/db/pipeline/document_source_internal_bounded_sort.h"

#include <algorithm>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/pipeline/document_source_internal_unpack_bucket.h"
#include "mongo/db/timeseries/timeseries_constants.h"
#include "mongo/util/assert_util.h"

namespace mongo {

DocumentSourceInternalBoundedSort::DocumentSourceInternalBoundedSort(
    std::shared_ptr<ExpressionContext> expCtx, BSONObj sortKey, BoundBase base,
    long long offsetSeconds, long long limit)
    : DocumentSource(std::move(expCtx)),
      _sortKeySpec(sortKey.getOwned()),
      _pattern(std::make_shared<SortPattern>(uassertStatusOK(SortPattern::parse(_sortKeySpec)))),
      _base(base),
      _offsetSeconds(offsetSeconds),
      _limit(limit) {}

StagePtr DocumentSourceInternalBoundedSort::createFromBson(
    const BSONElement& spec, const std::shared_ptr<ExpressionContext>& expCtx) {
    uassert(ErrorCodes::FailedToParse, "$_internalBoundedSort spec must be an object",
            spec.type() == BSONType::kObject);
    BSONObj sortKey;
    BoundBase base = BoundBase::kMin;
    long long offset = 0, limit = 0;
    bool haveBound = false;
    for (auto e : spec.embeddedObject()) {
        StringData f = e.fieldNameStringData();
        if (f == "sortKey") {
            uassert(ErrorCodes::FailedToParse, "$_internalBoundedSort sortKey must be an object",
                    e.type() == BSONType::kObject && !e.embeddedObject().isEmpty());
            sortKey = e.embeddedObject();
        } else if (f == "bound") {
            uassert(ErrorCodes::FailedToParse, "$_internalBoundedSort bound must be an object",
                    e.type() == BSONType::kObject);
            for (auto b : e.embeddedObject()) {
                if (b.fieldNameStringData() == "base") {
                    uassert(ErrorCodes::FailedToParse, "bound.base must be \"min\" or \"max\"",
                            b.type() == BSONType::kString &&
                                (b.valueStringData() == "min" || b.valueStringData() == "max"));
                    base = b.valueStringData() == "min" ? BoundBase::kMin : BoundBase::kMax;
                    haveBound = true;
                } else if (b.fieldNameStringData() == "offsetSeconds") {
                    uassert(ErrorCodes::FailedToParse, "bound.offsetSeconds must be a number",
                            b.isNumber());
                    offset = b.numberLong();
                } else {
                    uasserted(ErrorCodes::FailedToParse,
                              "unrecognized bound field: " + std::string(b.fieldNameStringData()));
                }
            }
        } else if (f == "limit") {
            uassert(ErrorCodes::FailedToParse, "$_internalBoundedSort limit must be positive",
                    e.isNumber() && e.numberLong() > 0);
            limit = e.numberLong();
        } else {
            uasserted(ErrorCodes::FailedToParse,
                      "unrecognized parameter to $_internalBoundedSort: " + std::string(f));
        }
    }
    uassert(ErrorCodes::FailedToParse, "$_internalBoundedSort requires sortKey and bound",
            !sortKey.isEmpty() && haveBound);
    return std::make_unique<DocumentSourceInternalBoundedSort>(expCtx, sortKey, base, offset,
                                                               limit);
}

bool DocumentSourceInternalBoundedSort::before(const Entry& a, const Entry& b) const {
    int c = _pattern->compareSortKeys(a.key, b.key);
    return c != 0 ? c < 0 : a.seq < b.seq;
}

BSONObj DocumentSourceInternalBoundedSort::currentBoundKey() {
    if (!_unpack)
        return BSONObj();
    const BSONObj& bucket = _unpack->currentBucket();
    const BucketSpec& spec = _unpack->bucketSpec();
    BSONElement control = bucket.getField(timeseries::kBucketControlFieldName);
    if (control.type() != BSONType::kObject)
        return BSONObj();
    BSONElement bounds = control.embeddedObject().getField(
        _base == BoundBase::kMin ? timeseries::kBucketControlMinFieldName
                                 : timeseries::kBucketControlMaxFieldName);
    if (bounds.type() != BSONType::kObject)
        return BSONObj();
    BSONElement t = bounds.embeddedObject().getField(spec.timeField);
    if (t.type() != BSONType::kDate)
        return BSONObj();
    BSONObjBuilder synthetic;
    synthetic.append(spec.timeField, Date_t::fromMillisSinceEpoch(t.date().toMillisSinceEpoch() +
                                                                  _offsetSeconds * 1000));
    if (spec.metaField) {
        BSONElement meta = bucket.getField(timeseries::kBucketMetaFieldName);
        if (!meta.eoo())
            synthetic.appendAs(meta, *spec.metaField);
    }
    return _pattern->getSortKey(synthetic.obj());
}

std::optional<BSONObj> DocumentSourceInternalBoundedSort::getNext() {
    if (!_started) {
        _started = true;
        _unpack = dynamic_cast<DocumentSourceInternalUnpackBucket*>(_source);
    }
    // std heap functions keep the *largest* element at the front: "largest" = best.
    auto worse = [this](const Entry& a, const Entry& b) { return before(b, a); };
    while (true) {
        if (_limit > 0 && _returned >= _limit)
            return std::nullopt;
        bool canEmit = !_heap.empty() &&
                       (_inputDone || (!_bound.isEmpty() &&
                                       _pattern->compareSortKeys(_heap.front().key, _bound) <= 0));
        if (canEmit) {
            std::pop_heap(_heap.begin(), _heap.end(), worse);
            BSONObj out = std::move(_heap.back().doc);
            _heap.pop_back();
            ++_returned;
            setSortKeyMetadata(*_pattern, out);
            return out;
        }
        if (_inputDone)
            return std::nullopt;
        auto doc = _source->getNext();
        if (!doc) {
            _inputDone = true;
            continue;
        }
        _bound = currentBoundKey();
        _heap.push_back(Entry{_pattern->getSortKey(*doc), doc->getOwned(), _seq++});
        std::push_heap(_heap.begin(), _heap.end(), worse);
        _maxBuffered = std::max(_maxBuffered, _heap.size());
    }
}

void DocumentSourceInternalBoundedSort::appendExplainStats(BSONObjBuilder* b) const {
    b->append("maxBufferedDocuments", static_cast<long long>(_maxBuffered));
}

void DocumentSourceInternalBoundedSort::serialize(BSONArrayBuilder* out) const {
    BSONObjBuilder stage(out->subobjStart());
    BSONObjBuilder b(stage.subobjStart(kStageName));
    b.append("sortKey", _sortKeySpec);
    {
        BSONObjBuilder bound(b.subobjStart("bound"));
        bound.append("base", _base == BoundBase::kMin ? "min" : "max");
        if (_offsetSeconds != 0) {
            if (_offsetSeconds >= INT32_MIN && _offsetSeconds <= INT32_MAX)
                bound.append("offsetSeconds", static_cast<int>(_offsetSeconds));
            else
                bound.append("offsetSeconds", _offsetSeconds);
        }
    }
    if (_limit > 0)
        b.append("limit", _limit);
}

namespace {
const bool kRegistered = [] {
    registerDocumentSource(
        DocumentSourceInternalBoundedSort::kStageName,
        [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& ctx) {
            std::vector<StagePtr> v;
            v.push_back(DocumentSourceInternalBoundedSort::createFromBson(e, ctx));
            return v;
        });
    return true;
}();
}  // namespace

}  // namespace mongo
