#include "mongo/db/timeseries/bucket_catalog/write_batch.h"

#include <chrono>

namespace mongo::timeseries::bucket_catalog {

bool claimWriteBatchCommitRights(WriteBatch& batch) {
    return !batch.commitRights.exchange(true);
}

Status getWriteBatchStatus(WriteBatch& batch) {
    if (!isWriteBatchFinished(batch))
        batch.stats.inc(&ExecutionStats::numWaits);
    return batch.future.get();
}

bool isWriteBatchFinished(const WriteBatch& batch) {
    return batch.future.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

}  // namespace mongo::timeseries::bucket_catalog
