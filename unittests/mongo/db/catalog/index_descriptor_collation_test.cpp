// Index spec validation and normalisation of the `collation` option.
#include "mongo/db/catalog/index_descriptor.h"

#include <gtest/gtest.h>

#include "mongo/bson/json.h"
#include "mongo/db/query/collation/collator_interface.h"
#include "mongo/db/query/collation/collator_interface_mock.h"

namespace mongo {
namespace {

StatusWith<BSONObj> validate(const char* spec) {
    return validateIndexSpec(fromjson(spec));
}

TEST(IndexSpecCollation, NonObjectCollationIsTypeMismatch) {
    EXPECT_EQ(validate(R"({"key": {"a": 1}, "name": "a_1", "collation": "en"})").getStatus().code(),
              ErrorCodes::TypeMismatch);
}

TEST(IndexSpecCollation, EmptyCollationIsBadValue) {
    EXPECT_EQ(validate(R"({"key": {"a": 1}, "name": "a_1", "collation": {}})").getStatus().code(),
              ErrorCodes::BadValue);
}

TEST(IndexSpecCollation, CollationWithVersionOneIndexIsRefused) {
    EXPECT_EQ(
        validate(R"({"v": 1, "key": {"a": 1}, "name": "a_1", "collation": {"locale": "simple"}})")
            .getStatus()
            .code(),
        ErrorCodes::CannotCreateIndex);
}

TEST(IndexSpecCollation, UnknownCollationFieldFailsAsTheFactoryDoes) {
    auto sw =
        validate(R"({"key": {"a": 1}, "name": "a_1", "collation": {"locale": "en", "bogus": 1}})");
    EXPECT_FALSE(sw.isOK());
}

TEST(IndexSpecCollation, SimpleStaysSimpleUntilTheDefaultIsApplied) {
    auto sw = validate(R"({"key": {"a": 1}, "collation": {"locale": "simple"}})");
    ASSERT_TRUE(sw.isOK()) << sw.getStatus();
    EXPECT_EQ(sw.getValue()["collation"].embeddedObject()["locale"].str(), "simple");
    CollatorInterfaceMock def(CollatorInterfaceMock::MockType::kReverseString);
    BSONObj final = applyCollationDefault(sw.getValue(), &def);
    EXPECT_TRUE(final["collation"].eoo());
}

TEST(IndexSpecCollation, IndexWithoutCollationInheritsTheCollectionDefault) {
    BSONObj spec = validate(R"({"key": {"a": 1}})").getValue();
    CollatorInterfaceMock def(CollatorInterfaceMock::MockType::kReverseString);
    BSONObj final = applyCollationDefault(spec, &def);
    ASSERT_EQ(final["collation"].type(), BSONType::kObject);
    EXPECT_TRUE(final["collation"].embeddedObject().binaryEqual(def.getSpec()));
    EXPECT_TRUE(applyCollationDefault(spec, nullptr).binaryEqual(spec));
}

TEST(IndexSpecCollation, ExplicitCollationIsKeptOverTheDefault) {
    BSONObj spec =
        fromjson(R"({"v": 2, "key": {"a": 1}, "name": "a_1", "collation": {"locale": "fr"}})");
    CollatorInterfaceMock def(CollatorInterfaceMock::MockType::kReverseString);
    EXPECT_TRUE(applyCollationDefault(spec, &def).binaryEqual(spec));
}

TEST(IndexSpecCollation, DescriptorWithoutCollationIsSimple) {
    auto d = IndexDescriptor::fromSpec(fromjson(R"({"v": 2, "key": {"a": 1}, "name": "a_1"})"));
    EXPECT_EQ(d.collator(), nullptr);
}

TEST(IndexSpecCollation, IdIndexSpecCarriesTheCollation) {
    EXPECT_TRUE(idIndexSpec()["collation"].eoo());
    BSONObj c = fromjson(R"({"locale": "fr"})");
    EXPECT_TRUE(idIndexSpec(c)["collation"].embeddedObject().binaryEqual(c));
}

TEST(IndexSpecCollation, SpecsDifferingOnlyInCollationAreNotEquivalent) {
    BSONObj a = fromjson(R"({"v": 2, "key": {"a": 1}, "name": "x"})");
    BSONObj b =
        fromjson(R"({"v": 2, "key": {"a": 1}, "name": "y", "collation": {"locale": "fr"}})");
    EXPECT_FALSE(indexSpecsEquivalent(a, b));
    EXPECT_TRUE(indexSpecsEquivalent(b, b));
}

}  // namespace
}  // namespace mongo
