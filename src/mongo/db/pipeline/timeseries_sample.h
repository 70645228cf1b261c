// $sample over a time-series view (spec §5.4 "$sample"): when the sample is small next to
// the measurements the buckets can hold (size <= 1% of numBuckets x bucketMaxCount), pick
// random measurement slots of random buckets (ARHASH: a random bucket, a random slot
// 0..bucketMaxCount-1, rejected when the slot is empty or already taken), which reads
// about size x (bucketMaxCount / average fill) buckets; otherwise sample every unpacked
// measurement (reservoir). Both give a uniform sample without replacement. The ARHASH
// plan stages are in timeseries_sample_stages.h.
#pragma once

#include <functional>
#include <optional>
#include <random>
#include <vector>

#include "mongo/bson/bsonobj.h"

namespace mongo {

namespace timeseries_sample {

/** True when ARHASH is used: size <= 1% of numBuckets * bucketMaxCount. */
bool useArhash(long long size, long long numBuckets, long long bucketMaxCount);

/** Up to `size` documents of `next()` chosen uniformly (reservoir), in random order. */
std::vector<BSONObj> reservoirSample(const std::function<std::optional<BSONObj>()>& next,
                                     long long size, std::mt19937_64* gen);

}  // namespace timeseries_sample
}  // namespace mongo
