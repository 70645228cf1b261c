// $_internalUnpackBucket: the first stage of a time-series view's pipeline. It
// reads bucket documents from the buckets collection and returns the
// measurements they hold (BucketUnpacker), optionally filtered by `eventFilter`
// (skipped for buckets matching `wholeBucketFilter`). The spec fields and parse
// errors are those of spec §5.2. The optimiser rewrites around it (issue #7) are
// not done here: this is the correct, unoptimised stage.
#pragma once

#include <memory>

#include "mongo/db/matcher/expression.h"
#include "mongo/db/pipeline/bucket_unpacker.h"
#include "mongo/db/pipeline/document_source.h"

namespace mongo {

class DocumentSourceInternalUnpackBucket final : public DocumentSource {
public:
    static constexpr StringData kStageName = "$_internalUnpackBucket";
    static constexpr StringData kStageNameExternal = "$_unpackBucket";

    /** Parses either form (external: `$_unpackBucket`). Throws the 5346500-range errors. */
    static StagePtr createFromBson(const BSONElement& spec,
                                   const std::shared_ptr<ExpressionContext>& expCtx);

    DocumentSourceInternalUnpackBucket(std::shared_ptr<ExpressionContext> expCtx,
                                       BucketSpec spec, int bucketMaxSpanSeconds);

    std::optional<BSONObj> getNext() override;
    const char* getSourceName() const override {
        return "$_internalUnpackBucket";
    }
    void serialize(BSONArrayBuilder* out) const override;
    StageConstraints constraints() const override;
    /**
     * Absorbs a following $match into `eventFilter`, derives `wholeBucketFilter`, and
     * puts a bucket-level $match (bucket_level_predicates.h) in front of this stage,
     * where the find layer can serve it from the buckets collection's indexes.
     */
    StageList::iterator optimizeAt(StageList::iterator it, StageList* container) override;
    void appendExplainStats(BSONObjBuilder* b) const override;

    int bucketMaxSpanSeconds() const {
        return _bucketMaxSpanSeconds;
    }
    const BucketSpec& bucketSpec() const {
        return _unpacker.spec();
    }

private:
    /** Restricts unpacking to the fields the stages after `next` need (once). */
    void _pruneUnusedFields(StageList::iterator next, StageList* container);

    BucketUnpacker _unpacker;
    bool _fieldsPruned = false;
    int _bucketMaxSpanSeconds;
    bool _assumeNoMixedSchemaData = false;
    bool _usesExtendedRange = false;
    bool _fixedBuckets = false;
    bool _includeMinTime = false;
    bool _includeMaxTime = false;
    BSONObj _eventFilterSpec;
    BSONObj _wholeBucketFilterSpec;
    std::unique_ptr<MatchExpression> _eventFilter;
    std::unique_ptr<MatchExpression> _wholeBucketFilter;
    bool _bucketMatchesWhole = false;
    const DocumentSource* _bucketMatch = nullptr;  // the $match this stage put before itself
    long long _bucketsExamined = 0;
};

}  // namespace mongo
