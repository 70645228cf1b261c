#include "mongo/util/exact_sum.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace mongo {
namespace {

uint64_t bitsOf(double d) {
    uint64_t b;
    std::memcpy(&b, &d, sizeof b);
    return b;
}

double sumOf(const std::vector<double>& v) {
    ExactSum s;
    for (double d : v)
        s.addDouble(d);
    return s.toDouble();
}

// The same bits (NaN compares with NaN, +0 differs from -0).
#define EXPECT_SAME_DOUBLE(a, b) EXPECT_EQ(bitsOf(a), bitsOf(b)) << (a) << " vs " << (b)

TEST(ExactSum, RoundsTheExactSumOnce) {
    // Ten doubles 0.1 sum to 1.0000000000000000555: 1.0 (a running double sum gives
    // 0.9999999999999999).
    EXPECT_SAME_DOUBLE(sumOf(std::vector<double>(10, 0.1)), 1.0);
    EXPECT_SAME_DOUBLE(sumOf({1e100, 1.0, -1e100}), 1.0);
    EXPECT_SAME_DOUBLE(sumOf({1e300, 1e-300, -1e300}), 1e-300);  // the wide form
    EXPECT_SAME_DOUBLE(sumOf({0.1, 0.2, 0.3}), 0.6);
    EXPECT_SAME_DOUBLE(sumOf({}), 0.0);
    EXPECT_SAME_DOUBLE(sumOf({-0.0}), 0.0);
    EXPECT_SAME_DOUBLE(sumOf({1.5, -1.5}), 0.0);
    // No overflow on the way: the result is representable.
    const double big = std::numeric_limits<double>::max();
    EXPECT_SAME_DOUBLE(sumOf({big, big, -big}), big);
    EXPECT_SAME_DOUBLE(sumOf({big, big}), std::numeric_limits<double>::infinity());
    EXPECT_SAME_DOUBLE(sumOf({-big, -big}), -std::numeric_limits<double>::infinity());
}

TEST(ExactSum, WideOnlyForFarApartValues) {
    ExactSum near;
    for (double d : {0.01, 56.25, 99.99, 1e6, -3.0})
        near.addDouble(d);
    near.addInt64(int64_t(1) << 40);
    EXPECT_EQ(near.heapBytes(), 0u);
    ExactSum far;
    far.addDouble(1e300);
    far.addDouble(1e-300);
    EXPECT_GT(far.heapBytes(), 0u);  // counted by the accumulators' memUsage()
}

TEST(ExactSum, TiesGoToEven) {
    const double two53 = 9007199254740992.0;
    EXPECT_SAME_DOUBLE(sumOf({two53, 1.0}), two53);              // tie: even
    EXPECT_SAME_DOUBLE(sumOf({two53, 1.0, 1e-300}), two53 + 2);  // past the tie: up
    EXPECT_SAME_DOUBLE(sumOf({two53 + 2, 1.0}), two53 + 4);      // tie: even is up
    EXPECT_SAME_DOUBLE(sumOf({two53, -1.0}), two53 - 1);         // below 2^53: ulp 1
    EXPECT_SAME_DOUBLE(sumOf({two53, -0.5}), two53);             // tie: even
    EXPECT_SAME_DOUBLE(sumOf({two53, -0.75}), two53 - 1);        // nearer below
    EXPECT_SAME_DOUBLE(sumOf({two53, 1.0, -1e-300}), two53);     // below the tie: down
}

TEST(ExactSum, Subnormals) {
    const double tiny = std::numeric_limits<double>::denorm_min();
    const double minNormal = std::numeric_limits<double>::min();
    EXPECT_SAME_DOUBLE(sumOf({tiny, tiny, tiny}), 3 * tiny);
    EXPECT_SAME_DOUBLE(sumOf({minNormal, -tiny}), minNormal - tiny);
    EXPECT_SAME_DOUBLE(sumOf({-tiny}), -tiny);
    EXPECT_SAME_DOUBLE(sumOf({1.0, tiny, -1.0}), tiny);
}

TEST(ExactSum, InfinitiesAndNaN) {
    const double inf = std::numeric_limits<double>::infinity();
    EXPECT_SAME_DOUBLE(sumOf({inf, 1.0}), inf);
    EXPECT_SAME_DOUBLE(sumOf({1.0, -inf}), -inf);
    EXPECT_TRUE(std::isnan(sumOf({inf, -inf})));
    EXPECT_TRUE(std::isnan(sumOf({1.0, std::nan(""), 2.0})));
    ExactSum s;
    s.addDouble(inf);
    EXPECT_FALSE(s.toInt64());
    EXPECT_FALSE(s.isZero());
}

TEST(ExactSum, IntegersAreExact) {
    ExactSum s;
    s.addInt64(std::numeric_limits<int64_t>::max());
    s.addInt64(std::numeric_limits<int64_t>::max());
    EXPECT_FALSE(s.toInt64());                                 // beyond int64
    EXPECT_SAME_DOUBLE(s.toDouble(), 18446744073709551616.0);  // 2^64 - 2, rounded
    s.addInt64(std::numeric_limits<int64_t>::min());
    s.addInt64(std::numeric_limits<int64_t>::min());
    ASSERT_TRUE(s.toInt64());
    EXPECT_EQ(*s.toInt64(), -2);
    ExactSum m;
    m.addInt64(std::numeric_limits<int64_t>::min());
    ASSERT_TRUE(m.toInt64());
    EXPECT_EQ(*m.toInt64(), std::numeric_limits<int64_t>::min());
    m.addInt64(-1);
    EXPECT_FALSE(m.toInt64());
    ExactSum h;
    h.addDouble(0.5);
    EXPECT_FALSE(h.toInt64());  // a fraction
    h.addDouble(0.5);
    ASSERT_TRUE(h.toInt64());
    EXPECT_EQ(*h.toInt64(), 1);
    ExactSum z;
    EXPECT_TRUE(z.isZero());
    EXPECT_FALSE(z.anyAdded());
    z.addInt64(5);
    z.addDouble(-5.0);
    EXPECT_TRUE(z.isZero());
    EXPECT_EQ(*z.toInt64(), 0);
}

// Doubles with ulp >= 2^-72 and magnitude < 2^30: the exact sum of up to 1000 of them has at
// most 112 significant bits, so binary128 holds it (and every partial sum) exactly; its
// conversion to double is the one correct rounding.
TEST(ExactSum, AgreesWithExactBinary128) {
    std::mt19937_64 rng(20261203);
    std::uniform_int_distribution<int> exp(-20, 29), count(1, 1000);
    std::uniform_real_distribution<double> unit(1.0, 2.0);
    for (int round = 0; round < 300; ++round) {
        const int n = count(rng);
        ExactSum s;
        __float128 q = 0;
        std::vector<double> values;
        for (int i = 0; i < n; ++i) {
            double d = std::ldexp(unit(rng), exp(rng));
            if (rng() & 1)
                d = -d;
            values.push_back(d);
            s.addDouble(d);
            q += d;
        }
        EXPECT_SAME_DOUBLE(s.toDouble(), static_cast<double>(q));
        // Any order, any split: the same bits.
        std::shuffle(values.begin(), values.end(), rng);
        ExactSum a, b;
        for (size_t i = 0; i < values.size(); ++i)
            (i % 3 ? a : b).addDouble(values[i]);
        a.add(b);
        EXPECT_SAME_DOUBLE(a.toDouble(), s.toDouble());
    }
}

TEST(ExactSum, ArraySplitIsExact) {
    // addDoubleArray() adds exactly what addDouble() of each would: the negations cancel it
    // to zero, the result rounds as the exact binary128 sum does. Narrow ranges (a column's
    // run) take the split; wider ones are refused, with nothing added.
    std::mt19937_64 rng(20261204);
    std::uniform_int_distribution<int> count(1, 3000), spread(0, 40), centre(-60, 60);
    std::uniform_real_distribution<double> unit(1.0, 2.0);
    int split = 0, refused = 0;
    for (int round = 0; round < 600; ++round) {
        const int n = count(rng);
        std::vector<double> values;
        const int lo = centre(rng), width = round % 3 == 0 ? 0 : spread(rng);
        std::uniform_int_distribution<int> exp(lo, lo + width);
        __float128 q = 0;
        for (int i = 0; i < n; ++i) {
            double d;
            switch (round % 4) {
                case 0:  // two decimals in [0, 100), as the benchmark's f2 data
                    d = static_cast<double>(rng() % 10000) / 100;
                    break;
                case 1:
                    d = rng() % 7 == 0 ? 0.0 : std::ldexp(unit(rng), exp(rng));
                    break;
                default:
                    d = std::ldexp(unit(rng), exp(rng));
            }
            if (round % 4 != 0 && (rng() & 1))
                d = -d;
            if (round % 5 == 0 && rng() % 50 == 0)
                d = -0.0;
            values.push_back(d);
            q += d;
        }
        ExactSum a;
        if (!a.addDoubleArray(values.data(), values.size())) {
            ++refused;
            EXPECT_FALSE(a.anyAdded());
            continue;
        }
        ++split;
        ExactSum b;
        for (double d : values)
            b.addDouble(d);
        EXPECT_SAME_DOUBLE(a.toDouble(), b.toDouble()) << "round " << round;
        EXPECT_SAME_DOUBLE(a.toDouble(), static_cast<double>(q)) << "round " << round;
        for (double d : values)
            a.addDouble(-d);
        EXPECT_TRUE(a.isZero()) << "round " << round;
    }
    EXPECT_GT(split, 300);
    EXPECT_GT(refused, 10);

    // A bucket's column of two-decimal values takes the split.
    std::vector<double> f2;
    for (int i = 0; i < 360; ++i)
        f2.push_back(static_cast<double>(i * 37 % 10000) / 100);
    ExactSum s;
    EXPECT_TRUE(s.addDoubleArray(f2.data(), f2.size()));
    EXPECT_SAME_DOUBLE(s.toDouble(), sumOf(f2));

    // Infinities, NaN, subnormals and values near the top of the range are refused.
    const double inf = std::numeric_limits<double>::infinity();
    for (double odd : {inf, -inf, std::nan(""), std::numeric_limits<double>::denorm_min(),
                       std::numeric_limits<double>::max() / 4}) {
        for (std::vector<double> v : {std::vector<double>{1.5, odd, 2.25},
                                      std::vector<double>{1.5, 2.5, 3.5, 4.5, 5.5, odd, 1, 2}}) {
            ExactSum r;
            EXPECT_FALSE(r.addDoubleArray(v.data(), v.size())) << odd;
            EXPECT_FALSE(r.anyAdded());
        }
    }
    // NaNs only, zeros only: refused too (the caller's other way adds them).
    for (std::vector<double> v : {std::vector<double>{std::nan(""), std::nan("")},
                                  std::vector<double>{0.0, -0.0, 0.0}, std::vector<double>{}}) {
        ExactSum r;
        EXPECT_FALSE(r.addDoubleArray(v.data(), v.size()));
        EXPECT_FALSE(r.anyAdded());
    }
}

TEST(ExactSum, WideRangesInAnyOrder) {
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<int> exp(-1074, 1000);
    for (int round = 0; round < 50; ++round) {
        std::vector<double> values;
        for (int i = 0; i < 200; ++i)
            values.push_back(std::ldexp((rng() & 1) ? 1.25 : -1.75, exp(rng)));
        const double first = sumOf(values);
        std::shuffle(values.begin(), values.end(), rng);
        EXPECT_SAME_DOUBLE(sumOf(values), first);
        // Adding the negation of each cancels exactly.
        ExactSum s;
        for (double d : values) {
            s.addDouble(d);
            s.addDouble(-d);
        }
        EXPECT_TRUE(s.isZero());
    }
}

TEST(ExactSum, WordsRoundTrip) {
    std::mt19937_64 rng(11);
    std::uniform_int_distribution<int> exp(-1074, 1020);
    for (int round = 0; round < 50; ++round) {
        ExactSum s;
        for (int i = 0; i < 20; ++i) {
            s.addDouble(std::ldexp((rng() & 1) ? 1.5 : -1.0, exp(rng)));
            s.addInt64(static_cast<int64_t>(rng()));
        }
        ExactSum t;
        ASSERT_TRUE(t.addWords(s.toWords()));
        EXPECT_SAME_DOUBLE(t.toDouble(), s.toDouble());
        t.addWords(s.toWords());
        ExactSum twice = s;
        twice.add(s);
        EXPECT_SAME_DOUBLE(t.toDouble(), twice.toDouble());
    }
    ExactSum n;
    n.addDouble(-std::numeric_limits<double>::infinity());
    ExactSum back;
    ASSERT_TRUE(back.addWords(n.toWords()));
    EXPECT_SAME_DOUBLE(back.toDouble(), -std::numeric_limits<double>::infinity());
    // Words toWords() cannot make.
    ExactSum bad;
    EXPECT_FALSE(bad.addWords({}));
    EXPECT_FALSE(bad.addWords({16, 0}));
    EXPECT_FALSE(bad.addWords({0, -1}));
    EXPECT_FALSE(bad.addWords({0, 0, int64_t(1) << 32}));
    EXPECT_FALSE(bad.addWords({0, 67, 1, 1}));
    EXPECT_FALSE(bad.addWords(std::vector<int64_t>(80, 0)));
    EXPECT_TRUE(bad.isZero());
}

TEST(ExactSum, CarriesPastTheirRoom) {
    // More additions than a digit holds without carrying (2^30 of them between carries).
    ExactSum s;
    const int64_t v = 0xFFFFFFFFLL << 20;
    const int64_t n = (int64_t(1) << 30) + 7;
    for (int64_t i = 0; i < n; ++i)
        s.addInt64(v);
    EXPECT_SAME_DOUBLE(s.toDouble(), static_cast<double>(static_cast<__int128>(v) * n));
    for (int64_t i = 0; i < n; ++i)
        s.addInt64(-v);
    ASSERT_TRUE(s.toInt64());
    EXPECT_EQ(*s.toInt64(), 0);
}

}  // namespace
}  // namespace mongo
