#include "mongo/db/pipeline/document_source_internal_unpack_bucket.h"

#include <random>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/matcher/explain_filter.h"
#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/pipeline/bucket_level_predicates.h"
#include "mongo/db/pipeline/document_source_group.h"
#include "mongo/db/pipeline/document_source_internal_bounded_sort.h"
#include "mongo/db/pipeline/document_source_internal_streaming_group.h"
#include "mongo/db/pipeline/document_source_limit.h"
#include "mongo/db/pipeline/document_source_match.h"
#include "mongo/db/pipeline/document_source_project.h"
#include "mongo/db/pipeline/document_source_sort.h"
#include "mongo/db/pipeline/expression.h"
#include "mongo/db/pipeline/timeseries_lastpoint_rewrite.h"
#include "mongo/db/pipeline/timeseries_min_max_rewrite.h"
#include "mongo/db/pipeline/timeseries_rewrites.h"
#include "mongo/db/pipeline/timeseries_sample.h"
#include "mongo/db/pipeline/timeseries_sample_stages.h"
#include "mongo/db/pipeline/unpack_dependencies.h"
#include "mongo/db/service_context.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {

namespace {

std::set<std::string> parseFieldList(const BSONElement& e, StringData stage) {
    uassert(5346501,
            "include or exclude field element must be an array, but found " +
                std::string(typeName(e.type())),
            e.type() == BSONType::kArray);
    std::set<std::string> out;
    for (auto f : e.embeddedObject()) {
        uassert(5346502,
                "include or exclude field element must be a single-element field path string, but "
                "found " +
                    std::string(typeName(f.type())),
                f.type() == BSONType::kString);
        uassert(5346503,
                "include or exclude field element must be a single-element field path string",
                f.valueStringData().find('.') == StringData::npos);
        uassert(9568705, "include or exclude field element must not contain embedded null bytes",
                f.valueStringData().find('\0') == StringData::npos);
        out.insert(f.str());
    }
    return out;
}

/**
 * A measurement or bucket filter; strings compare with the query's collator (null: simple),
 * and $expr binds to `expCtx`'s variables (a $lookup's `let`).
 */
std::unique_ptr<MatchExpression> parseFilter(const BSONObj& spec,
                                             const std::shared_ptr<ExpressionContext>& expCtx) {
    ExprParseContextGuard guard(expCtx);
    auto m = uassertStatusOK(parseMatchExpression(spec));
    if (const CollatorInterface* collator = expCtx->getCollator())
        m->setCollator(collator);
    return m;
}

}  // namespace

StagePtr DocumentSourceInternalUnpackBucket::createFromBson(
    const BSONElement& specElem, const std::shared_ptr<ExpressionContext>& expCtx) {
    bool external = specElem.fieldNameStringData() == kStageNameExternal;
    uassert(external ? 5612400 : 5346500,
            "$_internalUnpackBucket specification must be an object, got: " +
                std::string(typeName(specElem.type())),
            specElem.type() == BSONType::kObject);
    BucketSpec spec;
    bool haveTime = false, haveSpan = false, haveInclude = false, haveExclude = false;
    int span = external ? 3600 : 0;
    bool assumeNoMixed = false, extended = false, fixed = false, minT = false, maxT = false;
    BSONObj eventFilter, wholeBucketFilter;
    for (auto e : specElem.embeddedObject()) {
        StringData f = e.fieldNameStringData();
        if (!external && (f == "include" || f == "exclude")) {
            uassert(5408000,
                    "The $_internalUnpackBucket stage expects either an include or exclude "
                    "parameter, but not both",
                    !(haveInclude || haveExclude));
            spec.fieldSet = parseFieldList(e, kStageName);
            spec.behavior =
                f == "include" ? BucketSpec::Behavior::kInclude : BucketSpec::Behavior::kExclude;
            (f == "include" ? haveInclude : haveExclude) = true;
        } else if (f == "timeField") {
            uassert(external ? 5612401 : 5346504,
                    "timeField field must be a string, got: " + std::string(typeName(e.type())),
                    e.type() == BSONType::kString);
            uassert(external ? 9568703 : 9568701, "timeField must not contain embedded null bytes",
                    e.valueStringData().find('\0') == StringData::npos);
            spec.timeField = e.str();
            haveTime = true;
        } else if (f == "metaField") {
            uassert(external ? 5612402 : 5346505,
                    "metaField field must be a string, got: " + std::string(typeName(e.type())),
                    e.type() == BSONType::kString);
            uassert(external ? 5612403 : 5545700,
                    "metaField field must be a single-element field path",
                    e.valueStringData().find('.') == StringData::npos);
            uassert(external ? 9568704 : 9568702, "metaField must not contain embedded null bytes",
                    e.valueStringData().find('\0') == StringData::npos);
            spec.metaField = e.str();
        } else if (!external && f == "bucketMaxSpanSeconds") {
            uassert(5510600,
                    "bucketMaxSpanSeconds field must be an integer, got: " +
                        std::string(typeName(e.type())),
                    e.type() == BSONType::kNumberInt);
            span = e._numberInt();
            uassert(5510601, "bucketMaxSpanSeconds field must be greater than zero", span > 0);
            haveSpan = true;
        } else if (f == "assumeNoMixedSchemaData") {
            uassert(external ? 6067203 : 6067202,
                    "assumeNoMixedSchemaData field must be a bool, got: " +
                        std::string(typeName(e.type())),
                    e.type() == BSONType::kBool);
            assumeNoMixed = e.boolean();
        } else if (!external && f == "usesExtendedRange") {
            uassert(6646901, "usesExtendedRange field must be a bool", e.type() == BSONType::kBool);
            extended = e.boolean();
        } else if (!external && f == "computedMetaProjFields") {
            uassert(5509900, "computedMetaProjFields field must be an array",
                    e.type() == BSONType::kArray);
            for (auto c : e.embeddedObject()) {
                uassert(5509901,
                        "computedMetaProjFields field element must be a single-element field path "
                        "string",
                        c.type() == BSONType::kString);
                uassert(5509902,
                        "computedMetaProjFields field element must be a single-element field path "
                        "string",
                        c.valueStringData().find('.') == StringData::npos);
                uassert(9568706,
                        "computedMetaProjFields field element must not contain embedded null bytes",
                        c.valueStringData().find('\0') == StringData::npos);
                spec.computedMetaProjFields.push_back(c.str());
            }
        } else if (!external && f == "includeMinTimeAsMetadata") {
            uassert(6460208, "includeMinTimeAsMetadata field must be a bool",
                    e.type() == BSONType::kBool);
            minT = e.boolean();
        } else if (!external && f == "includeMaxTimeAsMetadata") {
            uassert(6460209, "includeMaxTimeAsMetadata field must be a bool",
                    e.type() == BSONType::kBool);
            maxT = e.boolean();
        } else if (!external && f == "eventFilter") {
            uassert(7026902, "eventFilter must be an object", e.type() == BSONType::kObject);
            eventFilter = e.embeddedObject().getOwned();
        } else if (!external && f == "wholeBucketFilter") {
            uassert(7026903, "wholeBucketFilter must be an object", e.type() == BSONType::kObject);
            wholeBucketFilter = e.embeddedObject().getOwned();
        } else if (!external && f == "fixedBuckets") {
            uassert(7823300, "fixedBuckets field must be a bool", e.type() == BSONType::kBool);
            fixed = e.boolean();
        } else {
            uasserted(external ? 5612404 : 5346506,
                      "unrecognized parameter to " + std::string(specElem.fieldNameStringData()) +
                          ": " + std::string(f));
        }
    }
    uassert(external ? 5612405 : 5346508,
            std::string("The ") + std::string(specElem.fieldNameStringData()) +
                " stage requires a timeField parameter",
            haveTime);
    uassert(5510602, "The $_internalUnpackBucket stage requires a bucketMaxSpanSeconds parameter",
            external || haveSpan);
    if (external && expCtx->opCtx && expCtx->opCtx->getServiceContext() &&
        expCtx->opCtx->getServiceContext()->catalog) {
        // $_unpackBucket names no span: the buckets collection's options give it, and a
        // collection with a meta field needs it named.
        if (auto coll = expCtx->opCtx->getServiceContext()->catalog->lookup(expCtx->ns)) {
            BSONElement ts = coll->options()["timeseries"];
            if (ts.type() == BSONType::kObject) {
                uassert(5369601,
                        "The $_unpackBucket stage requires metaField parameter if the time-series "
                        "collection has a metaField",
                        spec.metaField || ts.Obj()["metaField"].type() != BSONType::kString);
                BSONElement maxSpan = ts.Obj()["bucketMaxSpanSeconds"];
                if (maxSpan.isNumber() && maxSpan.numberLong() > 0)
                    span = static_cast<int>(maxSpan.numberLong());
            }
        }
    }
    auto stage =
        std::make_unique<DocumentSourceInternalUnpackBucket>(expCtx, std::move(spec), span);
    stage->_assumeNoMixedSchemaData = assumeNoMixed;
    stage->_usesExtendedRange = extended;
    stage->_fixedBuckets = fixed;
    stage->_includeMinTime = minT;
    stage->_includeMaxTime = maxT;
    stage->_eventFilterSpec = eventFilter;
    stage->_wholeBucketFilterSpec = wholeBucketFilter;
    if (!eventFilter.isEmpty())
        stage->_eventFilter = parseFilter(eventFilter, expCtx);
    if (!wholeBucketFilter.isEmpty())
        stage->_wholeBucketFilter = parseFilter(wholeBucketFilter, expCtx);
    return stage;
}

DocumentSourceInternalUnpackBucket::DocumentSourceInternalUnpackBucket(
    std::shared_ptr<ExpressionContext> expCtx, BucketSpec spec, int bucketMaxSpanSeconds)
    : DocumentSource(std::move(expCtx)),
      _unpacker(std::move(spec)),
      _bucketMaxSpanSeconds(bucketMaxSpanSeconds) {}

std::optional<BSONObj> DocumentSourceInternalUnpackBucket::getNext() {
    if (!_sampleSize)
        return _nextMeasurement();
    if (_planSampleBuckets) {
        std::optional<BSONObj> m = _source ? _source->getNext() : std::nullopt;
        if (m)
            ++_nReturned;
        return m;
    }
    if (!_sampled)
        _runSample();
    if (_samplePos >= _sampleOut.size())
        return std::nullopt;
    ++_nReturned;
    return std::move(_sampleOut[_samplePos++]);
}

void DocumentSourceInternalUnpackBucket::_runSample() {
    _sampled = true;
    std::mt19937_64 gen{std::random_device{}()};
    OperationContext* opCtx = _expCtx->opCtx;
    auto coll = opCtx ? opCtx->getServiceContext()->catalog->lookup(_expCtx->ns) : nullptr;
    const long long maxCount = gTimeseriesBucketMaxCount.load();
    if (coll && !coll->isDropped() &&
        timeseries_sample::useArhash(*_sampleSize, coll->numRecords(opCtx), maxCount)) {
        // The plan stages of the planned path (timeseries_sample_stages.h), drained here when
        // the pipeline was not planned by preparePipeline (sub-pipelines).
        SampleFromTimeseriesBucketStage arhash(std::make_unique<RandomBucketStage>(coll, &gen),
                                               _unpacker.spec(), *_sampleSize, maxCount, &gen);
        std::vector<BSONObj> sample;
        while (auto m = arhash.next(opCtx))
            sample.push_back(std::move(m->doc));
        if (!arhash.failed()) {
            _sampleOut = std::move(sample);
            return;
        }
    }
    long long returned = _nReturned;
    _sampleOut = timeseries_sample::reservoirSample([this] { return _nextMeasurement(); },
                                                    *_sampleSize, &gen);
    _nReturned = returned;
}

bool DocumentSourceInternalUnpackBucket::_absorbSample(StageList::iterator it,
                                                       StageList::iterator next,
                                                       StageList* container) {
    const BucketSpec& spec = _unpacker.spec();
    if (_sampleSize || std::string((*next)->getSourceName()) != "$sample" || _eventFilter ||
        _bucketMatch || _bucketSort || !_bucketProjections.empty() || it != container->begin() ||
        spec.behavior != BucketSpec::Behavior::kExclude || !spec.fieldSet.empty() ||
        !spec.computedMetaProjFields.empty())
        return false;
    BSONArrayBuilder arr;
    (*next)->serialize(&arr);
    _sampleSize = arr.arr().firstElement().Obj()["$sample"].Obj()["size"].numberLong();
    container->erase(next);
    return true;
}

std::optional<BSONObj> DocumentSourceInternalUnpackBucket::_nextMeasurement() {
    if (!_rowFilter)
        _rowFilter = _eventFilter ? BucketRowFilter::make(*_eventFilter, _unpacker.spec())
                                  : BucketRowFilter();
    while (true) {
        while (_unpacker.hasNext()) {
            _expCtx->checkForInterruptEvery128();
            if (_useRowMask) {
                // The next row that may match (the eventFilter still decides).
                size_t i = _unpacker.position();
                size_t w = i >> 6;
                uint64_t bits = w < _rowMask.size() ? _rowMask[w] & (~uint64_t(0) << (i & 63)) : 0;
                while (!bits && ++w < _rowMask.size())
                    bits = _rowMask[w];
                _unpacker.skipTo(bits ? (w << 6) + __builtin_ctzll(bits)
                                      : _unpacker.numberOfMeasurements());
                if (!_unpacker.hasNext())
                    break;
            }
            BSONObj m = _unpacker.getNext();
            if (_eventFilter && !_bucketMatchesWhole && !_eventFilter->matchesBSON(m))
                continue;
            ++_nReturned;
            return m;
        }
        std::optional<BSONObj> bucket = _source ? _source->getNext() : std::nullopt;
        if (!bucket)
            return std::nullopt;
        ++_bucketsExamined;
        _unpacker.reset(*bucket);
        _bucketMatchesWhole = _wholeBucketFilter && _wholeBucketFilter->matchesBSON(*bucket);
        _useRowMask = _eventFilter && !_bucketMatchesWhole && !_rowFilter->empty() &&
                      _rowFilter->candidates(&_unpacker, &_rowMask);
    }
}

StageList::iterator DocumentSourceInternalUnpackBucket::optimizeAt(StageList::iterator it,
                                                                   StageList* container) {
    auto next = std::next(it);
    if (_sampleSize)
        return next;  // stages after the sample see sampled measurements only
    if (next != container->end() && _absorbSample(it, next, container))
        return std::next(it);
    if (next != container->end() && dynamic_cast<DocumentSourceMatch*>(next->get())) {
        _absorbMatch(it, next, container);
        return it;  // look again: another $match may follow
    }
    if (next == container->end()) {
        _pruneUnusedFields(next, container);
        return next;
    }
    if (_internalizeProject(next, container))
        return it;  // look again: the next stage may be rewritten too
    if (_pushDownComputedMetaProjection(it, next, container))
        return it;  // look again: a $match on the new fields may follow
    if (_moveMetaSort(it, next, container))
        return it;
    if (_rewriteLastPoint(it, next, container))
        return it;
    StageList::iterator resume;
    if (_rewriteGroup(it, next, container, &resume))
        return resume;  // `this` no longer exists
    _useBoundedSort(it, next, container);
    _copyLimit(it, std::next(it), container);
    _pruneUnusedFields(std::next(it), container);
    return std::next(it);
}

StageList::iterator DocumentSourceInternalUnpackBucket::_bucketMatchPosition(StageList::iterator it,
                                                                             StageList* container) {
    for (auto i = container->begin(); i != it; ++i) {
        if (i->get() == _bucketMatch) {
            auto after = container->erase(i);
            _bucketMatch = nullptr;
            return after;
        }
    }
    // Before the bucket $sort, and before the pushed-down computed meta projections (the
    // bucket predicates read only meta, control and _id): the find layer takes a leading
    // $match.
    for (auto i = container->begin(); i != it; ++i)
        if (i->get() == _bucketSort ||
            std::find(_bucketProjections.begin(), _bucketProjections.end(), i->get()) !=
                _bucketProjections.end())
            return i;
    return it;
}

bool DocumentSourceInternalUnpackBucket::_pushDownComputedMetaProjection(StageList::iterator it,
                                                                         StageList::iterator next,
                                                                         StageList* container) {
    auto* transform = dynamic_cast<DocumentSourceSingleDocumentTransformation*>(next->get());
    if (!transform || !transform->projection())
        return false;
    BSONArrayBuilder arr;
    transform->serialize(&arr);
    BSONObj stageObj = arr.arr().firstElement().Obj().getOwned();
    const BucketSpec& spec = _unpacker.spec();
    auto pushed = timeseries_rewrite::extractComputedMetaProjection(stageObj, spec);
    if (!pushed)
        return false;
    if (!_eventFilterSpec.isEmpty()) {
        // The eventFilter of an earlier $match reads the measurement's own fields.
        auto read = matchFilterFields(_eventFilterSpec);
        if (!read)
            return false;
        for (const auto& f : pushed->fields)
            if (read->count(f))
                return false;
    }
    BucketSpec extended = spec;
    for (const auto& f : pushed->fields) {
        extended.computedMetaProjFields.push_back(f);
        // A measurement column of the same name is replaced, not unpacked.
        if (extended.behavior == BucketSpec::Behavior::kExclude)
            extended.fieldSet.insert(f);
        else
            extended.fieldSet.erase(f);
    }
    _unpacker = BucketUnpacker(std::move(extended));
    for (auto& st : parseDocumentSource(BSON("$addFields" << pushed->bucketAddFields), _expCtx)) {
        _bucketProjections.push_back(st.get());
        container->insert(it, std::move(st));
    }
    if (pushed->rest) {
        auto restStages = parseDocumentSource(*pushed->rest, _expCtx);
        invariant(restStages.size() == 1);
        *next = std::move(restStages.front());
    } else {
        container->erase(next);
    }
    return true;
}

namespace {

/**
 * With fixed buckets (rounding equal to the span, parameters never changed) every bucket holds
 * the times [start, start + span), `start` a multiple of the span. A $lt or $gte on the time field
 * against a date on such a boundary then takes whole buckets or none, so the bucket-level $match
 * decides it alone. True when `filter` is made only of such predicates (under $and/$or).
 */
bool isExactOnFixedBuckets(const BSONObj& filter, StringData timeField, long long spanMillis) {
    if (filter.isEmpty() || spanMillis <= 0)
        return false;
    for (BSONElement e : filter) {
        StringData name = e.fieldNameStringData();
        if (name == "$and" || name == "$or") {
            if (e.type() != BSONType::kArray || e.embeddedObject().isEmpty())
                return false;
            for (BSONElement sub : e.embeddedObject())
                if (sub.type() != BSONType::kObject ||
                    !isExactOnFixedBuckets(sub.embeddedObject(), timeField, spanMillis))
                    return false;
            continue;
        }
        if (name != timeField || e.type() != BSONType::kObject || e.embeddedObject().isEmpty())
            return false;
        for (BSONElement op : e.embeddedObject()) {
            StringData cmp = op.fieldNameStringData();
            if ((cmp != "$lt" && cmp != "$gte") || op.type() != BSONType::kDate)
                return false;
            const long long ms = op.date().toMillisSinceEpoch();
            if ((ms % spanMillis + spanMillis) % spanMillis != 0)
                return false;
        }
    }
    return true;
}

// `filter` without its top-level conjuncts on the meta field alone that the bucket-level
// predicates decide exactly (empty when nothing is left).
BSONObj withoutExactMetaConjuncts(const BSONObj& filter, const BucketSpec& spec,
                                  const BucketPredicateOptions& opts) {
    if (!spec.metaField)
        return filter;
    std::vector<BSONObj> conjuncts;
    for (auto e : filter) {
        if (e.fieldNameStringData() == "$and" && e.type() == BSONType::kArray) {
            for (auto c : e.embeddedObject()) {
                if (c.type() != BSONType::kObject)
                    return filter;
                conjuncts.push_back(c.embeddedObject());
            }
        } else {
            BSONObjBuilder one;
            one.append(e);
            conjuncts.push_back(one.obj());
        }
    }
    BSONArrayBuilder kept;
    size_t nKept = 0;
    for (const auto& c : conjuncts) {
        auto fields = matchFilterFields(c);
        if (fields && fields->size() == 1 && *fields->begin() == *spec.metaField) {
            BucketLevelPredicates p = makeBucketLevelPredicates(c, spec, opts);
            if (!p.tight.isEmpty() && !p.loose.isEmpty())
                continue;
        }
        kept.append(c);
        ++nKept;
    }
    if (nKept == conjuncts.size())
        return filter;
    BSONArray arr = kept.arr();
    if (nKept == 0)
        return BSONObj();
    if (nKept == 1)
        return arr.firstElement().embeddedObject().getOwned();
    return BSON("$and" << arr);
}

}  // namespace

void DocumentSourceInternalUnpackBucket::_absorbMatch(StageList::iterator it,
                                                      StageList::iterator next,
                                                      StageList* container) {
    auto* match = static_cast<DocumentSourceMatch*>(next->get());
    BSONObj filter = match->getQuery().getOwned();
    BSONObj predicateSource = filter;
    if (!_unpacker.spec().computedMetaProjFields.empty()) {
        // Conjuncts on computed meta fields run exactly on the buckets, after the pushed
        // $addFields (spec §5.4); the others must not be mapped to control fields.
        auto split = timeseries_rewrite::splitComputedMetaMatch(filter, _unpacker.spec());
        if (!split.bucketFilter.isEmpty())
            container->insert(it,
                              std::make_unique<DocumentSourceMatch>(_expCtx, split.bucketFilter));
        if (!split.predicatesComplete)
            _predicatesPartial = true;
        filter = split.rest;
        predicateSource = split.predicateSource;
        if (filter.isEmpty()) {
            container->erase(next);
            return;
        }
    }
    BucketPredicateOptions opts;
    opts.bucketMaxSpanSeconds = _bucketMaxSpanSeconds;
    opts.assumeNoMixedSchemaData = _assumeNoMixedSchemaData;
    opts.usesExtendedRange = _usesExtendedRange;
    opts.collationMatchesDefault = collationMatchesCollectionDefault(*_expCtx);
    const BucketSpec& spec = _unpacker.spec();
    // Conjuncts on the meta field alone are decided exactly by the bucket-level $match
    // (spec §5.3.4); like upstream, the eventFilter keeps only the others.
    BSONObj eventPart = withoutExactMetaConjuncts(filter, spec, opts);
    if (!eventPart.isEmpty()) {
        _eventFilterSpec = _eventFilterSpec.isEmpty()
                               ? eventPart
                               : BSON("$and" << BSON_ARRAY(_eventFilterSpec << eventPart));
        _eventFilter = parseFilter(_eventFilterSpec, _expCtx);
    }
    container->erase(next);
    if (!predicateSource.isEmpty())
        _predicateSpec = _predicateSpec.isEmpty()
                             ? predicateSource
                             : BSON("$and" << BSON_ARRAY(_predicateSpec << predicateSource));

    BucketLevelPredicates preds = _predicateSpec.isEmpty()
                                      ? BucketLevelPredicates()
                                      : makeBucketLevelPredicates(_predicateSpec, spec, opts);
    if (_predicatesPartial)
        preds.tight = BSONObj();  // a part of the eventFilter has no bucket-level image
    _wholeBucketFilterSpec = preds.tight;
    _wholeBucketFilter = preds.tight.isEmpty() ? nullptr : parseFilter(preds.tight, _expCtx);
    auto pos = _bucketMatchPosition(it, container);
    if (!preds.loose.isEmpty()) {
        auto bucketMatch = std::make_unique<DocumentSourceMatch>(_expCtx, preds.loose);
        _bucketMatch = bucketMatch.get();
        container->insert(pos, std::move(bucketMatch));
    }
    // A filter on the meta field only is decided exactly per bucket (spec §5.3.4): the
    // bucket-level $match replaces it.
    auto fields = matchFilterFields(_eventFilterSpec);
    _eventFilterRedundant = spec.metaField && fields && !preds.tight.isEmpty() &&
                            !preds.loose.isEmpty() && fields->size() == 1 &&
                            *fields->begin() == *spec.metaField;
    // So is one made only of time bounds on bucket boundaries, with fixed buckets (as upstream,
    // for the whole filter: a conjunct on another field keeps every conjunct in the
    // eventFilter).
    if (_fixedBuckets && !_usesExtendedRange && !_predicatesPartial && !preds.loose.isEmpty() &&
        isExactOnFixedBuckets(_eventFilterSpec, spec.timeField, _bucketMaxSpanSeconds * 1000LL))
        _eventFilterRedundant = true;
    if (_eventFilterRedundant || _eventFilterSpec.isEmpty()) {
        _eventFilter = nullptr;
        _wholeBucketFilter = nullptr;
        _wholeBucketFilterSpec = BSONObj();
    }
}

bool DocumentSourceInternalUnpackBucket::_internalizeProject(StageList::iterator next,
                                                             StageList* container) {
    auto* transform = dynamic_cast<DocumentSourceSingleDocumentTransformation*>(next->get());
    const BucketSpec& spec = _unpacker.spec();
    // Only over a full unpacking: computed meta fields are copied whatever the list says.
    if (!transform || !transform->projection() || spec.behavior != BucketSpec::Behavior::kExclude ||
        !spec.fieldSet.empty() || !spec.computedMetaProjFields.empty())
        return false;
    BSONArrayBuilder arr;
    transform->serialize(&arr);
    auto proj =
        timeseries_rewrite::internalizableProjection(arr.arr().firstElement().Obj().getOwned());
    if (!proj)
        return false;
    BucketSpec projected = spec;
    projected.behavior = proj->behavior;
    projected.fieldSet = proj->fields;
    if (!_eventFilterSpec.isEmpty()) {
        // As upstream, an exclusion stays a stage of its own after a pushed-down filter (the
        // unpacking keeps `exclude: []`); an inclusion is taken when the filter's fields stay.
        if (proj->behavior == BucketSpec::Behavior::kExclude)
            return false;
        // The eventFilter runs on the unpacked measurement: it must see every field it reads.
        auto read = matchFilterFields(_eventFilterSpec);
        if (!read)
            return false;
        for (const auto& f : *read)
            if (!projected.includes(f))
                return false;
    }
    // The unpacked measurement keeps its field order, as the $project does (document order).
    _unpacker = BucketUnpacker(std::move(projected));
    _fieldsPruned = true;
    container->erase(next);
    return true;
}

bool DocumentSourceInternalUnpackBucket::_moveMetaSort(StageList::iterator it,
                                                       StageList::iterator next,
                                                       StageList* container) {
    auto* sort = dynamic_cast<DocumentSourceSort*>(next->get());
    if (!sort || _bucketSort)
        return false;
    auto bucketSortSpec =
        timeseries_rewrite::bucketSortForMetaSort(sort->getSpec(), _unpacker.spec());
    if (!bucketSortSpec)
        return false;
    long long limit = sort->getLimit();
    auto after = std::next(next);
    if (after != container->end())
        if (auto* l = dynamic_cast<DocumentSourceLimit*>(after->get())) {
            limit = limit > 0 ? std::min(limit, l->getLimit()) : l->getLimit();
            container->erase(after);
        }
    container->erase(next);
    auto bucketSort = std::make_unique<DocumentSourceSort>(_expCtx, *bucketSortSpec, limit);
    _bucketSort = bucketSort.get();
    container->insert(it, std::move(bucketSort));
    if (limit > 0)
        container->insert(std::next(it), std::make_unique<DocumentSourceLimit>(_expCtx, limit));
    return true;
}

void DocumentSourceInternalUnpackBucket::_useBoundedSort(StageList::iterator it,
                                                         StageList::iterator next,
                                                         StageList* container) {
    auto* sort = dynamic_cast<DocumentSourceSort*>(next->get());
    if (!sort || _bucketSort)
        return;
    auto plan = timeseries_rewrite::planBoundedSort(sort->getSpec(), _unpacker.spec());
    if (!plan)
        return;
    long long limit = sort->getLimit();
    auto after = std::next(next);
    if (after != container->end())
        if (auto* l = dynamic_cast<DocumentSourceLimit*>(after->get())) {
            limit = limit > 0 ? std::min(limit, l->getLimit()) : l->getLimit();
            container->erase(after);
        }
    // Buckets in control.min order: ascending needs bound min, descending min + span.
    auto bounded = std::make_unique<DocumentSourceInternalBoundedSort>(
        _expCtx, sort->getSpec(), DocumentSourceInternalBoundedSort::BoundBase::kMin,
        plan->timeAscending ? 0 : _bucketMaxSpanSeconds, limit);
    bool timeOnly = sort->getSpec().nFields() == 1;
    *next = std::move(bounded);
    if (timeOnly)  // with meta keys first, time only increases within one series
        _useStreamingGroup(next, container);
    // On time alone, bucket _id order is bucket start order (its first 4 bytes are
    // control.min.<time>), unless times outside [1970, 2106) wrapped some _ids: the clustered
    // _id order then serves the sort without a blocking sort of the buckets.
    BSONObj bucketSortSpec = timeOnly && !_usesExtendedRange
                                 ? BSON("_id" << (plan->timeAscending ? 1 : -1))
                                 : plan->bucketSort;
    auto bucketSort = std::make_unique<DocumentSourceSort>(_expCtx, bucketSortSpec);
    _bucketSort = bucketSort.get();
    container->insert(it, std::move(bucketSort));
}

void DocumentSourceInternalUnpackBucket::_useStreamingGroup(StageList::iterator boundedSort,
                                                            StageList* container) {
    auto groupIt = std::next(boundedSort);
    if (groupIt == container->end())
        return;
    auto* group = dynamic_cast<DocumentSourceGroup*>(groupIt->get());
    if (!group || !group->groupSpec())
        return;
    auto fields =
        timeseries_rewrite::monotonicIdFields(*group->groupSpec(), _unpacker.spec().timeField);
    if (!fields)
        return;
    *groupIt = std::make_unique<DocumentSourceInternalStreamingGroup>(_expCtx, *group->groupSpec(),
                                                                      std::move(*fields));
}

bool DocumentSourceInternalUnpackBucket::_rewriteGroup(StageList::iterator it,
                                                       StageList::iterator next,
                                                       StageList* container,
                                                       StageList::iterator* resume) {
    if (_eventFilter || !dynamic_cast<DocumentSourceGroup*>(next->get()))
        return false;
    // control.min/max order strings by the collection's default collation (§5.4).
    if (!collationMatchesCollectionDefault(*_expCtx))
        return false;
    const BucketSpec& spec = _unpacker.spec();
    if (spec.behavior != BucketSpec::Behavior::kExclude || !spec.fieldSet.empty() ||
        !spec.computedMetaProjFields.empty())
        return false;
    BSONArrayBuilder arr;
    (*next)->serialize(&arr);
    BSONObj groupStage = arr.arr().firstElement().Obj().getOwned();
    auto rewrite = timeseries_rewrite::rewriteGroupOverBuckets(
        groupStage.firstElement().Obj(), spec,
        _fixedBuckets && !_usesExtendedRange ? std::optional<long long>(_bucketMaxSpanSeconds)
                                             : std::nullopt);
    if (!rewrite)
        return false;
    std::vector<std::string> maxFields;
    for (const auto& f : rewrite->maxFields)
        if (f != spec.timeField)  // control.max.<time> is exact
            maxFields.push_back(f);
    StageList replacement;
    if (!rewrite->minFields.empty() || !maxFields.empty())
        replacement.push_back(std::make_unique<DocumentSourceInternalTimeseriesExactMinMax>(
            _expCtx, spec.timeField, rewrite->minFields, maxFields));
    for (auto& st : parseDocumentSource(BSON("$group" << rewrite->bucketGroup), _expCtx))
        replacement.push_back(std::move(st));
    auto first = replacement.begin();
    *resume = first;
    container->splice(it, replacement);
    container->erase(it, std::next(next));  // destroys this stage
    return true;
}

bool DocumentSourceInternalUnpackBucket::_rewriteLastPoint(StageList::iterator it,
                                                           StageList::iterator next,
                                                           StageList* container) {
    if (_eventFilter || _bucketSort || !_unpacker.spec().computedMetaProjFields.empty())
        return false;  // the bucket-level $group keeps only meta, control and data
    BSONObj sortSpec;
    long long sortLimit = 0;
    auto groupIt = next;
    if (auto* sort = dynamic_cast<DocumentSourceSort*>(next->get())) {
        sortSpec = sort->getSpec();
        sortLimit = sort->getLimit();
        groupIt = std::next(next);
    }
    if (groupIt == container->end() || !dynamic_cast<DocumentSourceGroup*>(groupIt->get()))
        return false;
    BSONArrayBuilder arr;
    (*groupIt)->serialize(&arr);
    BSONObj groupStage = arr.arr().firstElement().Obj().getOwned();
    auto rewrite = timeseries_rewrite::rewriteLastPoint(
        sortSpec, sortLimit, groupStage.firstElement().Obj(), _unpacker.spec());
    if (!rewrite)
        return false;
    for (const auto& stageObj : rewrite->bucketStages)
        for (auto& st : parseDocumentSource(stageObj, _expCtx)) {
            if (!_bucketSort)
                _bucketSort = st.get();  // blocks the other sort rewrites
            container->insert(it, std::move(st));
        }
    return true;
}

void DocumentSourceInternalUnpackBucket::_copyLimit(StageList::iterator it,
                                                    StageList::iterator next,
                                                    StageList* container) {
    if (next == container->end() || _eventFilter || _bucketSort)
        return;
    auto* limit = dynamic_cast<DocumentSourceLimit*>(next->get());
    if (!limit)
        return;
    // Each bucket holds at least one measurement: N buckets hold the first N.
    container->insert(it, std::make_unique<DocumentSourceLimit>(_expCtx, limit->getLimit()));
}

void DocumentSourceInternalUnpackBucket::_pruneUnusedFields(StageList::iterator next,
                                                            StageList* container) {
    const BucketSpec& spec = _unpacker.spec();
    if (_fieldsPruned || spec.behavior != BucketSpec::Behavior::kExclude)
        return;
    const auto& computed = spec.computedMetaProjFields;
    for (const auto& f : spec.fieldSet)  // only the names the computed fields replace
        if (std::find(computed.begin(), computed.end(), f) == computed.end())
            return;
    _fieldsPruned = true;
    std::vector<BSONObj> rest;
    for (auto i = next; i != container->end(); ++i) {
        BSONArrayBuilder arr;
        (*i)->serialize(&arr);
        for (auto st : arr.arr())
            rest.push_back(st.embeddedObject().getOwned());
    }
    auto needed = neededTopLevelFields(rest);
    if (!needed)
        return;
    if (!_eventFilterSpec.isEmpty()) {
        auto filterFields = matchFilterFields(_eventFilterSpec);
        if (!filterFields)
            return;
        needed->insert(filterFields->begin(), filterFields->end());
    }
    for (const auto& f : computed)
        needed->erase(f);  // copied from the bucket, not unpacked
    BucketSpec pruned = spec;
    pruned.behavior = BucketSpec::Behavior::kInclude;
    pruned.fieldSet = *needed;
    _unpacker = BucketUnpacker(std::move(pruned));
}

void DocumentSourceInternalUnpackBucket::appendExplainStats(BSONObjBuilder* b) const {
    b->appendNumber("nReturned", _nReturned);  // not proxied: see Pipeline::stageStats
    b->append("nBucketsUnpacked", _planSampleBuckets ? _planSampleBuckets() : _bucketsExamined);
}

StageConstraints DocumentSourceInternalUnpackBucket::constraints() const {
    StageConstraints c;
    c.requiresFirst = false;
    return c;
}

void DocumentSourceInternalUnpackBucket::serialize(BSONArrayBuilder* out) const {
    BSONObjBuilder stage;
    {
        BSONObjBuilder b(stage.subobjStart(kStageName));
        const BucketSpec& spec = _unpacker.spec();
        BSONArrayBuilder fields(b.subarrayStart(
            spec.behavior == BucketSpec::Behavior::kInclude ? "include" : "exclude"));
        for (const auto& f : spec.fieldSet)
            fields.append(f);
        fields.done();
        b.append("timeField", spec.timeField);
        if (spec.metaField)
            b.append("metaField", *spec.metaField);
        b.append("bucketMaxSpanSeconds", _bucketMaxSpanSeconds);
        if (_assumeNoMixedSchemaData)
            b.append("assumeNoMixedSchemaData", true);
        if (_usesExtendedRange)
            b.append("usesExtendedRange", true);
        if (!spec.computedMetaProjFields.empty()) {
            BSONArrayBuilder c(b.subarrayStart("computedMetaProjFields"));
            for (const auto& f : spec.computedMetaProjFields)
                c.append(f);
        }
        if (_includeMinTime)
            b.append("includeMinTimeAsMetadata", true);
        if (_includeMaxTime)
            b.append("includeMaxTimeAsMetadata", true);
        // Explain prints the filters as upstream does, from the parsed trees.
        if (!_wholeBucketFilterSpec.isEmpty())
            b.append("wholeBucketFilter", _expCtx->explain && _wholeBucketFilter
                                              ? serializeForExplain(*_wholeBucketFilter)
                                              : _wholeBucketFilterSpec);
        if (!_eventFilterSpec.isEmpty() && !_eventFilterRedundant)
            b.append("eventFilter", _expCtx->explain && _eventFilter
                                        ? serializeForExplain(*_eventFilter)
                                        : _eventFilterSpec);
        if (_fixedBuckets)
            b.append("fixedBuckets", true);
        if (_sampleSize && _expCtx->explain) {  // explain only: not a parse field
            b.append("sample", *_sampleSize);
            b.append("bucketMaxCount", static_cast<int>(gTimeseriesBucketMaxCount.load()));
        }
    }
    out->append(stage.obj());
}

namespace {
const bool kRegistered = [] {
    registerDocumentSource(
        DocumentSourceInternalUnpackBucket::kStageName,
        [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& ctx) {
            std::vector<StagePtr> v;
            v.push_back(DocumentSourceInternalUnpackBucket::createFromBson(e, ctx));
            return v;
        });
    registerDocumentSource(
        DocumentSourceInternalUnpackBucket::kStageNameExternal,
        [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& ctx) {
            std::vector<StagePtr> v;
            v.push_back(DocumentSourceInternalUnpackBucket::createFromBson(e, ctx));
            return v;
        });
    return true;
}();
}  // namespace

}  // namespace mongo
