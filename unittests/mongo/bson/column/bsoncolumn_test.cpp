// BSONColumn encoder/decoder: spec vectors C1-C20 (§A.11.2), validation and round trips.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
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
std::string stripSpaces(std::string s) {
    s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
    return s;
}
std::string fromHex(const std::string& h) {
    std::string s = stripSpaces(h), out;
    for (size_t i = 0; i + 1 < s.size(); i += 2)
        out.push_back(char(std::stoi(s.substr(i, 2), nullptr, 16)));
    return out;
}

/** A sequence of values (each wrapped as the only field of a holder) or skips. */
struct Seq {
    std::vector<BSONObj> holders;  // empty object = skip
    template <typename T>
    Seq& add(const T& v) {
        holders.push_back(BSON("" << v));
        return *this;
    }
    Seq& skip() {
        holders.push_back(BSONObj());
        return *this;
    }
    std::string encode() const {
        BSONColumnBuilder b;
        for (const auto& h : holders)
            b.append(h.firstElement());
        return b.finalize();
    }
};

void expectDecodesTo(const std::string& bin, const Seq& seq) {
    auto dec = BSONColumn(bin.data(), bin.size()).decompress();
    ASSERT_TRUE(dec.isOK()) << dec.getStatus().toString() << " " << toHex(bin);
    const DecodedColumn& col = dec.getValue();
    ASSERT_EQ(col.size(), seq.holders.size()) << toHex(bin);
    for (size_t i = 0; i < col.size(); ++i) {
        BSONElement want = seq.holders[i].firstElement();
        ASSERT_EQ(col.missing(i), want.eoo()) << "position " << i << " of " << toHex(bin);
        if (!want.eoo())
            ASSERT_TRUE(col[i].binaryEqualValues(want))
                << "position " << i << ": " << col[i].toString() << " vs " << want.toString();
    }
}

void checkVector(const Seq& seq, const std::string& hex) {
    const std::string bin = seq.encode();
    EXPECT_EQ(toHex(bin), stripSpaces(hex));
    expectDecodesTo(fromHex(hex), seq);
}

OID oid(const char* hex) {
    return OID::parse(hex).getValue();
}

TEST(BSONColumnVectors, C1ToC8Scalars) {
    checkVector(Seq(), "00");
    checkVector(Seq().add(100).add(100).add(101), "1000 64000000 80 0D00000008000000 00");
    checkVector(Seq().add(1.0).add(2.0), "0100 000000000000F03F 90 2E00000000000000 00");
    checkVector(Seq().add(1.0).add(1.1), "0100 000000000000F03F A0 2E00000000000000 00");
    Seq c5;
    for (double d : {94.8, 107.9, 111.9, 113.4, 89.0, 126.7, 119.0, 105.0, 120.0})
        c5.add(d);
    checkVector(c5, "0100 3333333333B35740 A0 6910141E9C276F26 90 BD01000078000000 00");
    Seq c6;
    for (double d : {1.1, 2.1, 2.2, 2.3, 3.12345678})
        c6.add(d);
    checkVector(c6, "0100 9A9999999999F13F A0 4C01000200200000 D0 CED90F9D00000000 00");
    checkVector(Seq().add(-153764908544737.4).add(-85827904635132.83),
                "0100 2D5C16D8257BE1C2 80 FE9EC3DECCE9BE01 00");
    checkVector(Seq().add(0.0).add(-0.0), "0100 0000000000000000 0100 0000000000000080 00");
}

TEST(BSONColumnVectors, C9ToC16OtherTypes) {
    checkVector(Seq()
                    .add(oid("112233445566778899AABBCC"))
                    .add(oid("112233455566778899AABBEE"))
                    .add(oid("112233455566778899AABBEE"))
                    .add(oid("112233455566778899AABBFF")),
                "0700 112233445566778899AABBCC 80 4C24004302200200 00");
    checkVector(
        Seq().add(Timestamp::fromULL(0)).add(Timestamp::fromULL(1)).add(Timestamp::fromULL(1)),
        "1100 0000000000000000 80 2D00000004000000 00");
    checkVector(Seq()
                    .add(Date_t::fromMillisSinceEpoch(1))
                    .add(Date_t::fromMillisSinceEpoch(2))
                    .add(Date_t::fromMillisSinceEpoch(2)),
                "0900 0100000000000000 80 2D00000004000000 00");
    checkVector(Seq().add(true).add(true).add(false).add(true), "0800 01 80 0C00000100200000 00");
    checkVector(Seq().add(NullLabeler()).add(NullLabeler()), "0A00 80 0E00000000000000 00");
    checkVector(Seq().add("mongo").add("tests"),
                "0200 060000006D6F6E676F00 80 8EA0A1C0DE000000 00");
    checkVector(Seq().add("mongo").add(StringData("\0mongo", 6)).add("test"),
                "0200 060000006D6F6E676F00 0200 07000000006D6F6E676F00 80 8E6EAE8C0E000000 00");
    Seq c16;
    for (int i = 0; i < 121; ++i)
        c16.add(256LL);
    checkVector(c16, "1200 0001000000000000 80 0F00000000000000 00");
}

TEST(BSONColumnVectors, C19AndC20) {
    Seq c19;
    for (int i = 0; i < 121; ++i)
        c19.add(Date_t::fromMillisSinceEpoch(1709224256429LL));
    checkVector(c19, "0900 AD63B4F58D010000 80 0F00000000000000 00");
    Seq c20;
    c20.add(BSON("x" << 1 << "y" << 2))
        .add(BSON("x" << 1 << "y" << 3))
        .add(BSON("x" << 1 << "y" << 3))
        .skip()
        .add(BSON("y" << 4))
        .add(BSON("x" << 1 << "y" << 3));
    checkVector(c20,
                "F1 13000000107800010000001079000200000000 80 09000000FCFF3F00 "
                "80 09800000FC2F4000 00 00");
}

TEST(BSONColumnDecoder, MalformedInputIsInvalidBSONColumn) {
    const char* bad[] = {
        "",                                      // empty buffer
        "10",                                    // truncated literal
        "1000 64000000",                         // no terminator
        "1000 64000000 00 00",                   // bytes after the end
        "1000 64000000 90 0E00000000000000 00",  // scaled control on int32
        "1000 64000000 80 0000000000000000 00",  // selector 0
        "1000 64000000 80 A700000000000000 00",  // selector 7, x = 10
        "1000 64000000 81 0E00000000000000 00",  // run overflows
        "0A00 80 1E00000000000000 00",           // non-zero delta on null
        "30 00",                                 // invalid control
        "F1 0500000000 00 00",                   // reference without leaves
        "F1 0C0000001078000100000000 00 00",     // section without units
    };
    for (const char* h : bad) {
        std::string bin = fromHex(h);
        BSONColumn col(bin.data(), bin.size());
        auto r = col.decompress();
        ASSERT_FALSE(r.isOK()) << h;
        EXPECT_EQ(r.getStatus().code(), ErrorCodes::InvalidBSONColumn) << h;
    }
}

// A fuzzer find: a legacy interleaved column yields an object holding a bool whose byte is
// 0x41. Such bytes are kept verbatim (spec A.13.5), so the object re-encodes (as the
// reference object of an interleaved column) and decodes back to the same bytes.
TEST(BSONColumnDecoder, NonCanonicalBoolInsideAnObjectRoundTrips) {
    const std::string bin = fromHex("F0 10000000100801000000000A08000000 0800410800000000");
    auto dec = BSONColumn(bin.data(), bin.size()).decompress();
    ASSERT_TRUE(dec.isOK()) << dec.getStatus().toString();
    BSONColumnBuilder b;
    for (size_t i = 0; i < dec.getValue().size(); ++i)
        b.append(dec.getValue()[i]);
    const std::string encoded = b.finalize();
    auto again = BSONColumn(encoded.data(), encoded.size()).decompress();
    ASSERT_TRUE(again.isOK()) << again.getStatus().toString();
    ASSERT_EQ(again.getValue().size(), dec.getValue().size());
    for (size_t i = 0; i < dec.getValue().size(); ++i) {
        ASSERT_EQ(again.getValue().missing(i), dec.getValue().missing(i));
        if (!dec.getValue().missing(i))
            EXPECT_TRUE(again.getValue()[i].binaryEqualValues(dec.getValue()[i]));
    }
}

TEST(BSONColumnDecoder, ScalarBlockMatchesIterator) {
    Seq s;
    s.skip().add(5).add(7).skip().add(9).add(9).add(-3);
    std::string bin = s.encode();
    ScalarColumn sc;
    ASSERT_TRUE(BSONColumn(bin.data(), bin.size()).decodeScalars(&sc).isOK());
    ASSERT_EQ(sc.size, 7u);
    EXPECT_FALSE(sc.isPresent(0));
    EXPECT_EQ(sc.ints[1], 5);
    EXPECT_EQ(sc.ints[2], 7);
    EXPECT_FALSE(sc.isPresent(3));
    EXPECT_EQ(sc.ints[6], -3);
    Seq d;
    for (double v : {94.8, 107.9, 111.9, 113.4, 89.0, 126.7, 119.0, 105.0, 120.0})
        d.add(v);
    bin = d.encode();
    ASSERT_TRUE(BSONColumn(bin.data(), bin.size()).decodeScalars(&sc).isOK());
    EXPECT_EQ(sc.doubles[8], 120.0);
    EXPECT_EQ(sc.doubles[5], 126.7);
    Seq str;
    str.add("a");
    bin = str.encode();
    EXPECT_EQ(BSONColumn(bin.data(), bin.size()).decodeScalars(&sc).code(),
              ErrorCodes::TypeMismatch);
}

TEST(BSONColumnDecoder, ScalarBlockMatchesIteratorOnRandomColumnsWithOneReusedOutput) {
    // One ScalarColumn for every decode, long and short columns mixed: what a decode leaves
    // behind must never show through (the arrays are reused, not cleared).
    std::mt19937 rng(20261129);
    ScalarColumn sc;
    for (int round = 0; round < 400; ++round) {
        const int kind = int(rng() % 5);  // int32, int64, date, double 2 decimals, raw double
        const size_t n = rng() % 3 ? rng() % 300 : rng() % 5000;
        const int missingEvery = rng() % 3 ? 0 : int(2 + rng() % 9);
        const bool runs = rng() % 2;  // long runs of one value (RLE words)
        Seq s;
        long long v = int(rng() % 1000);
        for (size_t i = 0; i < n; ++i) {
            if (missingEvery && rng() % missingEvery == 0) {
                s.skip();
                continue;
            }
            if (!runs || rng() % 50 == 0)
                v += int(rng() % 21) - 10;
            switch (kind) {
                case 0:
                    s.add(int(v));
                    break;
                case 1:
                    s.add(v * 1000003LL);
                    break;
                case 2:
                    s.add(Date_t::fromMillisSinceEpoch(1451606400000LL + 10000LL * i + v));
                    break;
                case 3:
                    s.add(double(v) / 100.0);
                    break;
                default:
                    s.add(double(v) / 3.0);
                    break;
            }
        }
        const std::string bin = s.encode();
        auto dec = BSONColumn(bin.data(), bin.size()).decompress();
        ASSERT_TRUE(dec.isOK());
        const Status st = BSONColumn(bin.data(), bin.size()).decodeScalars(&sc);
        ASSERT_TRUE(st.isOK()) << st.toString() << " round " << round;
        const DecodedColumn& col = dec.getValue();
        ASSERT_EQ(sc.size, col.size()) << "round " << round;
        for (size_t i = 0; i < col.size(); ++i) {
            ASSERT_EQ(sc.isPresent(i), !col.missing(i)) << "round " << round << " pos " << i;
            if (col.missing(i))
                continue;
            BSONElement e = col[i];
            if (e.type() == BSONType::kNumberDouble) {
                double got = sc.doubles[i], want = e.numberDouble();
                ASSERT_EQ(0, std::memcmp(&got, &want, sizeof got)) << "round " << round;
            } else if (e.type() == BSONType::kDate) {
                ASSERT_EQ(sc.ints[i], e.date().toMillisSinceEpoch()) << "round " << round;
            } else {
                ASSERT_EQ(sc.ints[i], e.numberLong()) << "round " << round;
            }
        }
    }
}

TEST(BSONColumnLimits, RunLengthBombsStopAtMaxPositions) {
    // An int32 literal, then Simple-8b blocks of 16 RLE words of 1920 repeats each.
    auto column = [](int blocks) {
        std::string c{'\x10', '\x00', '\x01', '\x00', '\x00', '\x00'};
        for (int b = 0; b < blocks; ++b) {
            c.push_back('\x8F');
            for (int w = 0; w < 16; ++w)
                c.append(std::string{'\xFF', 0, 0, 0, 0, 0, 0, 0});
        }
        c.push_back('\x00');
        return c;
    };
    const std::string small = column(2), bomb = column(140);  // 61,441 and 4,300,801 values
    BSONColumn ok(small.data(), small.size());
    ASSERT_TRUE(ok.count().isOK());
    EXPECT_EQ(ok.count().getValue(), 61441u);
    ScalarColumn scalars;
    EXPECT_TRUE(ok.decodeScalars(&scalars).isOK());

    BSONColumn big(bomb.data(), bomb.size());
    EXPECT_EQ(big.count().getStatus().code(), ErrorCodes::ExceededMemoryLimit);
    EXPECT_EQ(big.decompress().getStatus().code(), ErrorCodes::ExceededMemoryLimit);
    EXPECT_EQ(big.decodeScalars(&scalars).code(), ErrorCodes::ExceededMemoryLimit);
}

}  // namespace
}  // namespace mongo
