// Index keys of collated indexes: strings (also nested) become comparison keys.
#include "mongo/db/catalog/index_key_generator.h"

#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/db/query/collation/collator_interface_mock.h"

namespace mongo {
namespace {

using Mock = CollatorInterfaceMock::MockType;

IndexKeys keysOf(const char* keyPattern, const char* doc, const StringComparator* collator) {
    IndexKeys keys;
    EXPECT_TRUE(getIndexKeys(fromjson(keyPattern), fromjson(doc), false, &keys, collator).isOK());
    return keys;
}

TEST(CollationIndexKeys, WithoutCollatorStringsAreKeptAsTheyAre) {
    auto keys = keysOf(R"({"a": 1})", R"({"a": "FOO"})", nullptr);
    ASSERT_EQ(keys.keys.size(), 1u);
    EXPECT_EQ(keys.keys[0].firstElement().str(), "FOO");
}

TEST(CollationIndexKeys, StringsBecomeComparisonKeys) {
    CollatorInterfaceMock reverse(Mock::kReverseString);
    auto keys = keysOf(R"({"a": 1})", R"({"a": "abc"})", &reverse);
    ASSERT_EQ(keys.keys.size(), 1u);
    EXPECT_EQ(keys.keys[0].firstElement().type(), BSONType::kString);
    EXPECT_EQ(keys.keys[0].firstElement().str(), "cba");
}

TEST(CollationIndexKeys, NonStringValuesAreUnchanged) {
    CollatorInterfaceMock reverse(Mock::kReverseString);
    auto keys = keysOf(R"({"a": 1, "b": 1})", R"({"a": 5, "b": null})", &reverse);
    ASSERT_EQ(keys.keys.size(), 1u);
    EXPECT_TRUE(keys.keys[0].binaryEqual(BSON("" << 5 << "" << BSONNULL)));
}

TEST(CollationIndexKeys, NestedStringsInObjectsAndArraysAreTranslated) {
    CollatorInterfaceMock reverse(Mock::kReverseString);
    auto keys = keysOf(R"({"a": 1})", R"({"a": {"b": "xy", "c": ["pq", 3]}})", &reverse);
    ASSERT_EQ(keys.keys.size(), 1u);
    BSONObj v = keys.keys[0].firstElement().embeddedObject();
    EXPECT_EQ(v["b"].str(), "yx");
    EXPECT_EQ(v["c"].embeddedObject()["0"].str(), "qp");
    EXPECT_EQ(v["c"].embeddedObject()["1"].numberInt(), 3);
}

TEST(CollationIndexKeys, MultikeyElementsAreTranslatedAndDeduplicatedUnderTheCollation) {
    CollatorInterfaceMock lower(Mock::kToLowerString);
    auto keys = keysOf(R"({"a": 1})", R"({"a": ["Foo", "FOO", "bar"]})", &lower);
    EXPECT_TRUE(keys.multikey);
    ASSERT_EQ(keys.keys.size(), 2u);  // "foo" once
    EXPECT_EQ(keys.keys[0].firstElement().str(), "bar");
    EXPECT_EQ(keys.keys[1].firstElement().str(), "foo");
}

TEST(CollationIndexKeys, SymbolsBecomeStringComparisonKeys) {
    CollatorInterfaceMock lower(Mock::kToLowerString);
    BSONObj doc = fromjson(R"({"a": {"$symbol": "ABC"}})");
    ASSERT_EQ(doc["a"].type(), BSONType::kSymbol);
    IndexKeys keys;
    ASSERT_TRUE(getIndexKeys(BSON("a" << 1), doc, false, &keys, &lower).isOK());
    ASSERT_EQ(keys.keys.size(), 1u);
    EXPECT_EQ(keys.keys[0].firstElement().type(), BSONType::kString);
    EXPECT_EQ(keys.keys[0].firstElement().str(), "abc");
}

TEST(CollationIndexKeys, CollationAwareKeyKeepsFieldNames) {
    CollatorInterfaceMock lower(Mock::kToLowerString);
    BSONObj k = collationAwareKey(BSON(""
                                       << "AB"
                                       << "" << 1),
                                  &lower);
    EXPECT_TRUE(k.binaryEqual(BSON(""
                                   << "ab"
                                   << "" << 1)));
    BSONObj same = BSON("x"
                        << "AB");
    EXPECT_TRUE(collationAwareKey(same, nullptr).binaryEqual(same));
}

TEST(CollationIndexKeys, CollatableTypesAreStringsSymbolsObjectsAndArrays) {
    BSONObj o = fromjson(R"({"s": "x", "o": {}, "a": [], "n": 1, "d": {"$date": 0}, "z": null})");
    EXPECT_TRUE(isCollatableType(o["s"]));
    EXPECT_TRUE(isCollatableType(o["o"]));
    EXPECT_TRUE(isCollatableType(o["a"]));
    EXPECT_FALSE(isCollatableType(o["n"]));
    EXPECT_FALSE(isCollatableType(o["d"]));
    EXPECT_FALSE(isCollatableType(o["z"]));
}

}  // namespace
}  // namespace mongo
