// Words, folding and stemming of the text-search tokenizer and languages.
#include <gtest/gtest.h>

#include "mongo/db/fts/fts_language.h"
#include "mongo/db/fts/fts_tokenizer.h"

namespace mongo {
namespace fts {
namespace {

const FTSLanguage& lang(StringData name) {
    return *FTSLanguage::make(name, TextIndexVersion::kV3).getValue();
}

std::vector<std::string> folded(StringData text, StringData language = "english",
                                FoldOptions options = {}) {
    std::vector<std::string> out;
    for (const Token& t : tokenize(text, lang(language), options))
        out.push_back(t.folded);
    return out;
}

TEST(FTSLanguage, NamesAndCodesInAnyCase) {
    EXPECT_EQ(lang("EN").str(), "english");
    EXPECT_EQ(lang("Spanish").str(), "spanish");
    EXPECT_EQ(lang("none").str(), "none");
    auto bad = FTSLanguage::make("klingon", TextIndexVersion::kV3);
    EXPECT_EQ(bad.getStatus().code(), ErrorCodes::BadValue);
    EXPECT_EQ(FTSLanguage::make("", TextIndexVersion::kV3).getStatus().code(),
              ErrorCodes::BadValue);
}

TEST(FTSLanguage, StemsAndStopWords) {
    EXPECT_EQ(lang("english").stem("running"), "run");
    EXPECT_EQ(lang("english").stem("dogs"), "dog");
    EXPECT_EQ(lang("none").stem("dogs"), "dogs");
    EXPECT_TRUE(lang("english").isStopWord("the"));
    EXPECT_FALSE(lang("english").isStopWord("dog"));
    EXPECT_FALSE(lang("none").isStopWord("the"));
    EXPECT_TRUE(lang("spanish").isStopWord("los"));
}

TEST(FTSTokenizer, SplitsOnSpacePunctuationAndDashes) {
    EXPECT_EQ(folded("Hello, World! foo-bar baz.qux"),
              (std::vector<std::string>{"hello", "world", "foo", "bar", "baz", "qux"}));
    EXPECT_EQ(folded("snake_case 42abc"), (std::vector<std::string>{"snake_case", "42abc"}));
    EXPECT_TRUE(folded("  ...  ").empty());
}

TEST(FTSTokenizer, EnglishKeepsInnerApostrophes) {
    EXPECT_EQ(folded("don't 'quoted'"), (std::vector<std::string>{"don't", "quoted"}));
    EXPECT_EQ(folded("don't", "french"), (std::vector<std::string>{"don", "t"}));
}

TEST(FTSTokenizer, FoldsCaseAndDiacritics) {
    EXPECT_EQ(folded("Café ÉCOLE"), (std::vector<std::string>{"cafe", "ecole"}));
    EXPECT_EQ(folded("Café", "english", FoldOptions{false, true}),
              (std::vector<std::string>{"café"}));
    EXPECT_EQ(folded("Café", "english", FoldOptions{true, false}),
              (std::vector<std::string>{"Cafe"}));
    EXPECT_EQ(folded("ISTANBUL", "turkish"), (std::vector<std::string>{"\xc4\xb1stanbul"}));
}

TEST(FTSTokenizer, VersionsOneAndTwoSplitAndFoldAsciiOnly) {
    const FoldOptions basic{false, false, true};
    // Diacritics stay, only ASCII letters are lower-cased, non-ASCII punctuation is a letter.
    EXPECT_EQ(folded("Café ÉCOLE foo-bar", "english", basic),
              (std::vector<std::string>{"café", "École", "foo", "bar"}));
    EXPECT_EQ(folded("a\u00abb\u00bb", "english", basic),
              (std::vector<std::string>{"a\u00abb\u00bb"}));
    EXPECT_EQ(folded("ISTANBUL", "turkish", basic), (std::vector<std::string>{"istanbul"}));
}

TEST(FTSLanguage, VersionOneTakesStemmerAliases) {
    auto eng = FTSLanguage::make("eng", TextIndexVersion::kV1);
    ASSERT_TRUE(eng.isOK());
    EXPECT_EQ(eng.getValue()->str(), "eng");
    EXPECT_EQ(eng.getValue()->stem("running"), "run");
    EXPECT_FALSE(eng.getValue()->isStopWord("the"));  // the stop lists know the names only
    EXPECT_EQ(FTSLanguage::make("eng", TextIndexVersion::kV2).getStatus().code(),
              ErrorCodes::BadValue);
    EXPECT_EQ(FTSLanguage::make("klingon", TextIndexVersion::kV1).getStatus().code(),
              ErrorCodes::BadValue);
}

TEST(FTSTokenizer, OffsetsPointAtTheRawWord) {
    auto tokens = tokenize("ab  Cd", lang("english"), {});
    ASSERT_EQ(tokens.size(), 2u);
    EXPECT_EQ(tokens[1].raw, "Cd");
    EXPECT_EQ(tokens[1].offset, 4u);
}

TEST(FTSTokenizer, InvalidUtf8IsADelimiter) {
    EXPECT_EQ(folded("ab\xff\xfe"
                     "cd"),
              (std::vector<std::string>{"ab", "cd"}));
}

}  // namespace
}  // namespace fts
}  // namespace mongo
