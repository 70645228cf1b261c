// Computed projection fields compiled by a caller-supplied ProjectionExpressionParser
// (the find command wires the aggregation engine; here a small fake stands in).
#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/db/query/projection.h"

namespace mongo {
namespace {

/** {$len: "field"}: the string length of a top-level field; "$f" reads f; else a literal. */
class FakeExpression final : public ProjectionExpression {
public:
    explicit FakeExpression(BSONObj spec) : _spec(spec.getOwned()) {}
    void appendValue(const BSONObj& root, StringData name, BSONObjBuilder* out) const override {
        BSONElement e = _spec.firstElement();
        if (e.type() == BSONType::kObject) {
            BSONElement f = root.getField(e.Obj().firstElement().valueStringData());
            if (f.type() == BSONType::kString)
                out->append(name, static_cast<int>(f.valueStringData().size()));
            return;
        }
        if (e.type() == BSONType::kString && e.valueStringData().substr(0, 1) == "$") {
            BSONElement f = root.getField(e.valueStringData().substr(1));
            if (!f.eoo())
                out->appendAs(f, name);
            return;
        }
        out->appendAs(e, name);
    }

private:
    BSONObj _spec;
};

StatusWith<std::unique_ptr<ProjectionExpression>> fakeParse(const BSONElement& e) {
    if (e.type() == BSONType::kObject && e.Obj().firstElementFieldNameStringData() == "$meta") {
        BSONObjBuilder b;
        b.append("v", "meta:" + e.Obj().firstElement().str());
        return std::unique_ptr<ProjectionExpression>(std::make_unique<FakeExpression>(b.obj()));
    }
    if (e.type() == BSONType::kObject && e.Obj().firstElementFieldNameStringData() != "$len")
        return Status(ErrorCodes::Error(168), "Unrecognized expression");
    BSONObjBuilder b;
    b.append(e);
    return std::unique_ptr<ProjectionExpression>(std::make_unique<FakeExpression>(b.obj()));
}

std::string project(StringData spec, StringData doc) {
    auto sw = Projection::parse(fromjson(spec), fakeParse);
    EXPECT_TRUE(sw.isOK()) << sw.getStatus();
    if (!sw.isOK())
        return "<parse error>";
    auto out = sw.getValue().apply(fromjson(doc));
    EXPECT_TRUE(out.isOK()) << out.getStatus();
    return out.isOK() ? out.getValue().toString() : "<apply error>";
}

TEST(ProjectionExpression, OperatorObjectIsAComputedInclusionField) {
    auto p = Projection::parse(fromjson(R"({"n": {"$len": "s"}})"), fakeParse);
    ASSERT_TRUE(p.isOK()) << p.getStatus();
    EXPECT_EQ(p.getValue().type(), Projection::Type::kInclusion);
    EXPECT_EQ(project(R"({"n": {"$len": "s"}})", R"({"_id": 1, "s": "abc", "t": 1})"),
              "{ _id: 1, n: 3 }");
}

TEST(ProjectionExpression, ComputedFieldsFollowIncludedFields) {
    EXPECT_EQ(project(R"({"n": {"$len": "s"}, "t": 1, "_id": 0})", R"({"s": "ab", "t": 5})"),
              "{ t: 5, n: 2 }");
}

TEST(ProjectionExpression, DottedComputedPathCreatesMissingParents) {
    EXPECT_EQ(project(R"({"a.b": {"$len": "s"}, "_id": 0})", R"({"s": "xyz"})"), "{ a: { b: 3 } }");
    EXPECT_EQ(project(R"({"a.b": {"$len": "s"}, "_id": 0})", R"({"s": "xyz", "a": 7})"),
              "{ a: { b: 3 } }");
    EXPECT_EQ(project(R"({"a.b": {"$len": "s"}, "_id": 0})", R"({"s": "x", "a": {"c": 1}})"),
              "{ a: { b: 1 } }");
}

TEST(ProjectionExpression, MissingValueLeavesTheFieldOut) {
    EXPECT_EQ(project(R"({"n": {"$len": "s"}, "_id": 0})", R"({"t": 1})"), "{}");
}

TEST(ProjectionExpression, ParserErrorsAreReturned) {
    auto p = Projection::parse(fromjson(R"({"n": {"$bogus": 1}})"), fakeParse);
    ASSERT_FALSE(p.isOK());
    EXPECT_EQ(p.getStatus().code(), ErrorCodes::Error(168));
}

TEST(ProjectionExpression, WithoutAParserOperatorsAreBadValue) {
    auto p = Projection::parse(fromjson(R"({"n": {"$len": "s"}})"));
    ASSERT_FALSE(p.isOK());
    EXPECT_EQ(p.getStatus().code(), ErrorCodes::BadValue);
}

TEST(ProjectionExpression, MetaIsNeitherInclusionNorExclusion) {
    // Alone (or beside _id: 0) it keeps every field; it may join either kind of projection.
    auto p = Projection::parse(fromjson(R"({"k": {"$meta": "sortKey"}})"), fakeParse);
    ASSERT_TRUE(p.isOK()) << p.getStatus();
    EXPECT_EQ(p.getValue().type(), Projection::Type::kExclusion);
    EXPECT_EQ(p.getValue().metaNames(), std::vector<std::string>{"sortKey"});
    EXPECT_EQ(project(R"({"k": {"$meta": "sortKey"}})", R"({"_id": 1, "a": 2})"),
              "{ _id: 1, a: 2, k: \"meta:sortKey\" }");
    EXPECT_EQ(project(R"({"_id": 0, "k": {"$meta": "sortKey"}})", R"({"_id": 1, "a": 2})"),
              "{ a: 2, k: \"meta:sortKey\" }");
    EXPECT_EQ(project(R"({"a": 0, "k": {"$meta": "x"}})", R"({"_id": 1, "a": 2, "b": 3})"),
              "{ _id: 1, b: 3, k: \"meta:x\" }");
    EXPECT_EQ(project(R"({"k": {"$meta": "x"}, "a": 1})", R"({"_id": 1, "a": 2, "b": 3})"),
              "{ _id: 1, a: 2, k: \"meta:x\" }");
}

TEST(ProjectionExpression, MetaWithoutAParserIsBadValue) {
    auto p = Projection::parse(fromjson(R"({"n": {"$meta": "textScore"}})"));
    ASSERT_FALSE(p.isOK());
    EXPECT_EQ(p.getStatus().code(), ErrorCodes::BadValue);
}

TEST(ProjectionExpression, ExpressionInAnExclusionProjectionIsRejected) {
    auto p = Projection::parse(fromjson(R"({"a": 0, "n": {"$len": "s"}})"), fakeParse);
    ASSERT_FALSE(p.isOK());
    EXPECT_EQ(p.getStatus().code(), ErrorCodes::Error(31252));
}

TEST(ProjectionExpression, LiteralsAndPathsGoThroughTheParser) {
    EXPECT_EQ(project(R"({"x": "$s", "y": "lit", "_id": 0})", R"({"s": 4})"),
              "{ x: 4, y: \"lit\" }");
}

}  // namespace
}  // namespace mongo
