// $_internalTimeseriesExactMinMax: the guard that makes the "$group on meta with
// $min/$max" rewrite (timeseries_rewrites.h) exact. control.min/max of a bucket equal
// the $min/$max accumulators over its measurements except when the bound is an object
// or an array (min/max are then taken per sub-field or position), or, for min, null or
// undefined (the accumulator ignores nulls). For such buckets only, this stage unpacks
// the named fields and replaces control.min.<f> / control.max.<f> by the exact
// accumulator value; other buckets pass through untouched. The rewrite is only made when
// the query's collation is the collection's default one (control.min/max order strings by
// it; §5.4), and the exact values are computed with that collation.
//
//   {$_internalTimeseriesExactMinMax: {timeField: "t", min: ["a"], max: ["a", "b"]}}
#pragma once

#include <string>
#include <vector>

#include "mongo/db/pipeline/document_source.h"

namespace mongo {

class DocumentSourceInternalTimeseriesExactMinMax final : public DocumentSource {
public:
    static constexpr StringData kStageName = "$_internalTimeseriesExactMinMax";

    DocumentSourceInternalTimeseriesExactMinMax(std::shared_ptr<ExpressionContext> expCtx,
                                                std::string timeField,
                                                std::vector<std::string> minFields,
                                                std::vector<std::string> maxFields);

    /** Parses the spec above. Throws FailedToParse (9) on a malformed spec. */
    static StagePtr createFromBson(const BSONElement& spec,
                                   const std::shared_ptr<ExpressionContext>& expCtx);

    std::optional<BSONObj> getNext() override;
    const char* getSourceName() const override {
        return "$_internalTimeseriesExactMinMax";
    }
    void serialize(BSONArrayBuilder* out) const override;
    void appendExplainStats(BSONObjBuilder* b) const override;

    /**
     * `bucket` with the unsafe bounds of the listed fields made exact (pure; for tests);
     * strings compare with `strings` (null: simple).
     */
    static BSONObj makeBoundsExact(const BSONObj& bucket, const std::string& timeField,
                                   const std::vector<std::string>& minFields,
                                   const std::vector<std::string>& maxFields,
                                   bool* unpacked = nullptr,
                                   const StringComparator* strings = nullptr);

private:
    std::string _timeField;
    std::vector<std::string> _minFields;
    std::vector<std::string> _maxFields;
    long long _bucketsUnpacked = 0;
};

}  // namespace mongo
