// Helpers of the bucket catalog's unit tests: a collection {timeField: "t", metaField: "m"},
// limits without idle expiry, and staging that answers a reopening request with nothing.
#pragma once

#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "mongo/bson/json.h"
#include "mongo/db/timeseries/bucket_catalog/bucket_catalog.h"
#include "mongo/db/timeseries/timeseries_options.h"

namespace mongo::timeseries::bucket_catalog::test {

inline CollectionInfo collection(std::string uuid, bool reopeningIndex = false) {
    CollectionInfo c;
    c.uuid = std::move(uuid);
    c.options = TimeseriesOptions::parse(fromjson(R"({"timeField": "t", "metaField": "m"})"));
    invariant(validateAndSetBucketingParameters(c.options).isOK());
    c.hasReopeningIndex = reopeningIndex;
    return c;
}

/** 1000 measurements, 100000 bytes, no minimum count; idle buckets never expire. */
inline BucketLimits limits() {
    BucketLimits l;
    l.maxCount = 1000;
    l.maxSize = 100000;
    l.minCount = 1;
    l.idleExpiryMemoryThresholdBytes = 1LL << 40;
    return l;
}

/** Stages `doc`; a reopening request is answered with no bucket fetched. */
inline std::shared_ptr<WriteBatch> stageWithoutReopening(BucketCatalog& catalog,
                                                         const CollectionInfo& c,
                                                         const BSONObj& doc) {
    auto r = tryInsert(catalog, c, doc);
    EXPECT_TRUE(r.isOK()) << r.getStatus();
    auto res = r.getValue();
    if (res.reopening)
        res = insertWithReopeningContext(catalog, c, doc, BSONObj()).getValue();
    return res.batch;
}

}  // namespace mongo::timeseries::bucket_catalog::test
