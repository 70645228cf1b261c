#include "mongo/db/timeseries/bucket_catalog/execution_stats.h"

namespace mongo::timeseries::bucket_catalog {

void appendExecutionStatsToBuilder(const ExecutionStats& s, BSONObjBuilder& b) {
    auto add = [&](const char* name, const std::atomic<int64_t>& v) {
        b.append(name, static_cast<long long>(v.load(std::memory_order_relaxed)));
    };
    add("numBucketInserts", s.numBucketInserts);
    add("numBucketUpdates", s.numBucketUpdates);
    add("numBucketsOpenedDueToMetadata", s.numBucketsOpenedDueToMetadata);
    add("numBucketsClosedDueToCount", s.numBucketsClosedDueToCount);
    add("numBucketsClosedDueToSchemaChange", s.numBucketsClosedDueToSchemaChange);
    add("numBucketsClosedDueToSize", s.numBucketsClosedDueToSize);
    add("numBucketsClosedDueToTimeForward", s.numBucketsClosedDueToTimeForward);
    add("numBucketsClosedDueToTimeBackward", s.numBucketsClosedDueToTimeBackward);
    add("numBucketsClosedDueToMemoryThreshold", s.numBucketsClosedDueToMemoryThreshold);
    const long long commits = s.numCommits.load();
    add("numCommits", s.numCommits);
    add("numMeasurementsGroupCommitted", s.numMeasurementsGroupCommitted);
    add("numWaits", s.numWaits);
    add("numMeasurementsCommitted", s.numMeasurementsCommitted);
    if (commits > 0)
        b.append("avgNumMeasurementsPerCommit",
                 static_cast<long long>(s.numMeasurementsCommitted.load() / commits));
    add("numBucketsClosedDueToReopening", s.numBucketsClosedDueToReopening);
    add("numBucketsArchivedDueToMemoryThreshold", s.numBucketsArchivedDueToMemoryThreshold);
    add("numBucketsArchivedDueToTimeBackward", s.numBucketsArchivedDueToTimeBackward);
    add("numBucketsReopened", s.numBucketsReopened);
    add("numBucketsKeptOpenDueToLargeMeasurements", s.numBucketsKeptOpenDueToLargeMeasurements);
    add("numBucketsClosedDueToCachePressure", s.numBucketsClosedDueToCachePressure);
    add("numBucketsFrozen", s.numBucketsFrozen);
    add("numCompressedBucketsConvertedToUnsorted", s.numCompressedBucketsConvertedToUnsorted);
    add("numBucketsFetched", s.numBucketsFetched);
    add("numBucketsQueried", s.numBucketsQueried);
    add("numBucketFetchesFailed", s.numBucketFetchesFailed);
    add("numBucketQueriesFailed", s.numBucketQueriesFailed);
    add("numBucketReopeningsFailed", s.numBucketReopeningsFailed);
    add("numDuplicateBucketsReopened", s.numDuplicateBucketsReopened);
}

}  // namespace mongo::timeseries::bucket_catalog
