#include "mongo/db/pipeline/spillable_cache.h"

#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

WindowRow row(int i) {
    return WindowRow{BSON("_id" << i << "pad" << std::string(100, 'p')), BSON("" << i)};
}

TEST(SpillableCache, RowsPastTheLimitSpillAndReadBackInOrder) {
    SpillableCache cache(2000, true);
    for (int i = 0; i < 100; ++i)
        cache.add(row(i));
    EXPECT_TRUE(cache.usedDisk());
    EXPECT_GT(cache.spillingStats().spills, 1);
    EXPECT_GT(cache.spillingStats().spilledRecords, 50);
    EXPECT_LT(cache.memoryBytes(), 2000u);
    ASSERT_EQ(100u, cache.size());
    for (int i = 99; i >= 0; --i) {  // any order
        WindowRow r = cache.at(i);
        EXPECT_EQ(i, r.doc["_id"].numberInt());
        EXPECT_EQ(i, r.sortValue().getInt());
    }
}

TEST(SpillableCache, WithoutDiskUseThePartitionFailsWith5643011) {
    SpillableCache cache(2000, false);
    try {
        for (int i = 0; i < 100; ++i)
            cache.add(row(i));
        FAIL() << "no error";
    } catch (const DBException& ex) {
        EXPECT_EQ(5643011, ex.code());
    }
    EXPECT_FALSE(cache.usedDisk());
}

TEST(SpillableCache, ClearEmptiesMemoryAndDisk) {
    SpillableCache cache(2000, true);
    for (int i = 0; i < 40; ++i)
        cache.add(row(i));
    cache.clear();
    EXPECT_EQ(0u, cache.size());
    EXPECT_EQ(0u, cache.memoryBytes());
    cache.add(row(7));
    EXPECT_EQ(7, cache.at(0).doc["_id"].numberInt());
}

}  // namespace
}  // namespace mongo
