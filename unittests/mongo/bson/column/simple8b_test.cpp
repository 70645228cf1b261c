// Simple-8b packer and decoder against the spec vectors S1-S22 (§A.11.1).
#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "mongo/bson/column/simple8b.h"

namespace mongo {
namespace {

template <typename T>
using Input = std::vector<std::optional<T>>;

void collect(void* ctx, uint64_t w) {
    static_cast<std::vector<uint64_t>*>(ctx)->push_back(w);
}

template <typename T>
std::vector<uint64_t> pack(const Input<T>& in) {
    std::vector<uint64_t> words;
    Simple8bBuilder<T> b(&collect, &words);
    for (const auto& v : in) {
        if (v)
            EXPECT_TRUE(b.append(*v));
        else
            b.skip();
    }
    b.flush();
    return words;
}

std::string hexWords(const std::vector<uint64_t>& words) {
    static const char* d = "0123456789ABCDEF";
    std::string s;
    for (uint64_t w : words) {
        if (!s.empty())
            s += ' ';
        for (int i = 0; i < 8; ++i) {
            unsigned char c = (w >> (8 * i)) & 0xFF;
            s += d[c >> 4];
            s += d[c & 15];
        }
    }
    return s;
}

/** Decodes words back into a value list (RLE expanded). */
template <typename T>
Input<T> unpack(const std::vector<uint64_t>& words) {
    Input<T> out;
    std::optional<T> last = T(0);
    T buf[64];
    for (uint64_t w : words) {
        if ((w & 0xF) == simple8b::kRleSelector) {
            int n = simple8b::valueCount(w);
            for (int i = 0; i < n; ++i)
                out.push_back(last);
            continue;
        }
        int n = simple8b::decodeWord<T>(w, buf);
        EXPECT_GT(n, 0);
        for (int i = 0; i < n; ++i) {
            std::optional<T> v;
            if (buf[i] != simple8b::missingValue<T>())
                v = buf[i];
            out.push_back(v);
            last = v;
        }
    }
    return out;
}

template <typename T>
Input<T> repeat(const Input<T>& seq, int n) {
    Input<T> out;
    for (int i = 0; i < n; ++i)
        out.insert(out.end(), seq.begin(), seq.end());
    return out;
}

template <typename T>
void checkVector(const Input<T>& in, const std::string& hex) {
    auto words = pack<T>(in);
    EXPECT_EQ(hexWords(words), hex);
    // Trailing decoded values past the input can only be missing padding: none expected.
    EXPECT_TRUE(unpack<T>(words) == in);
}

const std::nullopt_t kSkip = std::nullopt;
using U64 = Input<uint64_t>;
using U128 = Input<uint128_t>;

TEST(Simple8b, SpecVectorsS1ToS10) {
    checkVector<uint64_t>(U64{kSkip}, "FEFFFFFFFFFFFFFF");
    checkVector<uint64_t>(U64{1}, "1E00000000000000");
    checkVector<uint64_t>(U64{1, 2, 3}, "1C00000200300000");
    checkVector<uint64_t>(repeat<uint64_t>({1}, 60), "5255555555555555 5255555555555555");
    checkVector<uint64_t>(repeat<uint64_t>({1}, 7), "0801010101010101");
    U64 s6 = repeat<uint64_t>({1}, 57);
    s6.push_back(15);
    checkVector<uint64_t>(s6, "5255555555555555 9324499224499224 078140201008041E");
    checkVector<uint64_t>(U64{3, 3, 3, kSkip, 7}, "3A00033000FF7F00");
    checkVector<uint64_t>(U64{kSkip, kSkip, 3, 8, 13}, "FAFFFF3F0008D000");
    checkVector<uint64_t>(repeat<uint64_t>({kSkip, 64}, 10),
                          "17BFF55BBFF55B3F 17D66FFDD66FFD16 FDFFFFFF03010000");
    U64 s10 = repeat<uint64_t>({0}, 1920);
    auto ones = repeat<uint64_t>({1}, 270);
    s10.insert(s10.end(), ones.begin(), ones.end());
    checkVector<uint64_t>(s10, "FF00000000000000 5255555555555555 1F00000000000000");
}

TEST(Simple8b, SpecVectorsS11ToS19) {
    checkVector<uint64_t>(repeat<uint64_t>({1}, 180),
                          "5255555555555555 0F00000000000000 5255555555555555");
    checkVector<uint64_t>(repeat<uint64_t>({kSkip}, 240),
                          "F1FFFFFFFFFFFFFF 0F00000000000000 F1FFFFFFFFFFFFFF");
    checkVector<uint64_t>(repeat<uint64_t>({kSkip}, 121),
                          "F1FFFFFFFFFFFFFF F1FFFFFFFFFFFFFF FEFFFFFFFFFFFFFF");
    checkVector<uint64_t>(repeat<uint64_t>({0}, 240), "1F00000000000000");
    checkVector<uint64_t>(repeat<uint64_t>({57344}, 8), "27FD7EBFDFEFF7FB");
    checkVector<uint64_t>(repeat<uint64_t>({229376}, 7), "377F7F7F7F7F7F7F");
    checkVector<uint64_t>(U64{11, 11, 12615680, 12615680}, "67B0002CF0817D60");
    U64 s18{7340032};
    auto tail = repeat<uint64_t>({kSkip, 7340032}, 3);
    s18.insert(s18.end(), tail.begin(), tail.end());
    checkVector<uint64_t>(s18, "1875FF75FF75FF75");
    U64 s19 = repeat<uint64_t>({57344}, 4);
    auto big = repeat<uint64_t>({7340032}, 3);
    s19.insert(s19.end(), big.begin(), big.end());
    checkVector<uint64_t>(s19, "18E3E3E3E3757575");
}

TEST(Simple8b, SpecVectors128BitS20ToS22) {
    const uint128_t v = uint128_t(0x70000) << 64;
    checkVector<uint128_t>(repeat<uint128_t>({v}, 6), "88F4E8D1A3478F1E");
    checkVector<uint128_t>(repeat<uint128_t>({v, kSkip}, 3), "88F4FED3FB4FEF3F");
    checkVector<uint128_t>(repeat<uint128_t>({v}, 132),
                           "88F4E8D1A3478F1E 0F00000000000000 88F4E8D1A3478F1E");
}

TEST(Simple8b, EmptyInputWritesNothing) {
    EXPECT_TRUE(pack<uint64_t>(U64{}).empty());
}

TEST(Simple8b, AllOnesValueIsNotStorable) {
    Simple8bBuilder<uint64_t> b;
    EXPECT_FALSE(b.append(~uint64_t(0)));
    Simple8bBuilder<uint128_t> c;
    EXPECT_FALSE(c.append(~uint128_t(0)));
    EXPECT_TRUE(c.append(uint128_t(1) << 100));
}

TEST(Simple8b, InvalidWordsAreRejected) {
    uint64_t out[64];
    EXPECT_EQ(simple8b::decodeWord<uint64_t>(0x0, out), -1);
    EXPECT_EQ(simple8b::decodeWord<uint64_t>(0xA7, out), -1);  // selector 7, x = 10
    EXPECT_EQ(simple8b::decodeWord<uint64_t>(0xE8, out), -1);  // selector 8, x = 14
    EXPECT_EQ(simple8b::valueCount(0xF7), -1);
    EXPECT_EQ(simple8b::valueCount(0xFF), 1920);
}

template <typename T>
void randomRoundTrip(uint32_t seed, int bitsMax) {
    std::mt19937_64 rng(seed);
    for (int iter = 0; iter < 200; ++iter) {
        Input<T> in;
        int n = 1 + rng() % 400;
        int mode = rng() % 4;
        for (int i = 0; i < n; ++i) {
            uint64_t r = rng();
            if (r % 9 == 0) {
                in.push_back(std::nullopt);
                continue;
            }
            if (mode == 0 && !in.empty() && r % 3) {
                in.push_back(in.back());
                continue;
            }
            int bits = 1 + (rng() % bitsMax);
            T v = T(rng());
            if constexpr (sizeof(T) == 16)
                v = (v << 64) | T(rng());
            if (bits < int(sizeof(T) * 8))
                v &= (T(1) << bits) - 1;
            if (mode == 1)
                v <<= (rng() % 20);
            if (v == ~T(0))
                v = 0;
            for (Simple8bBuilder<T> probe; !probe.append(v);)
                v >>= 8;
            in.push_back(v);
        }
        auto words = pack<T>(in);
        auto out = unpack<T>(words);
        ASSERT_TRUE(out == in) << "seed " << seed << " iter " << iter;
    }
}

TEST(Simple8b, RandomSequencesRoundTrip) {
    randomRoundTrip<uint64_t>(1, 64);
    randomRoundTrip<uint64_t>(2, 12);
    randomRoundTrip<uint128_t>(3, 128);
    randomRoundTrip<uint128_t>(4, 20);
}

}  // namespace
}  // namespace mongo

namespace mongo {
namespace {

TEST(Simple8b, ResetBehavesLikeAFreshPacker) {
    std::mt19937_64 rng(9);
    for (int round = 0; round < 200; ++round) {
        Input<uint64_t> first, second;
        for (int i = 0; i < int(rng() % 300); ++i)
            first.push_back(rng() % 5 ? std::optional<uint64_t>(rng() % 8) : std::nullopt);
        for (int i = 0; i < int(rng() % 300); ++i)
            second.push_back(rng() % 5 ? std::optional<uint64_t>(rng() % 1000) : std::nullopt);
        std::vector<uint64_t> words;
        Simple8bBuilder<uint64_t> b(&collect, &words);
        for (const auto& v : first) {
            if (v)
                b.append(*v);
            else
                b.skip();
        }
        b.reset();  // drops whatever was pending, RLE state included
        words.clear();
        for (const auto& v : second) {
            if (v)
                b.append(*v);
            else
                b.skip();
        }
        b.flush();
        ASSERT_EQ(hexWords(words), hexWords(pack(second)));
    }
}

}  // namespace
}  // namespace mongo
