// $graphLookup: for each input document, a breadth-first search over another collection
// (or view, time-series included) that follows connectFromField -> connectToField edges,
// starting from the values of `startWith`. Each level is one query on the foreign side,
// {connectToField: {$in: <frontier>}}, so an index on connectToField serves it.
#include <limits>
#include <set>
#include <shared_mutex>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/exec/plan_stage.h"
#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/pipeline/document_path.h"
#include "mongo/db/pipeline/document_source.h"
#include "mongo/db/pipeline/expression.h"
#include "mongo/db/pipeline/pipeline_d.h"
#include "mongo/db/service_context.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

constexpr StringData kStageName = "$graphLookup";
// A frontier batch stops growing at this many bytes of $in values (one query each).
constexpr size_t kMaxQueryBatchBytes = 8 * 1024 * 1024;

/** The dotted path of a string argument; 40103 when not a string, 16410 and friends when bad. */
std::vector<std::string> stringPathArg(const BSONElement& e) {
    uassert(40103,
            "expected string as argument for " + std::string(e.fieldNameStringData()) +
                ", found: " + typeNameOf(Value(e)),
            e.type() == BSONType::kString);
    return splitFieldPath(e.valueStringData());
}

std::string joinPath(const std::vector<std::string>& parts) {
    std::string out;
    for (const auto& p : parts)
        out += (out.empty() ? "" : ".") + p;
    return out;
}

/** Whether `obj` names one of the operators a $graphLookup filter may not use, at any depth. */
std::optional<std::string> forbiddenOperator(const BSONObj& obj) {
    for (auto e : obj) {
        StringData n = e.fieldNameStringData();
        if (n == "$where" || n == "$text" || n == "$near" || n == "$nearSphere" || n == "$geoNear")
            return std::string(n);
        if (e.type() == BSONType::kObject || e.type() == BSONType::kArray)
            if (auto inner = forbiddenOperator(e.Obj()))
                return inner;
    }
    return std::nullopt;
}

bool mentionsExpr(const BSONObj& obj) {
    for (auto e : obj) {
        if (e.fieldNameStringData() == "$expr")
            return true;
        if ((e.type() == BSONType::kObject || e.type() == BSONType::kArray) &&
            mentionsExpr(e.Obj()))
            return true;
    }
    return false;
}

/**
 * Calls `fn` with every value at `parts` of `e`'s subtree, entering arrays on the way as the
 * matcher does; an array at the end of the path gives each of its elements.
 */
template <typename F>
void forEachValueAtPath(const BSONElement& e, const std::vector<std::string>& parts, size_t i,
                        F&& fn) {
    if (e.eoo())
        return;
    if (i == parts.size()) {
        if (e.type() == BSONType::kArray) {
            for (auto x : e.Obj())
                fn(Value(x));
        } else {
            fn(Value(e));
        }
        return;
    }
    if (e.type() == BSONType::kObject) {
        forEachValueAtPath(e.Obj()[parts[i]], parts, i + 1, fn);
    } else if (e.type() == BSONType::kArray) {
        for (auto x : e.Obj())
            if (x.type() == BSONType::kObject)
                forEachValueAtPath(x.Obj()[parts[i]], parts, i + 1, fn);
    }
}

class DocumentSourceGraphLookUp final : public DocumentSource {
public:
    DocumentSourceGraphLookUp(std::shared_ptr<ExpressionContext> expCtx, const BSONObj& spec)
        : DocumentSource(std::move(expCtx)),
          _frontierHash{_expCtx->getCollator()},
          _frontierEq{_expCtx->getCollator()} {
        // What upstream checks before the full parse: 'from' present, a string, a namespace.
        BSONElement from = spec["from"];
        uassert(ErrorCodes::FailedToParse,
                "missing 'from' option to $graphLookup stage specification: " + spec.toString(),
                !from.eoo());
        uassert(ErrorCodes::FailedToParse,
                "$graphLookup 'from' field must be a string, but found " + typeNameOf(Value(from)),
                from.type() == BSONType::kString);
        _from = NamespaceString(_expCtx->ns.db(), from.str());
        uassert(ErrorCodes::InvalidNamespace, "invalid $graphLookup namespace: " + _from.ns(),
                _from.validateCollectionName().isOK());
        for (auto e : spec)
            parseArgument(e);
        uassert(40105,
                "$graphLookup requires 'from', 'as', 'startWith', 'connectFromField', and "
                "'connectToField' to be specified.",
                !_as.empty() && _startWith && !_connectFrom.empty() && !_connectTo.empty());
    }

    std::optional<BSONObj> getNext() override {
        if (_unwind)
            return getNextUnwound();
        auto doc = _source->getNext();
        if (!doc)
            return std::nullopt;
        BSONObj input = doc->getOwned();
        std::vector<BSONObj> found = search(input);
        // The output document must stay a valid BSON document: check before building it.
        size_t bytes = input.objsize();
        for (const auto& d : found)
            bytes += d.objsize() + 8;
        checkOutputSize(input, bytes);
        BSONArrayBuilder arr;
        for (const auto& d : found)
            arr.append(d);
        return setNestedField(input, _as, Value::fromArray(arr.arr()));
    }

    /**
     * A following {$unwind: "$<as>"} is absorbed (as upstream): one output document per
     * document found, so the results need not fit in one 16 MB document.
     */
    StageList::iterator optimizeAt(StageList::iterator it, StageList* container) override {
        auto next = std::next(it);
        if (_unwind || next == container->end() ||
            StringData((*next)->getSourceName()) != "$unwind")
            return next;
        BSONArrayBuilder arr;
        (*next)->serialize(&arr);
        BSONObj stages = arr.arr();
        BSONObj spec = stages.firstElement().Obj()["$unwind"].Obj();
        if (spec["path"].str() != "$" + joinPath(_as))
            return next;
        Unwind u;
        u.preserveNullAndEmptyArrays = spec["preserveNullAndEmptyArrays"].trueValue();
        if (spec["includeArrayIndex"].type() == BSONType::kString)
            u.includeArrayIndex = spec["includeArrayIndex"].str();
        _unwind = std::move(u);
        container->erase(next);
        return std::next(it);
    }

    const char* getSourceName() const override {
        return kStageName.data();
    }

    /**
     * Explain shows an absorbed $unwind as `unwinding`; elsewhere it is serialised back as
     * its own stage, so the output parses again.
     */
    void serialize(BSONArrayBuilder* out) const override {
        {
            BSONObjBuilder stage(out->subobjStart());
            BSONObjBuilder b(stage.subobjStart(kStageName));
            serializeSpec(&b);
            if (_unwind && _expCtx->explain) {
                BSONObjBuilder u(b.subobjStart("unwinding"));
                u.append("preserveNullAndEmptyArrays", _unwind->preserveNullAndEmptyArrays);
                if (!_unwind->includeArrayIndex.empty())
                    u.append("includeArrayIndex", _unwind->includeArrayIndex);
            }
        }
        if (_unwind && !_expCtx->explain) {
            BSONObjBuilder stage(out->subobjStart());
            BSONObjBuilder u(stage.subobjStart("$unwind"));
            u.append("path", "$" + joinPath(_as));
            if (!_unwind->includeArrayIndex.empty())
                u.append("includeArrayIndex", _unwind->includeArrayIndex);
            if (_unwind->preserveNullAndEmptyArrays)
                u.append("preserveNullAndEmptyArrays", true);
        }
    }

    void serializeSpec(BSONObjBuilder* bp) const {
        BSONObjBuilder& b = *bp;
        b.append("from", _from.coll());
        b.append("as", joinPath(_as));
        b.append("connectToField", joinPath(_connectTo));
        b.append("connectFromField", joinPath(_connectFrom));
        _startWith->serialize(&b, "startWith");
        if (_maxDepth)
            b.append("maxDepth", *_maxDepth);
        if (!_depthField.empty())
            b.append("depthField", joinPath(_depthField));
        if (_restrict)
            b.append("restrictSearchWithMatch", *_restrict);
    }

    /** The foreign queries' totals, named as upstream's $lookup names them. */
    void appendExplainStats(BSONObjBuilder* b) const override {
        b->append("totalDocsExamined", _docsExamined);
        b->append("totalKeysExamined", _keysExamined);
        b->append("collectionScans", _collectionScans);
        BSONArrayBuilder used(b->subarrayStart("indexesUsed"));
        for (const auto& name : _indexesUsed)
            used.append(name);
    }

private:
    struct Unwind {
        bool preserveNullAndEmptyArrays = false;
        std::string includeArrayIndex;  // empty: none
    };

    /** BSONObjectTooLarge 10334 when an output document of `bytes` would be too large. */
    static void checkOutputSize(const BSONObj& input, size_t bytes) {
        uassert(ErrorCodes::BSONObjectTooLarge,
                "BSONObj size: " + std::to_string(bytes) +
                    " is invalid. Size must be between 0 "
                    "and " +
                    std::to_string(BSONObjMaxUserSize) + "(16MB) First element: " +
                    (input.isEmpty() ? std::string("EOO") : input.firstElement().toString()),
                bytes <= static_cast<size_t>(BSONObjMaxInternalSize));
    }

    /** getNext() with an absorbed $unwind: the documents found, one per output document. */
    std::optional<BSONObj> getNextUnwound() {
        const std::vector<std::string> indexPath = _unwind->includeArrayIndex.empty()
                                                       ? std::vector<std::string>()
                                                       : splitFieldPath(_unwind->includeArrayIndex);
        while (true) {
            _expCtx->checkForInterruptEvery128();
            if (_pos < _found.size()) {
                const BSONObj& d = _found[_pos];
                checkOutputSize(_current, _current.objsize() + d.objsize() + 32);
                BSONObj out = setNestedField(_current, _as, Value(d));
                if (!indexPath.empty())
                    out = setNestedField(out, indexPath, Value(static_cast<long long>(_pos)));
                ++_pos;
                return out;
            }
            auto doc = _source->getNext();
            if (!doc) {
                _found.clear();
                return std::nullopt;
            }
            _current = doc->getOwned();
            _found = search(_current);
            _pos = 0;
            if (_found.empty() && _unwind->preserveNullAndEmptyArrays) {
                BSONObj out = setNestedField(_current, _as, Value());
                if (!indexPath.empty())
                    out = setNestedField(out, indexPath, Value::null());
                return out;
            }
        }
    }

    struct Visited {
        BSONObj doc;
        long long depth;
    };

    void parseArgument(const BSONElement& e) {
        StringData n = e.fieldNameStringData();
        if (n == "startWith") {
            _startWith = Expression::parseOperand(_expCtx.get(), e, _expCtx->makeParseState());
        } else if (n == "maxDepth") {
            uassert(40100, "maxDepth must be numeric, found type: " + typeNameOf(Value(e)),
                    e.isNumber());
            double d = e.numberDouble();
            long long asLong = e.numberLong();
            uassert(40101,
                    "maxDepth requires a nonnegative argument, found: " + std::to_string(asLong),
                    asLong >= 0);
            uassert(40102,
                    "maxDepth could not be represented as a long long: " + std::to_string(asLong),
                    static_cast<double>(asLong) == d);
            _maxDepth = asLong;
        } else if (n == "restrictSearchWithMatch") {
            uassert(40185,
                    "restrictSearchWithMatch must be an object, found " + typeNameOf(Value(e)),
                    e.type() == BSONType::kObject);
            parseRestriction(e.Obj());
        } else if (n == "from") {
            // Checked before the loop.
        } else if (n == "as") {
            _as = stringPathArg(e);
        } else if (n == "connectFromField") {
            _connectFrom = stringPathArg(e);
        } else if (n == "connectToField") {
            _connectTo = stringPathArg(e);
        } else if (n == "depthField") {
            _depthField = stringPathArg(e);
        } else {
            uasserted(40104, "Unknown argument to $graphLookup: " + std::string(n));
        }
    }

    /**
     * Validates restrictSearchWithMatch (BadValue 2 for $where/$text/$near, the matcher's
     * codes otherwise). A filter with $expr is applied here, where the variables in scope
     * ($lookup's `let`...) are bound; any other filter joins the foreign query.
     */
    void parseRestriction(const BSONObj& filter) {
        if (auto op = forbiddenOperator(filter))
            uasserted(ErrorCodes::BadValue, *op + " is not allowed in this context");
        ExprParseContextGuard guard(_expCtx);
        auto parsed = parseMatchExpression(filter);
        uassertStatusOK(parsed.getStatus().withContext(
            "Failed to parse 'restrictSearchWithMatch' option to $graphLookup"));
        _restrict = filter.getOwned();
        if (mentionsExpr(filter)) {
            _localFilter = std::shared_ptr<MatchExpression>(std::move(parsed.getValue()));
            if (const CollatorInterface* collator = _expCtx->getCollator())
                _localFilter->setCollator(collator);
        }
    }

    using Frontier = absl::flat_hash_set<Value, ValueHash, ValueEq>;

    /** Adds `v` to `frontier` (missing and undefined never match anything). */
    void addToFrontier(Frontier* frontier, const Value& v) {
        if (v.missing() || v.getType() == BSONType::kUndefined)
            return;
        auto [it, inserted] = frontier->insert(v.getOwned());
        if (inserted)
            _frontierBytes += v.byteSize() + sizeof(Value);
    }

    void checkMemory() {
        size_t used = _visitedBytes + _frontierBytes;
        const long long limit = gInternalDocumentSourceGraphLookupMaxMemoryBytes.load();
        uassert(40099, "$graphLookup reached maximum memory consumption",
                used < static_cast<size_t>(limit));
    }

    /**
     * Whether `_from` is a collection (not a view) with an index led by connectToField that
     * the planner may use: then each frontier value is queried by equality, which the
     * planner serves with that index ($in is not an index bound there).
     */
    bool foreignHasConnectToIndex() const {
        auto coll = _expCtx->opCtx->getServiceContext()->catalog->lookup(_from);
        if (!coll)
            return false;
        std::shared_lock<std::shared_mutex> lk(coll->lock());
        const std::string path = joinPath(_connectTo);
        for (const auto& ix : coll->indexes()) {
            const IndexDescriptor& d = ix->desc;
            // A different collation would leave string values unbounded: one scan each.
            if (d.hidden || !d.partialFilterExpression.isEmpty() || d.isGeoIndex() ||
                !CollatorInterface::collatorsMatch(d.collator(), _expCtx->getCollator()))
                continue;
            BSONElement first = d.keyPattern.firstElement();
            if (first.fieldNameStringData() == path && first.isNumber())
                return true;
        }
        return false;
    }

    /** The foreign-side filter for one batch of frontier values. */
    BSONObj makeQuery(const std::vector<Value>& batch) const {
        std::string path = joinPath(_connectTo);
        if (batch.size() == 1 && batch[0].getType() != BSONType::kNull &&
            batch[0].getType() != BSONType::kRegEx) {
            // One value: a plain equality, which an index on connectToField serves.
            BSONObjBuilder eq;
            {
                BSONObjBuilder field(eq.subobjStart(path));
                batch[0].addToBsonObj(&field, "$eq");
            }
            if (!_restrict || _localFilter)
                return eq.obj();
            return BSON("$and" << BSON_ARRAY(*_restrict << eq.obj()));
        }
        BSONObjBuilder q;
        BSONArrayBuilder clauses(q.subarrayStart("$and"));
        if (_restrict && !_localFilter)
            clauses.append(*_restrict);
        // {$in: [null]} would also match documents without the field; a null in the
        // frontier matches only an explicit null, as upstream.
        bool hasNull = false;
        BSONObjBuilder inClause;
        {
            BSONObjBuilder field(inClause.subobjStart(path));
            BSONArrayBuilder in(field.subarrayStart("$in"));
            for (const auto& v : batch) {
                if (v.getType() == BSONType::kNull)
                    hasNull = true;
                else
                    v.addToBsonArray(&in);
            }
        }
        if (hasNull) {
            BSONObjBuilder orClause;
            BSONArrayBuilder ors(orClause.subarrayStart("$or"));
            ors.append(inClause.obj());
            ors.append(BSON(path << BSON("$type"
                                         << "null")));
            ors.done();
            clauses.append(orClause.obj());
        } else {
            clauses.append(inClause.obj());
        }
        clauses.done();
        return q.obj();
    }

    /** Runs one foreign query; calls `fn` with each document. */
    template <typename F>
    void queryForeign(const std::vector<Value>& batch, F&& fn) {
        AggregationRequestOptions opts;
        opts.allowDiskUse = _expCtx->allowDiskUse;
        opts.subPipelineDepth = _expCtx->subPipelineDepth + 1;
        opts.inheritCollation = true;
        opts.inheritedCollator = _expCtx->getCollator();
        PreparedPipeline p =
            preparePipeline(_expCtx->opCtx, _from, {BSON("$match" << makeQuery(batch))}, opts);
        while (auto d = p.pipeline->getNext()) {
            _expCtx->checkForInterruptEvery128();
            fn(*d);
        }
        if (PlanExecutor* exec = p.pipeline->executor()) {
            StageStats totals = exec->totals();
            _docsExamined += totals.docsExamined;
            _keysExamined += totals.keysExamined;
            collectScans(exec->root());
        }
    }

    void collectScans(const PlanStage* stage) {
        if (!stage)
            return;
        if (stage->stageName() == "COLLSCAN") {
            ++_collectionScans;
        } else if (stage->stageName() == "IXSCAN") {
            BSONObjBuilder info;
            stage->appendExplainInfo(&info);
            BSONObj obj = info.obj();
            if (obj["indexName"].type() == BSONType::kString)
                _indexesUsed.insert(obj["indexName"].str());
        }
        for (const auto& child : stage->children())
            collectScans(child.get());
    }

    /** The documents reachable from `input`'s startWith, each with its depth field. */
    std::vector<BSONObj> search(const BSONObj& input) {
        const StringComparator* strings = _expCtx->getCollator();
        absl::flat_hash_map<Value, size_t, ValueHash, ValueEq> visited(0, ValueHash{strings},
                                                                       ValueEq{strings});
        std::vector<Visited> order;
        _visitedBytes = 0;
        _frontierBytes = 0;
        Frontier frontier(0, _frontierHash, _frontierEq);
        Value start = _startWith->evaluate(input, &_expCtx->variables);
        if (start.isArray()) {
            start.forEachArrayElement([&](const Value& v) {
                _expCtx->checkForInterruptEvery128();
                addToFrontier(&frontier, v);
            });
        } else {
            addToFrontier(&frontier, start);
        }
        checkMemory();
        const bool byValue = foreignHasConnectToIndex();
        for (long long depth = 0; !frontier.empty(); ++depth) {
            Frontier next(0, _frontierHash, _frontierEq);
            const bool expand = !_maxDepth || depth < *_maxDepth;
            std::vector<Value> batch;
            size_t batchBytes = 0;
            const size_t maxBatchValues = byValue ? 1 : std::numeric_limits<size_t>::max();
            auto runBatch = [&] {
                queryForeign(batch, [&](const BSONObj& doc) {
                    if (_localFilter && !_localFilter->matchesBSON(doc))
                        return;
                    BSONElement id = doc["_id"];
                    uassert(40271,
                            "Documents in the '" + _from.ns() +
                                "' namespace must contain an _id for de-duplication in "
                                "$graphLookup",
                            !id.eoo());
                    Value key = Value(id).getOwned();
                    if (visited.contains(key))
                        return;
                    BSONObj owned = doc.getOwned();
                    _visitedBytes += owned.objsize() + key.byteSize() + sizeof(Visited) + 32;
                    visited.emplace(std::move(key), order.size());
                    order.push_back({owned, depth});
                    if (expand) {
                        BSONObjBuilder hb;
                        hb.append("", owned);
                        BSONObj holder = hb.obj();
                        forEachValueAtPath(holder.firstElement(), _connectFrom, 0,
                                           [&](const Value& v) { addToFrontier(&next, v); });
                    }
                    checkMemory();
                });
                batch.clear();
                batchBytes = 0;
            };
            for (const auto& v : frontier) {
                _expCtx->checkForInterruptEvery128();
                if (!batch.empty() && (batchBytes + v.byteSize() > kMaxQueryBatchBytes ||
                                       batch.size() >= maxBatchValues))
                    runBatch();
                batchBytes += v.byteSize() + 8;
                batch.push_back(v);
            }
            if (!batch.empty())
                runBatch();
            if (!expand)
                break;
            // The old frontier's bytes go with it; `next`'s were counted as it grew.
            size_t oldBytes = 0;
            for (const auto& v : frontier)
                oldBytes += v.byteSize() + sizeof(Value);
            _frontierBytes -= std::min(_frontierBytes, oldBytes);
            frontier = std::move(next);
        }
        std::vector<BSONObj> out;
        out.reserve(order.size());
        for (auto& v : order) {
            if (_depthField.empty())
                out.push_back(std::move(v.doc));
            else
                out.push_back(setNestedField(v.doc, _depthField, Value(v.depth)));
        }
        return out;
    }

    NamespaceString _from;
    std::vector<std::string> _as, _connectFrom, _connectTo, _depthField;
    ExprPtr _startWith;
    std::optional<long long> _maxDepth;
    std::optional<BSONObj> _restrict;               // as given (explain)
    std::shared_ptr<MatchExpression> _localFilter;  // set when applied here (it uses $expr)
    ValueHash _frontierHash;
    ValueEq _frontierEq;
    size_t _visitedBytes = 0;
    size_t _frontierBytes = 0;
    std::optional<Unwind> _unwind;  // an absorbed $unwind of `as`
    BSONObj _current;               // with _unwind: the input document being unwound
    std::vector<BSONObj> _found;    // ... the documents found for it
    size_t _pos = 0;                // ... the next one to return
    // Explain: what the foreign queries examined.
    long long _docsExamined = 0;
    long long _keysExamined = 0;
    long long _collectionScans = 0;
    std::set<std::string> _indexesUsed;
};

const bool kRegistered = [] {
    registerDocumentSource(
        kStageName, [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& expCtx) {
            uassert(ErrorCodes::FailedToParse,
                    "the $graphLookup stage specification must be an object, but found " +
                        typeNameOf(Value(e)),
                    e.type() == BSONType::kObject);
            std::vector<StagePtr> out;
            out.push_back(std::make_unique<DocumentSourceGraphLookUp>(expCtx, e.Obj()));
            return out;
        });
    return true;
}();

}  // namespace
}  // namespace mongo
