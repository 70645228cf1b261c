#include "mongo/db/pipeline/timeseries_sample.h"

#include <gtest/gtest.h>

#include <set>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {
namespace {

TEST(TimeseriesSample, ArhashOnlyUpToOnePercentOfTheBucketCapacity) {
    EXPECT_TRUE(timeseries_sample::useArhash(10, 1, 1000));
    EXPECT_FALSE(timeseries_sample::useArhash(11, 1, 1000));
    EXPECT_TRUE(timeseries_sample::useArhash(400, 40, 1000));
    EXPECT_FALSE(timeseries_sample::useArhash(1, 0, 1000));
}

TEST(TimeseriesSample, ReservoirGivesDistinctInputsUpToTheSize) {
    std::mt19937_64 gen(7);
    for (long long size : {0LL, 1LL, 10LL, 100LL, 150LL}) {
        int i = 0;
        auto out = timeseries_sample::reservoirSample(
            [&]() -> std::optional<BSONObj> {
                if (i >= 100)
                    return std::nullopt;
                return BSON("x" << i++);
            },
            size, &gen);
        ASSERT_EQ(static_cast<size_t>(std::min(size, 100LL)), out.size());
        std::set<int> seen;
        for (const auto& d : out)
            seen.insert(d["x"].numberInt());
        EXPECT_EQ(out.size(), seen.size());
    }
}

}  // namespace
}  // namespace mongo
