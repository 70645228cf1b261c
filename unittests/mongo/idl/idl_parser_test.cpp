// Tests of generated struct/enum parsers over the test-only idl/unittest.idl.
#include <gtest/gtest.h>

#include <regex>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/idl/unittest_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

using idl::test::TestColor;
using idl::test::TestInner;
using idl::test::TestLoose;
using idl::test::TestStruct;

/** json() over relaxed JSON: single quotes and bare keys. */
BSONObj json(const std::string& relaxed) {
    std::string s = std::regex_replace(relaxed, std::regex("'"), "\"");
    s = std::regex_replace(s, std::regex("([{,]\\s*)([A-Za-z_$][A-Za-z0-9_$]*)\\s*:"), "$1\"$2\":");
    return fromjson(s);
}

ErrorCodes::Error parseCode(const BSONObj& obj) {
    auto sw = TestStruct::parseNoThrow(obj);
    return sw.isOK() ? ErrorCodes::OK : sw.getStatus().code();
}

TEST(IDLStruct, ParsesRequiredAndAppliesDefaults) {
    auto s = TestStruct::parse(BSON("name"
                                    << "n"));
    EXPECT_EQ(s.getName(), "n");
    EXPECT_EQ(s.getBig(), 7);
    EXPECT_TRUE(s.getFlag());
    EXPECT_EQ(s.getShade(), TestColor::kGreen);
    EXPECT_FALSE(s.getCount().has_value());
    EXPECT_FALSE(s.getInner().has_value());
}

TEST(IDLStruct, MissingRequiredFieldIsIDLFailedToParse) {
    try {
        TestStruct::parse(BSON("count" << 3), "ctx");
        FAIL();
    } catch (const DBException& ex) {
        EXPECT_EQ(ex.code(), ErrorCodes::IDLFailedToParse);
        EXPECT_EQ(ex.reason(), "BSON field 'ctx.name' is missing but a required field");
    }
}

TEST(IDLStruct, UnknownFieldInStrictStructIsIDLUnknownField) {
    EXPECT_EQ(parseCode(BSON("name"
                             << "n"
                             << "zzz" << 1)),
              ErrorCodes::IDLUnknownField);
}

TEST(IDLStruct, UnknownFieldInLooseStructIsIgnored) {
    auto s = TestLoose::parse(BSON("a" << 1 << "zzz" << 1));
    EXPECT_EQ(*s.getA(), 1);
}

TEST(IDLStruct, DuplicateFieldIsIDLDuplicateField) {
    EXPECT_EQ(parseCode(BSON("name"
                             << "n"
                             << "name"
                             << "m")),
              ErrorCodes::IDLDuplicateField);
}

TEST(IDLStruct, WrongTypeIsTypeMismatchWithUpstreamMessage) {
    auto sw = TestStruct::parseNoThrow(BSON("name"
                                            << "n"
                                            << "big"
                                            << "x"),
                                       "find");
    ASSERT_FALSE(sw.isOK());
    EXPECT_EQ(sw.getStatus().code(), ErrorCodes::TypeMismatch);
    EXPECT_EQ(sw.getStatus().reason(),
              "BSON field 'find.big' is the wrong type 'string', expected types "
              "'[long, int, decimal, double]'");
    auto sw2 = TestStruct::parseNoThrow(BSON("name"
                                             << "n"
                                             << "flag" << 1),
                                        "find");
    EXPECT_EQ(sw2.getStatus().reason(),
              "BSON field 'find.flag' is the wrong type 'int', expected type 'bool'");
}

TEST(IDLStruct, SafeIntAcceptsAnyNumber) {
    auto s = TestStruct::parse(BSON("name"
                                    << "n"
                                    << "count" << 5.0 << "big" << 9LL));
    EXPECT_EQ(*s.getCount(), 5);
    EXPECT_EQ(s.getBig(), 9);
}

TEST(IDLStruct, ValidatorsGiveBadValue) {
    EXPECT_EQ(parseCode(BSON("name"
                             << "n"
                             << "count" << 0)),
              ErrorCodes::BadValue);
    EXPECT_EQ(parseCode(BSON("name"
                             << "n"
                             << "count" << 101)),
              ErrorCodes::BadValue);
    EXPECT_EQ(parseCode(BSON("name"
                             << "n"
                             << "count" << 100)),
              ErrorCodes::OK);
    EXPECT_EQ(parseCode(BSON("name"
                             << "n"
                             << "ratio" << 1.0)),
              ErrorCodes::BadValue);
    EXPECT_EQ(parseCode(BSON("name"
                             << "n"
                             << "ratio" << 0.5)),
              ErrorCodes::OK);
    auto sw = TestStruct::parseNoThrow(BSON("name"
                                            << "n"
                                            << "count" << 0),
                                       "T");
    EXPECT_EQ(sw.getStatus().reason(), "BSON field 'T.count' value must be >= 1, actual value '0'");
}

TEST(IDLStruct, EnumsParseAndRejectUnknownValues) {
    auto s = TestStruct::parse(BSON("name"
                                    << "n"
                                    << "color"
                                    << "red"));
    EXPECT_EQ(*s.getColor(), TestColor::kRed);
    auto sw = TestStruct::parseNoThrow(BSON("name"
                                            << "n"
                                            << "color"
                                            << "blue"),
                                       "T");
    EXPECT_EQ(sw.getStatus().code(), ErrorCodes::BadValue);
    EXPECT_EQ(sw.getStatus().reason(),
              "Enumeration value 'blue' for field 'T.color' is not a valid value.");
    EXPECT_EQ(parseCode(BSON("name"
                             << "n"
                             << "color" << 1)),
              ErrorCodes::TypeMismatch);
}

TEST(IDLStruct, NestedStructErrorsNameTheFullPath) {
    auto s = TestStruct::parse(BSON("name"
                                    << "n"
                                    << "inner" << BSON("x" << 3)));
    EXPECT_EQ(s.getInner()->getX(), 3);
    auto sw = TestStruct::parseNoThrow(BSON("name"
                                            << "n"
                                            << "inner"
                                            << BSON("y"
                                                    << "a")),
                                       "T");
    EXPECT_EQ(sw.getStatus().code(), ErrorCodes::IDLFailedToParse);
    EXPECT_EQ(sw.getStatus().reason(), "BSON field 'T.inner.x' is missing but a required field");
    EXPECT_EQ(parseCode(BSON("name"
                             << "n"
                             << "inner" << BSON("x" << 1 << "q" << 1))),
              ErrorCodes::IDLUnknownField);
}

TEST(IDLStruct, ArraysOfStructsAndScalars) {
    auto s =
        TestStruct::parse(json("{name: 'n', inners: [{x: 1}, {x: 2, y: 'b'}], tags: ['a', 'b']}"));
    ASSERT_EQ(s.getInners()->size(), 2u);
    EXPECT_EQ((*s.getInners())[1].getY(), std::optional<std::string>("b"));
    EXPECT_EQ(*s.getTags(), (std::vector<std::string>{"a", "b"}));
    auto sw = TestStruct::parseNoThrow(json("{name: 'n', inners: [{x: 1}, {y: 'b'}]}"), "T");
    EXPECT_EQ(sw.getStatus().reason(), "BSON field 'T.inners.x' is missing but a required field");
    auto sw2 = TestStruct::parseNoThrow(json("{name: 'n', tags: ['a', 3]}"), "T");
    EXPECT_EQ(sw2.getStatus().code(), ErrorCodes::TypeMismatch);
    EXPECT_EQ(parseCode(json("{name: 'n', tags: 'a'}")), ErrorCodes::TypeMismatch);
}

TEST(IDLStruct, NullOrUndefinedOptionalFieldIsNotPresent) {
    auto s =
        TestStruct::parse(json("{name: 'n', count: null, big: null, flag: null, "
                               "color: null, shade: null, inner: null, inners: null, "
                               "tags: null, doc: null, when: null, id: null}"));
    EXPECT_FALSE(s.getCount().has_value());
    EXPECT_EQ(s.getBig(), 7);  // defaults stay
    EXPECT_TRUE(s.getFlag());
    EXPECT_EQ(s.getShade(), TestColor::kGreen);
    EXPECT_FALSE(s.getColor().has_value());
    EXPECT_FALSE(s.getInner().has_value());
    EXPECT_FALSE(s.getInners().has_value());
    EXPECT_FALSE(s.getTags().has_value());
    EXPECT_FALSE(s.getDoc().has_value());
    EXPECT_FALSE(s.getWhen().has_value());
    EXPECT_FALSE(s.getId().has_value());
    auto u = TestStruct::parse(BSON("name"
                                    << "n"
                                    << "count" << BSONUndefined));
    EXPECT_FALSE(u.getCount().has_value());
    // Still a duplicate when given twice.
    EXPECT_EQ(parseCode(json("{name: 'n', count: null, count: 3}")), ErrorCodes::IDLDuplicateField);
}

TEST(IDLStruct, NullKeepsItsMeaningForAnyVariantAndRequiredFields) {
    // `any` keeps the null as a value; a variant has no null alternative; a required field
    // given as null is a type error.
    auto s = TestStruct::parse(json("{name: 'n', anything: null}"));
    ASSERT_TRUE(s.getAnything().has_value());
    EXPECT_EQ(s.getAnything()->getElement().type(), BSONType::kNull);
    EXPECT_EQ(parseCode(json("{name: 'n', hintLike: null}")), ErrorCodes::TypeMismatch);
    EXPECT_EQ(parseCode(json("{name: null}")), ErrorCodes::TypeMismatch);
}

TEST(IDLStruct, VariantPicksAlternativeByType) {
    auto a = TestStruct::parse(json("{name: 'n', hintLike: 'idx'}"));
    EXPECT_EQ(std::get<std::string>(*a.getHintLike()), "idx");
    auto b = TestStruct::parse(json("{name: 'n', hintLike: {a: 1}}"));
    EXPECT_EQ(std::get<BSONObj>(*b.getHintLike()).nFields(), 1);
    auto c = TestStruct::parse(json("{name: 'n', hintLike: ['x', 'y']}"));
    EXPECT_EQ(std::get<std::vector<std::string>>(*c.getHintLike()).size(), 2u);
    EXPECT_EQ(parseCode(json("{name: 'n', hintLike: 1}")), ErrorCodes::TypeMismatch);
}

TEST(IDLStruct, ObjectFieldsOutliveAnOwnedInput) {
    TestStruct s;
    {
        BSONObj input = json("{name: 'n', doc: {a: 1, b: 'two'}, anything: [1, 2]}");
        s = TestStruct::parse(input);
    }
    EXPECT_EQ(s.getDoc()->getField("b").str(), "two");
    EXPECT_EQ(s.getAnything()->getElement().type(), BSONType::kArray);
}

TEST(IDLStruct, SerializeRoundTrips) {
    BSONObj input = json(
        "{name: 'n', count: 3, big: 7, flag: false, color: 'red', shade: 'green', "
        "inner: {x: 1}, inners: [{x: 2}], tags: ['t'], doc: {z: 1}, anything: 'any', "
        "hintLike: ['h']}");
    auto s = TestStruct::parse(input);
    BSONObj out = s.toBSON();
    auto again = TestStruct::parse(out);
    EXPECT_TRUE(again.toBSON().binaryEqual(out)) << out.toString();
    EXPECT_EQ(out.getField("big").type(), BSONType::kNumberLong);
    EXPECT_EQ(out.getField("color").str(), "red");
    EXPECT_FALSE(out.hasField("ratio"));
}

TEST(IDLStruct, SettersChangeSerializedOutput) {
    TestStruct s;
    s.setName("x");
    s.setCount(4);
    BSONObj out = s.toBSON();
    EXPECT_EQ(out.getField("name").str(), "x");
    EXPECT_EQ(out.getField("count").numberInt(), 4);
}

}  // namespace
}  // namespace mongo
