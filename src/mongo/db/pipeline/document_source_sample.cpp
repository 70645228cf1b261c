// $sample (uniform random sample without replacement) and $documents (literal input).
#include <algorithm>
#include <random>

#include "mongo/db/pipeline/document_source.h"
#include "mongo/db/pipeline/expression.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

class DocumentSourceSample final : public DocumentSourceMaterialized {
public:
    DocumentSourceSample(std::shared_ptr<ExpressionContext> expCtx, long long size)
        : DocumentSourceMaterialized(std::move(expCtx)), _size(size) {}

    std::vector<BSONObj> materialize() override {
        // Reservoir sampling, then a shuffle so the order is random too.
        std::vector<BSONObj> sample;
        std::mt19937_64 gen{std::random_device{}()};
        long long seen = 0;
        size_t bytes = 0;
        const size_t limit = static_cast<size_t>(_expCtx->maxMemoryBytes);
        auto charge = [&](const BSONObj& added, const BSONObj* replaced) {
            bytes += added.objsize() + sizeof(BSONObj);
            if (replaced)
                bytes -= replaced->objsize() + sizeof(BSONObj);
            // The reservoir cannot spill: a sample larger than the limit fails.
            uassert(_expCtx->allowDiskUse ? ErrorCodes::ExceededMemoryLimit
                                          : ErrorCodes::QueryExceededMemoryLimitNoDiskUseAllowed,
                    "$sample of " + std::to_string(_size) +
                        " documents exceeds the memory limit of " + std::to_string(limit) +
                        " bytes",
                    bytes <= limit);
        };
        while (auto doc = _source->getNext()) {
            _expCtx->checkForInterruptEvery128();
            ++seen;
            if (static_cast<long long>(sample.size()) < _size) {
                charge(*doc, nullptr);
                sample.push_back(doc->getOwned());
            } else if (_size > 0) {
                std::uniform_int_distribution<long long> dist(0, seen - 1);
                long long j = dist(gen);
                if (j < _size) {
                    charge(*doc, &sample[j]);
                    sample[j] = doc->getOwned();
                }
            }
        }
        std::shuffle(sample.begin(), sample.end(), gen);
        return sample;
    }
    const char* getSourceName() const override {
        return "$sample";
    }
    void serialize(BSONArrayBuilder* out) const override {
        BSONObjBuilder b(out->subobjStart());
        b.append("$sample", BSON("size" << _size));
    }

private:
    long long _size;
};

const bool kRegistered = [] {
    registerDocumentSource(
        "$sample", [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& expCtx) {
            uassert(28745, "the $sample stage specification must be an object",
                    e.type() == BSONType::kObject);
            BSONElement size;
            for (auto f : e.Obj()) {
                uassert(28748,
                        "unrecognized option to $sample: " + std::string(f.fieldNameStringData()),
                        f.fieldNameStringData() == "size");
                size = f;
            }
            uassert(28749, "$sample stage must specify a size", !size.eoo());
            uassert(28746, "size argument to $sample must be a number", size.isNumber());
            uassert(28747, "size argument to $sample must not be negative", size.numberLong() >= 0);
            std::vector<StagePtr> out;
            out.push_back(std::make_unique<DocumentSourceSample>(expCtx, size.numberLong()));
            return out;
        });
    registerDocumentSource("$documents", [](const BSONElement& e,
                                            const std::shared_ptr<ExpressionContext>& expCtx) {
        uassertNotInFacet(*expCtx, "$documents");
        auto expr = Expression::parseOperand(expCtx.get(), e, expCtx->makeParseState());
        Value v = expr->evaluate(BSONObj(), &expCtx->variables);
        uassert(5858203, "an array is expected", v.isArray());
        std::vector<BSONObj> docs;
        for (const auto& d : v.getArray()) {
            uassert(40228,
                    "'newRoot' expression must evaluate to an object, but resulting value was: " +
                        d.toString() + ". Type of resulting value: '" + typeNameOf(d) + "'.",
                    d.isObject());
            docs.push_back(d.getDocument().getOwned());
        }
        std::vector<StagePtr> out;
        out.push_back(std::make_unique<DocumentSourceQueue>(expCtx, std::move(docs), "$documents"));
        return out;
    });
    return true;
}();

}  // namespace
}  // namespace mongo
