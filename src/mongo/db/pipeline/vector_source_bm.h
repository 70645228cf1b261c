// Benchmark helper: a DocumentSource that streams a vector it does not own, so a
// benchmark iteration does not copy its input (DocumentSourceQueue owns and copies).
#pragma once

#include <optional>
#include <vector>

#include "mongo/db/pipeline/document_source.h"

namespace mongo {

class VectorSource final : public DocumentSource {
public:
    VectorSource(std::shared_ptr<ExpressionContext> expCtx, const std::vector<BSONObj>* docs)
        : DocumentSource(std::move(expCtx)), _docs(docs) {}
    std::optional<BSONObj> getNext() override {
        if (_pos >= _docs->size())
            return std::nullopt;
        return (*_docs)[_pos++];
    }
    const char* getSourceName() const override {
        return "$vector";
    }
    void serialize(BSONArrayBuilder*) const override {}

private:
    const std::vector<BSONObj>* _docs;
    size_t _pos = 0;
};

}  // namespace mongo
