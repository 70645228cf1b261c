// $redact: keeps, prunes or descends into each (sub)document according to an
// expression returning $$KEEP, $$PRUNE or $$DESCEND.
#include "mongo/db/pipeline/document_source.h"
#include "mongo/db/pipeline/expression.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

class DocumentSourceRedact final : public DocumentSource {
public:
    DocumentSourceRedact(std::shared_ptr<ExpressionContext> expCtx, const BSONElement& spec)
        : DocumentSource(std::move(expCtx)) {
        BSONObjBuilder b;
        b.appendAs(spec, "$redact");
        _spec = b.obj();
        _expr = Expression::parseOperand(_expCtx.get(), spec, _expCtx->makeParseState());
    }

    std::optional<BSONObj> getNext() override {
        while (auto doc = _source->getNext()) {
            _expCtx->checkForInterruptEvery128();
            if (auto out = redact(*doc))
                return out;
        }
        return std::nullopt;
    }
    const char* getSourceName() const override {
        return "$redact";
    }
    void serialize(BSONArrayBuilder* out) const override {
        out->append(_spec);
    }

private:
    std::optional<BSONObj> redact(const BSONObj& doc) {
        Value r = _expr->evaluate(doc, &_expCtx->variables);
        StringData s = r.isString() ? r.getStringData() : StringData();
        if (s == "keep")
            return doc.getOwned();
        if (s == "prune")
            return std::nullopt;
        uassert(17053,
                "$redact's expression should not return anything aside from the variables "
                "$$KEEP, $$DESCEND, and $$PRUNE, but returned " +
                    r.toString(),
                s == "descend");
        BSONObjBuilder b;
        for (auto e : doc) {
            if (e.type() == BSONType::kObject) {
                if (auto sub = redact(e.Obj()))
                    b.append(e.fieldNameStringData(), *sub);
            } else if (e.type() == BSONType::kArray) {
                BSONArrayBuilder arr(b.subarrayStart(e.fieldNameStringData()));
                redactArray(e.Obj(), &arr);
            } else {
                b.append(e);
            }
        }
        return b.obj();
    }
    void redactArray(const BSONObj& arr, BSONArrayBuilder* out) {
        for (auto e : arr) {
            if (e.type() == BSONType::kObject) {
                if (auto sub = redact(e.Obj()))
                    out->append(*sub);
            } else if (e.type() == BSONType::kArray) {
                BSONArrayBuilder inner(out->subarrayStart());
                redactArray(e.Obj(), &inner);
            } else {
                out->append(e);
            }
        }
    }

    BSONObj _spec;
    ExprPtr _expr;
};

const bool kRegistered = [] {
    registerDocumentSource(
        "$redact", [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& expCtx) {
            std::vector<StagePtr> out;
            out.push_back(std::make_unique<DocumentSourceRedact>(expCtx, e));
            return out;
        });
    return true;
}();

}  // namespace
}  // namespace mongo
