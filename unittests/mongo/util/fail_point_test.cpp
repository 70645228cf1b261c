#include "mongo/util/fail_point.h"

#include <gtest/gtest.h>

namespace mongo {
namespace {

FailPoint::Settings mode(FailPoint::Mode m, long long count = 0, std::string data = "") {
    FailPoint::Settings s;
    s.mode = m;
    s.count = count;
    s.data = std::move(data);
    return s;
}

int firings(FailPoint& fp, int evaluations) {
    int n = 0;
    for (int i = 0; i < evaluations; ++i)
        n += fp.evaluate() ? 1 : 0;
    return n;
}

TEST(FailPoint, OffNeverFires) {
    FailPoint fp("t");
    EXPECT_EQ(firings(fp, 10), 0);
    EXPECT_EQ(fp.timesEntered(), 0);
}

TEST(FailPoint, AlwaysOnFiresWithItsData) {
    FailPoint fp("t");
    fp.setMode(mode(FailPoint::Mode::kAlwaysOn, 0, "payload"));
    auto d = fp.evaluate();
    ASSERT_TRUE(d);
    EXPECT_EQ(*d, "payload");
    EXPECT_EQ(firings(fp, 4), 4);
}

TEST(FailPoint, TimesFiresThatOftenThenTurnsOff) {
    FailPoint fp("t");
    fp.setMode(mode(FailPoint::Mode::kTimes, 2));
    EXPECT_EQ(firings(fp, 5), 2);
    EXPECT_FALSE(fp.maybeActive());
    EXPECT_EQ(fp.settings().mode, FailPoint::Mode::kOff);
}

TEST(FailPoint, SkipLetsTheFirstEvaluationsPassThenStaysOn) {
    FailPoint fp("t");
    fp.setMode(mode(FailPoint::Mode::kSkip, 3));
    EXPECT_FALSE(fp.evaluate());
    EXPECT_FALSE(fp.evaluate());
    EXPECT_FALSE(fp.evaluate());
    EXPECT_EQ(firings(fp, 4), 4);
}

TEST(FailPoint, RejectedEvaluationsConsumeNothing) {
    FailPoint fp("t");
    fp.setMode(mode(FailPoint::Mode::kTimes, 1, "insert"));
    auto onlyUpdate = [](const std::string& d) { return d == "update"; };
    EXPECT_FALSE(fp.evaluate(onlyUpdate));
    EXPECT_FALSE(fp.evaluate(onlyUpdate));
    EXPECT_TRUE(fp.evaluate());
    EXPECT_FALSE(fp.evaluate());
}

TEST(FailPoint, SetModeReportsEntriesBefore) {
    FailPoint fp("t");
    EXPECT_EQ(fp.setMode(mode(FailPoint::Mode::kAlwaysOn)), 0);
    firings(fp, 3);
    EXPECT_EQ(fp.setMode(mode(FailPoint::Mode::kOff)), 3);
    EXPECT_EQ(fp.setMode(mode(FailPoint::Mode::kOff)), 3);
}

TEST(FailPoint, ProbabilityZeroNeverAndOneAlwaysFires) {
    FailPoint fp("t");
    FailPoint::Settings s;
    s.mode = FailPoint::Mode::kProbability;
    s.probability = 0.0;
    fp.setMode(s);
    EXPECT_EQ(firings(fp, 50), 0);
    s.probability = 1.0;
    fp.setMode(s);
    EXPECT_EQ(firings(fp, 50), 50);
}

MONGO_FAIL_POINT_DEFINE(failPointTestRegistered)

TEST(FailPointRegistry, DefinedPointsAreFoundByName) {
    EXPECT_EQ(FailPointRegistry::get().find("failPointTestRegistered"), &failPointTestRegistered);
    EXPECT_EQ(FailPointRegistry::get().find("noSuchFailPoint"), nullptr);
}

TEST(FailPoint, ConnectionCloseRequestIsTakenOnce) {
    EXPECT_FALSE(takeConnectionCloseRequest());
    requestConnectionClose();
    EXPECT_TRUE(takeConnectionCloseRequest());
    EXPECT_FALSE(takeConnectionCloseRequest());
}

}  // namespace
}  // namespace mongo
