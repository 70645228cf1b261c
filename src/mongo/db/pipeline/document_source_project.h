// One-document-in, one-document-out stages: $project, $addFields/$set, $unset
// ($project exclusion), $replaceRoot/$replaceWith.
#pragma once

#include <memory>

#include "mongo/db/pipeline/document_source.h"
#include "mongo/db/pipeline/projection_executor.h"

namespace mongo {

class DocumentSourceSingleDocumentTransformation final : public DocumentSource {
public:
    /** A projection-based stage; `name` is the user stage name ($project, $set...). */
    DocumentSourceSingleDocumentTransformation(std::shared_ptr<ExpressionContext> expCtx,
                                               std::unique_ptr<ProjectionExecutor> proj,
                                               std::string name, BSONObj spec);
    /** A $replaceRoot whose new root is `newRoot`. */
    DocumentSourceSingleDocumentTransformation(std::shared_ptr<ExpressionContext> expCtx,
                                               ExprPtr newRoot, std::string name, BSONObj spec);

    std::optional<BSONObj> getNext() override;
    const char* getSourceName() const override {
        return _name.c_str();
    }
    void serialize(BSONArrayBuilder* out) const override;
    StageList::iterator optimizeAt(StageList::iterator it, StageList* container) override;

    /** Null for $replaceRoot. */
    const ProjectionExecutor* projection() const {
        return _proj.get();
    }

private:
    std::unique_ptr<ProjectionExecutor> _proj;
    ExprPtr _newRoot;
    std::string _name;
    BSONObj _spec;
};

}  // namespace mongo
