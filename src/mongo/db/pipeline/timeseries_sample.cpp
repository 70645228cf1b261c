#include "mongo/db/pipeline/timeseries_sample.h"

#include <algorithm>

namespace mongo::timeseries_sample {

bool useArhash(long long size, long long numBuckets, long long bucketMaxCount) {
    return numBuckets > 0 && bucketMaxCount > 0 &&
           static_cast<double>(size) <= 0.01 * static_cast<double>(numBuckets) * bucketMaxCount;
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
