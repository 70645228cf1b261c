// Serialisation of match expression trees (expression.cpp): what serialize() writes must
// parse back to a filter that matches the same documents (match_expression_fuzzer).
#include "mongo/db/matcher/expression.h"

#include <gtest/gtest.h>

#include <random>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/matcher/path.h"

namespace mongo {
namespace {

std::unique_ptr<MatchExpression> reparse(const MatchExpression& me) {
    auto sw = parseMatchExpression(me.serialize());
    EXPECT_TRUE(sw.isOK()) << sw.getStatus() << " for " << me.serialize();
    return sw.isOK() ? std::move(sw.getValue()) : nullptr;
}

/** A random value: scalars, null, objects and arrays (of both), `depth` levels deep at most. */
void appendRandom(BSONObjBuilder* b, StringData name, std::mt19937* rng, int depth) {
    switch ((*rng)() % (depth > 0 ? 7 : 4)) {
        case 0:
            b->append(name, static_cast<int>((*rng)() % 3));
            return;
        case 1:
            b->appendNull(name);
            return;
        case 2:
            b->append(name, "s");
            return;
        case 3:
            return;  // missing
        case 4:
        case 5: {
            BSONObjBuilder sub(b->subobjStart(name));
            for (const char* f : {"a", "b", "c", "0"})
                appendRandom(&sub, f, rng, depth - 1);
            return;
        }
        default: {
            BSONArrayBuilder arr(b->subarrayStart(name));
            const int n = static_cast<int>((*rng)() % 3);
            for (int i = 0; i < n; ++i) {
                BSONObjBuilder one;
                appendRandom(&one, "x", rng, depth - 1);
                BSONObj o = one.obj();
                if (!o.isEmpty())
                    arr.append(o.firstElement());
            }
        }
    }
}

TEST(PathMatchExpression, MatchesWhatTheWalkReaches) {
    // matches() tests the one value of a path without arrays directly; it must agree with
    // walkPath() over every value, on documents with and without arrays on the way.
    std::mt19937 rng(2026);
    const char* preds[] = {R"({"$eq": 1})",         R"({"$eq": null})",   R"({"$gt": 0})",
                           R"({"$exists": true})",  R"({"$size": 1})",    R"({"$type": "array"})",
                           R"({"$in": [1, null]})", R"({"$eq": [1, 2]})", R"({"$type": "object"})",
                           R"({"$lte": "s"})"};
    const char* paths[] = {"a", "a.b", "a.b.c", "a.0", "a.0.b", "a.b.0", "b.c"};
    int checked = 0;
    for (int round = 0; round < 400; ++round) {
        BSONObjBuilder db;
        for (const char* f : {"a", "b"})
            appendRandom(&db, f, &rng, 3);
        const BSONObj doc = db.obj();
        for (const char* path : paths) {
            for (const char* pred : preds) {
                BSONObjBuilder fb;
                fb.append(path, fromjson(pred));
                auto me = parseMatchExpression(fb.obj());
                ASSERT_TRUE(me.isOK()) << path << " " << pred;
                const MatchExpression* top = me.getValue().get();
                while (!dynamic_cast<const PathMatchExpression*>(top) && top->numChildren() == 1)
                    top = top->getChild(0);  // the parser's one-child $and
                auto* pm = dynamic_cast<const PathMatchExpression*>(top);
                ASSERT_TRUE(pm) << path << " " << pred;
                const bool walked = walkPath(
                    doc, FieldPath(path), pm->leafArrayBehavior(), [&](const PathValue& v) {
                        return pm->matchesSingleElement(v.element, nullptr);
                    });
                EXPECT_EQ(pm->matchesBSON(doc), walked) << doc << " " << path << " " << pred;
                ++checked;
            }
        }
    }
    EXPECT_EQ(checked, 400 * 7 * 10);
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
