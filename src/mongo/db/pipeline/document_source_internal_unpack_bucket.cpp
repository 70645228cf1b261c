#include "mongo/db/pipeline/document_source_internal_unpack_bucket.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/pipeline/bucket_level_predicates.h"
#include "mongo/db/pipeline/document_source_match.h"
#include "mongo/db/pipeline/unpack_dependencies.h"
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
                "include or exclude field element must be a single-element field path string, but found " +
                    std::string(typeName(f.type())),
                f.type() == BSONType::kString);
        uassert(5346503, "include or exclude field element must be a single-element field path string",
                f.valueStringData().find('.') == StringData::npos);
        out.insert(f.str());
    }
    return out;
}

std::unique_ptr<MatchExpression> parseFilter(const BSONObj& spec) {
    return uassertStatusOK(parseMatchExpression(spec));
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
            uassert(5408000, "The $_internalUnpackBucket stage expects either an include or exclude parameter, but not both",
                    !(haveInclude || haveExclude));
            spec.fieldSet = parseFieldList(e, kStageName);
            spec.behavior = f == "include" ? BucketSpec::Behavior::kInclude
                                           : BucketSpec::Behavior::kExclude;
            (f == "include" ? haveInclude : haveExclude) = true;
        } else if (f == "timeField") {
            uassert(external ? 5612401 : 5346504, "timeField field must be a string, got: " + std::string(typeName(e.type())),
                    e.type() == BSONType::kString);
            spec.timeField = e.str();
            haveTime = true;
        } else if (f == "metaField") {
            uassert(external ? 5612402 : 5346505, "metaField field must be a string, got: " + std::string(typeName(e.type())),
                    e.type() == BSONType::kString);
            uassert(external ? 5612403 : 5545700, "metaField field must be a single-element field path",
                    e.valueStringData().find('.') == StringData::npos);
            spec.metaField = e.str();
        } else if (!external && f == "bucketMaxSpanSeconds") {
            uassert(5510600, "bucketMaxSpanSeconds field must be an integer, got: " + std::string(typeName(e.type())),
                    e.type() == BSONType::kNumberInt);
            span = e._numberInt();
            uassert(5510601, "bucketMaxSpanSeconds field must be greater than zero", span > 0);
            haveSpan = true;
        } else if (f == "assumeNoMixedSchemaData") {
            uassert(external ? 6067203 : 6067202, "assumeNoMixedSchemaData field must be a bool, got: " + std::string(typeName(e.type())),
                    e.type() == BSONType::kBool);
            assumeNoMixed = e.boolean();
        } else if (!external && f == "usesExtendedRange") {
            uassert(6646901, "usesExtendedRange field must be a bool", e.type() == BSONType::kBool);
            extended = e.boolean();
        } else if (!external && f == "computedMetaProjFields") {
            uassert(5509900, "computedMetaProjFields field must be an array", e.type() == BSONType::kArray);
            for (auto c : e.embeddedObject()) {
                uassert(5509901, "computedMetaProjFields field element must be a single-element field path string",
                        c.type() == BSONType::kString);
                uassert(5509902, "computedMetaProjFields field element must be a single-element field path string",
                        c.valueStringData().find('.') == StringData::npos);
                spec.computedMetaProjFields.push_back(c.str());
            }
        } else if (!external && f == "includeMinTimeAsMetadata") {
            uassert(6460208, "includeMinTimeAsMetadata field must be a bool", e.type() == BSONType::kBool);
            minT = e.boolean();
        } else if (!external && f == "includeMaxTimeAsMetadata") {
            uassert(6460209, "includeMaxTimeAsMetadata field must be a bool", e.type() == BSONType::kBool);
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
    auto stage = std::make_unique<DocumentSourceInternalUnpackBucket>(expCtx, std::move(spec), span);
    stage->_assumeNoMixedSchemaData = assumeNoMixed;
    stage->_usesExtendedRange = extended;
    stage->_fixedBuckets = fixed;
    stage->_includeMinTime = minT;
    stage->_includeMaxTime = maxT;
    stage->_eventFilterSpec = eventFilter;
    stage->_wholeBucketFilterSpec = wholeBucketFilter;
    if (!eventFilter.isEmpty())
        stage->_eventFilter = parseFilter(eventFilter);
    if (!wholeBucketFilter.isEmpty())
        stage->_wholeBucketFilter = parseFilter(wholeBucketFilter);
    return stage;
}

DocumentSourceInternalUnpackBucket::DocumentSourceInternalUnpackBucket(
    std::shared_ptr<ExpressionContext> expCtx, BucketSpec spec, int bucketMaxSpanSeconds)
    : DocumentSource(std::move(expCtx)),
      _unpacker(std::move(spec)),
      _bucketMaxSpanSeconds(bucketMaxSpanSeconds) {}

std::optional<BSONObj> DocumentSourceInternalUnpackBucket::getNext() {
    while (true) {
        while (_unpacker.hasNext()) {
            BSONObj m = _unpacker.getNext();
            if (_eventFilter && !_bucketMatchesWhole && !_eventFilter->matchesBSON(m))
                continue;
            return m;
        }
        std::optional<BSONObj> bucket = _source ? _source->getNext() : std::nullopt;
        if (!bucket)
            return std::nullopt;
        ++_bucketsExamined;
        _unpacker.reset(*bucket);
        _bucketMatchesWhole = _wholeBucketFilter && _wholeBucketFilter->matchesBSON(*bucket);
    }
}

StageList::iterator DocumentSourceInternalUnpackBucket::optimizeAt(StageList::iterator it,
                                                                 StageList* container) {
    auto next = std::next(it);
    auto* match = next == container->end() ? nullptr : dynamic_cast<DocumentSourceMatch*>(next->get());
    if (!match) {
        _pruneUnusedFields(next, container);
        return next;
    }
    BSONObj filter = match->getQuery().getOwned();
    _eventFilterSpec = _eventFilterSpec.isEmpty()
        ? filter
        : BSON("$and" << BSON_ARRAY(_eventFilterSpec << filter));
    _eventFilter = parseFilter(_eventFilterSpec);
    container->erase(next);

    BucketPredicateOptions opts;
    opts.bucketMaxSpanSeconds = _bucketMaxSpanSeconds;
    opts.assumeNoMixedSchemaData = _assumeNoMixedSchemaData;
    opts.usesExtendedRange = _usesExtendedRange;
    BucketLevelPredicates preds = makeBucketLevelPredicates(_eventFilterSpec, _unpacker.spec(), opts);
    _wholeBucketFilterSpec = preds.tight;
    _wholeBucketFilter = preds.tight.isEmpty() ? nullptr : parseFilter(preds.tight);
    if (it != container->begin() && std::prev(it)->get() == _bucketMatch) {
        container->erase(std::prev(it));
        _bucketMatch = nullptr;
    }
    if (!preds.loose.isEmpty()) {
        auto bucketMatch = std::make_unique<DocumentSourceMatch>(_expCtx, preds.loose);
        _bucketMatch = bucketMatch.get();
        container->insert(it, std::move(bucketMatch));
    }
    return it;  // look again: another $match may follow
}

void DocumentSourceInternalUnpackBucket::_pruneUnusedFields(StageList::iterator next,
                                                             StageList* container) {
    const BucketSpec& spec = _unpacker.spec();
    if (_fieldsPruned || spec.behavior != BucketSpec::Behavior::kExclude ||
        !spec.fieldSet.empty() || !spec.computedMetaProjFields.empty())
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
    BucketSpec pruned = spec;
    pruned.behavior = BucketSpec::Behavior::kInclude;
    pruned.fieldSet = *needed;
    _unpacker = BucketUnpacker(std::move(pruned));
}

void DocumentSourceInternalUnpackBucket::appendExplainStats(BSONObjBuilder* b) const {
    b->append("nBucketsUnpacked", _bucketsExamined);
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
        if (!_wholeBucketFilterSpec.isEmpty())
            b.append("wholeBucketFilter", _wholeBucketFilterSpec);
        if (!_eventFilterSpec.isEmpty())
            b.append("eventFilter", _eventFilterSpec);
        if (_fixedBuckets)
            b.append("fixedBuckets", true);
    }
    out->append(stage.obj());
}

namespace {
const bool kRegistered = [] {
    registerDocumentSource(DocumentSourceInternalUnpackBucket::kStageName,
                           [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& ctx) {
                               std::vector<StagePtr> v;
                               v.push_back(DocumentSourceInternalUnpackBucket::createFromBson(e, ctx));
                               return v;
                           });
    registerDocumentSource(DocumentSourceInternalUnpackBucket::kStageNameExternal,
                           [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& ctx) {
                               std::vector<StagePtr> v;
                               v.push_back(DocumentSourceInternalUnpackBucket::createFromBson(e, ctx));
                               return v;
                           });
    return true;
}();
}  // namespace

}  // namespace mongo
