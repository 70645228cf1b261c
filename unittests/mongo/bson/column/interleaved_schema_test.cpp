// InterleavedSchema: the flattened reference must accept exactly the objects that the
// compatibility walk (§A.8.6) accepts, and split them into the same per-leaf values.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/column/bsoncolumnbuilder.h"
#include "mongo/bson/column/interleaved_schema.h"

namespace mongo {
namespace {

using bsoncolumn::InterleavedSchema;
using bsoncolumn::Val;

bool isSubdoc(const BSONElement& e) {
    return e.type() == BSONType::kObject || e.type() == BSONType::kArray;
}

// Independent statement of §A.8.6 that records (leaf value or EOO) per reference leaf.
void missingLeaves(const BSONObj& r, std::vector<BSONElement>* out) {
    for (BSONElement e : r) {
        if (isSubdoc(e))
            missingLeaves(e.Obj(), out);
        else
            out->push_back(BSONElement());
    }
}
bool hasEmpty(const BSONElement& e) {
    if (!isSubdoc(e))
        return false;
    if (e.Obj().isEmpty())
        return true;
    for (BSONElement c : e.Obj()) {
        if (hasEmpty(c))
            return true;
    }
    return false;
}
bool expectedWalk(const BSONObj& r, const BSONObj& o, std::vector<BSONElement>* out) {
    auto oit = o.begin();
    for (BSONElement re : r) {
        const BSONElement oe = oit.more() ? *oit : BSONElement();
        const bool same = !oe.eoo() && oe.fieldNameStringData() == re.fieldNameStringData();
        if (isSubdoc(re)) {
            if (!same) {
                if (hasEmpty(re))
                    return false;
                missingLeaves(re.Obj(), out);
                continue;
            }
            if (oe.type() != re.type() || oe.Obj().isEmpty() != re.Obj().isEmpty() ||
                !expectedWalk(re.Obj(), oe.Obj(), out))
                return false;
            ++oit;
        } else if (same) {
            if (isSubdoc(oe))
                return false;
            out->push_back(oe);
            ++oit;
        } else {
            out->push_back(BSONElement());
        }
    }
    return !oit.more();
}

class ObjGen {
public:
    explicit ObjGen(uint64_t seed) : _rng(seed) {}

    BSONObj object(int depth) {
        BSONObjBuilder b;
        fill(&b, depth);
        return b.obj();
    }
    /** Keeps a random order-preserving subset of `r`'s fields, changing some values. */
    BSONObj subset(const BSONObj& r) {
        BSONObjBuilder b;
        for (BSONElement e : r) {
            if (_rng() % 4 == 0)
                continue;
            if (isSubdoc(e) && _rng() % 3) {
                if (e.type() == BSONType::kObject) {
                    BSONObjBuilder s(b.subobjStart(e.fieldNameStringData()));
                    s.appendElements(subset(e.Obj()));
                    s.done();
                } else {
                    b.append(e);
                }
            } else if (!isSubdoc(e) && _rng() % 2) {
                scalar(&b, e.fieldNameStringData());
            } else {
                b.append(e);
            }
        }
        return b.obj();
    }

private:
    void scalar(BSONObjBuilder* b, StringData name) {
        switch (_rng() % 5) {
            case 0:
                b->append(name, int(_rng() % 100));
                break;
            case 1:
                b->append(name, double(_rng() % 1000) / 10);
                break;
            case 2:
                b->append(name, std::string(_rng() % 20, 'x'));
                break;
            case 3:
                b->append(name, (long long)_rng());
                break;
            default:
                b->appendNull(name);
        }
    }
    void fill(BSONObjBuilder* b, int depth) {
        static const char* names[] = {"a", "b", "c", "dd", "eee"};
        const int n = int(_rng() % 5);
        for (int i = 0; i < n; ++i) {
            const char* name = names[(i + _rng() % 2) % 5];  // sometimes repeated names
            const int k = int(_rng() % 10);
            if (k < 2 && depth > 0) {
                BSONObjBuilder s(b->subobjStart(name));
                fill(&s, depth - 1);
                s.done();
            } else if (k == 2 && depth > 0) {
                b->append(name, BSON_ARRAY(int(_rng() % 3) << "s"));
            } else {
                scalar(b, name);
            }
        }
    }
    std::mt19937_64 _rng;
};

TEST(InterleavedSchema, MatchAgreesWithTheCompatibilityWalk) {
    ObjGen gen(7);
    std::mt19937_64 rng(11);
    int compatibleCount = 0;
    for (int i = 0; i < 3000; ++i) {
        const BSONObj ref = gen.object(3);
        InterleavedSchema schema;
        schema.build(ref);
        for (int j = 0; j < 8; ++j) {
            const BSONObj o = rng() % 3 ? gen.subset(ref) : gen.object(2);
            std::vector<BSONElement> want;
            const bool ok = expectedWalk(ref, o, &want);
            int count = 0;
            ASSERT_EQ(bsoncolumn::compatible(ref, o, &count), ok);
            std::vector<Val> got;
            ASSERT_EQ(schema.match(o, &got), ok) << ref.toString() << " vs " << o.toString();
            if (!ok)
                continue;
            ++compatibleCount;
            ASSERT_EQ(got.size(), want.size());
            ASSERT_EQ(schema.leafCount(), want.size());
            for (size_t l = 0; l < want.size(); ++l) {
                ASSERT_EQ(got[l].type, want[l].type());
                if (want[l].eoo())
                    continue;
                ASSERT_EQ(got[l].data, want[l].value());
                ASSERT_EQ(got[l].len, size_t(want[l].valuesize()));
            }
        }
    }
    EXPECT_GT(compatibleCount, 5000);
}

TEST(InterleavedSchema, ReportsEmptySubdocumentsAndLeafCount) {
    const BSONObj withEmpty = BSON("a" << 1 << "b" << BSON("c" << BSONObj()) << "d" << 2);
    InterleavedSchema s;
    s.build(withEmpty);
    EXPECT_TRUE(s.anyEmpty());
    EXPECT_EQ(s.leafCount(), 2u);
    // A missing subtree that contains an empty document makes the object incompatible.
    std::vector<Val> leaves;
    EXPECT_FALSE(s.match(BSON("a" << 1 << "d" << 2), &leaves));
    EXPECT_TRUE(s.match(BSON("a" << 1 << "b" << BSON("c" << BSONObj())), &leaves));
    ASSERT_EQ(leaves.size(), 2u);
    EXPECT_EQ(leaves[1].type, BSONType::kEOO);

    const BSONObj plain = BSON("a" << 1 << "b"
                                   << BSON("c" << 2 << "e"
                                               << "x"));
    s.build(plain);
    EXPECT_FALSE(s.anyEmpty());
    EXPECT_EQ(s.leafCount(), 3u);
    EXPECT_TRUE(s.match(BSONObj(), &leaves));                                 // everything missing
    EXPECT_FALSE(s.match(BSON("b" << BSON("c" << 2) << "a" << 1), &leaves));  // out of order
    EXPECT_FALSE(s.match(BSON("a" << BSON("x" << 1)), &leaves));              // scalar vs object
    EXPECT_FALSE(s.match(BSON("a" << 1 << "z" << 1), &leaves));               // extra field
}

}  // namespace
}  // namespace mongo
