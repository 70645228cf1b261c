// bsoncolumn_util.h: the integer forms of strings (§A.5.4) and doubles (§A.6) against plain
// reference formulations.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "mongo/bson/column/bsoncolumn_util.h"

namespace mongo::bsoncolumn {
namespace {

uint128_t referenceStringInt(const std::string& s) {
    uint128_t v = 0;
    for (unsigned char c : s)
        v = (v << 8) | c;
    return v;
}

TEST(BSONColumnUtil, StringIntMatchesByteLoopForEveryLength) {
    std::mt19937_64 rng(3);
    for (int round = 0; round < 2000; ++round) {
        for (size_t len = 0; len <= 16; ++len) {
            std::string s(len, '\0');
            for (auto& c : s)
                c = char(rng());
            if (len > 0 && s[0] == 0)
                s[0] = 1;
            auto v = stringToInt(s.data(), len);
            ASSERT_TRUE(v.has_value()) << len;
            ASSERT_TRUE(*v == referenceStringInt(s)) << len;
        }
    }
    EXPECT_FALSE(stringToInt("\0ab", 3).has_value());
    EXPECT_FALSE(stringToInt("01234567890123456", 17).has_value());
    EXPECT_TRUE(*stringToInt("", 0) == 0);
}

std::optional<int64_t> referenceEncode(double v, int i) {
    if (i == kScaleRaw)
        return doubleBits(v);
    const double p = v * kScaleMultiplier[i];
    if (!(p >= -9007199254740992.0 && p <= 9007199254740992.0))
        return std::nullopt;
    const int64_t r = std::llround(p);
    if (doubleBits(double(r) / kScaleMultiplier[i]) != doubleBits(v))
        return std::nullopt;
    return r;
}

TEST(BSONColumnUtil, EncodeDoubleRoundsLikeLlround) {
    std::mt19937_64 rng(5);
    std::vector<double> values = {0.0,
                                  -0.0,
                                  0.5,
                                  -0.5,
                                  1.5,
                                  -1.5,
                                  2.5,
                                  -2.5,
                                  0.49999999999999994,
                                  -0.49999999999999994,
                                  9007199254740991.0,
                                  -9007199254740992.0,
                                  4503599627370495.5,
                                  -4503599627370495.5,
                                  94.8,
                                  3.12345678,
                                  std::nan(""),
                                  INFINITY,
                                  -INFINITY,
                                  1e300,
                                  5e-324};
    for (int k = 0; k < 200000; ++k) {
        const int decimals = int(rng() % 10);
        const double v = double(int64_t(rng() % 2000000000) - 1000000000) / std::pow(10, decimals);
        values.push_back(v);
        values.push_back(bitsDouble(int64_t(rng())));
    }
    for (double v : values) {
        for (int i = 0; i <= kScaleRaw; ++i) {
            const auto got = encodeDouble(v, i), want = referenceEncode(v, i);
            ASSERT_EQ(got.has_value(), want.has_value()) << v << " scale " << i;
            if (got)
                ASSERT_EQ(*got, *want) << v << " scale " << i;
        }
    }
}

}  // namespace
}  // namespace mongo::bsoncolumn
