// $out (replace a collection with the pipeline's output, atomically through a
// temporary collection and a rename) and $merge (insert/update into a collection
// matched on the 'on' fields, with the whenMatched/whenNotMatched modes).
#include "mongo/db/pipeline/document_source_out.h"

#include <algorithm>
#include <atomic>
#include <initializer_list>
#include <shared_mutex>
#include <utility>

#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/catalog/view_catalog.h"
#include "mongo/db/exec/planner.h"
#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/pipeline/document_source.h"
#include "mongo/db/pipeline/expression.h"
#include "mongo/db/pipeline/pipeline.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/idl/document_source_merge_gen.h"
#include "mongo/idl/document_source_out_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

constexpr size_t kBatch = 1000;

TimeseriesOutWriter& timeseriesOutWriter() {
    static TimeseriesOutWriter writer;
    return writer;
}

/**
 * Refuses an output namespace of an internal database (admin, config, local: 31321 for $out,
 * 31320 for $merge) or a system collection (17385 / 31319), then an invalid name (73).
 */
void checkOutputTarget(const NamespaceString& nss, StringData stage) {
    const bool out = stage == "$out";
    const std::string db = nss.db();
    uassert(out ? 31321 : 31320,
            std::string(out ? "Can't $out" : "Cannot $merge") + " to internal database: " + db,
            db != "admin" && db != "config" && db != "local");
    const std::string coll = nss.coll();
    uassert(out ? 17385 : 31319,
            std::string(out ? "Can't $out" : "Cannot $merge") + " to special collection: " + coll,
            !StringData(coll).starts_with("system."));
    uassert(ErrorCodes::InvalidNamespace,
            "Invalid " + std::string(stage) + " target namespace, " + nss.ns(),
            nss.validateCollectionName().isOK() && nss.isNormalCollection());
}

NamespaceString parseTarget(const BSONElement& e, const NamespaceString& base, StringData stage) {
    NamespaceString nss;
    if (e.type() == BSONType::kString) {
        nss = NamespaceString(base.db(), e.str());
    } else {
        uassert(ErrorCodes::TypeMismatch,
                std::string(stage) + " target must be a string or an object, got " +
                    typeNameOf(Value(e)),
                e.type() == BSONType::kObject);
        BSONObj o = e.Obj();
        uassert(ErrorCodes::FailedToParse,
                std::string(stage) + " requires a 'coll' (and optionally 'db') field",
                o["coll"].type() == BSONType::kString);
        std::string db = o["db"].type() == BSONType::kString ? o["db"].str() : base.db();
        nss = NamespaceString(db, o["coll"].str());
    }
    checkOutputTarget(nss, stage);
    return nss;
}

BSONObj withId(const BSONObj& doc) {
    if (doc.hasField("_id"))
        return doc;
    BSONObjBuilder b;
    b.append("_id", OID::gen());
    b.appendElements(doc);
    return b.obj();
}

class DocumentSourceOut final : public DocumentSource {
public:
    DocumentSourceOut(std::shared_ptr<ExpressionContext> expCtx, NamespaceString target,
                      std::optional<BSONObj> timeseries)
        : DocumentSource(std::move(expCtx)),
          _target(std::move(target)),
          _timeseries(std::move(timeseries)) {}

    std::optional<BSONObj> getNext() override {
        if (_done)
            return std::nullopt;
        _done = true;
        OperationContext* opCtx = _expCtx->opCtx;
        auto* catalog = opCtx->getServiceContext()->catalog;
        if (const auto& writer = timeseriesOutWriter()) {
            auto next = [this]() -> std::optional<BSONObj> {
                _expCtx->checkForInterruptEvery128();
                auto d = _source->getNext();
                return d ? std::optional<BSONObj>(d->getOwned()) : std::nullopt;
            };
            if (writer(opCtx, _target, _timeseries, next))
                return std::nullopt;
        }
        uassert(ErrorCodes::CommandNotSupported,
                "$out with 'timeseries' (writing a time-series collection) is not supported",
                !_timeseries);
        uassert(ErrorCodes::CommandNotSupportedOnView, "Cannot write to view " + _target.ns(),
                !isView(opCtx, _target));
        static std::atomic<long long> counter{0};
        NamespaceString tmp(_target.db(), "tmp.agg_out." +
                                              std::to_string(Date_t::now().toMillisSinceEpoch()) +
                                              "_" + std::to_string(counter.fetch_add(1)));
        std::vector<BSONObj> indexSpecs;
        BSONObj options;
        if (auto existing = catalog->lookup(_target)) {
            for (const auto& idx : existing->indexes())
                if (!idx->desc.isIdIndex())
                    indexSpecs.push_back(idx->desc.spec.getOwned());
        }
        auto tmpColl = uassertStatusOK(catalog->createCollection(opCtx, tmp, BSONObj()));
        try {
            if (!indexSpecs.empty())
                uassertStatusOK(catalog->createIndexes(opCtx, tmp, indexSpecs).getStatus());
            std::vector<BSONObj> batch;
            auto flush = [&] {
                std::shared_lock<std::shared_mutex> lk(tmpColl->lock());
                WriteUnitOfWork wuow(opCtx->recoveryUnit());
                for (const auto& d : batch)
                    tmpColl->insertDocument(opCtx, d);
                wuow.commit();
                batch.clear();
            };
            while (auto d = _source->getNext()) {
                _expCtx->checkForInterruptEvery128();
                batch.push_back(withId(d->getOwned()));
                if (batch.size() >= kBatch)
                    flush();
            }
            if (!batch.empty())
                flush();
            tmpColl.reset();
            uassertStatusOK(catalog->renameCollection(opCtx, tmp, _target, true));
        } catch (...) {
            tmpColl.reset();
            (void)catalog->dropCollection(opCtx, tmp);
            throw;
        }
        return std::nullopt;
    }
    const char* getSourceName() const override {
        return "$out";
    }
    void serialize(BSONArrayBuilder* out) const override {
        BSONObjBuilder b(out->subobjStart());
        BSONObjBuilder spec(b.subobjStart("$out"));
        spec.append("db", _target.db());
        spec.append("coll", _target.coll());
        if (_timeseries)
            spec.append("timeseries", *_timeseries);
    }
    StageConstraints constraints() const override {
        StageConstraints c;
        c.requiresLast = true;
        c.allowedInFacet = false;
        c.isWriteStage = true;
        return c;
    }

private:
    NamespaceString _target;
    std::optional<BSONObj> _timeseries;  // the stage's `timeseries` options
    bool _done = false;
};

enum class WhenMatched { kReplace, kKeepExisting, kMerge, kFail, kPipeline };
enum class WhenNotMatched { kInsert, kDiscard, kFail };

/** A $merge mode string (`f`) from its allowed values; BadValue as upstream's IDL enum parser. */
template <typename E>
E parseMergeMode(const BSONElement& f, std::initializer_list<std::pair<StringData, E>> values) {
    const std::string m = f.str();
    for (const auto& [name, value] : values)
        if (name == m)
            return value;
    uasserted(ErrorCodes::BadValue, "Enumeration value '" + m + "' for field '" +
                                        std::string(f.fieldNameStringData()) +
                                        "' is not a valid value.");
}

class DocumentSourceMerge final : public DocumentSource {
public:
    DocumentSourceMerge(std::shared_ptr<ExpressionContext> expCtx, const BSONElement& e)
        : DocumentSource(std::move(expCtx)) {
        BSONObjBuilder sb;
        sb.appendAs(e, "$merge");
        _spec = sb.obj();
        if (e.type() == BSONType::kString) {
            _target = parseTarget(e, _expCtx->ns, "$merge");
        } else {
            uassert(51182, "$merge only supports an object or string as its argument",
                    e.type() == BSONType::kObject);
            const auto spec = DocumentSourceMergeSpec::parse(IDLParserContext("$merge"), e.Obj());
            _target = parseTarget(spec.getInto().getElement(), _expCtx->ns, "$merge");
            if (const auto& on = spec.getOnFields()) {
                BSONElement f = on->getElement();
                if (f.type() == BSONType::kString) {
                    _on = {f.str()};
                } else {
                    uassert(51186, "$merge 'on' must be a string or an array of strings",
                            f.type() == BSONType::kArray);
                    _on.clear();
                    for (auto x : f.Obj()) {
                        uassert(51134, "$merge 'on' array elements must be strings",
                                x.type() == BSONType::kString);
                        _on.push_back(x.str());
                    }
                    uassert(51187,
                            "If explicitly specifying $merge 'on', must include at least one field",
                            !_on.empty());
                }
            }
            if (const auto& whenMatched = spec.getWhenMatched()) {
                BSONElement f = whenMatched->getElement();
                if (f.type() == BSONType::kArray) {
                    _whenMatched = WhenMatched::kPipeline;
                    for (auto s : f.Obj()) {
                        uassert(ErrorCodes::TypeMismatch,
                                "Each element of the 'pipeline' array must be an object",
                                s.type() == BSONType::kObject);
                        _updatePipeline.push_back(s.Obj().getOwned());
                    }
                } else {
                    uassert(ErrorCodes::TypeMismatch,
                            "BSON field '$merge.whenMatched' is the wrong type '" +
                                std::string(typeName(f.type())) +
                                "', expected types '[string, array]'",
                            f.type() == BSONType::kString);
                    _whenMatched = parseMergeMode<WhenMatched>(
                        f, {{"replace", WhenMatched::kReplace},
                            {"keepExisting", WhenMatched::kKeepExisting},
                            {"merge", WhenMatched::kMerge},
                            {"fail", WhenMatched::kFail}});
                }
            }
            if (const auto& whenNotMatched = spec.getWhenNotMatched()) {
                switch (*whenNotMatched) {
                    case MergeWhenNotMatchedMode::kInsert:
                        _whenNotMatched = WhenNotMatched::kInsert;
                        break;
                    case MergeWhenNotMatchedMode::kDiscard:
                        _whenNotMatched = WhenNotMatched::kDiscard;
                        break;
                    case MergeWhenNotMatchedMode::kFail:
                        _whenNotMatched = WhenNotMatched::kFail;
                        break;
                }
            }
            if (const auto& let = spec.getLet())
                _let = *let;
        }
        if (_whenMatched == WhenMatched::kPipeline) {
            auto sub = std::make_shared<ExpressionContext>(_expCtx->opCtx, _target);
            sub->topScope().defineVariable("new");
            for (auto l : _let)
                sub->topScope().defineVariable(l.fieldNameStringData());
            Pipeline::parse(_updatePipeline, sub);  // validates
        }
    }

    std::optional<BSONObj> getNext() override {
        if (_done)
            return std::nullopt;
        _done = true;
        OperationContext* opCtx = _expCtx->opCtx;
        uassert(ErrorCodes::CommandNotSupportedOnView, "Cannot write to view " + _target.ns(),
                !isView(opCtx, _target));
        auto coll = opCtx->getServiceContext()->catalog->getOrCreateCollection(opCtx, _target);
        while (auto d = _source->getNext()) {
            _expCtx->checkForInterruptEvery128();
            // Merging on _id, a document without one gets a new one (so it is inserted).
            const bool onId = std::find(_on.begin(), _on.end(), "_id") != _on.end();
            mergeOne(opCtx, coll, onId ? withId(d->getOwned()) : d->getOwned());
        }
        return std::nullopt;
    }
    const char* getSourceName() const override {
        return "$merge";
    }
    void serialize(BSONArrayBuilder* out) const override {
        out->append(_spec);
    }
    StageConstraints constraints() const override {
        StageConstraints c;
        c.requiresLast = true;
        c.allowedInFacet = false;
        c.isWriteStage = true;
        return c;
    }

private:
    BSONObj applyUpdatePipeline(const BSONObj& existing, const BSONObj& incoming) {
        auto sub = std::make_shared<ExpressionContext>(_expCtx->opCtx, _target);
        BSONObjBuilder let;
        let.append("new", BSON("$literal" << incoming));
        for (auto e : _let)
            let.append(e);
        for (auto e : let.obj()) {
            auto expr = Expression::parseOperand(sub.get(), e, sub->makeParseState());
            Value v = expr->evaluate(incoming, &sub->variables).getOwned();
            sub->variables.setValue(sub->topScope().defineVariable(e.fieldNameStringData()), v);
        }
        auto p = Pipeline::parse(_updatePipeline, sub);
        p->attachSource(std::make_unique<DocumentSourceQueue>(sub, std::vector<BSONObj>{existing}));
        auto out = p->getNext();
        uassert(ErrorCodes::BadValue, "$merge whenMatched pipeline produced no document", out);
        return out->getOwned();
    }

    void mergeOne(OperationContext* opCtx, const std::shared_ptr<Collection>& coll,
                  const BSONObj& doc) {
        BSONObjBuilder filter;
        for (const auto& f : _on) {
            BSONElement v = doc.getFieldDotted(f);
            uassert(
                51132,
                "$merge write error: 'on' field '" + f + "' cannot be missing, null or an array",
                !v.eoo() && !v.isNull() && v.type() != BSONType::kArray);
            filter.appendAs(v, f);
        }
        FindPlanParams params;
        params.filter = filter.obj();
        params.matcher =
            std::shared_ptr<MatchExpression>(uassertStatusOK(parseMatchExpression(params.filter)));
        params.limit = 1;
        std::shared_lock<std::shared_mutex> lk(coll->lock());
        WriteUnitOfWork wuow(opCtx->recoveryUnit());
        auto exec = buildFindPlan(opCtx, coll, params);
        BSONObj existing;
        RecordId rid;
        if (exec->getNext(opCtx, &existing, &rid)) {
            existing = existing.getOwned();
            BSONObj updated;
            switch (_whenMatched) {
                case WhenMatched::kKeepExisting:
                    break;
                case WhenMatched::kFail:
                    uasserted(ErrorCodes::DuplicateKey,
                              "$merge with whenMatched: fail found an existing document with the "
                              "same values for the 'on' fields");
                case WhenMatched::kReplace: {
                    BSONObjBuilder b;
                    b.append(existing["_id"]);
                    for (auto e : doc)
                        if (e.fieldNameStringData() != "_id")
                            b.append(e);
                    updated = b.obj();
                    break;
                }
                case WhenMatched::kMerge: {
                    BSONObjBuilder b;
                    for (auto e : existing) {
                        BSONElement n = doc.getField(e.fieldNameStringData());
                        b.append(n.eoo() || e.fieldNameStringData() == "_id" ? e : n);
                    }
                    for (auto e : doc)
                        if (!existing.hasField(e.fieldNameStringData()))
                            b.append(e);
                    updated = b.obj();
                    break;
                }
                case WhenMatched::kPipeline:
                    updated = applyUpdatePipeline(existing, doc);
                    if (updated["_id"].eoo()) {  // a result without _id keeps the existing one
                        BSONObjBuilder b;
                        b.append(existing["_id"]);
                        b.appendElements(updated);
                        updated = b.obj();
                    }
                    break;
            }
            // The matched document keeps its _id: a different one in the incoming document (a
            // merge on other fields) or in the pipeline's result fails, as upstream's update.
            const BSONElement newId =
                _whenMatched == WhenMatched::kPipeline ? updated["_id"] : doc["_id"];
            uassert(ErrorCodes::ImmutableField,
                    "$merge failed to update the matching document, did you attempt to modify "
                    "the _id or the shard key? :: caused by :: Performing an update on the path "
                    "'_id' would modify the immutable field '_id'",
                    _whenMatched == WhenMatched::kKeepExisting || newId.eoo() ||
                        newId.binaryEqualValues(existing["_id"]));
            // Commit even when nothing changed: aborting would also end the read
            // transaction the pipeline's input is using.
            if (_whenMatched != WhenMatched::kKeepExisting)
                coll->updateDocument(opCtx, rid, existing, updated);
        } else {
            switch (_whenNotMatched) {
                case WhenNotMatched::kDiscard:
                    break;
                case WhenNotMatched::kFail:
                    uasserted(13113,
                              "$merge could not find a matching document in the target "
                              "collection for at least one document in the source collection");
                case WhenNotMatched::kInsert:
                    coll->insertDocument(opCtx, withId(doc));  // a new _id when it has none
                    break;
            }
        }
        wuow.commit();
    }

    BSONObj _spec;
    NamespaceString _target;
    std::vector<std::string> _on{"_id"};
    WhenMatched _whenMatched = WhenMatched::kMerge;
    WhenNotMatched _whenNotMatched = WhenNotMatched::kInsert;
    std::vector<BSONObj> _updatePipeline;
    BSONObj _let;
    bool _done = false;
};

const bool kRegistered = [] {
    registerDocumentSource(
        "$out", [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& expCtx) {
            NamespaceString target;
            std::optional<BSONObj> timeseries;
            if (e.type() == BSONType::kObject) {
                const auto spec = DocumentSourceOutSpec::parse(IDLParserContext("$out"), e.Obj());
                timeseries = spec.getTimeseries();
                uassertStatusOK(NamespaceString::validateDatabaseName(spec.getDb()));
                target = NamespaceString(spec.getDb(), spec.getColl());
                checkOutputTarget(target, "$out");
            } else {
                target = parseTarget(e, expCtx->ns, "$out");
            }
            std::vector<StagePtr> out;
            out.push_back(std::make_unique<DocumentSourceOut>(expCtx, std::move(target),
                                                              std::move(timeseries)));
            return out;
        });
    registerDocumentSource(
        "$merge", [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& expCtx) {
            std::vector<StagePtr> out;
            out.push_back(std::make_unique<DocumentSourceMerge>(expCtx, e));
            return out;
        });
    return true;
}();

}  // namespace

void setTimeseriesOutWriter(TimeseriesOutWriter writer) {
    timeseriesOutWriter() = std::move(writer);
}

}  // namespace mongo
