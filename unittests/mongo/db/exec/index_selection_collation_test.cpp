// Planner rules for indexes and queries with collations.
#include "mongo/db/exec/index_selection.h"

#include <gtest/gtest.h>

#include "mongo/bson/json.h"
#include "mongo/db/query/collation/collator_interface_mock.h"

namespace mongo {
namespace {

using namespace index_selection;
using Mock = CollatorInterfaceMock::MockType;

TEST(CollationIndexSelection, NonStringValuesBoundAnyIndex) {
    CollatorInterfaceMock reverse(Mock::kReverseString);
    BSONObj v = fromjson(R"({"n": 5, "d": {"$date": 0}, "z": null, "m": {"$minKey": 1}})");
    for (auto e : v) {
        EXPECT_TRUE(valueUsableForBounds(e, &reverse, nullptr));
        EXPECT_TRUE(valueUsableForBounds(e, nullptr, &reverse));
    }
}

TEST(CollationIndexSelection, StringsObjectsAndArraysNeedMatchingCollations) {
    CollatorInterfaceMock reverse(Mock::kReverseString);
    CollatorInterfaceMock reverse2(Mock::kReverseString);
    CollatorInterfaceMock lower(Mock::kToLowerString);
    BSONObj v = fromjson(R"({"s": "abc", "o": {"a": 1}, "a": [1]})");
    for (auto e : v) {
        EXPECT_FALSE(valueUsableForBounds(e, &reverse, nullptr)) << e.toString();
        EXPECT_FALSE(valueUsableForBounds(e, nullptr, &reverse)) << e.toString();
        EXPECT_FALSE(valueUsableForBounds(e, &reverse, &lower)) << e.toString();
        EXPECT_TRUE(valueUsableForBounds(e, &reverse, &reverse2)) << e.toString();
        EXPECT_TRUE(valueUsableForBounds(e, nullptr, nullptr)) << e.toString();
    }
}

TEST(CollationIndexSelection, SortNeedsTheQueryCollation) {
    CollatorInterfaceMock reverse(Mock::kReverseString);
    CollatorInterfaceMock lower(Mock::kToLowerString);
    EXPECT_TRUE(collationAllowsSort(nullptr, nullptr));
    EXPECT_TRUE(collationAllowsSort(&reverse, &reverse));
    EXPECT_FALSE(collationAllowsSort(&reverse, nullptr));
    EXPECT_FALSE(collationAllowsSort(nullptr, &reverse));
    EXPECT_FALSE(collationAllowsSort(&reverse, &lower));
}

}  // namespace
}  // namespace mongo
