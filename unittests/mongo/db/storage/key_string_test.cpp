#include "mongo/db/storage/key_string.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "mongo/bson/bson_comparator.h"
#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {
namespace {

using key_string::Builder;

int sign(int v) {
    return v < 0 ? -1 : (v > 0 ? 1 : 0);
}

class RandomValues {
public:
    explicit RandomValues(unsigned seed) : _rng(seed) {}

    void appendValue(BSONObjBuilder& b, StringData name, int depth) {
        switch (pick(depth < 2 ? 22 : 20)) {
            case 0:
                b.append(name, static_cast<int>(smallInt()));
                break;
            case 1:
                b.append(name, static_cast<long long>(bigInt()));
                break;
            case 2:
                b.append(name, randomDouble());
                break;
            case 3:
                b.append(name, Decimal128::fromDouble(static_cast<double>(smallInt()) / 4));
                break;
            case 4:
            case 5:
                b.append(name, StringData(randomString()));
                break;
            case 6:
                b.append(name, BSONSymbol{randomString()});
                break;
            case 7:
                b.append(name, BSONCode{randomString()});
                break;
            case 8: {
                std::string d = randomString();
                b.appendBinData(name, static_cast<int>(d.size()), static_cast<BinDataType>(pick(5)),
                                d.data());
                break;
            }
            case 9: {
                unsigned char raw[12];
                for (auto& c : raw)
                    c = static_cast<unsigned char>(pick(3) * 100);
                b.append(name, OID::from(raw));
                break;
            }
            case 10:
                b.append(name, pick(2) == 0);
                break;
            case 11:
                b.append(name, Date_t::fromMillisSinceEpoch(bigInt()));
                break;
            case 12:
                b.append(name, Timestamp::fromULL(static_cast<unsigned long long>(bigInt())));
                break;
            case 13:
                b.appendNull(name);
                break;
            case 14:
                b.append(name, MINKEY);
                break;
            case 15:
                b.append(name, MAXKEY);
                break;
            case 16:
                b.appendRegex(name, pick(2) ? "a" : "ab", pick(2) ? "i" : "");
                break;
            case 17:
                b.append(name, BSONUndefined);
                break;
            case 18:
            case 19:
                b.append(name, static_cast<double>(smallInt()));
                break;
            case 20: {
                BSONObjBuilder sub(b.subobjStart(name));
                int n = pick(3);
                for (int i = 0; i < n; ++i)
                    appendValue(sub, pick(2) ? "a" : "b", depth + 1);
                break;
            }
            case 21: {
                BSONArrayBuilder sub(b.subarrayStart(name));
                int n = pick(3);
                for (int i = 0; i < n; ++i) {
                    BSONObjBuilder tmp;
                    appendValue(tmp, "x", depth + 1);
                    sub.append(tmp.obj().firstElement());
                }
                break;
            }
        }
    }

    BSONObj key(int nFields) {
        BSONObjBuilder b;
        for (int i = 0; i < nFields; ++i)
            appendValue(b, "", 0);
        return b.obj();
    }

private:
    int pick(int n) {
        return std::uniform_int_distribution<int>(0, n - 1)(_rng);
    }
    long long smallInt() {
        return std::uniform_int_distribution<long long>(-5, 5)(_rng);
    }
    long long bigInt() {
        static const long long kEdges[] = {std::numeric_limits<long long>::min(),
                                           std::numeric_limits<long long>::max(),
                                           -1,
                                           0,
                                           1,
                                           1LL << 53,
                                           (1LL << 53) + 1,
                                           255,
                                           256};
        if (pick(3) == 0)
            return kEdges[pick(9)];
        return static_cast<long long>(_rng());
    }
    double randomDouble() {
        static const double kEdges[] = {0.0,
                                        -0.0,
                                        0.5,
                                        -0.5,
                                        1e300,
                                        -1e300,
                                        std::numeric_limits<double>::infinity(),
                                        -std::numeric_limits<double>::infinity(),
                                        std::numeric_limits<double>::quiet_NaN(),
                                        9223372036854775808.0,
                                        18446744073709551616.0,
                                        1e-300,
                                        3.0};
        if (pick(2) == 0)
            return kEdges[pick(13)];
        return std::uniform_real_distribution<double>(-1e3, 1e3)(_rng);
    }
    std::string randomString() {
        static const char kChars[] = {'\0', 'a', 'b', '\x7f', '\xff', '\x01'};
        std::string s;
        int n = pick(4);
        for (int i = 0; i < n; ++i)
            s.push_back(kChars[pick(6)]);
        return s;
    }

    std::mt19937 _rng;
};

TEST(KeyString, MemcmpOrderEqualsCanonicalOrderForRandomValues) {
    RandomValues gen(12345);
    Ordering ord = Ordering::make(BSON("a" << 1));
    for (int i = 0; i < 20000; ++i) {
        BSONObj a = gen.key(1), b = gen.key(1);
        Builder ka(ord, a), kb(ord, b);
        int expected = sign(compareElementValues(a.firstElement(), b.firstElement()));
        int actual = sign(ka.getView().compare(kb.getView()));
        ASSERT_EQ(expected, actual) << a << " vs " << b;
    }
}

TEST(KeyString, CompoundKeysWithDescendingFieldsKeepOrder) {
    RandomValues gen(777);
    BSONObj pattern = BSON("a" << 1 << "b" << -1 << "c" << 1);
    Ordering ord = Ordering::make(pattern);
    for (int i = 0; i < 20000; ++i) {
        BSONObj a = gen.key(3), b = gen.key(3);
        int expected = 0;
        auto ia = a.begin(), ib = b.begin();
        for (int f = 0; f < 3 && expected == 0; ++f) {
            int c = sign(compareElementValues(ia.next(), ib.next()));
            expected = ord.descending(f) ? -c : c;
        }
        Builder ka(ord, a), kb(ord, b);
        ASSERT_EQ(expected, sign(ka.getView().compare(kb.getView()))) << a << " vs " << b;
    }
}

TEST(KeyString, DecodeRoundTripsExactTypes) {
    RandomValues gen(4242);
    Ordering ord = Ordering::make(BSON("a" << -1 << "b" << 1));
    for (int i = 0; i < 20000; ++i) {
        BSONObj k = gen.key(2);
        Builder ks(ord, k);
        auto back = key_string::toBsonSafe(ks.getView(), ord, ks.getTypeBits());
        ASSERT_TRUE(back.isOK()) << back.getStatus() << " " << k;
        ASSERT_TRUE(back.getValue().binaryEqual(k)) << k << " -> " << back.getValue();
    }
}

TEST(KeyString, EqualNumbersOfDifferentTypesEncodeAlike) {
    Ordering ord;
    Builder i(ord, BSON("" << 1)), l(ord, BSON("" << 1LL)), d(ord, BSON("" << 1.0));
    EXPECT_EQ(i.getView(), l.getView());
    EXPECT_EQ(i.getView(), d.getView());
    EXPECT_NE(i.getTypeBits(), d.getTypeBits());
    BSONObj back = key_string::toBson(d.getView(), ord, d.getTypeBits());
    EXPECT_EQ(back.firstElement().type(), BSONType::kNumberDouble);
}

TEST(KeyString, RecordIdSuffixSortsWithinEqualKeys) {
    Ordering ord;
    Builder a(ord, BSON(""
                        << "x")),
        b(ord, BSON(""
                    << "x")),
        c(ord, BSON(""
                    << "y"));
    a.appendRecordId(RecordId(2));
    b.appendRecordId(RecordId(10));
    c.appendRecordId(RecordId(1));
    EXPECT_LT(a.getView(), b.getView());
    EXPECT_LT(b.getView(), c.getView());
    EXPECT_EQ(key_string::decodeRecordIdAtEnd(b.getView()), RecordId(10));
    EXPECT_EQ(key_string::decodeRecordId(key_string::encodeRecordId(RecordId(-5))), RecordId(-5));
}

TEST(KeyString, PrefixBoundsSurroundEveryExtension) {
    Ordering ord;
    Builder before(ord, BSON("" << 5), key_string::Discriminator::kExcludeBefore);
    Builder after(ord, BSON("" << 5), key_string::Discriminator::kExcludeAfter);
    Builder low(ord, BSON("" << 5 << "" << MINKEY)), high(ord, BSON("" << 5 << "" << MAXKEY));
    Builder next(ord, BSON("" << 5.5 << "" << MINKEY));
    EXPECT_LT(before.getView(), low.getView());
    EXPECT_LT(high.getView(), after.getView());
    EXPECT_LT(after.getView(), next.getView());
}

TEST(KeyString, MalformedBytesAreInvalidBSON) {
    Ordering ord;
    std::string bad = "\x21\x05";  // positive number with a truncated magnitude
    auto sw = key_string::toBsonSafe(bad, ord, "i");
    ASSERT_FALSE(sw.isOK());
    EXPECT_EQ(sw.getStatus().code(), ErrorCodes::InvalidBSON);
}

}  // namespace
}  // namespace mongo
