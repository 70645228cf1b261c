// $graphLookup's parser: upstream's codes for each bad argument, and the explain spec.
#include <gtest/gtest.h>

#include "mongo/bson/json.h"
#include "mongo/db/pipeline/pipeline.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

const NamespaceString kNss("test", "local");

BSONObj spec(const char* extraJson = "{}", const char* drop = "") {
    BSONObjBuilder b;
    BSONObj base = fromjson(R"({"from": "foreign", "startWith": "$s", "connectFromField": "f",
                               "connectToField": "t", "as": "out"})");
    BSONObj extra = fromjson(extraJson);
    for (auto e : base)
        if (e.fieldNameStringData() != drop && !extra.hasField(e.fieldNameStringData()))
            b.append(e);
    b.appendElements(extra);
    return b.obj();
}

int parseError(const BSONObj& stage) {
    try {
        Pipeline::parse({stage}, std::make_shared<ExpressionContext>(nullptr, kNss));
    } catch (const DBException& e) {
        return e.code();
    }
    return 0;
}

int specError(const BSONObj& s) {
    return parseError(BSON("$graphLookup" << s));
}

TEST(DocumentSourceGraphLookUp, ArgumentErrorsHaveUpstreamCodes) {
    EXPECT_EQ(ErrorCodes::FailedToParse, parseError(BSON("$graphLookup" << 4)));
    EXPECT_EQ(ErrorCodes::FailedToParse, specError(spec("{}", "from")));
    EXPECT_EQ(ErrorCodes::FailedToParse, specError(spec(R"({"from": 1})")));
    EXPECT_EQ(ErrorCodes::InvalidNamespace, specError(spec(R"({"from": ""})")));
    EXPECT_EQ(40100, specError(spec(R"({"maxDepth": "x"})")));
    EXPECT_EQ(40101, specError(spec(R"({"maxDepth": -1})")));
    EXPECT_EQ(40102, specError(spec(R"({"maxDepth": 1.5})")));
    EXPECT_EQ(40103, specError(spec(R"({"as": 1})")));
    EXPECT_EQ(40103, specError(spec(R"({"depthField": true})")));
    EXPECT_EQ(16410, specError(spec(R"({"connectFromField": "$f"})")));
    EXPECT_EQ(40104, specError(spec(R"({"bogus": 1})")));
    EXPECT_EQ(40105, specError(spec("{}", "startWith")));
    EXPECT_EQ(40105, specError(spec("{}", "as")));
    EXPECT_EQ(40185, specError(spec(R"({"restrictSearchWithMatch": 1})")));
    EXPECT_EQ(ErrorCodes::BadValue,
              specError(spec(R"({"restrictSearchWithMatch": {"$text": {"$search": "x"}}})")));
    EXPECT_EQ(0, specError(spec(R"({"maxDepth": 2.0, "depthField": "d"})")));
}

TEST(DocumentSourceGraphLookUp, SerialisesItsSpec) {
    auto p = Pipeline::parse({BSON("$graphLookup" << spec(R"({"maxDepth": 3, "depthField": "d",
                                  "restrictSearchWithMatch": {"x": 1}})"))},
                             std::make_shared<ExpressionContext>(nullptr, kNss));
    BSONArrayBuilder arr;
    p->stages().front()->serialize(&arr);
    BSONObj out = arr.arr().firstElement().Obj()["$graphLookup"].Obj().getOwned();
    EXPECT_EQ("foreign", out["from"].str());
    EXPECT_EQ("out", out["as"].str());
    EXPECT_EQ("t", out["connectToField"].str());
    EXPECT_EQ("f", out["connectFromField"].str());
    EXPECT_EQ("$s", out["startWith"].str());
    EXPECT_EQ(BSONType::kNumberLong, out["maxDepth"].type());
    EXPECT_EQ(3, out["maxDepth"].numberLong());
    EXPECT_EQ("d", out["depthField"].str());
    EXPECT_EQ(1, out["restrictSearchWithMatch"].Obj()["x"].numberInt());
}

}  // namespace
}  // namespace mongo
