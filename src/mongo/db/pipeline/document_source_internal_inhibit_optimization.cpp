// $_internalInhibitOptimization: {} passes documents through unchanged, and no rewrite
// looks across it: stages before it are optimised as if the pipeline ended there, stages
// after it as if it began there. Tests use it to run a pipeline without its rewrites (for
// example the time-series rewrites around $_internalUnpackBucket) and compare results.
#include "mongo/db/pipeline/document_source.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

class DocumentSourceInternalInhibitOptimization final : public DocumentSource {
public:
    using DocumentSource::DocumentSource;

    std::optional<BSONObj> getNext() override {
        return _source->getNext();
    }
    const char* getSourceName() const override {
        return "$_internalInhibitOptimization";
    }
    void serialize(BSONArrayBuilder* out) const override {
        BSONObjBuilder b(out->subobjStart());
        b.append("$_internalInhibitOptimization", BSONObj());
    }
};

const bool kRegistered = [] {
    registerDocumentSource(
        "$_internalInhibitOptimization",
        [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& expCtx) {
            uassert(ErrorCodes::TypeMismatch,
                    "$_internalInhibitOptimization must take a nested object but found: " +
                        e.toString(),
                    e.type() == BSONType::kObject);
            uassert(ErrorCodes::FailedToParse,
                    "$_internalInhibitOptimization must take an empty object but found: " +
                        e.toString(),
                    e.embeddedObject().isEmpty());
            std::vector<StagePtr> out;
            out.push_back(std::make_unique<DocumentSourceInternalInhibitOptimization>(expCtx));
            return out;
        });
    return true;
}();

}  // namespace
}  // namespace mongo
