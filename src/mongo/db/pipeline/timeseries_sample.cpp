#include "mongo/db/pipeline/timeseries_sample.h"

#include <algorithm>
#include <set>

#include "mongo/db/catalog/collection.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/pipeline/bucket_unpacker.h"

namespace mongo::timeseries_sample {

bool useArhash(long long size, long long numBuckets, long long bucketMaxCount) {
    return numBuckets > 0 && bucketMaxCount > 0 &&
        static_cast<double>(size) <= 0.01 * static_cast<double>(numBuckets) * bucketMaxCount;
}

std::optional<std::vector<BSONObj>> sampleBuckets(OperationContext* opCtx, const Collection& coll,
                                                  BucketUnpacker* unpacker, long long size,
                                                  long long bucketMaxCount, std::mt19937_64* gen) {
    RecordStore* rs = coll.recordStore();
    auto first = rs->getCursor(opCtx->recoveryUnit(), true)->next();
    auto last = rs->getCursor(opCtx->recoveryUnit(), false)->next();
    std::vector<BSONObj> out;
    if (!first || !last || size <= 0)
        return out;
    std::uniform_int_distribution<std::int64_t> pickId(first->id.getLong(), last->id.getLong());
    std::uniform_int_distribution<long long> pickSlot(0, bucketMaxCount - 1);
    std::set<std::pair<std::int64_t, long long>> taken;
    // Each try succeeds with probability >= fill x density; past this bound, scan instead.
    const long long maxTries = 1000 + 200 * size;
    for (long long tries = 0; static_cast<long long>(out.size()) < size; ++tries) {
        if (tries >= maxTries)
            return std::nullopt;
        std::int64_t id = pickId(*gen);
        long long slot = pickSlot(*gen);
        if (taken.count({id, slot}))
            continue;
        BSONObj bucket;
        if (!rs->findRecord(opCtx->recoveryUnit(), RecordId(id), &bucket))
            continue;
        unpacker->reset(bucket);
        if (slot >= static_cast<long long>(unpacker->numberOfMeasurements()))
            continue;  // an empty slot
        taken.insert({id, slot});
        for (long long i = 0; i < slot; ++i)
            unpacker->getNext();
        out.push_back(unpacker->getNext());
    }
    return out;
}

std::vector<BSONObj> reservoirSample(const std::function<std::optional<BSONObj>()>& next,
                                     long long size, std::mt19937_64* gen) {
    std::vector<BSONObj> sample;
    long long seen = 0;
    while (auto doc = next()) {
        ++seen;
        if (static_cast<long long>(sample.size()) < size) {
            sample.push_back(doc->getOwned());
        } else if (size > 0) {
            std::uniform_int_distribution<long long> dist(0, seen - 1);
            long long j = dist(*gen);
            if (j < size)
                sample[j] = doc->getOwned();
        }
    }
    std::shuffle(sample.begin(), sample.end(), *gen);
    return sample;
}

}  // namespace mongo::timeseries_sample
