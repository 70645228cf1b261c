#include <gtest/gtest.h>

#include <limits>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/db/matcher/expression_parser.h"

namespace mongo {
namespace {

BSONRegEx rx(StringData pattern, StringData flags) {
    return BSONRegEx{pattern, flags};
}

bool matches(StringData filter, StringData doc, MatchDetails* details = nullptr) {
    auto sw = parseMatchExpression(fromjson(filter));
    EXPECT_TRUE(sw.isOK()) << sw.getStatus() << " for " << filter;
    if (!sw.isOK())
        return false;
    return sw.getValue()->matchesBSON(fromjson(doc), details);
}

bool matchesObj(const BSONObj& filter, const BSONObj& doc) {
    auto sw = parseMatchExpression(filter);
    EXPECT_TRUE(sw.isOK()) << sw.getStatus();
    return sw.isOK() && sw.getValue()->matchesBSON(doc);
}

int parseCode(const BSONObj& filter) {
    auto sw = parseMatchExpression(filter);
    return sw.isOK() ? 0 : static_cast<int>(sw.getStatus().code());
}
int parseCode(StringData filter) {
    return parseCode(fromjson(filter));
}

TEST(MatchExpression, EqualityOnScalarsAndArrays) {
    EXPECT_TRUE(matches(R"({"a": 1})", R"({"a": 1})"));
    EXPECT_TRUE(matches(R"({"a": 1})", R"({"a": 1.0})"));
    EXPECT_FALSE(matches(R"({"a": 1})", R"({"a": "1"})"));
    EXPECT_TRUE(matches(R"({"a": 2})", R"({"a": [1, 2, 3]})"));
    EXPECT_TRUE(matches(R"({"a": [1, 2]})", R"({"a": [1, 2]})"));
    EXPECT_TRUE(matches(R"({"a": [1, 2]})", R"({"a": [[1, 2], 3]})"));
    EXPECT_FALSE(matches(R"({"a": [1, 2]})", R"({"a": [2, 1]})"));
    EXPECT_TRUE(matches(R"({"a": {"b": 1}})", R"({"a": {"b": 1}})"));
    EXPECT_FALSE(matches(R"({"a": {"b": 1}})", R"({"a": {"b": 1, "c": 2}})"));
}

TEST(MatchExpression, DottedPathsThroughArrays) {
    EXPECT_TRUE(matches(R"({"a.b": 5})", R"({"a": [{"b": 1}, {"b": 5}]})"));
    EXPECT_TRUE(matches(R"({"a.b": 5})", R"({"a": [{"b": [4, 5]}]})"));
    EXPECT_TRUE(matches(R"({"a.1": 5})", R"({"a": [4, 5]})"));
    EXPECT_FALSE(matches(R"({"a.0": 5})", R"({"a": [4, 5]})"));
    EXPECT_TRUE(matches(R"({"a.0.b": 1})", R"({"a": [{"b": 1}]})"));
    EXPECT_TRUE(matches(R"({"a.0": 1})", R"({"a": [{"0": 1}]})"));
    EXPECT_TRUE(matches(R"({"a.b.c": 1})", R"({"a": {"b": [{"c": 1}]}})"));
}

TEST(MatchExpression, NullMatchesMissingAndNull) {
    EXPECT_TRUE(matches(R"({"a": null})", R"({"b": 1})"));
    EXPECT_TRUE(matches(R"({"a": null})", R"({"a": null})"));
    EXPECT_FALSE(matches(R"({"a": null})", R"({"a": 0})"));
    EXPECT_FALSE(matches(R"({"a": null})", R"({"a": []})"));
    EXPECT_TRUE(matches(R"({"a": null})", R"({"a": [1, null]})"));
    EXPECT_TRUE(matches(R"({"a.b": null})", R"({"a": 4})"));
    EXPECT_TRUE(matches(R"({"a.b": null})", R"({"a": [{"b": 1}, {"c": 1}]})"));
    EXPECT_FALSE(matches(R"({"a.b": null})", R"({"a": [1, 2]})"));
    EXPECT_FALSE(matches(R"({"a": {"$ne": null}})", R"({"b": 1})"));
    EXPECT_TRUE(matches(R"({"a": {"$gte": null}})", R"({})"));
    EXPECT_FALSE(matches(R"({"a": {"$gt": null}})", R"({"a": null})"));
    EXPECT_FALSE(matches(R"({"a": null})", R"({"a": {"$undefined": true}})"));
}

TEST(MatchExpression, ComparisonsAreTypeBracketed) {
    EXPECT_TRUE(matches(R"({"a": {"$gt": 1}})", R"({"a": 2})"));
    EXPECT_FALSE(matches(R"({"a": {"$gt": 1}})", R"({"a": "x"})"));
    EXPECT_TRUE(matches(R"({"a": {"$lt": "b"}})", R"({"a": "a"})"));
    EXPECT_TRUE(matches(R"({"a": {"$gt": 1, "$lt": 3}})", R"({"a": [0, 5, 2]})"));
    EXPECT_TRUE(matches(R"({"a": {"$gt": 1, "$lt": 3}})", R"({"a": [0, 5]})"));
    EXPECT_TRUE(matches(R"({"a": {"$lte": 2}})", R"({"a": 2})"));
    EXPECT_TRUE(matches(R"({"a": {"$gt": {"$minKey": 1}}})", R"({"a": "x"})"));
    EXPECT_TRUE(matches(R"({"a": {"$lt": {"$maxKey": 1}}})", R"({"a": 5})"));
    EXPECT_FALSE(matches(R"({"a": {"$lt": 5}})", R"({"a": {"$numberDouble": "NaN"}})"));
    EXPECT_TRUE(matches(R"({"a": {"$eq": {"$numberDouble": "NaN"}}})",
                        R"({"a": {"$numberDouble": "NaN"}})"));
    EXPECT_TRUE(matches(R"({"a": {"$gt": [1]}})", R"({"a": [2]})"));
}

TEST(MatchExpression, InAndNin) {
    EXPECT_TRUE(matches(R"({"a": {"$in": [1, 2]}})", R"({"a": 2})"));
    EXPECT_TRUE(matches(R"({"a": {"$in": [1, 2]}})", R"({"a": [5, 1]})"));
    EXPECT_FALSE(matches(R"({"a": {"$in": []}})", R"({"a": 1})"));
    EXPECT_TRUE(matches(R"({"a": {"$in": [null]}})", R"({})"));
    EXPECT_TRUE(matches(R"({"a": {"$nin": [1, 2]}})", R"({"a": 3})"));
    EXPECT_FALSE(matches(R"({"a": {"$nin": [1, 2]}})", R"({"a": [3, 2]})"));
    EXPECT_TRUE(matches(R"({"a": {"$nin": [1]}})", R"({})"));
    EXPECT_TRUE(
        matchesObj(BSON("a" << BSON("$in" << BSON_ARRAY(rx("^x", "") << 5))), BSON("a"
                                                                                   << "xyz")));
    EXPECT_EQ(parseCode(R"({"a": {"$in": 1}})"), ErrorCodes::BadValue);
    EXPECT_EQ(parseCode(R"({"a": {"$in": [{"$gt": 1}]}})"), ErrorCodes::BadValue);
}

TEST(MatchExpression, LogicalOperators) {
    EXPECT_TRUE(matches(R"({"$or": [{"a": 1}, {"b": 2}]})", R"({"b": 2})"));
    EXPECT_FALSE(matches(R"({"$and": [{"a": 1}, {"b": 2}]})", R"({"b": 2})"));
    EXPECT_TRUE(matches(R"({"$nor": [{"a": 1}, {"b": 2}]})", R"({"c": 2})"));
    EXPECT_TRUE(matches(R"({"a": {"$not": {"$gt": 5}}})", R"({"a": 3})"));
    EXPECT_TRUE(matches(R"({"a": {"$not": {"$gt": 5}}})", R"({})"));
    EXPECT_FALSE(matches(R"({"a": {"$not": {"$gt": 5}}})", R"({"a": [1, 6]})"));
    EXPECT_EQ(parseCode(R"({"$or": []})"), ErrorCodes::BadValue);
    EXPECT_EQ(parseCode(R"({"$or": [1]})"), ErrorCodes::BadValue);
    EXPECT_EQ(parseCode(R"({"$and": {}})"), ErrorCodes::BadValue);
    EXPECT_EQ(parseCode(R"({"a": {"$not": {}}})"), ErrorCodes::BadValue);
    EXPECT_EQ(parseCode(R"({"a": {"$not": 1}})"), ErrorCodes::BadValue);
}

TEST(MatchExpression, UnknownOperatorsAreBadValue) {
    EXPECT_EQ(parseCode(R"({"a": {"$foo": 1}})"), ErrorCodes::BadValue);
    EXPECT_EQ(parseCode(R"({"$foo": 1})"), ErrorCodes::BadValue);
    EXPECT_EQ(parseCode(R"({"a": {"$gt": 1, "b": 1}})"), ErrorCodes::BadValue);
    EXPECT_EQ(parseCode(R"({"$comment": "hi", "a": 1})"), 0);
    auto sw = parseMatchExpression(fromjson(R"({"a": {"$foo": 1}})"));
    EXPECT_EQ(sw.getStatus().reason(), "unknown operator: $foo");
}

// From pipeline_fuzzer: {$type: 9223372036854775807} cast a double outside int's range to
// int (undefined behaviour; UBSan aborts the sanitizer build). Such codes are BadValue.
TEST(MatchExpression, RegisteredTopLevelOperatorIsRefusedInElemMatch) {
    registerTopLevelMatchOperator("$_testWholeDocument", [](const BSONElement&) {
        return StatusWith<std::unique_ptr<MatchExpression>>(
            parseMatchExpression(fromjson(R"({"a": 1})")));
    });
    EXPECT_TRUE(parseMatchExpression(fromjson(R"({"$_testWholeDocument": 1})")).isOK());
    EXPECT_EQ(parseMatchExpression(fromjson(R"({"x": {"$elemMatch": {"$_testWholeDocument": 1}}})"))
                  .getStatus()
                  .code(),
              ErrorCodes::QueryFeatureNotAllowed);
}

TEST(MatchExpression, TypeCodeOutsideIntRangeIsBadValue) {
    for (BSONObj op :
         {BSON("$type" << std::numeric_limits<long long>::max()),
          BSON("$type" << std::numeric_limits<long long>::min()), BSON("$type" << 1e300),
          BSON("$type" << -1e300), BSON("$type" << std::numeric_limits<double>::infinity()),
          BSON("$type" << std::numeric_limits<double>::quiet_NaN()),
          BSON("$type" << BSON_ARRAY(2 << 4294967298.0)), BSON("$type" << 128),
          BSON("$type" << -2)})
        EXPECT_EQ(parseCode(BSON("a" << op)), ErrorCodes::BadValue) << op;
    EXPECT_EQ(parseCode(BSON("a" << BSON("$type" << 127.0))), 0);
    EXPECT_EQ(parseCode(BSON("a" << BSON("$type" << -1LL))), 0);
}

TEST(MatchExpression, ExistsAndType) {
    EXPECT_TRUE(matches(R"({"a": {"$exists": true}})", R"({"a": null})"));
    EXPECT_FALSE(matches(R"({"a": {"$exists": true}})", R"({"b": 1})"));
    EXPECT_TRUE(matches(R"({"a": {"$exists": false}})", R"({"b": 1})"));
    EXPECT_TRUE(matches(R"({"a.b": {"$exists": false}})", R"({"a": [1, 2]})"));
    EXPECT_TRUE(matches(R"({"a": {"$exists": true}})", R"({"a": []})"));
    auto typeQ = [](auto v) { return BSON("a" << BSON("$type" << v)); };
    EXPECT_TRUE(matchesObj(typeQ("string"), BSON("a"
                                                 << "x")));
    EXPECT_TRUE(matchesObj(typeQ(2), BSON("a" << BSON_ARRAY("x"))));
    EXPECT_TRUE(matchesObj(typeQ("number"), BSON("a" << 5LL)));
    EXPECT_TRUE(matchesObj(typeQ("array"), BSON("a" << BSONArray())));
    EXPECT_TRUE(matchesObj(typeQ(BSON_ARRAY("bool"
                                            << "int")),
                           BSON("a" << 1)));
    EXPECT_FALSE(matchesObj(typeQ("double"), BSON("a" << 1)));
    EXPECT_EQ(parseCode(typeQ("foo")), ErrorCodes::BadValue);
    EXPECT_EQ(parseCode(typeQ(100)), ErrorCodes::BadValue);
    EXPECT_EQ(parseCode(typeQ(BSONObj())), ErrorCodes::TypeMismatch);
}

TEST(MatchExpression, ArrayOperators) {
    EXPECT_TRUE(matches(R"({"a": {"$size": 2}})", R"({"a": [1, 2]})"));
    EXPECT_FALSE(matches(R"({"a": {"$size": 1}})", R"({"a": [[1, 2]]})") == false);
    EXPECT_FALSE(matches(R"({"a": {"$size": 2}})", R"({"a": [[1, 2]]})"));
    EXPECT_EQ(parseCode(R"({"a": {"$size": 1.5}})"), ErrorCodes::BadValue);
    EXPECT_EQ(parseCode(R"({"a": {"$size": "x"}})"), ErrorCodes::BadValue);
    EXPECT_TRUE(matches(R"({"a": {"$all": [1, 2]}})", R"({"a": [2, 3, 1]})"));
    EXPECT_FALSE(matches(R"({"a": {"$all": [1, 4]}})", R"({"a": [2, 3, 1]})"));
    EXPECT_FALSE(matches(R"({"a": {"$all": []}})", R"({"a": [1]})"));
    EXPECT_TRUE(matches(R"({"a": {"$all": [1]}})", R"({"a": 1})"));
    EXPECT_TRUE(matches(R"({"a": {"$elemMatch": {"$gt": 1, "$lt": 3}}})", R"({"a": [0, 2]})"));
    EXPECT_FALSE(matches(R"({"a": {"$elemMatch": {"$gt": 1, "$lt": 3}}})", R"({"a": [0, 5]})"));
    EXPECT_FALSE(matches(R"({"a": {"$elemMatch": {"$gt": 1}}})", R"({"a": 5})"));
    EXPECT_TRUE(matches(R"({"a": {"$elemMatch": {"b": 1, "c": 2}}})",
                        R"({"a": [{"b": 1}, {"b": 1, "c": 2}]})"));
    EXPECT_FALSE(
        matches(R"({"a": {"$elemMatch": {"b": 1, "c": 2}}})", R"({"a": [{"b": 1}, {"c": 2}]})"));
    EXPECT_TRUE(matches(R"({"a": {"$all": [{"$elemMatch": {"b": 1}}, {"$elemMatch": {"c": 2}}]}})",
                        R"({"a": [{"b": 1}, {"c": 2}]})"));
    EXPECT_EQ(parseCode(R"({"a": {"$elemMatch": 1}})"), ErrorCodes::BadValue);
    EXPECT_EQ(parseCode(R"({"a": {"$all": [{"$elemMatch": {"b": 1}}, 1]}})"), ErrorCodes::BadValue);
}

TEST(MatchExpression, Mod) {
    EXPECT_TRUE(matches(R"({"a": {"$mod": [4, 1]}})", R"({"a": 5})"));
    EXPECT_TRUE(matches(R"({"a": {"$mod": [4, 1]}})", R"({"a": 5.7})"));
    EXPECT_FALSE(matches(R"({"a": {"$mod": [4, 1]}})", R"({"a": 6})"));
    EXPECT_EQ(parseCode(R"({"a": {"$mod": [0, 1]}})"), ErrorCodes::BadValue);
    EXPECT_EQ(parseCode(R"({"a": {"$mod": [1]}})"), ErrorCodes::BadValue);
    EXPECT_EQ(parseCode(R"({"a": {"$mod": [1, 2, 3]}})"), ErrorCodes::BadValue);
    EXPECT_EQ(parseCode(R"({"a": {"$mod": 4}})"), ErrorCodes::BadValue);
}

TEST(MatchExpression, RegexWithOptions) {
    EXPECT_TRUE(matchesObj(BSON("a" << BSON("$regex"
                                            << "^ab"
                                            << "$options"
                                            << "i")),
                           BSON("a"
                                << "ABc")));
    EXPECT_FALSE(matchesObj(BSON("a" << BSON("$regex"
                                             << "^ab")),
                            BSON("a"
                                 << "ABc")));
    EXPECT_TRUE(matchesObj(BSON("a" << rx("^b", "m")), BSON("a"
                                                            << "a\nb")));
    EXPECT_TRUE(matchesObj(BSON("a" << rx("a.b", "s")), BSON("a"
                                                             << "a\nb")));
    EXPECT_TRUE(matchesObj(BSON("a" << rx("a b # comment", "x")), BSON("a"
                                                                       << "ab")));
    EXPECT_TRUE(matchesObj(BSON("a" << rx("x", "")), BSON("a" << BSON_ARRAY(1 << "zxz"))));
    EXPECT_FALSE(matchesObj(BSON("a" << rx("1", "")), BSON("a" << 1)));
    EXPECT_TRUE(matchesObj(BSON("a" << BSON("$not" << rx("x", ""))), BSON("a"
                                                                          << "y")));
    EXPECT_EQ(parseCode(BSON("a" << BSON("$regex"
                                         << "x"
                                         << "$options"
                                         << "z"))),
              51108);
    EXPECT_EQ(parseCode(BSON("a" << BSON("$regex"
                                         << "("))),
              51091);
    EXPECT_EQ(parseCode(BSON("a" << BSON("$options"
                                         << "i"))),
              ErrorCodes::BadValue);
    EXPECT_EQ(parseCode(BSON("a" << BSON("$regex" << 1))), ErrorCodes::BadValue);
    EXPECT_EQ(parseCode(BSON("a" << BSON("$regex" << rx("x", "i") << "$options"
                                                  << "m"))),
              51075);
}

TEST(MatchExpression, PositionalDetailsRecordFirstArrayIndex) {
    MatchDetails d;
    d.requestElemMatchKey();
    EXPECT_TRUE(matches(R"({"a": 3})", R"({"a": [1, 2, 3]})", &d));
    ASSERT_TRUE(d.hasElemMatchKey());
    EXPECT_EQ(d.elemMatchKey(), "2");
    MatchDetails d2;
    d2.requestElemMatchKey();
    EXPECT_TRUE(matches(R"({"a.b": 5})", R"({"a": [{"b": 1}, {"b": [7, 5]}]})", &d2));
    EXPECT_EQ(d2.elemMatchKey(), "1");
    MatchDetails d3;
    d3.requestElemMatchKey();
    EXPECT_TRUE(
        matches(R"({"a": {"$elemMatch": {"b": 2}}})", R"({"a": [{"b": 1}, {"b": 2}]})", &d3));
    EXPECT_EQ(d3.elemMatchKey(), "1");
}

TEST(MatchExpression, DBRefFieldsArePaths) {
    const char* doc = R"({"x": [{"$ref": "c", "$id": 1}, {"$ref": "d", "$id": 2}]})";
    EXPECT_TRUE(matches(R"({"x": {"$elemMatch": {"$id": 2}}})", doc));
    EXPECT_TRUE(matches(R"({"x": {"$elemMatch": {"$ref": "d", "$id": 2}}})", doc));
    EXPECT_FALSE(matches(R"({"x": {"$elemMatch": {"$ref": "c", "$id": 2}}})", doc));
    EXPECT_TRUE(matches(R"({"$id": 1})", R"({"$ref": "c", "$id": 1})"));
}

TEST(MatchExpression, UndefinedOperandIsRejected) {
    EXPECT_EQ(parseCode(R"({"a": {"$undefined": true}})"), ErrorCodes::BadValue);
    EXPECT_EQ(parseCode(R"({"a": {"$in": [{"$undefined": true}]}})"), ErrorCodes::BadValue);
}

TEST(MatchExpression, ExprWithoutHookIsRejected) {
    // The aggregation layer installs the hook when it is linked in; test without it.
    ExprMatchParser saved = getExprMatchParser();
    setExprMatchParser(nullptr);
    EXPECT_EQ(parseCode(R"({"$expr": {"$eq": ["$a", 1]}})"), ErrorCodes::BadValue);
    setExprMatchParser(saved);
}

}  // namespace
}  // namespace mongo

namespace mongo {
namespace {

TEST(JsonSchema, BasicKeywords) {
    const char* schema = R"({"$jsonSchema": {
        "bsonType": "object", "required": ["name"],
        "properties": {
            "name": {"bsonType": "string", "minLength": 2, "pattern": "^[A-Z]"},
            "age": {"bsonType": ["int", "long"], "minimum": 0, "maximum": 150},
            "tags": {"bsonType": "array", "items": {"enum": ["a", "b"]}, "maxItems": 2},
            "kind": {"enum": [1, "x"]}
        }}})";
    EXPECT_TRUE(matches(schema, R"({"name": "Al", "age": 3, "tags": ["a"]})"));
    EXPECT_FALSE(matches(schema, R"({"age": 3})"));
    EXPECT_FALSE(matches(schema, R"({"name": "al"})"));
    EXPECT_FALSE(matches(schema, R"({"name": "A"})"));
    EXPECT_FALSE(matches(schema, R"({"name": "Al", "age": 3.5})"));
    EXPECT_FALSE(matches(schema, R"({"name": "Al", "age": 200})"));
    EXPECT_FALSE(matches(schema, R"({"name": "Al", "tags": ["c"]})"));
    EXPECT_FALSE(matches(schema, R"({"name": "Al", "tags": ["a", "b", "a"]})"));
    EXPECT_TRUE(matches(schema, R"({"name": "Al", "kind": "x"})"));
    EXPECT_FALSE(matches(schema, R"({"name": "Al", "kind": 2})"));
    EXPECT_TRUE(
        matches(R"({"$jsonSchema": {"additionalProperties": false, "properties": {"_id": {}}}})",
                R"({"_id": 1})"));
    EXPECT_FALSE(
        matches(R"({"$jsonSchema": {"additionalProperties": false, "properties": {"_id": {}}}})",
                R"({"_id": 1, "x": 2})"));
    EXPECT_EQ(parseCode(R"({"$jsonSchema": {"foo": 1}})"), ErrorCodes::FailedToParse);
    EXPECT_EQ(parseCode(R"({"$jsonSchema": {"type": "integer"}})"), ErrorCodes::FailedToParse);
    EXPECT_EQ(parseCode(R"({"$jsonSchema": {"bsonType": "nope"}})"), ErrorCodes::BadValue);
    EXPECT_EQ(parseCode(R"({"$jsonSchema": {"required": "a"}})"), ErrorCodes::TypeMismatch);
}

}  // namespace
}  // namespace mongo
