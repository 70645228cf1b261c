// Update operators and array filters under a collation (UpdateDriver::setCollator),
// with the lower-casing mock collator.
#include <gtest/gtest.h>

#include "mongo/bson/json.h"
#include "mongo/db/query/collation/collator_interface_mock.h"
#include "mongo/db/update/update_driver.h"

namespace mongo {
namespace {

BSONObj applyWith(const CollatorInterface* collator, StringData update, StringData doc,
                  std::vector<BSONObj> filters = {}) {
    auto d = UpdateDriver::parse(fromjson(update), filters);
    EXPECT_TRUE(d.isOK()) << d.getStatus();
    if (!d.isOK())
        return BSONObj();
    d.getValue().setCollator(collator);
    auto r = d.getValue().apply(fromjson(doc), UpdateApplyParams());
    EXPECT_TRUE(r.isOK()) << r.getStatus();
    return r.isOK() ? r.getValue().newDoc : BSONObj();
}

const CollatorInterfaceMock kLower(CollatorInterfaceMock::MockType::kToLowerString);

TEST(UpdateDriverCollation, MinAndMaxCompareStringsByTheCollation) {
    // "B" < "a" in binary order, but "b" > "a" lower-cased.
    EXPECT_EQ(applyWith(nullptr, R"({"$max": {"s": "B"}})", R"({"s": "a"})")["s"].str(), "a");
    EXPECT_EQ(applyWith(&kLower, R"({"$max": {"s": "B"}})", R"({"s": "a"})")["s"].str(), "B");
    EXPECT_EQ(applyWith(&kLower, R"({"$min": {"s": "A"}})", R"({"s": "a"})")["s"].str(), "a");
}

TEST(UpdateDriverCollation, AddToSetPullAndPullAllUseTheCollation) {
    EXPECT_EQ(
        applyWith(&kLower, R"({"$addToSet": {"a": "X"}})", R"({"a": ["x"]})")["a"].Array().size(),
        1u);
    EXPECT_EQ(
        applyWith(nullptr, R"({"$addToSet": {"a": "X"}})", R"({"a": ["x"]})")["a"].Array().size(),
        2u);
    EXPECT_TRUE(
        applyWith(&kLower, R"({"$pull": {"a": "X"}})", R"({"a": ["x"]})")["a"].Array().empty());
    EXPECT_TRUE(applyWith(&kLower, R"({"$pull": {"a": {"$in": ["X"]}}})", R"({"a": ["x"]})")["a"]
                    .Array()
                    .empty());
    EXPECT_TRUE(applyWith(&kLower, R"({"$pullAll": {"a": ["X"]}})", R"({"a": ["x"]})")["a"]
                    .Array()
                    .empty());
}

TEST(UpdateDriverCollation, ArrayFiltersUseTheCollation) {
    BSONObj out = applyWith(&kLower, R"({"$set": {"a.$[e]": "z"}})", R"({"a": ["x", "Y"]})",
                            {fromjson(R"({"e": "y"})")});
    ASSERT_EQ(out["a"].Array().size(), 2u);
    EXPECT_EQ(out["a"].Array()[1].str(), "z");
    EXPECT_EQ(out["a"].Array()[0].str(), "x");
}

TEST(UpdateDriverCollation, PushSortUsesTheCollation) {
    BSONObj out = applyWith(&kLower, R"({"$push": {"a": {"$each": [], "$sort": 1}}})",
                            R"({"a": ["b", "A", "C"]})");
    auto a = out["a"].Array();
    ASSERT_EQ(a.size(), 3u);
    EXPECT_EQ(a[0].str(), "A");
    EXPECT_EQ(a[1].str(), "b");
    EXPECT_EQ(a[2].str(), "C");
}

}  // namespace
}  // namespace mongo
