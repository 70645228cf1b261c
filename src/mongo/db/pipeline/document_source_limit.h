// $limit and $skip.
#pragma once

#include "mongo/db/pipeline/document_source.h"

namespace mongo {

class DocumentSourceLimit final : public DocumentSource {
public:
    DocumentSourceLimit(std::shared_ptr<ExpressionContext> expCtx, long long limit)
        : DocumentSource(std::move(expCtx)), _limit(limit) {}
    std::optional<BSONObj> getNext() override {
        if (_returned >= _limit)
            return std::nullopt;
        auto d = _source->getNext();
        if (d)
            ++_returned;
        return d;
    }
    const char* getSourceName() const override {
        return "$limit";
    }
    void serialize(BSONArrayBuilder* out) const override;
    StageList::iterator optimizeAt(StageList::iterator it, StageList* container) override;
    long long getLimit() const {
        return _limit;
    }
    void setLimit(long long l) {
        _limit = l;
    }

private:
    long long _limit;
    long long _returned = 0;
};

class DocumentSourceSkip final : public DocumentSource {
public:
    DocumentSourceSkip(std::shared_ptr<ExpressionContext> expCtx, long long skip)
        : DocumentSource(std::move(expCtx)), _skip(skip) {}
    std::optional<BSONObj> getNext() override {
        while (_skipped < _skip) {
            if (!_source->getNext())
                return std::nullopt;
            ++_skipped;
        }
        return _source->getNext();
    }
    const char* getSourceName() const override {
        return "$skip";
    }
    void serialize(BSONArrayBuilder* out) const override;
    StageList::iterator optimizeAt(StageList::iterator it, StageList* container) override;
    long long getSkip() const {
        return _skip;
    }
    void setSkip(long long s) {
        _skip = s;
    }

private:
    long long _skip;
    long long _skipped = 0;
};

}  // namespace mongo
