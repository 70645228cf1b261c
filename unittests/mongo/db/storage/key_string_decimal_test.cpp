// KeyString numbers: memcmp order of encodings equals the exact canonical order
// across int, long, double and decimal (decimals are no longer approximated by a
// double), equal values of any type encode alike, and decoding restores types.
#include "mongo/db/storage/key_string.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "mongo/bson/bson_comparator.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/decimal128.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

using key_string::Builder;

int sign(int v) {
    return v < 0 ? -1 : (v > 0 ? 1 : 0);
}

Decimal128 dec(const char* s) {
    return uassertStatusOK(Decimal128::parse(s));
}

/** Numbers of every type, clustered so that many are equal or adjacent across types. */
class RandomNumbers {
public:
    explicit RandomNumbers(unsigned seed) : _rng(seed) {}

    void append(BSONObjBuilder& b, StringData name) {
        switch (pick(9)) {
            case 0:
                b.append(name, static_cast<int>(base()));
                return;
            case 1:
                b.append(name, static_cast<long long>(base()) * (pick(2) ? 1 : (1LL << 40)));
                return;
            case 2:
                b.append(name, randomDouble());
                return;
            case 3:
                b.append(name, Decimal128(randomDouble(), Decimal128::kRoundTo34Digits));
                return;
            case 4:
                b.append(name, Decimal128(randomDouble(), Decimal128::kRoundTo15Digits));
                return;
            default:
                b.append(name, randomDecimal());
                return;
        }
    }

private:
    int pick(int n) {
        return static_cast<int>(_rng() % static_cast<unsigned>(n));
    }
    long long base() {
        static const long long kBases[] = {0, 1, -1, 2, 3, 10, 100, -7, 1LL << 53, INT32_MAX};
        return kBases[pick(10)];
    }
    double randomDouble() {
        static const double kSpecial[] = {0.1,
                                          -0.1,
                                          0.0,
                                          -0.0,
                                          1.0,
                                          0.5,
                                          1e300,
                                          -1e300,
                                          5e-324,
                                          -5e-324,
                                          std::numeric_limits<double>::max(),
                                          std::numeric_limits<double>::infinity(),
                                          -std::numeric_limits<double>::infinity(),
                                          std::nan(""),
                                          18446744073709551616.0,
                                          9223372036854775808.0,
                                          0.3,
                                          1.0 / 3};
        if (pick(2))
            return kSpecial[pick(18)];
        double v = std::ldexp(static_cast<double>(_rng() % 1000000), pick(140) - 70);
        return pick(2) ? v : -v;
    }
    Decimal128 randomDecimal() {
        static const char* kSpecial[] = {"0.1",
                                         "-0.1",
                                         "0.10",
                                         "1",
                                         "1.0",
                                         "-1.00",
                                         "0",
                                         "-0",
                                         "1E-6176",
                                         "-1E-6176",
                                         "9.999999999999999999999999999999999E+6144",
                                         "1E+400",
                                         "-1E+400",
                                         "Infinity",
                                         "-Infinity",
                                         "NaN",
                                         "18446744073709551616",
                                         "18446744073709551615.5",
                                         "18446744073709551615.99999999999999",
                                         "9223372036854775807",
                                         "9223372036854775808",
                                         "0.3000000000000000000000000000000001",
                                         "0.2999999999999999999999999999999999",
                                         "4.9E-324",
                                         "5E-324",
                                         "1E-400",
                                         "0.333333333333333333333333333333333",
                                         "2.5",
                                         "2.50000000000000000000000000001",
                                         "1.7976931348623157E+308",
                                         "1.7976931348623158E+308"};
        if (pick(2))
            return dec(kSpecial[pick(31)]);
        // A few digits at a random scale, near powers of two and other doubles.
        long long coeff = static_cast<long long>(_rng() % 100000);
        int exp = pick(60) - 40;
        std::string s = std::to_string(pick(2) ? coeff : -coeff) + "E" + std::to_string(exp);
        return dec(s.c_str());
    }

    std::mt19937 _rng;
};

BSONObj randomKey(RandomNumbers& gen, int fields, bool inArray) {
    BSONObjBuilder b;
    for (int i = 0; i < fields; ++i) {
        if (inArray) {
            BSONArrayBuilder arr(b.subarrayStart(""));
            BSONObjBuilder tmp;
            gen.append(tmp, "x");
            arr.append(tmp.obj().firstElement());
        } else {
            gen.append(b, "");
        }
    }
    return b.obj();
}

int canonicalCompare(const BSONObj& a, const BSONObj& b, Ordering ord) {
    auto ia = a.begin(), ib = b.begin();
    for (int f = 0; ia.more() && ib.more(); ++f) {
        int c = sign(compareElementValues(ia.next(), ib.next()));
        if (c != 0)
            return ord.descending(f) ? -c : c;
    }
    return 0;
}

void checkOrder(unsigned seed, const BSONObj& pattern, bool inArray) {
    RandomNumbers gen(seed);
    Ordering ord = Ordering::make(pattern);
    int fields = pattern.nFields();
    for (int i = 0; i < 30000; ++i) {
        BSONObj a = randomKey(gen, fields, inArray), b = randomKey(gen, fields, inArray);
        Builder ka(ord, a), kb(ord, b);
        ASSERT_EQ(canonicalCompare(a, b, ord), sign(ka.getView().compare(kb.getView())))
            << a << " vs " << b;
        for (const Builder* k : {&ka, &kb}) {
            auto back = key_string::toBsonSafe(k->getView(), ord, k->getTypeBits());
            ASSERT_TRUE(back.isOK()) << back.getStatus();
        }
    }
}

TEST(KeyStringDecimal, MemcmpOrderEqualsExactOrderAcrossNumericTypes) {
    checkOrder(1, BSON("a" << 1), false);
}

TEST(KeyStringDecimal, OrderHoldsInCompoundKeysWithDescendingFields) {
    checkOrder(2, BSON("a" << -1 << "b" << 1 << "c" << -1), false);
}

TEST(KeyStringDecimal, OrderHoldsForNumbersInsideArrays) {
    checkOrder(3, BSON("a" << 1 << "b" << -1), true);
}

TEST(KeyStringDecimal, DecimalJustBelowADoubleSortsBelowIt) {
    Ordering ord;
    Builder d(ord, BSON("" << 0.1)), x(ord, BSON("" << dec("0.1")));
    // NumberDecimal("0.1") < 0.1 exactly (0.1 as a double is 0.1000000000000000055...).
    EXPECT_LT(x.getView(), d.getView());
    Builder nd(ord, BSON("" << -0.1)), nx(ord, BSON("" << dec("-0.1")));
    EXPECT_GT(nx.getView(), nd.getView());
}

TEST(KeyStringDecimal, EqualValuesOfEveryTypeEncodeAlike) {
    Ordering ord;
    Builder i(ord, BSON("" << 1)), d(ord, BSON("" << 1.0)), x(ord, BSON("" << dec("1.0"))),
        y(ord, BSON("" << dec("1.000000000000000000000000000000000")));
    EXPECT_EQ(i.getView(), x.getView());
    EXPECT_EQ(d.getView(), y.getView());
    Builder h(ord, BSON("" << 0.5)), hx(ord, BSON("" << dec("0.50")));
    EXPECT_EQ(h.getView(), hx.getView());
    Builder a(ord, BSON("" << dec("0.1"))), b(ord, BSON("" << dec("0.1000")));
    EXPECT_EQ(a.getView(), b.getView());
    EXPECT_NE(a.getTypeBits(), b.getTypeBits());
}

TEST(KeyStringDecimal, DecodeRestoresTheExactDecimal) {
    Ordering ord = Ordering::make(BSON("a" << -1 << "b" << 1));
    for (const char* s : {"0.1", "-0.1", "1E+400", "-1E-6176", "0.10", "2.5", "-Infinity",
                          "18446744073709551615.5"}) {
        BSONObj k = BSON("" << dec(s) << "" << dec(s));
        Builder ks(ord, k);
        auto back = key_string::toBsonSafe(ks.getView(), ord, ks.getTypeBits());
        ASSERT_TRUE(back.isOK()) << back.getStatus();
        EXPECT_TRUE(back.getValue().binaryEqual(k)) << k << " -> " << back.getValue();
    }
}

TEST(KeyStringDecimal, DoubleAndIntegerEncodingsAreUnchanged) {
    Ordering ord;
    // Positive 1.5: type 33, one integer byte 0x01, fraction marker and bits of 0.5.
    Builder d(ord, BSON("" << 1.5));
    EXPECT_EQ(std::string(d.getView()),
              std::string("\x21\x01\x01\x01\x3f\xe0\x00\x00\x00\x00\x00\x00\x04", 13));
    Builder i(ord, BSON("" << 258));
    EXPECT_EQ(std::string(i.getView()), std::string("\x21\x02\x01\x02\x00\x04", 6));
}

}  // namespace
}  // namespace mongo
