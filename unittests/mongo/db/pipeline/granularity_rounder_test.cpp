#include <gtest/gtest.h>

#include "mongo/db/pipeline/granularity_rounder.h"

namespace mongo {
namespace {

std::shared_ptr<const GranularityRounder> rounder(StringData name) {
    auto r = GranularityRounder::make(name);
    EXPECT_TRUE(r.isOK()) << name;
    return r.getValue();
}

TEST(GranularityRounder, UnknownNameIs40257) {
    EXPECT_EQ(GranularityRounder::make("R7").getStatus().code(), 40257);
    EXPECT_EQ(GranularityRounder::make("r5").getStatus().code(), 40257);
    EXPECT_EQ(GranularityRounder::make("").getStatus().code(), 40257);
}

TEST(GranularityRounder, RenardRoundsStrictlyAcrossPowersOfTen) {
    auto r5 = rounder("R5");
    EXPECT_DOUBLE_EQ(r5->roundUp(1.0), 1.6);
    EXPECT_DOUBLE_EQ(r5->roundUp(1.5), 1.6);
    EXPECT_DOUBLE_EQ(r5->roundDown(1.6), 1.0);
    EXPECT_DOUBLE_EQ(r5->roundUp(7), 10);
    EXPECT_DOUBLE_EQ(r5->roundDown(1.0), 0.63);
    EXPECT_DOUBLE_EQ(r5->roundUp(30), 40);
    EXPECT_DOUBLE_EQ(r5->roundDown(30), 25);
    EXPECT_DOUBLE_EQ(r5->roundUp(0.02), 0.025);
    EXPECT_DOUBLE_EQ(r5->roundUp(0), 0);
    EXPECT_DOUBLE_EQ(r5->roundDown(0), 0);
}

TEST(GranularityRounder, ESeriesAndOneTwoFive) {
    EXPECT_DOUBLE_EQ(rounder("E6")->roundUp(1.6), 2.2);
    EXPECT_DOUBLE_EQ(rounder("E12")->roundDown(100), 82);
    EXPECT_DOUBLE_EQ(rounder("E24")->roundUp(9.1), 10);
    EXPECT_DOUBLE_EQ(rounder("1-2-5")->roundUp(2), 5);
    EXPECT_DOUBLE_EQ(rounder("1-2-5")->roundUp(5), 10);
    EXPECT_DOUBLE_EQ(rounder("1-2-5")->roundDown(1), 0.5);
    EXPECT_DOUBLE_EQ(rounder("1-2-5")->roundDown(3000), 2000);
    for (const char* n : {"R10", "R20", "R40", "R80", "E48", "E96", "E192"}) {
        auto r = rounder(n);
        for (double x : {0.013, 0.5, 1.0, 3.3, 9.99, 47.0, 12345.0}) {
            EXPECT_GT(r->roundUp(x), x) << n << " " << x;
            EXPECT_LT(r->roundDown(x), x) << n << " " << x;
            EXPECT_LT(r->roundUp(x), x * 1.3) << n << " " << x;
        }
    }
}

TEST(GranularityRounder, PowersOfTwo) {
    auto p2 = rounder("POWERSOF2");
    EXPECT_DOUBLE_EQ(p2->roundUp(4), 8);
    EXPECT_DOUBLE_EQ(p2->roundUp(5), 8);
    EXPECT_DOUBLE_EQ(p2->roundDown(4), 2);
    EXPECT_DOUBLE_EQ(p2->roundDown(5), 4);
    EXPECT_DOUBLE_EQ(p2->roundUp(0.3), 0.5);
    EXPECT_DOUBLE_EQ(p2->roundDown(0.25), 0.125);
    EXPECT_DOUBLE_EQ(p2->roundUp(0), 0);
}

}  // namespace
}  // namespace mongo
