#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/db/query/collation/collator_factory.h"
#include "mongo/db/query/collation/collator_icu.h"
#include "mongo/db/query/collation/collator_interface_mock.h"
#include "mongo/idl/error_codes_gen.h"

namespace mongo {
namespace {

std::unique_ptr<CollatorInterface> make(const BSONObj& spec) {
    auto sw = makeCollator(spec);
    EXPECT_TRUE(sw.isOK()) << sw.getStatus() << " for " << spec.toString();
    if (!sw.isOK())
        return nullptr;
    EXPECT_TRUE(sw.getValue()) << spec.toString();
    return std::move(sw.getValue());
}

std::unique_ptr<CollatorInterface> make(StringData json) {
    return make(fromjson(json));
}

int code(const BSONObj& spec) {
    auto sw = makeCollator(spec);
    return sw.isOK() ? 0 : static_cast<int>(sw.getStatus().code());
}

int code(StringData json) {
    return code(fromjson(json));
}

int sign(int c) {
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

// ---- parsing and validation ------------------------------------------------

TEST(CollatorICUParse, SimpleLocaleIsTheNullCollator) {
    auto sw = makeCollator(BSON("locale"
                                << "simple"));
    ASSERT_TRUE(sw.isOK());
    ASSERT_EQ(sw.getValue(), nullptr);
}

TEST(CollatorICUParse, SimpleLocaleWithAnyOtherFieldFailsToParse) {
    ASSERT_EQ(code(R"({"locale": "simple", "caseLevel": false})"), ErrorCodes::FailedToParse);
    ASSERT_EQ(code(R"({"locale": "simple", "version": "57.1"})"), ErrorCodes::FailedToParse);
}

TEST(CollatorICUParse, MissingLocaleIsNoSuchKey) {
    ASSERT_EQ(code(BSONObj()), ErrorCodes::NoSuchKey);
    ASSERT_EQ(code(R"({"strength": 2})"), ErrorCodes::NoSuchKey);
}

TEST(CollatorICUParse, NonStringLocaleIsTypeMismatch) {
    ASSERT_EQ(code(R"({"locale": 3})"), ErrorCodes::TypeMismatch);
    ASSERT_EQ(code(R"({"locale": null})"), ErrorCodes::TypeMismatch);
}

TEST(CollatorICUParse, UnknownFieldFailsToParse) {
    ASSERT_EQ(code(R"({"locale": "en", "unknown": 1})"), ErrorCodes::FailedToParse);
    ASSERT_EQ(code(R"({"locale": "en", "Strength": 1})"), ErrorCodes::FailedToParse);
}

TEST(CollatorICUParse, UnsupportedLocalesAreBadValue) {
    for (const char* locale :
         {"",
          "garbage",
          "root",
          "ROOT@collation=search",
          "xx_US",
          "en_ZZ",
          "en_",
          "_en",
          "en__US_POSIX",
          "en-US",
          "en_us",
          "zh_HANT",
          "ZH_hant",
          "en_US@collation=phonebook",
          "zh_TW@collation=stroke",
          "de@collation",
          "no",
          "de@collation=standard",
          "zh_Hant@collation=stroke",
          "de@collation=phonebook;",
          "de@;collation=phonebook",
          "de@collation=PHONEBOOK",
          "de@calendar=buddhist",
          "zh_Blah",
          "en_US_FOO",
          "es__TRADITIONAL",
          "iw",
          "x_test",
          "I-test",
          "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
          "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
          "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}) {
        EXPECT_EQ(code(BSON("locale" << locale)), ErrorCodes::BadValue) << locale;
    }
}

TEST(CollatorICUParse, LocaleWithNullByteIsBadValue) {
    BSONObjBuilder b;
    b.append("locale", StringData("en\0US", 5));
    ASSERT_EQ(code(b.obj()), ErrorCodes::BadValue);
}

TEST(CollatorICUParse, SupportedLocalesParseAndKeepTheirSpelling) {
    for (const char* locale : {"en",
                               "en_US",
                               "en_US_POSIX",
                               "fr",
                               "fr_CA",
                               "de",
                               "de@collation=phonebook",
                               "zh",
                               "zh_Hant",
                               "zh@collation=stroke",
                               "es@collation=search",
                               "nb",
                               "sr_Latn",
                               "zh_Hant@collation=pinyin",
                               "sv",
                               "da",
                               "ja",
                               "ar",
                               "he",
                               "ru",
                               "tr"}) {
        auto c = make(BSON("locale" << locale));
        ASSERT_TRUE(c) << locale;
        EXPECT_EQ(c->getSpec()["locale"].str(), locale);
    }
}

TEST(CollatorICUParse, WrongTypesAreTypeMismatch) {
    for (const char* field : {"caseLevel", "numericOrdering", "normalization", "backwards"}) {
        EXPECT_EQ(code(BSON("locale"
                            << "en" << field << "true")),
                  ErrorCodes::TypeMismatch)
            << field;
        EXPECT_EQ(code(BSON("locale"
                            << "en" << field << 1)),
                  ErrorCodes::TypeMismatch)
            << field;
    }
    for (const char* field : {"caseFirst", "alternate", "maxVariable", "version"}) {
        EXPECT_EQ(code(BSON("locale"
                            << "en" << field << 1)),
                  ErrorCodes::TypeMismatch)
            << field;
        EXPECT_EQ(code(BSON("locale"
                            << "en" << field << true)),
                  ErrorCodes::TypeMismatch)
            << field;
    }
    EXPECT_EQ(code(R"({"locale": "en", "strength": "1"})"), ErrorCodes::TypeMismatch);
    EXPECT_EQ(code(R"({"locale": "en", "strength": true})"), ErrorCodes::TypeMismatch);
}

TEST(CollatorICUParse, BadStringValuesFailToParse) {
    EXPECT_EQ(code(R"({"locale": "en", "caseFirst": "UPPER"})"), ErrorCodes::FailedToParse);
    EXPECT_EQ(code(R"({"locale": "en", "alternate": "ignorable"})"), ErrorCodes::FailedToParse);
    EXPECT_EQ(code(R"({"locale": "en", "maxVariable": "symbol"})"), ErrorCodes::FailedToParse);
}

TEST(CollatorICUParse, StrengthMustBeAnIntegerOneThroughFive) {
    for (int s = 1; s <= 5; ++s)
        EXPECT_EQ(code(BSON("locale"
                            << "en"
                            << "strength" << s)),
                  0)
            << s;
    EXPECT_EQ(code(R"({"locale": "en", "strength": {"$numberLong": "2"}})"), 0);
    EXPECT_EQ(code(R"({"locale": "en", "strength": 2.0})"), 0);
    EXPECT_EQ(code(R"({"locale": "en", "strength": {"$numberDecimal": "2"}})"), 0);
    EXPECT_EQ(code(R"({"locale": "en", "strength": 0})"), ErrorCodes::FailedToParse);
    EXPECT_EQ(code(R"({"locale": "en", "strength": 6})"), ErrorCodes::FailedToParse);
    EXPECT_EQ(code(R"({"locale": "en", "strength": -1})"), ErrorCodes::FailedToParse);
    EXPECT_EQ(code(R"({"locale": "en", "strength": {"$numberLong": "2147483648"}})"),
              ErrorCodes::FailedToParse);
    EXPECT_EQ(code(R"({"locale": "en", "strength": 0.5})"), ErrorCodes::BadValue);
    EXPECT_EQ(code(R"({"locale": "en", "strength": 2.5})"), ErrorCodes::BadValue);
    EXPECT_EQ(code(R"({"locale": "en", "strength": {"$numberDouble": "NaN"}})"),
              ErrorCodes::BadValue);
}

TEST(CollatorICUParse, VersionMustBe571) {
    auto c = make(R"({"locale": "en", "version": "57.1"})");
    ASSERT_TRUE(c);
    EXPECT_EQ(code(R"({"locale": "en", "version": "72.1"})"),
              ErrorCodes::IncompatibleCollationVersion);
    EXPECT_EQ(code(R"({"locale": "en", "version": ""})"), ErrorCodes::IncompatibleCollationVersion);
}

TEST(CollatorICUParse, CaseFirstNeedsStrengthThreeOrCaseLevel) {
    EXPECT_EQ(code(R"({"locale": "en", "caseFirst": "upper", "strength": 1})"),
              ErrorCodes::BadValue);
    EXPECT_EQ(code(R"({"locale": "en", "caseFirst": "lower", "strength": 2})"),
              ErrorCodes::BadValue);
    EXPECT_EQ(code(R"({"locale": "en", "caseFirst": "off", "strength": 1})"), 0);
    EXPECT_EQ(code(R"({"locale": "en", "caseFirst": "upper", "strength": 3})"), 0);
    EXPECT_EQ(code(R"({"locale": "en", "caseFirst": "upper", "strength": 1, "caseLevel": true})"),
              0);
}

TEST(CollatorICUParse, BackwardsNeedsStrengthTwo) {
    EXPECT_EQ(code(R"({"locale": "en", "backwards": true, "strength": 1})"), ErrorCodes::BadValue);
    EXPECT_EQ(code(R"({"locale": "en", "backwards": true, "strength": 2})"), 0);
}

TEST(CollatorICUParse, FromElementNeedsAnObject) {
    BSONObj cmd = BSON("collation" << 1 << "ok"
                                   << BSON("locale"
                                           << "en"));
    auto sw = makeCollatorFromElement(cmd["collation"]);
    ASSERT_EQ(sw.getStatus().code(), ErrorCodes::TypeMismatch);
    ASSERT_TRUE(makeCollatorFromElement(cmd["ok"]).isOK());
}

// ---- the full spec -----------------------------------------------------------

TEST(CollatorICUSpec, DefaultsFilledInUpstreamOrder) {
    auto c = make(R"({"locale": "en_US"})");
    ASSERT_TRUE(c);
    EXPECT_EQ(
        c->getSpec().toString(),
        fromjson(R"({"locale": "en_US", "caseLevel": false, "caseFirst": "off", "strength": 3, )"
                 R"("numericOrdering": false, "alternate": "non-ignorable", )"
                 R"("maxVariable": "punct", "normalization": false, "backwards": false, )"
                 R"("version": "57.1"})")
            .toString());
}

TEST(CollatorICUSpec, RequestedAttributesAppearInTheSpec) {
    auto c = make(
        R"({"backwards": true, "locale": "en", "strength": 2, "caseLevel": true, "numericOrdering": true, )"
        R"("alternate": "shifted", "maxVariable": "space", "normalization": true, "caseFirst": "lower"})");
    ASSERT_TRUE(c);
    EXPECT_EQ(
        c->getSpec().toString(),
        fromjson(R"({"locale": "en", "caseLevel": true, "caseFirst": "lower", "strength": 2, )"
                 R"("numericOrdering": true, "alternate": "shifted", "maxVariable": "space", )"
                 R"("normalization": true, "backwards": true, "version": "57.1"})")
            .toString());
}

TEST(CollatorICUSpec, LocaleDefaultsComeFromICU) {
    EXPECT_TRUE(make(R"({"locale": "fr_CA"})")->getSpec()["backwards"].boolean());
    EXPECT_FALSE(make(R"({"locale": "fr"})")->getSpec()["backwards"].boolean());
    EXPECT_EQ(make(R"({"locale": "da"})")->getSpec()["caseFirst"].str(), "upper");
    EXPECT_EQ(make(R"({"locale": "th"})")->getSpec()["alternate"].str(), "shifted");
    EXPECT_TRUE(make(R"({"locale": "vi"})")->getSpec()["normalization"].boolean());
}

TEST(CollatorICUSpec, SpecIsAValidCollationDocumentThatRoundTrips) {
    for (const char* json :
         {R"({"locale": "fr_CA"})", R"({"locale": "de@collation=phonebook", "strength": 1})",
          R"({"locale": "en", "numericOrdering": true, "alternate": "shifted"})"}) {
        auto c = make(json);
        ASSERT_TRUE(c);
        auto again = make(c->getSpec());
        ASSERT_TRUE(again);
        EXPECT_TRUE(CollatorInterface::collatorsMatch(c.get(), again.get())) << json;
    }
}

TEST(CollatorICUSpec, CloneHasTheSameSpecAndOrder) {
    auto c = make(R"({"locale": "en", "strength": 2})");
    auto copy = CollatorInterface::cloneCollator(c.get());
    ASSERT_TRUE(copy);
    EXPECT_TRUE(CollatorInterface::collatorsMatch(c.get(), copy.get()));
    c.reset();
    EXPECT_EQ(copy->compare("abc", "ABC"), 0);
    EXPECT_EQ(CollatorInterface::cloneCollator(nullptr), nullptr);
}

TEST(CollatorICUSpec, DifferentSpecsDoNotMatch) {
    auto a = make(R"({"locale": "en", "strength": 2})");
    auto b = make(R"({"locale": "en"})");
    EXPECT_FALSE(CollatorInterface::collatorsMatch(a.get(), b.get()));
    EXPECT_FALSE(CollatorInterface::collatorsMatch(a.get(), nullptr));
    EXPECT_TRUE(CollatorInterface::collatorsMatch(nullptr, nullptr));
}

// ---- comparison ------------------------------------------------------------------

const char* const kAAcute = "\xC3\xA1";  // U+00E1 latin small letter a with acute

TEST(CollatorICUCompare, StrengthOneIgnoresCaseAndAccents) {
    auto c = make(R"({"locale": "en", "strength": 1})");
    EXPECT_EQ(c->compare("a", "A"), 0);
    EXPECT_EQ(c->compare("a", kAAcute), 0);
    EXPECT_LT(c->compare("a", "b"), 0);
}

TEST(CollatorICUCompare, StrengthTwoIgnoresCaseOnly) {
    auto c = make(R"({"locale": "en", "strength": 2})");
    EXPECT_EQ(c->compare("a", "A"), 0);
    EXPECT_LT(c->compare("a", kAAcute), 0);
    EXPECT_LT(c->compare("A", kAAcute), 0);
}

TEST(CollatorICUCompare, StrengthThreeSeesCaseAndAccents) {
    auto c = make(R"({"locale": "en", "strength": 3})");
    EXPECT_LT(c->compare("a", "A"), 0);
    EXPECT_LT(c->compare("a", kAAcute), 0);
    EXPECT_LT(c->compare("A", "b"), 0);  // not binary order
    EXPECT_GT(c->compare("b", "A"), 0);
}

TEST(CollatorICUCompare, CaseFirstUpperPutsUpperCaseFirst) {
    auto c = make(R"({"locale": "en", "caseFirst": "upper"})");
    EXPECT_LT(c->compare("A", "a"), 0);
    auto lower = make(R"({"locale": "en", "caseFirst": "lower"})");
    EXPECT_GT(lower->compare("A", "a"), 0);
}

TEST(CollatorICUCompare, CaseLevelWithStrengthOneSeesCaseButNotAccents) {
    auto c = make(R"({"locale": "en", "strength": 1, "caseLevel": true})");
    EXPECT_LT(c->compare("a", "A"), 0);
    EXPECT_EQ(c->compare("a", kAAcute), 0);
}

TEST(CollatorICUCompare, NumericOrderingComparesDigitsAsNumbers) {
    EXPECT_LT(make(R"({"locale": "en"})")->compare("10", "9"), 0);
    auto c = make(R"({"locale": "en", "numericOrdering": true})");
    EXPECT_GT(c->compare("10", "9"), 0);
    EXPECT_LT(c->compare("item2", "item10"), 0);
}

TEST(CollatorICUCompare, AlternateShiftedIgnoresPunctuationAndSpace) {
    auto plain = make(R"({"locale": "en", "strength": 1})");
    EXPECT_NE(plain->compare("a b", "ab"), 0);
    auto shifted = make(R"({"locale": "en", "strength": 1, "alternate": "shifted"})");
    EXPECT_EQ(shifted->compare("a b", "ab"), 0);
    EXPECT_EQ(shifted->compare("a-b", "ab"), 0);
    auto spaceOnly =
        make(R"({"locale": "en", "strength": 1, "alternate": "shifted", "maxVariable": "space"})");
    EXPECT_EQ(spaceOnly->compare("a b", "ab"), 0);
    EXPECT_NE(spaceOnly->compare("a-b", "ab"), 0);
    auto quaternary = make(R"({"locale": "en", "strength": 4, "alternate": "shifted"})");
    EXPECT_NE(quaternary->compare("a-b", "ab"), 0);
}

TEST(CollatorICUCompare, BackwardsComparesSecondaryDifferencesFromTheEnd) {
    const std::string l = std::string("a") + kAAcute, r = std::string(kAAcute) + "a";
    EXPECT_LT(make(R"({"locale": "en", "strength": 2})")->compare(l, r), 0);
    EXPECT_GT(make(R"({"locale": "en", "strength": 2, "backwards": true})")->compare(l, r), 0);
}

TEST(CollatorICUCompare, GermanPhonebookOrdersUmlautsAsDigraphs) {
    EXPECT_LT(make(R"({"locale": "de"})")
                  ->compare("of",
                            "\xC3\xB6"
                            "f"),
              0);
    EXPECT_GT(make(R"({"locale": "de@collation=phonebook"})")
                  ->compare("of",
                            "\xC3\xB6"
                            "f"),
              0);
}

TEST(CollatorICUCompare, EmbeddedNulBytesAreCompared) {
    auto c = make(R"({"locale": "en", "strength": 5})");
    EXPECT_NE(c->compare(StringData("a\0b", 3), StringData("a", 1)), 0);
}

TEST(CollatorICUCompare, InvalidUtf8IsDeterministicAndAgreesWithKeys) {
    auto c = make(R"({"locale": "en"})");
    const std::string bad1 =
                          "a\xFF"
                          "b",
                      bad2 =
                          "a\xC3"
                          "b",
                      fffd =
                          "a\xEF\xBF\xBD"
                          "b";
    EXPECT_EQ(c->compare(bad1, bad2), 0);  // both read as a U+FFFD b
    EXPECT_EQ(c->compare(bad1, fffd), 0);
    EXPECT_EQ(c->comparisonKey(bad1), c->comparisonKey(fffd));
    EXPECT_EQ(c->compare(bad1, bad1), 0);
}

// ---- comparison keys -----------------------------------------------------------

std::string randomString(std::mt19937& rng) {
    static const std::vector<std::string> kPieces = {"a",
                                                     "A",
                                                     "b",
                                                     "B",
                                                     "z",
                                                     "Z",
                                                     "1",
                                                     "9",
                                                     "10",
                                                     " ",
                                                     "-",
                                                     ".",
                                                     "_",
                                                     kAAcute,
                                                     "\xC3\x81" /* A acute */,
                                                     "\xC3\xB6" /* o umlaut */,
                                                     "\xC3\x9F" /* sharp s */,
                                                     "\xE4\xB8\xAD" /* CJK */,
                                                     "\xF0\x9F\x98\x80" /* emoji */,
                                                     "\xFF",
                                                     "\xC3",
                                                     "e\xCC\x81",
                                                     "\xED\xA0\x80" /* surrogate */,
                                                     "\xC0\xAF" /* overlong */,
                                                     "\xF4\x90\x80\x80" /* > U+10FFFF */,
                                                     "\xE4\xB8" /* truncated */,
                                                     std::string("\0", 1)};
    std::uniform_int_distribution<size_t> len(0, 6), piece(0, kPieces.size() - 1);
    std::string s;
    for (size_t n = len(rng); n > 0; --n)
        s += kPieces[piece(rng)];
    return s;
}

int keyOrder(const std::string& a, const std::string& b) {
    return sign(a.compare(b));
}

TEST(CollatorICUKeys, KeysOrderExactlyAsCompare) {
    std::mt19937 rng(20240501);
    for (const char* json :
         {R"({"locale": "en"})", R"({"locale": "en", "strength": 1})",
          R"({"locale": "en", "strength": 2})", R"({"locale": "en", "strength": 5})",
          R"({"locale": "fr_CA"})",
          R"({"locale": "en", "numericOrdering": true, "caseFirst": "upper"})",
          R"({"locale": "en", "strength": 1, "alternate": "shifted", "caseLevel": true})",
          R"({"locale": "de@collation=phonebook", "strength": 4})"}) {
        auto c = make(json);
        ASSERT_TRUE(c);
        for (int i = 0; i < 400; ++i) {
            const std::string a = randomString(rng), b = randomString(rng);
            const std::string ka = c->comparisonKey(a), kb = c->comparisonKey(b);
            ASSERT_EQ(sign(c->compare(a, b)), keyOrder(ka, kb)) << json;
            ASSERT_EQ(ka.find('\0'), std::string::npos) << json;
        }
    }
}

TEST(CollatorICUKeys, EqualStringsHaveIdenticalKeysAndKeysAppend) {
    auto c = make(R"({"locale": "en", "strength": 2})");
    EXPECT_EQ(c->comparisonKey("HELLO"), c->comparisonKey("hello"));
    EXPECT_NE(c->comparisonKey("hello"), c->comparisonKey("hell\xC3\xB3"));
    std::string out = "prefix";
    c->appendComparisonKey("hello", &out);
    EXPECT_EQ(out, "prefix" + c->comparisonKey("hello"));
}

TEST(CollatorICUKeys, LongStringsGetWholeKeys) {
    auto c = make(R"({"locale": "en"})");
    std::string a(5000, 'x'), b(5000, 'x');
    b.back() = 'y';
    EXPECT_LT(c->comparisonKey(a), c->comparisonKey(b));
    EXPECT_LT(c->compare(a, b), 0);
}

// ---- mock collators ----------------------------------------------------------------

TEST(CollatorInterfaceMockTest, MocksOrderAsTheirNamesSay) {
    CollatorInterfaceMock reverse(CollatorInterfaceMock::MockType::kReverseString);
    EXPECT_GT(reverse.compare("ab", "ba"), 0);
    EXPECT_EQ(reverse.comparisonKey("abc"), "cba");
    CollatorInterfaceMock equal(CollatorInterfaceMock::MockType::kAlwaysEqual);
    EXPECT_EQ(equal.compare("x", "y"), 0);
    EXPECT_EQ(equal.comparisonKey("x"), "");
    CollatorInterfaceMock lower(CollatorInterfaceMock::MockType::kToLowerString);
    EXPECT_EQ(lower.compare("ABC", "abc"), 0);
    EXPECT_LT(lower.compare("ABC", "abd"), 0);
    EXPECT_FALSE(CollatorInterface::collatorsMatch(&reverse, &lower));
    auto copy = reverse.clone();
    EXPECT_TRUE(CollatorInterface::collatorsMatch(&reverse, copy.get()));
}

}  // namespace
}  // namespace mongo
