// Serialisation of match expression trees (expression.cpp): what serialize() writes must
// parse back to a filter that matches the same documents (match_expression_fuzzer).
#include "mongo/db/matcher/expression.h"

#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/db/matcher/expression_parser.h"

namespace mongo {
namespace {

std::unique_ptr<MatchExpression> reparse(const MatchExpression& me) {
    auto sw = parseMatchExpression(me.serialize());
    EXPECT_TRUE(sw.isOK()) << sw.getStatus() << " for " << me.serialize();
    return sw.isOK() ? std::move(sw.getValue()) : nullptr;
}

TEST(MatchExpressionSerialize, EmptyFilterSerialisesToAFilterThatReparses) {
    // Found by match_expression_fuzzer: {} serialised as {$and: []}, which is rejected.
    for (const char* filter :
         {"{}", R"({"$and": [{}]})", R"({"$or": [{}, {"a": 1}]})", R"({"$nor": [{}]})"}) {
        auto me = parseMatchExpression(fromjson(filter));
        ASSERT_TRUE(me.isOK()) << filter;
        auto back = reparse(*me.getValue());
        ASSERT_TRUE(back) << filter;
        for (const char* doc : {"{}", R"({"a": 1})", R"({"a": 2})"})
            EXPECT_EQ(back->matchesBSON(fromjson(doc)), me.getValue()->matchesBSON(fromjson(doc)))
                << filter << " on " << doc;
    }
    EXPECT_EQ(parseMatchExpression(fromjson("{}")).getValue()->serialize().toString(), "{}");
}

TEST(MatchExpressionSerialize, EmptyOrNeverMatchesAndEmptyNorAlwaysMatchesAfterReparse) {
    ListOfMatchExpression emptyOr(MatchExpression::MatchType::kOr);
    ListOfMatchExpression emptyNor(MatchExpression::MatchType::kNor);
    BSONObj doc = fromjson(R"({"a": 1})");
    ASSERT_FALSE(emptyOr.matchesBSON(doc));
    ASSERT_TRUE(emptyNor.matchesBSON(doc));
    auto orBack = reparse(emptyOr);
    auto norBack = reparse(emptyNor);
    ASSERT_TRUE(orBack && norBack);
    EXPECT_FALSE(orBack->matchesBSON(doc));
    EXPECT_TRUE(norBack->matchesBSON(doc));
}

}  // namespace
}  // namespace mongo
