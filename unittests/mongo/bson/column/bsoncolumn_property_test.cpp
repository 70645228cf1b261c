// Property tests: random mixed sequences round-trip; re-encoding decoded columns is
// byte-identical; concatenated intermediate() diffs equal finalize(); reopen.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/column/bsoncolumn.h"
#include "mongo/bson/column/bsoncolumnbuilder.h"

namespace mongo {
namespace {

class Gen {
public:
    explicit Gen(uint64_t seed) : _rng(seed) {}

    /** A holder whose first element is the value; empty holder = missing. */
    BSONObj next() {
        const int kind = int(_rng() % 100);
        if (kind < 8)
            return BSONObj();
        if (_rng() % 4 == 0 && !_last.isEmpty())
            return _last;  // repeats exercise zero deltas and RLE
        BSONObjBuilder b;
        const int t = _mode == 0 ? int(_rng() % 12) : _mode;
        switch (t) {
            case 0:
                b.append("", int(_counter += int64_t(_rng() % 7) - 2));
                break;
            case 1:
                b.append("", (long long)(_counter += int64_t(_rng() % 1000)));
                break;
            case 2:
                _dbl += double(int64_t(_rng() % 201) - 100) / 10.0;
                b.append("", std::round(_dbl * 10) / 10);
                break;
            case 3:
                b.append("", Date_t::fromMillisSinceEpoch(1700000000000LL + int64_t(_i++) * 1000 +
                                                          int64_t(_rng() % 5)));
                break;
            case 4:
                b.append("", Timestamp(uint32_t(100 + _i / 3), uint32_t(_i++ % 3)));
                break;
            case 5:
                b.append("", bool(_rng() % 2));
                break;
            case 6: {
                unsigned char o[12] = {0x65, 0, 0, 1, 9, 9, 9, 9, 9, 0, 0, 0};
                o[3] = uint8_t(_i / 4);
                o[11] = uint8_t(_i++);
                if (_rng() % 10 == 0)
                    o[5] = 1;
                b.append("", OID(o));
                break;
            }
            case 7: {
                static const char* words[] = {
                    "a", "temp", "sensor-1", "sensor-2", "", "a very long string over sixteen"};
                b.append("", words[_rng() % 6]);
                break;
            }
            case 8:
                b.append("", NullLabeler());
                break;
            case 9: {
                BSONObjBuilder sub(b.subobjStart(""));
                if (_rng() % 5)
                    sub.append("t", int(_rng() % 50));
                if (_rng() % 5)
                    sub.append("v", double(_rng() % 1000) / 100);
                if (_rng() % 7 == 0)
                    sub.append("extra", "x");
                sub.done();
                break;
            }
            case 10: {
                BSONArrayBuilder arr(b.subarrayStart(""));
                arr.append(int(_rng() % 3));
                if (_rng() % 2)
                    arr.append(1.5);
                arr.done();
                break;
            }
            default: {
                const double specials[] = {0.0, -0.0, std::nan(""), 1e300, -1.0 / 3};
                b.append("", specials[_rng() % 5]);
            }
        }
        _last = b.obj();
        return _last;
    }
    void setMode(int m) {
        _mode = m;
    }

private:
    std::mt19937_64 _rng;
    BSONObj _last;
    int _mode = 0;
    int64_t _counter = 0;
    double _dbl = 20.0;
    int _i = 0;
};

void checkRoundTrip(const std::vector<BSONObj>& in, const std::string& bin) {
    auto dec = BSONColumn(bin.data(), bin.size()).decompress();
    ASSERT_TRUE(dec.isOK()) << dec.getStatus().toString();
    const DecodedColumn& col = dec.getValue();
    ASSERT_EQ(col.size(), in.size());
    BSONColumnBuilder again;
    for (size_t i = 0; i < in.size(); ++i) {
        const BSONElement want = in[i].firstElement();
        ASSERT_EQ(col.missing(i), want.eoo()) << "position " << i;
        if (!want.eoo())
            ASSERT_TRUE(col[i].binaryEqualValues(want))
                << "position " << i << ": " << col[i].toString() << " vs " << want.toString();
        again.append(col[i]);
    }
    ASSERT_EQ(again.finalize(), bin) << "re-encoding a decoded column changed its bytes";
}

TEST(BSONColumnProperty, RandomMixedSequencesRoundTrip) {
    for (int mode = 0; mode < 12; ++mode) {
        for (uint64_t seed = 1; seed <= 25; ++seed) {
            Gen g(seed * 131 + mode);
            g.setMode(mode);
            std::vector<BSONObj> in;
            BSONColumnBuilder b;
            const int n = int(seed * 37 % 700) + 1;
            for (int i = 0; i < n; ++i) {
                in.push_back(g.next());
                b.append(in.back().firstElement());
            }
            ASSERT_NO_FATAL_FAILURE(checkRoundTrip(in, b.finalize()))
                << "mode " << mode << " seed " << seed;
        }
    }
}

TEST(BSONColumnProperty, IntermediateDiffsConcatenateToFinalize) {
    for (uint64_t seed = 1; seed <= 60; ++seed) {
        Gen g(seed);
        g.setMode(int(seed % 12));
        std::mt19937_64 rng(seed);
        BSONColumnBuilder b;
        std::string disk;
        std::vector<BSONObj> keep;
        for (int i = 0; i < 400; ++i) {
            keep.push_back(g.next());
            b.append(keep.back().firstElement());
            if (rng() % 13 == 0) {
                auto d = b.intermediate();
                ASSERT_LE(size_t(d.offset), disk.size());
                disk.resize(size_t(d.offset));
                disk += d.data;
                ASSERT_EQ(disk, b.finalize()) << "seed " << seed << " at " << i;
            }
        }
        auto d = b.intermediate();
        disk.resize(size_t(d.offset));
        disk += d.data;
        ASSERT_EQ(disk, b.finalize());
    }
}

TEST(BSONColumnProperty, ReopenedBuilderContinuesTheSameColumn) {
    for (uint64_t seed = 1; seed <= 20; ++seed) {
        Gen g(seed);
        g.setMode(int(seed % 12));
        BSONColumnBuilder whole, first;
        std::vector<BSONObj> keep;
        for (int i = 0; i < 150; ++i) {
            keep.push_back(g.next());
            whole.append(keep.back().firstElement());
            first.append(keep.back().firstElement());
        }
        std::string stored = first.finalize();
        auto reopened = BSONColumnBuilder::fromBinary(stored.data(), stored.size());
        ASSERT_TRUE(reopened.isOK());
        BSONColumnBuilder b = reopened.getValue();
        for (int i = 0; i < 50; ++i) {
            keep.push_back(g.next());
            whole.append(keep.back().firstElement());
            b.append(keep.back().firstElement());
        }
        auto d = b.intermediate();
        stored.resize(size_t(d.offset));
        stored += d.data;
        ASSERT_EQ(stored, whole.finalize()) << "seed " << seed;
    }
}

TEST(BSONColumnProperty, ReopenFromMalformedBinaryFails) {
    std::string bad("\x10\x00\x01", 3);
    auto r = BSONColumnBuilder::fromBinary(bad.data(), bad.size());
    ASSERT_FALSE(r.isOK());
    EXPECT_EQ(r.getStatus().code(), ErrorCodes::InvalidBSONColumn);
}

}  // namespace
}  // namespace mongo

namespace mongo {
namespace {

TEST(BSONColumnInterleaved, ObjectsAndArraysUseInterleavedSections) {
    std::vector<BSONObj> in;
    for (int i = 0; i < 30; ++i) {
        BSONObjBuilder b;
        {
            BSONObjBuilder sub(b.subobjStart(""));
            sub.append("a", i);
            if (i % 3)
                sub.append("b", double(i) / 10);
            if (i > 20)
                sub.append("c", "late field");  // merged into the reference or a new section
            sub.done();
        }
        in.push_back(b.obj());
    }
    for (int i = 0; i < 10; ++i)
        in.push_back(BSON("" << BSON_ARRAY(i << i * 2)));
    BSONColumnBuilder b;
    for (const auto& o : in)
        b.append(o.firstElement());
    const std::string bin = b.finalize();
    ASSERT_EQ(uint8_t(bin[0]), 0xF1);
    EXPECT_NE(bin.find('\xF2'), std::string::npos);
    checkRoundTrip(in, bin);
}

}  // namespace
}  // namespace mongo
