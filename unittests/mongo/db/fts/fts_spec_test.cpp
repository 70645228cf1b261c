// Text index specs: the normal form, its errors, scoring and index keys.
#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/db/fts/fts_spec.h"

namespace mongo {
namespace fts {
namespace {

BSONObj fixed(const BSONObj& spec) {
    auto sw = FTSSpec::fixSpec(spec);
    EXPECT_TRUE(sw.isOK()) << sw.getStatus().reason();
    return sw.isOK() ? sw.getValue() : BSONObj();
}

std::shared_ptr<const FTSSpec> make(const BSONObj& spec) {
    auto sw = FTSSpec::make(spec);
    EXPECT_TRUE(sw.isOK()) << sw.getStatus().reason();
    return sw.getValue();
}

TEST(FTSSpecFix, NormalFormOfACompoundIndex) {
    BSONObj out = fixed(fromjson(
        R"({"key": {"a": 1, "title": "text", "body": "text", "z": -1}, "name": "t",
            "weights": {"title": 10}})"));
    EXPECT_EQ(out["key"].embeddedObject().woCompare(
                  fromjson(R"({"a": 1, "_fts": "text", "_ftsx": 1, "z": -1})")),
              0);
    EXPECT_EQ(out["weights"].embeddedObject().woCompare(fromjson(R"({"body": 1, "title": 10})")),
              0);
    EXPECT_EQ(out["default_language"].str(), "english");
    EXPECT_EQ(out["language_override"].str(), "language");
    EXPECT_EQ(out["textIndexVersion"].numberInt(), 3);
    EXPECT_EQ(out["name"].str(), "t");
    // Idempotent.
    EXPECT_EQ(fixed(out).woCompare(out), 0);
}

TEST(FTSSpecFix, Errors) {
    auto code = [](const char* json) {
        return FTSSpec::fixSpec(fromjson(json)).getStatus().code();
    };
    EXPECT_EQ(code(R"({"key": {"a": "text", "b": 1, "c": "text"}})"),
              ErrorCodes::CannotCreateIndex);
    EXPECT_EQ(code(R"({"key": {"a": "text"}, "weights": {"a": 0}})"),
              ErrorCodes::CannotCreateIndex);
    EXPECT_EQ(code(R"({"key": {"a": "text"}, "weights": {"a": 100000}})"),
              ErrorCodes::CannotCreateIndex);
    EXPECT_EQ(code(R"({"key": {"a": "text"}, "weights": {"a": "x"}})"),
              ErrorCodes::CannotCreateIndex);
    EXPECT_EQ(code(R"({"key": {"a": "text"}, "default_language": "klingon"})"),
              ErrorCodes::CannotCreateIndex);
    EXPECT_EQ(code(R"({"key": {"a.$**": "text"}})"), ErrorCodes::CannotCreateIndex);
    EXPECT_EQ(code(R"({"key": {"a": "text"}, "textIndexVersion": 4})"), 17364);
    EXPECT_EQ(code(R"({"key": {"a": "text"}, "textIndexVersion": 0})"), 17364);
    EXPECT_EQ(code(R"({"key": {"a": "text", "b": "2dsphere"}})"), ErrorCodes::CannotCreateIndex);
    EXPECT_EQ(code(R"({"key": {"a": "text"}, "language_override": "$x"})"),
              ErrorCodes::CannotCreateIndex);
}

TEST(FTSSpecScore, RepeatedWordsAndWholeStringBonus) {
    auto spec = make(fromjson(R"({"key": {"t": "text"}})"));
    TermScores scores;
    ASSERT_TRUE(spec->scoreDocument(fromjson(R"({"t": "dog dog cat"})"), &scores).isOK());
    // dog: freq 1 + 1/2, coeff 0.5*2/3 + 0.5; cat: freq 1, coeff 0.5/3 + 0.5.
    EXPECT_DOUBLE_EQ(scores["dog"], 1.5 * (1.0 / 3 + 0.5));
    EXPECT_DOUBLE_EQ(scores["cat"], 1.0 * (0.5 / 3 + 0.5));
    scores.clear();
    ASSERT_TRUE(spec->scoreDocument(fromjson(R"({"t": "cat"})"), &scores).isOK());
    EXPECT_DOUBLE_EQ(scores["cat"], 1.1);
}

TEST(FTSSpecScore, WeightsPathsArraysAndWildcard) {
    auto spec = make(fromjson(R"({"key": {"a.b": "text", "c": "text"}, "weights": {"c": 5}})"));
    TermScores scores;
    ASSERT_TRUE(spec->scoreDocument(fromjson(R"({"a": [{"b": "apple"}, {"x": "pear"}], "c": "kiwi",
                                     "d": "plum"})"),
                                    &scores)
                    .isOK());
    EXPECT_EQ(scores.size(), 2u);
    EXPECT_DOUBLE_EQ(scores["kiwi"], 5 * 1.1);
    auto all = make(fromjson(R"({"key": {"$**": "text"}})"));
    scores.clear();
    ASSERT_TRUE(all->scoreDocument(fromjson(R"({"a": {"b": ["apple"]}, "n": 1})"), &scores).isOK());
    EXPECT_EQ(scores.count("appl"), 1u);
}

TEST(FTSSpecScore, LanguageOverridePerSubdocument) {
    auto spec = make(fromjson(R"({"key": {"$**": "text"}})"));
    TermScores scores;
    ASSERT_TRUE(spec->scoreDocument(fromjson(R"({"t": "running", "s": {"language": "none",
                                                  "u": "running"}})"),
                                    &scores)
                    .isOK());
    EXPECT_EQ(scores.count("run"), 1u);
    EXPECT_EQ(scores.count("running"), 1u);
    EXPECT_EQ(spec->scoreDocument(fromjson(R"({"language": "klingon", "t": "x"})"), &scores).code(),
              17262);
    EXPECT_EQ(spec->scoreDocument(fromjson(R"({"language": 1, "t": "x"})"), &scores).code(), 17261);
}

TEST(FTSSpecKeys, OneKeyPerTermWithPrefixAndSuffix) {
    auto spec = make(fromjson(R"({"key": {"p": 1, "t": "text", "s": 1}})"));
    std::vector<BSONObj> keys;
    ASSERT_TRUE(
        spec->getKeys(fromjson(R"({"p": 7, "t": "the quick fox", "s": "z"})"), &keys).isOK());
    ASSERT_EQ(keys.size(), 2u);  // "the" is a stop word
    std::vector<BSONElement> parts(keys[0].begin(), keys[0].end());
    ASSERT_EQ(parts.size(), 4u);
    EXPECT_EQ(parts[0].numberInt(), 7);
    EXPECT_EQ(parts[1].str(), "fox");
    EXPECT_TRUE(parts[2].isNumber());
    EXPECT_EQ(parts[3].str(), "z");
    keys.clear();
    ASSERT_TRUE(spec->getKeys(fromjson(R"({"p": 7})"), &keys).isOK());
    EXPECT_TRUE(keys.empty());  // sparse
    EXPECT_EQ(spec->getKeys(fromjson(R"({"p": [1, 2], "t": "fox"})"), &keys).code(),
              ErrorCodes::CannotBuildIndexKeys);
}

TEST(FTSSpecKeys, LongTermsAreHashed) {
    const std::string longWord(100, 'x');
    const std::string term = FTSSpec::indexTerm(longWord);
    EXPECT_EQ(term.size(), 64u);
    EXPECT_EQ(term.substr(0, 32), std::string(32, 'x'));
    EXPECT_NE(term, FTSSpec::indexTerm(std::string(101, 'x')));
    EXPECT_EQ(FTSSpec::indexTerm("short"), "short");
}

}  // namespace
}  // namespace fts
}  // namespace mongo
