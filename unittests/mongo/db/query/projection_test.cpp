#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/query/projection.h"

namespace mongo {
namespace {

std::string project(StringData spec, StringData doc, const MatchDetails* d = nullptr) {
    auto sw = Projection::parse(fromjson(spec));
    EXPECT_TRUE(sw.isOK()) << sw.getStatus();
    if (!sw.isOK())
        return "<parse error>";
    auto out = sw.getValue().apply(fromjson(doc), d);
    EXPECT_TRUE(out.isOK()) << out.getStatus();
    return out.isOK() ? out.getValue().toString() : "<apply error>";
}

int parseCode(StringData spec) {
    auto sw = Projection::parse(fromjson(spec));
    return sw.isOK() ? 0 : static_cast<int>(sw.getStatus().code());
}

TEST(Projection, InclusionKeepsIdAndDocumentOrder) {
    EXPECT_EQ(project(R"({"b": 1, "a": 1})", R"({"_id": 1, "a": 1, "b": 2, "c": 3})"),
              "{ _id: 1, a: 1, b: 2 }");
    EXPECT_EQ(project(R"({"a": 1, "_id": 0})", R"({"_id": 1, "a": 1, "b": 2})"), "{ a: 1 }");
    EXPECT_EQ(project(R"({"_id": 1})", R"({"_id": 1, "a": 1})"), "{ _id: 1 }");
}

TEST(Projection, ExclusionDropsListedPaths) {
    EXPECT_EQ(project(R"({"b": 0})", R"({"_id": 1, "a": 1, "b": 2})"), "{ _id: 1, a: 1 }");
    EXPECT_EQ(project(R"({"_id": 0})", R"({"_id": 1, "a": 1})"), "{ a: 1 }");
    EXPECT_EQ(project(R"({})", R"({"_id": 1, "a": 1})"), "{ _id: 1, a: 1 }");
}

TEST(Projection, DottedPathsThroughObjectsAndArrays) {
    EXPECT_EQ(project(R"({"a.b": 1, "_id": 0})", R"({"a": {"b": 1, "c": 2}, "d": 1})"),
              "{ a: { b: 1 } }");
    EXPECT_EQ(project(R"({"a.b": 1, "_id": 0})", R"({"a": [{"b": 1, "c": 2}, 3, {"c": 1}]})"),
              "{ a: [ { b: 1 }, {} ] }");
    EXPECT_EQ(project(R"({"a.b": 0})", R"({"a": [{"b": 1, "c": 2}, 3]})"),
              "{ a: [ { c: 2 }, 3 ] }");
    EXPECT_EQ(project(R"({"a": {"b": 1}, "_id": 0})", R"({"a": {"b": 1, "c": 2}})"),
              "{ a: { b: 1 } }");
    EXPECT_EQ(project(R"({"a.b": 1, "_id": 0})", R"({"a": 5})"), "{}");
}

TEST(Projection, MixingInclusionAndExclusionFails) {
    EXPECT_EQ(parseCode(R"({"a": 1, "b": 0})"), 31254);
    EXPECT_EQ(parseCode(R"({"a": 0, "b": 1})"), 31253);
    EXPECT_EQ(parseCode(R"({"a": 1, "_id": 0})"), 0);
    EXPECT_EQ(parseCode(R"({"a": 0, "_id": 1})"), 0);
}

TEST(Projection, PathCollisionsFail) {
    EXPECT_EQ(parseCode(R"({"a": 1, "a.b": 1})"), 31249);
    EXPECT_EQ(parseCode(R"({"a.b": 1, "a": 1})"), 31250);
    EXPECT_EQ(parseCode(R"({"a": {"b": 1}, "a.b": 1})"), 31250);
    EXPECT_EQ(parseCode(R"({"a": {}})"), 51270);
}

TEST(Projection, SliceForms) {
    const char* doc = R"({"_id": 1, "a": [1, 2, 3, 4, 5], "b": 1})";
    EXPECT_EQ(project(R"({"a": {"$slice": 2}})", doc), "{ _id: 1, a: [ 1, 2 ], b: 1 }");
    EXPECT_EQ(project(R"({"a": {"$slice": -2}})", doc), "{ _id: 1, a: [ 4, 5 ], b: 1 }");
    EXPECT_EQ(project(R"({"a": {"$slice": [1, 2]}})", doc), "{ _id: 1, a: [ 2, 3 ], b: 1 }");
    EXPECT_EQ(project(R"({"a": {"$slice": [-2, 5]}})", doc), "{ _id: 1, a: [ 4, 5 ], b: 1 }");
    EXPECT_EQ(project(R"({"a": {"$slice": 1}, "_id": 0, "b": 1})", doc), "{ a: [ 1 ], b: 1 }");
    EXPECT_EQ(parseCode(R"({"a": {"$slice": "x"}})"), 28667);
    EXPECT_EQ(parseCode(R"({"a": {"$slice": [1]}})"), 28724);
    EXPECT_EQ(parseCode(R"({"a": {"$slice": [1, 0]}})"), 28724);
}

TEST(Projection, SliceGoesOneArrayLevelDeep) {
    EXPECT_EQ(project(R"({"a.b": {"$slice": [1, 1]}})", R"({"a": [{"b": [1, 2, 3]}]})"),
              "{ a: [ { b: [ 2 ] } ] }");
    EXPECT_EQ(project(R"({"a.b": {"$slice": [1, 1]}})",
                      R"({"a": [[{"b": [1, 2, 3]}], {"b": [1, 2, 3]}, 1]})"),
              "{ a: [ [ { b: [ 1, 2, 3 ] } ], { b: [ 2 ] }, 1 ] }");
}

TEST(Projection, ComputedFieldReplacesArrayScalars) {
    EXPECT_EQ(project(R"({"a.b": "v"})", R"({"a": [1, {"b": 2}, [3]]})"),
              "{ a: [ { b: \"v\" }, { b: \"v\" }, [ { b: \"v\" } ] ] }");
}

TEST(Projection, ElemMatchReturnsFirstMatchingElement) {
    const char* doc = R"({"_id": 1, "a": [{"x": 1}, {"x": 2}, {"x": 2, "y": 1}], "b": 3})";
    EXPECT_EQ(project(R"({"a": {"$elemMatch": {"x": 2}}})", doc), "{ _id: 1, a: [ { x: 2 } ] }");
    EXPECT_EQ(project(R"({"a": {"$elemMatch": {"x": 9}}, "b": 1})", doc), "{ _id: 1, b: 3 }");
    EXPECT_EQ(parseCode(R"({"a.b": {"$elemMatch": {"x": 2}}})"), 31275);
}

TEST(Projection, PositionalUsesMatchDetails) {
    auto filter = parseMatchExpression(fromjson(R"({"a": {"$gt": 2}})"));
    BSONObj doc = fromjson(R"({"_id": 1, "a": [1, 2, 3, 4], "b": 1})");
    MatchDetails d;
    d.requestElemMatchKey();
    ASSERT_TRUE(filter.getValue()->matchesBSON(doc, &d));
    auto proj = Projection::parse(fromjson(R"({"a.$": 1})"));
    ASSERT_TRUE(proj.isOK());
    EXPECT_TRUE(proj.getValue().requiresMatchDetails());
    auto out = proj.getValue().apply(doc, &d);
    ASSERT_TRUE(out.isOK());
    EXPECT_EQ(out.getValue().toString(), "{ _id: 1, a: [ 3 ] }");
    MatchDetails none;
    EXPECT_EQ(proj.getValue().apply(doc, &none).getStatus().code(), 51246);
    EXPECT_EQ(parseCode(R"({"a.$": 1, "b.$": 1})"), 31276);
}

/** Projects `doc` with `spec` using the array position `filter` matches; "" on error. */
std::string projectMatched(StringData filter, StringData spec, StringData doc, int* code) {
    auto m = parseMatchExpression(fromjson(filter));
    EXPECT_TRUE(m.isOK());
    BSONObj d = fromjson(doc);
    MatchDetails details;
    details.requestElemMatchKey();
    m.getValue()->matchesBSON(d, &details);
    auto proj = Projection::parse(fromjson(spec));
    EXPECT_TRUE(proj.isOK()) << proj.getStatus();
    auto out = proj.getValue().apply(d, &details);
    *code = out.isOK() ? 0 : static_cast<int>(out.getStatus().code());
    return out.isOK() ? out.getValue().toString() : "";
}

TEST(Projection, PositionalAppliesToTheFirstArrayOnThePath) {
    int code = 0;
    EXPECT_EQ(projectMatched(R"({"a.b.c": 5})", R"({"a.b.c.$": 1, "_id": 0})",
                             R"({"a": [{"b": {"c": [1, 2]}}, {"b": {"c": [4, 5]}}]})", &code),
              "{ a: [ { b: { c: [ 4, 5 ] } } ] }");
    EXPECT_EQ(projectMatched(R"({"x": 1})", R"({"a.b.c.$": 1, "_id": 0})",
                             R"({"x": [1], "a": [{"b": [[[{"c": 1, "d": 2}]]]}]})", &code),
              "{ a: [ { b: [ [ [ { c: 1 } ] ] ] } ] }");
    // A parallel array shorter than the matched position.
    projectMatched(R"({"a": 3})", R"({"b.$": 1})", R"({"a": [1, 2, 3], "b": [1]})", &code);
    EXPECT_EQ(code, 51247);
}

TEST(Projection, OrOverDifferentPathsRecordsNoPosition) {
    int code = 0;
    EXPECT_EQ(projectMatched(R"({"$or": [{"a": 2}, {"a": 3}]})", R"({"b.$": 1, "_id": 0})",
                             R"({"a": [1, 2, 3], "b": [4, 5, 6]})", &code),
              "{ b: [ 5 ] }");
    projectMatched(R"({"$or": [{"a": 1}, {"b": 5}]})", R"({"a.$": 1})",
                   R"({"a": [1, 2, 3], "b": [4, 5, 6]})", &code);
    EXPECT_EQ(code, 51246);
}

TEST(Projection, PositionalSpecErrors) {
    EXPECT_EQ(parseCode(R"({"x.$": {"$slice": 1}})"), 31271);
    EXPECT_EQ(parseCode(R"({"x.$": 1, "a": {"$elemMatch": {"b": 1}}})"), 31255);
    EXPECT_EQ(parseCode(R"({".$": 1})"), 5392900);
}

TEST(Projection, LiteralAndFieldPathValuesAreComputed) {
    EXPECT_EQ(project(R"({"x": "$a.b", "y": "lit", "_id": 0})", R"({"a": {"b": 5}})"),
              "{ x: 5, y: \"lit\" }");
}

}  // namespace
}  // namespace mongo
