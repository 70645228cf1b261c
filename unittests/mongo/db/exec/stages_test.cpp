#include "mongo/db/exec/stages.h"

#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/query/sort_pattern.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

/** A child stage that returns prepared members; it never touches the OperationContext. */
class VectorStage : public PlanStage {
public:
    explicit VectorStage(std::vector<WorkingMember> members) : _members(std::move(members)) {}
    std::optional<WorkingMember> next(OperationContext*) override {
        if (_pos >= _members.size())
            return std::nullopt;
        return _members[_pos++];
    }
    std::string stageName() const override {
        return "VECTOR";
    }

private:
    std::vector<WorkingMember> _members;
    size_t _pos = 0;
};

constexpr int kDocs = 2000;

/** Documents {_id: i, k: <scrambled>, pad} with record id 10000 + i. */
std::unique_ptr<PlanStage> input() {
    std::vector<WorkingMember> members;
    std::string pad(100, 'x');
    for (int i = 0; i < kDocs; ++i)
        members.push_back(
            {RecordId(10000 + i), BSON("_id" << i << "k" << (i * 7919) % kDocs << "pad" << pad)});
    return std::make_unique<VectorStage>(std::move(members));
}

SortStage makeSort(long long limit, long long maxMemory, bool allowDiskUse) {
    auto pattern =
        std::make_shared<SortPattern>(uassertStatusOK(SortPattern::parse(BSON("k" << -1))));
    return SortStage(input(), pattern, BSON("k" << -1), limit, maxMemory, allowDiskUse);
}

std::vector<WorkingMember> drain(SortStage& stage) {
    std::vector<WorkingMember> out;
    while (auto m = stage.next(nullptr))
        out.push_back(std::move(*m));
    return out;
}

TEST(SortStage, OverTheMemoryLimitWithoutDiskUseFailsWith292) {
    SortStage sort = makeSort(0, 16 * 1024, false);
    try {
        drain(sort);
        FAIL() << "expected QueryExceededMemoryLimitNoDiskUseAllowed";
    } catch (const DBException& e) {
        EXPECT_EQ(e.code(), ErrorCodes::QueryExceededMemoryLimitNoDiskUseAllowed);
    }
}

TEST(SortStage, SpillsToDiskWithAllowDiskUseAndKeepsRecordIds) {
    SortStage sort = makeSort(0, 16 * 1024, true);
    auto out = drain(sort);
    ASSERT_EQ(out.size(), static_cast<size_t>(kDocs));
    for (int i = 0; i < kDocs; ++i) {
        EXPECT_EQ(out[i].doc["k"].numberLong(), kDocs - 1 - i);
        EXPECT_EQ(out[i].id.getLong(), 10000 + out[i].doc["_id"].numberLong());
    }
    BSONObjBuilder stats;
    sort.appendExecutionStats(&stats);
    BSONObj s = stats.obj();
    EXPECT_TRUE(s["usedDisk"].trueValue());
    EXPECT_GT(s["spills"].numberLong(), 1);
}

TEST(SortStage, SpilledSortStopsAtTheLimit) {
    SortStage sort = makeSort(1500, 16 * 1024, true);
    auto out = drain(sort);
    ASSERT_EQ(out.size(), 1500u);
    EXPECT_EQ(out.front().doc["k"].numberLong(), kDocs - 1);
    EXPECT_EQ(out.back().doc["k"].numberLong(), kDocs - 1500);
}

TEST(SortStage, SmallTopKStaysInMemory) {
    SortStage sort = makeSort(5, 16 * 1024, false);
    auto out = drain(sort);
    ASSERT_EQ(out.size(), 5u);
    EXPECT_EQ(out[4].doc["k"].numberLong(), kDocs - 5);
    BSONObjBuilder stats;
    sort.appendExecutionStats(&stats);
    EXPECT_FALSE(stats.obj()["usedDisk"].trueValue());
}

/** A leaf that describes itself like an index scan. */
class FakeIndexLeaf : public VectorStage {
public:
    FakeIndexLeaf() : VectorStage({}) {}
    std::string stageName() const override {
        return "IXSCAN";
    }
    void appendExplainInfo(BSONObjBuilder* bob) const override {
        bob->append("keyPattern", BSON("a" << 1 << "b" << -1));
    }
};

TEST(PlanExecutor, PlanSummaryNamesTheLeafStages) {
    PlanExecutor collscanLike(input());
    EXPECT_EQ("VECTOR", collscanLike.planSummary());
    auto pattern =
        std::make_shared<SortPattern>(uassertStatusOK(SortPattern::parse(BSON("k" << -1))));
    PlanExecutor sorted(std::make_unique<SortStage>(std::make_unique<FakeIndexLeaf>(), pattern,
                                                    BSON("k" << -1), 0, 1 << 20, false));
    EXPECT_EQ("IXSCAN { a: 1, b: -1 }", sorted.planSummary());
}

}  // namespace
}  // namespace mongo
