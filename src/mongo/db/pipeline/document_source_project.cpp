#include "mongo/db/pipeline/document_source_project.h"

#include "mongo/db/pipeline/document_source_group.h"
#include "mongo/db/pipeline/document_source_match.h"
#include "mongo/idl/document_source_misc_specs_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {

DocumentSourceSingleDocumentTransformation::DocumentSourceSingleDocumentTransformation(
    std::shared_ptr<ExpressionContext> expCtx, std::unique_ptr<ProjectionExecutor> proj,
    std::string name, BSONObj spec)
    : DocumentSource(std::move(expCtx)),
      _proj(std::move(proj)),
      _name(std::move(name)),
      _spec(spec.getOwned()) {}

DocumentSourceSingleDocumentTransformation::DocumentSourceSingleDocumentTransformation(
    std::shared_ptr<ExpressionContext> expCtx, ExprPtr newRoot, std::string name, BSONObj spec)
    : DocumentSource(std::move(expCtx)),
      _newRoot(std::move(newRoot)),
      _name(std::move(name)),
      _spec(spec.getOwned()) {}

std::optional<BSONObj> DocumentSourceSingleDocumentTransformation::getNext() {
    auto doc = _source->getNext();
    if (!doc)
        return doc;
    Variables* vars = &_expCtx->variables;
    if (_proj)
        return _proj->apply(*doc, vars);
    Value v = _newRoot->evaluate(*doc, vars);
    uassert(40228,
            "'newRoot' expression must evaluate to an object, but resulting value was: " +
                v.toString() + ". Type of resulting value: '" + typeNameOf(v) +
                "'. Input document: " + doc->toString(),
            v.isObject());
    return v.getDocument().getOwned();
}

void DocumentSourceSingleDocumentTransformation::serialize(BSONArrayBuilder* out) const {
    BSONObjBuilder b(out->subobjStart());
    if (!_proj) {
        b.append(_name, _spec);
        return;
    }
    BSONObjBuilder spec(b.subobjStart(_name));
    _proj->serialize(&spec);
}

StageList::iterator DocumentSourceSingleDocumentTransformation::optimizeAt(StageList::iterator it,
                                                                           StageList* container) {
    // An $addFields/$set of nothing does nothing: upstream drops it. The stage before it may
    // then meet the one after it.
    if (_proj && _proj->kind() == ProjectionExecutor::Kind::kAddFields && _spec.isEmpty()) {
        auto after = container->erase(it);
        return after == container->begin() ? after : std::prev(after);
    }
    // Swap a following $match in front of this stage when it reads none of the fields
    // this stage may change.
    auto next = std::next(it);
    if (next == container->end() || !_proj)
        return next;
    auto* match = dynamic_cast<DocumentSourceMatch*>(next->get());
    if (!match)
        return next;
    if (_proj->kind() == ProjectionExecutor::Kind::kInclusion)
        return next;  // fields outside the projection vanish: keep the order
    return DocumentSourceMatch::moveBefore(it, container, _proj->modifiedTopLevelFields());
}

namespace {

std::vector<StagePtr> one(StagePtr s) {
    std::vector<StagePtr> v;
    v.push_back(std::move(s));
    return v;
}

StagePtr makeProject(const std::shared_ptr<ExpressionContext>& expCtx, const BSONObj& spec) {
    return std::make_unique<DocumentSourceSingleDocumentTransformation>(
        expCtx, ProjectionExecutor::parseProject(expCtx.get(), spec), "$project", spec);
}

const bool kRegistered = [] {
    registerDocumentSource("$project", [](const BSONElement& e,
                                          const std::shared_ptr<ExpressionContext>& expCtx) {
        uassert(15969, "$project specification must be an object", e.type() == BSONType::kObject);
        return one(makeProject(expCtx, e.Obj()));
    });
    for (const char* name : {"$addFields", "$set"}) {
        std::string n = name;
        registerDocumentSource(name, [n](const BSONElement& e,
                                         const std::shared_ptr<ExpressionContext>& expCtx) {
            uassert(40272,
                    n + " specification stage must be an object, got " + typeNameOf(Value(e)),
                    e.type() == BSONType::kObject);
            return one(std::make_unique<DocumentSourceSingleDocumentTransformation>(
                expCtx, ProjectionExecutor::parseAddFields(expCtx.get(), e.Obj(), n), n, e.Obj()));
        });
    }
    registerDocumentSource(
        "$unset", [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& expCtx) {
            std::vector<std::string> paths;
            if (e.type() == BSONType::kString) {
                paths.push_back(e.str());
            } else {
                uassert(31002, "$unset specification must be a string or an array",
                        e.type() == BSONType::kArray);
                for (auto p : e.Obj()) {
                    uassert(31120,
                            "$unset specification must be a string or an array containing only "
                            "string values",
                            p.type() == BSONType::kString);
                    paths.push_back(p.str());
                }
                uassert(31119,
                        "$unset specification must be a string or an array with at least one "
                        "field",
                        !paths.empty());
            }
            for (const auto& p : paths)
                uassert(40352, "FieldPath cannot be constructed with empty string", !p.empty());
            BSONObjBuilder spec;
            for (const auto& p : paths)
                spec.append(p, false);
            return one(std::make_unique<DocumentSourceSingleDocumentTransformation>(
                expCtx, ProjectionExecutor::makeExclusion(paths), "$project", spec.obj()));
        });
    registerDocumentSource(
        "$replaceRoot", [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& expCtx) {
            uassert(40229,
                    "expected an object as specification for $replaceRoot stage, got " +
                        typeNameOf(Value(e)),
                    e.type() == BSONType::kObject);
            const auto spec = ReplaceRootSpec::parse(IDLParserContext("$replaceRoot"), e.Obj());
            return one(std::make_unique<DocumentSourceSingleDocumentTransformation>(
                expCtx,
                Expression::parseOperand(expCtx.get(), spec.getNewRoot().getElement(),
                                         expCtx->makeParseState()),
                "$replaceRoot", e.Obj()));
        });
    registerDocumentSource(
        "$replaceWith", [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& expCtx) {
            BSONObjBuilder spec;
            spec.appendAs(e, "newRoot");
            return one(std::make_unique<DocumentSourceSingleDocumentTransformation>(
                expCtx, Expression::parseOperand(expCtx.get(), e, expCtx->makeParseState()),
                "$replaceRoot", spec.obj()));
        });
    registerDocumentSource("$count", [](const BSONElement& e,
                                        const std::shared_ptr<ExpressionContext>& expCtx) {
        uassert(40156, "the count field must be a non-empty string", e.type() == BSONType::kString);
        std::string f = e.str();
        uassert(40157, "the count field must be a non-empty string", !f.empty());
        uassert(40158, "the count field cannot be a $-prefixed path", f[0] != '$');
        uassert(40160, "the count field cannot contain '.'", f.find('.') == std::string::npos);
        std::vector<StagePtr> out;
        out.push_back(std::make_unique<DocumentSourceGroup>(
            expCtx, BSON("_id" << BSONNULL << f << BSON("$sum" << 1))));
        out.push_back(makeProject(expCtx, BSON("_id" << 0 << f << 1)));
        return out;
    });
    return true;
}();

}  // namespace
}  // namespace mongo
