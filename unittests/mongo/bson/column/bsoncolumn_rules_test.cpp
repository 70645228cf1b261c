// BSONColumn rules of the spec (§A.7, §A.8.5, §A.9, §A.12, §A.13) not covered by the A.11
// vectors: literal triggers, leading skips, legacy F0 sections, empty sub-documents, extra
// decoder checks. Expected bytes are derived by hand from the rules cited in each test.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/column/bsoncolumn.h"
#include "mongo/bson/column/bsoncolumnbuilder.h"

namespace mongo {
namespace {

std::string toHex(const std::string& s) {
    static const char* d = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : s) {
        out += d[c >> 4];
        out += d[c & 15];
    }
    return out;
}
std::string fromHex(const std::string& h) {
    std::string s, out;
    for (char c : h) {
        if (c != ' ')
            s += c;
    }
    for (size_t i = 0; i + 1 < s.size(); i += 2)
        out.push_back(char(std::stoi(s.substr(i, 2), nullptr, 16)));
    return out;
}
std::string noSpaces(const std::string& h) {
    return toHex(fromHex(h));
}

/** A holder object whose only field (empty name) has `type` and raw value bytes. */
BSONObj holder(BSONType type, const std::string& valueHex) {
    const std::string v = fromHex(valueHex);
    std::string doc(4, '\0');
    doc.push_back(char(type));
    doc.push_back('\0');
    doc += v;
    doc.push_back('\0');
    const int32_t n = int32_t(doc.size());
    std::memcpy(&doc[0], &n, 4);
    return BSONObj::copyFrom(doc.data(), n);
}

/** Encodes the holders' first elements (empty holder = skip). */
std::string encode(const std::vector<BSONObj>& in) {
    BSONColumnBuilder b;
    for (const auto& h : in)
        b.append(h.firstElement());
    return b.finalize();
}

/** Encodes, compares with `hex`, and checks that decoding gives the input back. */
void expectColumn(const std::vector<BSONObj>& in, const std::string& hex) {
    const std::string bin = encode(in);
    EXPECT_EQ(toHex(bin), noSpaces(hex));
    auto dec = BSONColumn(bin.data(), bin.size()).decompress();
    ASSERT_TRUE(dec.isOK()) << dec.getStatus().toString();
    ASSERT_EQ(dec.getValue().size(), in.size());
    for (size_t i = 0; i < in.size(); ++i) {
        const BSONElement want = in[i].firstElement();
        ASSERT_EQ(dec.getValue().missing(i), want.eoo()) << i;
        if (!want.eoo())
            EXPECT_TRUE(dec.getValue()[i].binaryEqualValues(want)) << i;
    }
}

void expectInvalid(const std::string& hex) {
    const std::string bin = fromHex(hex);
    auto r = BSONColumn(bin.data(), bin.size()).decompress();
    ASSERT_FALSE(r.isOK()) << hex;
    EXPECT_EQ(r.getStatus().code(), ErrorCodes::InvalidBSONColumn) << hex;
}

// §A.12: the 8.0 builder accepts MinKey and MaxKey (literal, then zero deltas).
TEST(BSONColumnRules, MinKeyAndMaxKeyAreLiteralsThenRepeats) {
    expectColumn({holder(BSONType::kMinKey, ""), holder(BSONType::kMinKey, "")},
                 "FF00 80 0E00000000000000 00");
    expectColumn({holder(BSONType::kMaxKey, ""), holder(BSONType::kMaxKey, ""),
                  holder(BSONType::kMinKey, "")},
                 "7F00 80 0E00000000000000 FF00 00");
}

// §A.7.3: an empty string right after an unencodable one would be delta 0 ("repeat"), so it is
// a literal.
TEST(BSONColumnRules, EmptyStringAfterUnencodableStringIsLiteral) {
    expectColumn({BSON("" << StringData("\0mongo", 6)), BSON(""
                                                             << "")},
                 "0200 07000000 006D6F6E676F00 0200 01000000 00 00");
}

// §A.13.5: bool bytes other than 00/01 are literals and decode verbatim.
TEST(BSONColumnRules, NonCanonicalBoolByteIsLiteralAndDecodesVerbatim) {
    const std::vector<BSONObj> in = {BSON("" << true), holder(BSONType::kBool, "02")};
    expectColumn(in, "0800 01 0800 02 00");
    const std::string bin = encode(in);
    auto dec = BSONColumn(bin.data(), bin.size()).decompress();
    ASSERT_TRUE(dec.isOK());
    EXPECT_EQ(dec.getValue()[1].value()[0], '\x02');
}

// §A.7.3: an ObjectId whose instance-unique bytes (4..8) change is a literal.
TEST(BSONColumnRules, ObjectIdWithNewInstanceBytesIsLiteral) {
    expectColumn({holder(BSONType::kOid, "112233445566778899AABBCC"),
                  holder(BSONType::kOid, "11223344FF66778899AABBCC")},
                 "0700 112233445566778899AABBCC 0700 11223344FF66778899AABBCC 00");
}

// §A.7.3: bindata whose length changes is a literal; identical bindata over 16 bytes repeats.
TEST(BSONColumnRules, BinDataLengthChangeIsLiteralAndLongIdenticalRepeats) {
    expectColumn({holder(BSONType::kBinData, "02000000 00 6162"),
                  holder(BSONType::kBinData, "03000000 00 616263")},
                 "0500 02000000006162 0500 0300000000616263 00");
    const std::string long17 = "11000000 00 000102030405060708090A0B0C0D0E0F10";
    expectColumn({holder(BSONType::kBinData, long17), holder(BSONType::kBinData, long17)},
                 "0500 " + long17 + " 80 0E00000000000000 00");
}

// §A.7.3: types without an integer form repeat when identical and are literals otherwise.
TEST(BSONColumnRules, RegexRepeatsWhenIdenticalElseLiteral) {
    const BSONObj re = holder(BSONType::kRegEx, "616200 6900");
    const BSONObj other = holder(BSONType::kRegEx, "616300 6900");
    expectColumn({re, re, other}, "0B00 6162006900 80 0E00000000000000 0B00 6163006900 00");
}

// §A.13.1: skips before the first literal go out as a run under control 80.
TEST(BSONColumnRules, LeadingSkipIsRunUnderRawControl) {
    expectColumn({BSONObj(), BSON("" << 1)}, "80 FEFFFFFFFFFFFFFF 1000 01000000 00");
}

// §A.8.5 step 5 and §A.8.1: a section of two identical objects.
TEST(BSONColumnRules, SmallSectionBytes) {
    expectColumn({BSON("" << BSON("a" << 1)), BSON("" << BSON("a" << 1))},
                 "F1 0C000000 1061000100000000 80 0D00000000000000 00 00");
}

// §A.12: readers accept the legacy F0 section start like F1.
TEST(BSONColumnRules, LegacyF0SectionDecodesLikeF1) {
    const std::string body = "0C000000 1061000100000000 80 0D00000000000000 00 00";
    for (const char* start : {"F0 ", "F1 "}) {
        const std::string bin = fromHex(start + body);
        auto dec = BSONColumn(bin.data(), bin.size()).decompress();
        ASSERT_TRUE(dec.isOK()) << start;
        ASSERT_EQ(dec.getValue().size(), 2u);
        for (size_t i = 0; i < 2; ++i)
            EXPECT_TRUE(dec.getValue()[i].Obj().binaryEqual(BSON("a" << 1))) << start;
    }
}

// §A.8.5 step 7: skip() with an empty sub-document in the reference ends the section and skips
// in regular mode.
TEST(BSONColumnRules, SkipEndsSectionWhenReferenceHasEmptySubdocument) {
    expectColumn({BSON("" << BSON("a" << 1 << "b" << BSONObj())), BSONObj()},
                 "F1 14000000 10610001000000 0362000500000000 00 80 0E00000000000000 00 "
                 "80 FEFFFFFFFFFFFFFF 00");
}

// §A.8.5 step 1: an object without scalar leaves and no active section is a regular literal.
TEST(BSONColumnRules, ObjectWithoutScalarsIsRegularLiteral) {
    const BSONObj o = BSON("" << BSON("a" << BSONObj()));
    expectColumn({o, o}, "0300 0D000000 03610005000000 0000 80 0E00000000000000 00");
}

// §A.8.5 step 3: a root type change (object -> array) ends the section.
TEST(BSONColumnRules, RootTypeChangeStartsNewSection) {
    const std::vector<BSONObj> in = {BSON("" << BSON("a" << 1)), BSON("" << BSON_ARRAY(1))};
    const std::string bin = encode(in);
    ASSERT_EQ(uint8_t(bin[0]), 0xF1);
    const size_t second = bin.find('\xF2');
    ASSERT_NE(second, std::string::npos);
    EXPECT_EQ(bin[second - 1], '\0');  // the object section ended first
    expectColumn(in, toHex(bin));
}

// §A.9: further malformed inputs.
TEST(BSONColumnRules, MoreMalformedInputsAreInvalidBSONColumn) {
    // Non-zero delta on bindata longer than 16 bytes.
    expectInvalid("0500 11000000 00 000102030405060708090A0B0C0D0E0F10 80 1E00000000000000 00");
    // Stream 1 runs out while stream 0 still has values: 00 met by a stream other than 0.
    expectInvalid(
        "F1 13000000 1061000100000010620001000000 00 80 0D00000000000000 "
        "80 0E00000000000000 00 00");
    // Missing terminator after an interleaved section.
    expectInvalid("F1 0C000000 1061000100000000 80 0D00000000000000 00");
    // A double that does not re-encode at the control's scale (0.1 at x1).
    expectInvalid("0100 9A9999999999B93F 90 1E00000000000000 00");
    // Scale nibble on a 128-bit stream.
    expectInvalid("0200 02000000 6100 90 1E00000000000000 00");
}

}  // namespace
}  // namespace mongo
