#include "mongo/db/pipeline/update_pipeline.h"

#include "mongo/db/pipeline/document_source_project.h"
#include "mongo/db/pipeline/expression.h"
#include "mongo/db/pipeline/pipeline_d.h"
#include "mongo/db/query/collation/collator_interface.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

/** The document being updated, handed to the first stage once per transform(). */
class DocumentSourceUpdateInput final : public DocumentSource {
public:
    using DocumentSource::DocumentSource;
    void set(const BSONObj& doc) {
        _doc = doc;
    }
    std::optional<BSONObj> getNext() override {
        return std::exchange(_doc, std::nullopt);
    }
    const char* getSourceName() const override {
        return "$updateInput";
    }
    void serialize(BSONArrayBuilder* out) const override {}

private:
    std::optional<BSONObj> _doc;
};

/**
 * The stages of one statement chained behind a DocumentSourceUpdateInput. Each is a
 * one-in, one-out transformation, so the chain can be fed one document at a time.
 */
class UpdatePipeline final : public UpdatePipelineTransform {
public:
    UpdatePipeline(const std::vector<BSONObj>& stages, std::shared_ptr<ExpressionContext> expCtx)
        : _expCtx(std::move(expCtx)), _input(_expCtx) {
        DocumentSource* previous = &_input;
        for (const BSONObj& stage : stages) {
            for (StagePtr& s : parseDocumentSource(stage, _expCtx)) {
                uassert(ErrorCodes::InvalidOptions,
                        std::string(stage.firstElementFieldNameStringData()) +
                            " is not allowed to be used within an update",
                        dynamic_cast<DocumentSourceSingleDocumentTransformation*>(s.get()));
                s->setSource(previous);
                previous = s.get();
                _stages.push_back(std::move(s));
            }
        }
    }

    BSONObj transform(const BSONObj& doc) const override {
        if (_stages.empty())
            return doc;
        _input.set(doc);
        std::optional<BSONObj> out = _stages.back()->getNext();
        invariant(out);  // every stage turns one document into one
        return out->getOwned();
    }

private:
    std::shared_ptr<ExpressionContext> _expCtx;
    mutable DocumentSourceUpdateInput _input;
    StageList _stages;
};

std::shared_ptr<ExpressionContext> makeUpdateExpressionContext(const UpdatePipelineContext& ctx) {
    auto expCtx = std::make_shared<ExpressionContext>(ctx.opCtx, ctx.nss);
    if (ctx.collator)
        expCtx->setCollator(ctx.collator->clone());
    defineLetVariables(expCtx.get(), ctx.letVars);
    if (ctx.constants) {
        for (BSONElement e : *ctx.constants) {
            validateVariableName(e.fieldNameStringData());
            VariableId id = expCtx->topScope().defineVariable(e.fieldNameStringData());
            expCtx->variables.setValue(id, Value(e).getOwned());
        }
    }
    return expCtx;
}

}  // namespace

UpdateDriver parseUpdateStatement(const std::variant<BSONObj, std::vector<BSONObj>>& u,
                                  const std::vector<BSONObj>& arrayFilters,
                                  const UpdatePipelineContext& ctx) {
    if (const BSONObj* obj = std::get_if<BSONObj>(&u)) {
        uassert(51198, "Constant values may only be specified for pipeline updates",
                !ctx.constants);
        return uassertStatusOK(UpdateDriver::parse(*obj, arrayFilters));
    }
    uassert(ErrorCodes::FailedToParse,
            "arrayFilters may not be specified for pipeline-style updates", arrayFilters.empty());
    const auto& stages = std::get<std::vector<BSONObj>>(u);
    auto pipeline = std::make_shared<UpdatePipeline>(stages, makeUpdateExpressionContext(ctx));
    return UpdateDriver::forPipeline(stages, std::move(pipeline));
}

UpdateDriver parseUpdateOpEntry(const UpdateOpEntry& stmt, UpdatePipelineContext ctx) {
    ctx.constants = stmt.getC();
    UpdateDriver driver = parseUpdateStatement(
        stmt.getU(), stmt.getArrayFilters().value_or(std::vector<BSONObj>()), ctx);
    if (stmt.getUpsertSupplied().value_or(false)) {
        uassert(ErrorCodes::FailedToParse,
                "cannot specify upsertSupplied: true without upsert: true", stmt.getUpsert());
        BSONElement supplied = ctx.constants ? (*ctx.constants)["new"] : BSONElement();
        uassert(ErrorCodes::FailedToParse,
                "the parameter 'upsertSupplied' is set to 'true', but no document was supplied "
                "as an object in 'c.new'",
                supplied.type() == BSONType::kObject);
        driver.setSuppliedUpsertDocument(supplied.Obj());
    }
    return driver;
}

}  // namespace mongo
