// $facet (several sub-pipelines over the same input), $lookup (joins with another
// collection, by localField/foreignField and/or a pipeline with `let` variables) and
// $unionWith (appends another collection's documents).
// $lookup memoises inner results keyed by the correlation inputs (local value and the
// `let` variables its pipeline names), so an uncorrelated pipeline runs once.
#include "absl/container/flat_hash_map.h"
#include "mongo/db/pipeline/document_path.h"
#include "mongo/db/pipeline/document_source.h"
#include "mongo/db/pipeline/document_source_match.h"
#include "mongo/db/pipeline/expression.h"
#include "mongo/db/pipeline/pipeline.h"
#include "mongo/db/pipeline/pipeline_d.h"
#include "mongo/idl/document_source_misc_specs_gen.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

/** Whether any string in `v` (recursively) names variable `$$name` or `$$name.<path>`. */
bool mentionsVariable(const BSONObj& obj, StringData name) {
    std::string needle = "$$" + std::string(name);
    for (auto e : obj) {
        if (e.type() == BSONType::kObject || e.type() == BSONType::kArray) {
            if (mentionsVariable(e.Obj(), name))
                return true;
        } else if (e.type() == BSONType::kString) {
            StringData s = e.valueStringData();
            for (size_t at = s.find(needle); at != StringData::npos; at = s.find(needle, at + 1)) {
                size_t end = at + needle.size();
                if (end == s.size() || s[end] == '.')
                    return true;
            }
        }
    }
    return false;
}

/** Whether a stage or operator in `obj` gives a different result on each run. */
bool mentionsNonDeterministic(const BSONObj& obj) {
    for (auto e : obj) {
        StringData n = e.fieldNameStringData();
        if (n == "$rand" || n == "$sample" || n == "$sampleRate" || n == "$function" ||
            n == "$accumulator" || n == "$currentOp" || n == "$listSessions")
            return true;
        if ((e.type() == BSONType::kObject || e.type() == BSONType::kArray) &&
            mentionsNonDeterministic(e.Obj()))
            return true;
    }
    return false;
}

/** Whether a sub-pipeline's first stage is $documents (it needs no collection then). */
bool startsWithDocuments(const std::vector<BSONObj>& stages) {
    return !stages.empty() && stages[0].firstElementFieldNameStringData() == "$documents";
}

std::vector<BSONObj> stagesFromArray(const BSONElement& e, int notArrayCode, StringData what) {
    uassert(notArrayCode,
            std::string(what) + " must be an array of stages, but found " + typeNameOf(Value(e)),
            e.type() == BSONType::kArray);
    std::vector<BSONObj> out;
    for (auto s : e.Obj()) {
        uassert(ErrorCodes::TypeMismatch, "Each element of the 'pipeline' array must be an object",
                s.type() == BSONType::kObject);
        out.push_back(s.Obj().getOwned());
    }
    return out;
}

/** Parses a sub-pipeline only to validate it (errors surface at parse time). */
void validateSubPipeline(const std::shared_ptr<ExpressionContext>& expCtx,
                         const std::vector<BSONObj>& stages, StringData owner,
                         const std::vector<std::string>& letNames = {}) {
    auto sub = expCtx->copyForSubPipeline(expCtx->ns);
    sub->subPipelineDepth = expCtx->subPipelineDepth + 1;
    // Checked here too, at parse time: a sub-pipeline over no data never runs.
    uassert(ErrorCodes::MaxSubPipelineDepthExceeded,
            "Maximum number of nested sub-pipelines exceeded. Limit is 20",
            sub->subPipelineDepth <= 20);
    if (!sub->facetNesting.empty())
        sub->facetNesting = std::string(owner);
    for (const auto& n : letNames)
        sub->topScope().defineVariable(n);
    auto p = Pipeline::parse(stages, sub);
    for (const auto& st : p->stages()) {
        uassert(51047,
                std::string(st->getSourceName()) + " is not allowed within a " +
                    std::string(owner) + "'s sub-pipeline",
                !st->constraints().isWriteStage);
    }
}

class DocumentSourceFacet final : public DocumentSource {
public:
    DocumentSourceFacet(std::shared_ptr<ExpressionContext> expCtx, const BSONObj& spec)
        : DocumentSource(std::move(expCtx)), _spec(spec.getOwned()) {
        uassertNotInFacet(*_expCtx, "$facet");
        uassert(40169, "the $facet specification must be a non-empty object", !_spec.isEmpty());
        for (auto f : _spec) {
            std::string name(f.fieldNameStringData());
            uassert(40352, "FieldPath cannot be constructed with empty string", !name.empty());
            uassert(40353, "FieldPath must not end with a '.'.", name.back() != '.');
            uassert(16410, "FieldPath field names may not start with '$'.", name[0] != '$');
            auto stages = stagesFromArray(f, 40170, "arguments to $facet");
            uassert(40171, "sub-pipeline in $facet stage cannot be empty", !stages.empty());
            auto sub = _expCtx->copyForSubPipeline(_expCtx->ns);
            sub->facetNesting = "$facet";
            auto p = Pipeline::parse(stages, sub);
            for (const auto& st : p->stages())
                uassert(40600,
                        std::string(st->getSourceName()) +
                            " is not allowed to be used within a $facet stage",
                        st->constraints().allowedInFacet && !st->constraints().requiresFirst);
            _facets.emplace_back(name, std::move(stages));
        }
    }

    std::optional<BSONObj> getNext() override {
        if (_done)
            return std::nullopt;
        _done = true;
        // Every facet reads the whole input, which is held here (this stage cannot spill).
        std::vector<BSONObj> input;
        size_t inputBytes = 0;
        const long long bufferLimit = gInternalQueryFacetBufferSizeBytes.load();
        while (auto d = _source->getNext()) {
            _expCtx->checkForInterruptEvery128();
            inputBytes += d->objsize() + sizeof(BSONObj);
            uassert(ErrorCodes::ExceededMemoryLimit,
                    "$facet's input exceeds its buffer limit of " + std::to_string(bufferLimit) +
                        " bytes (internalQueryFacetBufferSizeBytes)",
                    inputBytes <= static_cast<size_t>(bufferLimit));
            input.push_back(d->getOwned());
        }
        clearMetadata();  // of the input; the facets' document is new
        const long long outLimit = gInternalQueryFacetMaxOutputDocSizeBytes.load();
        BSONObjBuilder out;
        for (const auto& [name, stages] : _facets) {
            auto sub = _expCtx->copyForSubPipeline(_expCtx->ns);  // same collation
            sub->variables = _expCtx->variables;
            auto p = Pipeline::parse(stages, sub);
            p->optimize();
            p->attachSource(std::make_unique<DocumentSourceQueue>(sub, input));
            BSONArrayBuilder arr(out.subarrayStart(name));
            while (auto d = p->getNext()) {
                // Checked before appending, so the builder never grows past the limit.
                size_t next = static_cast<size_t>(out.len() + arr.len()) + d->objsize() + 16;
                uassert(4031700,
                        "document constructed by $facet is " + std::to_string(next) +
                            " bytes, which exceeds the limit of " + std::to_string(outLimit) +
                            " bytes",
                        next <= static_cast<size_t>(outLimit));
                arr.append(*d);
            }
            arr.done();
        }
        return out.obj();
    }
    const char* getSourceName() const override {
        return "$facet";
    }
    void serialize(BSONArrayBuilder* out) const override {
        BSONObjBuilder b(out->subobjStart());
        b.append("$facet", _spec);
    }
    StageConstraints constraints() const override {
        StageConstraints c;
        c.allowedInFacet = false;
        return c;
    }

private:
    BSONObj _spec;
    std::vector<std::pair<std::string, std::vector<BSONObj>>> _facets;
    bool _done = false;
};

NamespaceString parseFromNs(const BSONElement& e, const NamespaceString& base, StringData stage) {
    if (e.type() == BSONType::kString)
        return NamespaceString(base.db(), e.str());
    uassert(ErrorCodes::FailedToParse,
            std::string(stage) + " 'from' must be a string or an object {db, coll}, but got " +
                typeNameOf(Value(e)),
            e.type() == BSONType::kObject);
    BSONObj o = e.Obj();
    uassert(ErrorCodes::FailedToParse, std::string(stage) + " 'from' requires 'db' and 'coll'",
            o["db"].type() == BSONType::kString && o["coll"].type() == BSONType::kString);
    return NamespaceString(o["db"].str(), o["coll"].str());
}

class DocumentSourceLookUp final : public DocumentSource {
public:
    DocumentSourceLookUp(std::shared_ptr<ExpressionContext> expCtx, const BSONObj& spec)
        : DocumentSource(std::move(expCtx)), _spec(spec.getOwned()) {
        bool haveFrom = false, havePipeline = false;
        for (auto f : _spec) {
            StringData n = f.fieldNameStringData();
            if (n == "from") {
                _from = parseFromNs(f, _expCtx->ns, "$lookup");
                haveFrom = true;
            } else if (n == "as") {
                uassert(ErrorCodes::FailedToParse, "$lookup argument 'as' must be a string",
                        f.type() == BSONType::kString);
                _as = splitFieldPath(f.valueStringData());
            } else if (n == "localField") {
                uassert(ErrorCodes::FailedToParse, "$lookup argument 'localField' must be a string",
                        f.type() == BSONType::kString);
                _localField = f.str();
                _local = ExpressionFieldPath::parse(_localField, _expCtx->makeParseState());
            } else if (n == "foreignField") {
                uassert(ErrorCodes::FailedToParse,
                        "$lookup argument 'foreignField' must be a string",
                        f.type() == BSONType::kString);
                _foreignField = f.str();
                splitFieldPath(_foreignField);
            } else if (n == "let") {
                uassert(ErrorCodes::FailedToParse, "$lookup argument 'let' must be an object",
                        f.type() == BSONType::kObject);
                for (auto v : f.Obj()) {
                    validateVariableName(v.fieldNameStringData());
                    _let.emplace_back(
                        std::string(v.fieldNameStringData()),
                        Expression::parseOperand(_expCtx.get(), v, _expCtx->makeParseState()));
                }
            } else if (n == "pipeline") {
                _pipeline = stagesFromArray(f, ErrorCodes::FailedToParse, "$lookup 'pipeline'");
                havePipeline = true;
            } else {
                uasserted(ErrorCodes::FailedToParse,
                          "unknown argument to $lookup: " + std::string(n));
            }
        }
        uassert(ErrorCodes::FailedToParse, "must specify 'as' field for a $lookup", !_as.empty());
        uassert(ErrorCodes::FailedToParse,
                "must specify 'from' field for a $lookup, or a 'pipeline' starting with "
                "$documents",
                haveFrom || startsWithDocuments(_pipeline));
        _collectionless = !haveFrom;
        if (_collectionless)
            _from = NamespaceString(_expCtx->ns.db(), "$cmd.aggregate");
        uassert(ErrorCodes::FailedToParse,
                "$lookup requires either 'pipeline' or both 'localField' and 'foreignField' to "
                "be specified",
                havePipeline || (!_localField.empty() && !_foreignField.empty()));
        uassert(ErrorCodes::FailedToParse,
                "$lookup requires both or neither of 'localField' and 'foreignField' to be "
                "specified",
                _localField.empty() == _foreignField.empty());
        if (havePipeline) {
            std::vector<std::string> letNames;
            for (const auto& l : _let)
                letNames.push_back(l.first);
            validateSubPipeline(_expCtx, _pipeline, "$lookup", letNames);
        }
        for (const auto& st : _pipeline)
            _cacheable = _cacheable && !mentionsNonDeterministic(st);
        for (size_t i = 0; i < _let.size(); ++i) {
            bool used = false;
            for (const auto& st : _pipeline)
                used = used || mentionsVariable(st, _let[i].first);
            if (used)
                _usedLet.push_back(i);
        }
    }

    std::optional<BSONObj> getNext() override {
        auto doc = _source->getNext();
        if (!doc)
            return std::nullopt;
        BSONObj owned = doc->getOwned();
        if (!_cacheable)
            return setNestedField(owned, _as, Value(runInner(owned)));
        // The inner result depends only on the local value and the `let` variables the
        // pipeline names: memoise it under their exact BSON bytes.
        Variables* vars = &_expCtx->variables;
        BSONObjBuilder kb;
        if (_local)
            _local->evaluate(owned, vars).addToBsonObj(&kb, "l");
        for (size_t i : _usedLet)
            _let[i].second->evaluate(owned, vars).addToBsonObj(&kb, _let[i].first);
        BSONObj keyObj = kb.obj();
        std::string key(keyObj.objdata(), keyObj.objsize());
        if (auto it = _cache.find(key); it != _cache.end()) {
            ++_cacheHits;
            return setNestedField(owned, _as, it->second);
        }
        Value results(runInner(owned));
        size_t bytes = key.size() + static_cast<size_t>(results.elem().size()) + 64;
        if (_cacheBytes + bytes <=
            static_cast<size_t>(gInternalDocumentSourceLookupCacheSizeBytes.load())) {
            _cacheBytes += bytes;
            _cache.emplace(std::move(key), results);
        }
        return setNestedField(owned, _as, results);
    }
    const char* getSourceName() const override {
        return "$lookup";
    }
    /** A following $match, or its part, that reads nothing of `as` runs before the join. */
    StageList::iterator optimizeAt(StageList::iterator it, StageList* container) override {
        return DocumentSourceMatch::moveBefore(it, container, {_as.front()});
    }
    void serialize(BSONArrayBuilder* out) const override {
        BSONObjBuilder b(out->subobjStart());
        b.append("$lookup", _spec);
    }
    void appendExplainStats(BSONObjBuilder* b) const override {
        b->append("innerPipelineRuns", _innerRuns);
        b->append("cacheHits", _cacheHits);
    }

private:
    /** Runs the inner pipeline for outer document `owned`. Throws 4568 past its size limit. */
    std::vector<Value> runInner(const BSONObj& owned) {
        ++_innerRuns;
        Variables* vars = &_expCtx->variables;
        std::vector<BSONObj> stages;
        if (_local) {
            Value lv = _local->evaluate(owned, vars);
            BSONObjBuilder match;
            {
                BSONObjBuilder field(match.subobjStart(_foreignField));
                BSONArrayBuilder in(field.subarrayStart("$in"));
                if (lv.isArray()) {
                    bool any = false;
                    for (const auto& x : lv.getArray()) {
                        x.addToBsonArray(&in);
                        any = true;
                    }
                    if (!any)
                        in.append(BSONNULL);
                } else if (lv.missing()) {
                    in.append(BSONNULL);
                } else {
                    lv.addToBsonArray(&in);
                }
            }
            stages.push_back(BSON("$match" << match.obj()));
        }
        // Without 'from' the documents are the pipeline's own: the join's $match follows them.
        auto rest = _pipeline.begin() + (_collectionless ? 1 : 0);
        stages.insert(stages.begin(), _pipeline.begin(), rest);
        stages.insert(stages.end(), rest, _pipeline.end());
        AggregationRequestOptions opts;
        opts.allowDiskUse = _expCtx->allowDiskUse;
        opts.subPipelineDepth = _expCtx->subPipelineDepth + 1;
        opts.collectionless = _collectionless;
        opts.inheritCollation = true;  // the foreign side compares with the top-level collation
        opts.inheritedCollator = _expCtx->getCollator();
        BSONObjBuilder letVars;
        for (const auto& [name, expr] : _let) {
            BSONObjBuilder lit(letVars.subobjStart(name));
            Value v = expr->evaluate(owned, vars);
            if (v.missing())
                lit.appendNull("$literal");
            else
                v.addToBsonObj(&lit, "$literal");
        }
        opts.letVars = letVars.obj();
        PreparedPipeline p = preparePipeline(_expCtx->opCtx, _from, stages, opts);
        std::vector<Value> results;
        size_t bytes = 0;
        const long long limit = gInternalLookupStageIntermediateDocumentMaxSizeBytes.load();
        while (auto r = p.pipeline->getNext()) {
            _expCtx->checkForInterruptEvery128();
            bytes += r->objsize();
            uassert(4568,
                    "Total size of documents in " + _from.coll() +
                        " matching pipeline's $lookup stage exceeds " + std::to_string(limit) +
                        " bytes",
                    bytes <= static_cast<size_t>(limit));
            results.push_back(Value(*r));
        }
        return results;
    }

    BSONObj _spec;
    NamespaceString _from;
    bool _collectionless = false;  // no 'from': the pipeline starts with $documents
    std::vector<std::string> _as;
    std::string _localField, _foreignField;
    std::unique_ptr<ExpressionFieldPath> _local;
    std::vector<std::pair<std::string, ExprPtr>> _let;
    std::vector<BSONObj> _pipeline;
    // The inner-result cache (see getNext); off when the pipeline is non-deterministic.
    bool _cacheable = true;
    std::vector<size_t> _usedLet;  // indexes into _let of the variables the pipeline names
    absl::flat_hash_map<std::string, Value> _cache;
    size_t _cacheBytes = 0;
    long long _innerRuns = 0;
    long long _cacheHits = 0;
};

class DocumentSourceUnionWith final : public DocumentSource {
public:
    DocumentSourceUnionWith(std::shared_ptr<ExpressionContext> expCtx, const BSONElement& e)
        : DocumentSource(std::move(expCtx)) {
        BSONObjBuilder b;
        b.appendAs(e, "$unionWith");
        _spec = b.obj();
        if (e.type() == BSONType::kString) {
            _coll = NamespaceString(_expCtx->ns.db(), e.str());
        } else {
            uassert(ErrorCodes::FailedToParse,
                    "the $unionWith stage specification must be an object or string, but found " +
                        typeNameOf(Value(e)),
                    e.type() == BSONType::kObject);
            const auto spec = UnionWithSpec::parse(IDLParserContext("$unionWith"), e.Obj());
            if (spec.getColl())
                _coll = NamespaceString(_expCtx->ns.db(), *spec.getColl());
            if (const auto& pipeline = spec.getPipeline())
                _pipeline = stagesFromArray(pipeline->getElement(), ErrorCodes::TypeMismatch,
                                            "$unionWith pipeline");
            uassert(ErrorCodes::FailedToParse,
                    "$unionWith stage without explicit collection must have a pipeline with "
                    "$documents as first stage",
                    spec.getColl() || startsWithDocuments(_pipeline));
        }
        if (!_pipeline.empty() || e.type() == BSONType::kObject)
            validateSubPipeline(_expCtx, _pipeline,
                                "$unionWith");  // also the depth of an empty one
    }

    std::optional<BSONObj> getNext() override {
        if (!_sourceDone) {
            if (auto d = _source->getNext())
                return d;
            _sourceDone = true;
            AggregationRequestOptions opts;
            opts.allowDiskUse = _expCtx->allowDiskUse;
            opts.subPipelineDepth = _expCtx->subPipelineDepth + 1;
            opts.collectionless = _coll.coll().empty();
            opts.inheritCollation = true;
            opts.inheritedCollator = _expCtx->getCollator();
            _union = preparePipeline(_expCtx->opCtx,
                                     _coll.coll().empty()
                                         ? NamespaceString(_expCtx->ns.db(), "$cmd.aggregate")
                                         : _coll,
                                     _pipeline, opts)
                         .pipeline;
        }
        if (!_union)
            return std::nullopt;
        _union->getExpCtx()->setOperationContext(_expCtx->opCtx);
        clearMetadata();  // the sub-pipeline's documents carry none here
        return _union->getNext();
    }
    const char* getSourceName() const override {
        return "$unionWith";
    }
    void serialize(BSONArrayBuilder* out) const override {
        out->append(_spec);
    }

private:
    BSONObj _spec;
    NamespaceString _coll;
    std::vector<BSONObj> _pipeline;
    bool _sourceDone = false;
    std::unique_ptr<Pipeline> _union;
};

const bool kRegistered = [] {
    registerDocumentSource(
        "$facet", [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& expCtx) {
            uassert(40169, "the $facet specification must be a non-empty object",
                    e.type() == BSONType::kObject);
            std::vector<StagePtr> out;
            out.push_back(std::make_unique<DocumentSourceFacet>(expCtx, e.Obj()));
            return out;
        });
    registerDocumentSource(
        "$lookup", [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& expCtx) {
            uassert(ErrorCodes::FailedToParse, "the $lookup specification must be an Object",
                    e.type() == BSONType::kObject);
            std::vector<StagePtr> out;
            out.push_back(std::make_unique<DocumentSourceLookUp>(expCtx, e.Obj()));
            return out;
        });
    registerDocumentSource(
        "$unionWith", [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& expCtx) {
            std::vector<StagePtr> out;
            out.push_back(std::make_unique<DocumentSourceUnionWith>(expCtx, e));
            return out;
        });
    return true;
}();

}  // namespace
}  // namespace mongo
