// $_internalBoundedSort: sorts measurements on time (optionally after meta keys)
// when the buckets arrive in control.min.<time> (or control.max.<time>) order, so a
// measurement can be returned as soon as no later bucket can hold one that sorts
// before it. The bound of the current bucket is its control.<base>.<time> plus
// `offsetSeconds` (spec §5.4 table), combined with the bucket's meta for meta keys.
// Memory: the measurements between the bound and the current bucket only.
//
//   {$_internalBoundedSort: {sortKey: {t: 1}, bound: {base: "min"}, limit: 10}}
//   {$_internalBoundedSort: {sortKey: {m: 1, t: -1}, bound: {base: "min", offsetSeconds: 3600}}}
//
// The bucket comes from the $_internalUnpackBucket stage feeding this one; with any
// other source the stage sorts its whole input (still correct, just blocking).
#pragma once

#include <memory>
#include <vector>

#include "mongo/db/pipeline/document_source.h"
#include "mongo/db/query/sort_pattern.h"

namespace mongo {

class DocumentSourceInternalUnpackBucket;

class DocumentSourceInternalBoundedSort final : public DocumentSource {
public:
    static constexpr StringData kStageName = "$_internalBoundedSort";

    enum class BoundBase { kMin, kMax };

    DocumentSourceInternalBoundedSort(std::shared_ptr<ExpressionContext> expCtx, BSONObj sortKey,
                                      BoundBase base, long long offsetSeconds, long long limit);

    /** Parses the spec above. Throws FailedToParse (9) and SortPattern's codes. */
    static StagePtr createFromBson(const BSONElement& spec,
                                   const std::shared_ptr<ExpressionContext>& expCtx);

    std::optional<BSONObj> getNext() override;
    const char* getSourceName() const override {
        return "$_internalBoundedSort";
    }
    void serialize(BSONArrayBuilder* out) const override;
    void appendExplainStats(BSONObjBuilder* b) const override;

    /** Seconds added to control.<base>.<time> for the bound: not 0 means the bound is not exact. */
    long long offsetSeconds() const {
        return _offsetSeconds;
    }
    long long limit() const {
        return _limit;
    }
    /** The sort on measurements it performs ({m: 1, t: -1}...). */
    const BSONObj& sortKeySpec() const {
        return _sortKeySpec;
    }
    void setLimit(long long limit) {
        _limit = limit;
    }

private:
    struct Entry {
        BSONObj key;
        BSONObj doc;
        long long seq;
    };
    /** The sort key of the current bucket's bound; empty when unknown. */
    BSONObj currentBoundKey();
    bool before(const Entry& a, const Entry& b) const;

    BSONObj _sortKeySpec;
    std::shared_ptr<SortPattern> _pattern;
    BoundBase _base;
    long long _offsetSeconds;
    long long _limit;  // 0: none
    DocumentSourceInternalUnpackBucket* _unpack = nullptr;
    bool _started = false;
    bool _inputDone = false;
    BSONObj _bound;            // sort key of the latest bucket's bound
    std::vector<Entry> _heap;  // best entry at front
    long long _seq = 0;
    long long _returned = 0;
    size_t _maxBuffered = 0;
};

}  // namespace mongo
