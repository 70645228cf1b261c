#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "mongo/bson/bson_comparator.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/decimal128.h"

namespace mongo {
namespace {

Decimal128 dec(const char* s) {
    auto sw = Decimal128::parse(s);
    EXPECT_TRUE(sw.isOK()) << s;
    return sw.getValue();
}

TEST(Decimal128, ParseAndPrintKeepTheirTextForm) {
    EXPECT_EQ(dec("1.5").toString(), "1.5");
    EXPECT_EQ(dec("1.50").toString(), "1.50");
    EXPECT_EQ(dec("-0").toString(), "-0");
    EXPECT_EQ(dec("1E+10").toString(), "1E+10");
    EXPECT_EQ(dec("NaN").toString(), "NaN");
    EXPECT_EQ(dec("-Infinity").toString(), "-Infinity");
    EXPECT_EQ(Decimal128::parse("abc").getStatus().code(), ErrorCodes::FailedToParse);
}

TEST(Decimal128, IntegersConvertExactly) {
    EXPECT_EQ(Decimal128(5).toString(), "5");
    EXPECT_EQ(Decimal128(-7L).toString(), "-7");
    EXPECT_EQ(Decimal128(std::numeric_limits<long long>::max()).toString(), "9223372036854775807");
    EXPECT_EQ(Decimal128(std::numeric_limits<long long>::min()).toString(), "-9223372036854775808");
}

TEST(Decimal128, DoublesRoundToFifteenDigits) {
    EXPECT_EQ(Decimal128(0.1).toString(), "0.100000000000000");
    EXPECT_EQ(Decimal128(1.0).toString(), "1.00000000000000");
    EXPECT_EQ(Decimal128(-2.5).toString(), "-2.50000000000000");
    EXPECT_EQ(Decimal128(1e20).toString(), "1.00000000000000E+20");
    EXPECT_EQ(Decimal128(0.0).toString(), "0");
    EXPECT_EQ(Decimal128(0.99999999999999999).toString(), "1.00000000000000");
    EXPECT_TRUE(Decimal128(std::nan("")).isNaN());
    EXPECT_TRUE(Decimal128(-HUGE_VAL).isInfinite());
    EXPECT_TRUE(Decimal128(-HUGE_VAL).isNegative());
    EXPECT_EQ(Decimal128(0.1, Decimal128::kRoundTo34Digits).toString(),
              "0.1000000000000000055511151231257827");
}

TEST(Decimal128, AdditionIsExact) {
    EXPECT_EQ(dec("0.1").add(dec("0.2")).toString(), "0.3");
    EXPECT_TRUE(dec("0.1").add(dec("0.2")).isEqual(dec("0.3")));
    EXPECT_EQ(dec("1.10").subtract(dec("0.1")).toString(), "1.00");
    EXPECT_EQ(dec("1.5").multiply(dec("2")).toString(), "3.0");
    EXPECT_EQ(dec("1").divide(dec("4")).toString(), "0.25");
    EXPECT_EQ(dec("1").divide(dec("3")).toString(), "0.3333333333333333333333333333333333");
}

TEST(Decimal128, SignalsReportDivisionByZeroAndInexact) {
    std::uint32_t flags = 0;
    Decimal128 r = dec("1").divide(dec("0"), &flags);
    EXPECT_TRUE(r.isInfinite());
    EXPECT_TRUE(Decimal128::hasFlag(flags, Decimal128::kDivideByZero));
    flags = 0;
    dec("1").divide(dec("3"), &flags);
    EXPECT_TRUE(Decimal128::hasFlag(flags, Decimal128::kInexact));
}

TEST(Decimal128, ToIntAndLongRoundAndSignalInvalid) {
    EXPECT_EQ(dec("2.5").toInt(), 2);
    EXPECT_EQ(dec("3.5").toInt(), 4);
    EXPECT_EQ(dec("2.5").toInt(Decimal128::kRoundTiesToAway), 3);
    EXPECT_EQ(dec("-2.7").toLong(Decimal128::kRoundTowardZero), -2);
    EXPECT_EQ(dec("-2.2").toLong(Decimal128::kRoundTowardNegative), -3);
    std::uint32_t flags = 0;
    dec("3000000000").toInt(&flags);
    EXPECT_TRUE(Decimal128::hasFlag(flags, Decimal128::kInvalid));
    flags = 0;
    dec("NaN").toLong(&flags);
    EXPECT_TRUE(Decimal128::hasFlag(flags, Decimal128::kInvalid));
    flags = 0;
    EXPECT_EQ(dec("1.5").toLongExact(&flags, Decimal128::kRoundTowardZero), 1);
    EXPECT_TRUE(Decimal128::hasFlag(flags, Decimal128::kInexact));
    flags = 0;
    EXPECT_EQ(dec("9223372036854775807").toLongExact(&flags),
              std::numeric_limits<long long>::max());
    EXPECT_EQ(flags, 0u);
}

TEST(Decimal128, ToDoubleRoundsToNearest) {
    EXPECT_EQ(dec("0.1").toDouble(), 0.1);
    EXPECT_EQ(dec("-1E+400").toDouble(), -HUGE_VAL);
    EXPECT_TRUE(std::isnan(dec("NaN").toDouble()));
}

TEST(Decimal128, RoundingAndQuantize) {
    EXPECT_EQ(dec("2.5").round().toString(), "2");
    EXPECT_EQ(dec("-2.5").floor().toString(), "-3");
    EXPECT_EQ(dec("-2.5").ceil().toString(), "-2");
    EXPECT_EQ(dec("-2.5").trunc().toString(), "-2");
    EXPECT_EQ(dec("1.23456").quantize(dec("0.01")).toString(), "1.23");
    EXPECT_EQ(dec("1.235").quantize(dec("0.01")).toString(), "1.24");
    EXPECT_EQ(dec("1.2500").normalize().toString(), "1.25");
    EXPECT_EQ(dec("100").normalize().toString(), "1E+2");
    EXPECT_EQ(dec("0.000").normalize().toString(), "0");
}

TEST(Decimal128, MathFunctions) {
    EXPECT_EQ(dec("2").power(dec("10")).toString(), "1024");
    EXPECT_EQ(dec("16").squareRoot().toString(), "4");
    EXPECT_EQ(dec("1000").log10().toString(), "3");
    EXPECT_EQ(dec("7").modulo(dec("3")).toString(), "1");
    EXPECT_EQ(dec("-7.5").modulo(dec("2")).toString(), "-1.5");
    EXPECT_EQ(dec("0").exponential().toString(), "1");
    EXPECT_TRUE(dec("1").logarithm().isZero());
    EXPECT_EQ(dec("-3").toAbs().toString(), "3");
    EXPECT_EQ(dec("3").negate().toString(), "-3");
}

TEST(Decimal128, TotalOrderPutsNaNFirstAndEqualsCohorts) {
    EXPECT_EQ(compareDecimals(dec("NaN"), dec("-NaN")), 0);
    EXPECT_LT(compareDecimals(dec("NaN"), dec("-Infinity")), 0);
    EXPECT_EQ(compareDecimals(dec("1.0"), dec("1.00")), 0);
    EXPECT_EQ(compareDecimals(dec("0"), dec("-0")), 0);
    EXPECT_LT(compareDecimals(dec("-1"), dec("0.5")), 0);
}

TEST(Decimal128, ComparesExactlyWithDoubles) {
    EXPECT_NE(compareDecimalToDouble(dec("0.1"), 0.1), 0);
    EXPECT_LT(compareDecimalToDouble(dec("0.1"), 0.1), 0);  // 0.1 (double) is slightly above 1/10
    EXPECT_EQ(compareDecimalToDouble(dec("0.5"), 0.5), 0);
    EXPECT_EQ(compareDecimalToDouble(dec("1E+400"), HUGE_VAL), -1);
    EXPECT_EQ(compareDecimalToDouble(dec("1E+400"), 1e308), 1);
    EXPECT_EQ(compareDecimalToDouble(dec("-1E-400"), 0.0), -1);
    EXPECT_EQ(compareDecimalToDouble(dec("1E-400"), -0.0), 1);
    EXPECT_EQ(compareDecimalToDouble(dec("Infinity"), HUGE_VAL), 0);
    EXPECT_EQ(compareDecimalToDouble(dec("NaN"), std::nan("")), 0);
    EXPECT_LT(compareDecimalToDouble(dec("NaN"), -HUGE_VAL), 0);
    EXPECT_EQ(
        compareDecimalToLong(dec("9223372036854775807.0"), std::numeric_limits<long long>::max()),
        0);
    EXPECT_GT(
        compareDecimalToLong(dec("9223372036854775807.5"), std::numeric_limits<long long>::max()),
        0);
}

TEST(Decimal128, CanonicalComparisonMixesNumberTypes) {
    BSONObj o =
        BSON("d1" << dec("1") << "i1" << 1 << "f1" << 1.0 << "l1" << 1LL << "dp1" << dec("0.1")
                  << "fp1" << 0.1 << "dnan" << dec("NaN") << "fnan" << std::nan("") << "big"
                  << dec("9007199254740993") << "lbig" << 9007199254740993LL);
    EXPECT_EQ(compareElementValues(o["d1"], o["i1"]), 0);
    EXPECT_EQ(compareElementValues(o["f1"], o["d1"]), 0);
    EXPECT_EQ(compareElementValues(o["l1"], o["d1"]), 0);
    EXPECT_NE(compareElementValues(o["dp1"], o["fp1"]), 0);
    EXPECT_GT(compareElementValues(o["fp1"], o["dp1"]), 0);
    EXPECT_EQ(compareElementValues(o["dnan"], o["fnan"]), 0);
    EXPECT_LT(compareElementValues(o["dnan"], o["i1"]), 0);
    EXPECT_EQ(compareElementValues(o["big"], o["lbig"]), 0);
}

TEST(Decimal128, EqualNumbersHashAlikeAcrossTypes) {
    BSONObj o = BSON("a" << dec("1.00") << "b" << 1 << "c" << 1.0 << "d" << dec("0.5") << "e" << 0.5
                         << "f" << dec("0.10") << "g" << dec("0.1") << "h"
                         << dec("9007199254740993") << "i" << 9007199254740993LL << "j"
                         << dec("NaN") << "k" << std::nan("") << "l" << dec("-0.0") << "m" << 0);
    auto h = [&](const char* f) { return hashElementValue(o[f]); };
    EXPECT_EQ(h("a"), h("b"));
    EXPECT_EQ(h("a"), h("c"));
    EXPECT_EQ(h("d"), h("e"));
    EXPECT_EQ(h("f"), h("g"));
    EXPECT_EQ(h("h"), h("i"));
    EXPECT_EQ(h("j"), h("k"));
    EXPECT_EQ(h("l"), h("m"));
}

TEST(Decimal128, ElementNumberLongIsExactForDecimals) {
    BSONObj o =
        BSON("a" << dec("9007199254740993.9") << "b" << dec("1E+30") << "c" << dec("-1E+30"));
    EXPECT_EQ(o["a"].numberLong(), 9007199254740993LL);
    EXPECT_EQ(o["b"].numberLong(), std::numeric_limits<long long>::max());
    EXPECT_EQ(o["c"].numberLong(), std::numeric_limits<long long>::min());
}

}  // namespace
}  // namespace mongo
