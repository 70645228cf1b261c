#include <gtest/gtest.h>

#include <random>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/db/update/document_diff.h"
#include "mongo/db/update/update_driver.h"

namespace mongo {
namespace {

using doc_diff::applyDiff;
using doc_diff::computeDiff;

std::string applyStr(StringData pre, StringData diff) {
    auto r = applyDiff(fromjson(pre), fromjson(diff));
    EXPECT_TRUE(r.isOK()) << r.getStatus();
    return r.isOK() ? r.getValue().toString() : "<error>";
}

int applyCode(StringData pre, StringData diff) {
    auto r = applyDiff(fromjson(pre), fromjson(diff));
    return r.isOK() ? 0 : static_cast<int>(r.getStatus().code());
}

TEST(DocDiffApplier, SpecExampleOnePlainDocumentDiff) {
    const char* pre = R"({"_id": 1, "a": 1, "b": 2, "c": {"d": 1, "e": 2}})";
    const char* diff =
        R"({"d": {"b": false}, "u": {"a": 10}, "i": {"f": 5}, "sc": {"u": {"e": 3}}})";
    EXPECT_EQ(applyStr(pre, diff), "{ _id: 1, a: 10, c: { d: 1, e: 3 }, f: 5 }");
    // Applying again gives the same document.
    auto once = applyDiff(fromjson(pre), fromjson(diff));
    auto twice = applyDiff(once.getValue(), fromjson(diff));
    EXPECT_TRUE(once.getValue().binaryEqual(twice.getValue()));
}

TEST(DocDiffApplier, SpecExampleTwoArrayDiffs) {
    const char* pre = R"({"_id": 2, "arr": [1, {"x": 1}, 3, 4, 5], "tag": "t"})";
    EXPECT_EQ(applyStr(pre, R"({"sarr": {"a": true, "l": 4, "s1": {"u": {"x": 2}}, "u3": "z"}})"),
              "{ _id: 2, arr: [ 1, { x: 2 }, 3, \"z\" ], tag: \"t\" }");
    EXPECT_EQ(applyStr(pre, R"({"sarr": {"a": true, "u6": 9}})"),
              "{ _id: 2, arr: [ 1, { x: 1 }, 3, 4, 5, null, 9 ], tag: \"t\" }");
}

TEST(DocDiffApplier, UpdateOfMissingFieldAppendsAndTypeMismatchGivesNull) {
    EXPECT_EQ(applyStr(R"({"a": 1})", R"({"u": {"b": 2}})"), "{ a: 1, b: 2 }");
    EXPECT_EQ(applyStr(R"({"a": 1})", R"({"sa": {"u": {"x": 1}}})"), "{ a: null }");
    EXPECT_EQ(applyStr(R"({"a": 1})", R"({"sz": {"u": {"x": 1}}})"), "{ a: 1 }");
    EXPECT_EQ(applyStr(R"({"a": 1, "b": 2})", R"({"i": {"a": 3}})"), "{ b: 2, a: 3 }");
}

BSONObj binDoc(StringData name, const std::vector<unsigned char>& bytes, BinDataType t) {
    BSONObjBuilder b;
    b.appendBinData(name, static_cast<int>(bytes.size()), t, bytes.data());
    return b.obj();
}

TEST(DocDiffApplier, SpecExampleThreeBinarySectionAppendsColumnBytes) {
    std::vector<unsigned char> t = {0x09, 0x00, 0x00, 0x68, 0xE5, 0xCF, 0x8B, 0x01, 0x00, 0x00,
                                    0x80, 0x0E, 0x7D, 0,    0,    0,    0,    0,    0,    0x00};
    std::vector<unsigned char> tail = {0x80, 0x0D, 0x7D, 0, 0, 0, 0, 0, 0, 0x00};
    std::vector<unsigned char> expected(t.begin(), t.begin() + 10);
    expected.insert(expected.end(), tail.begin(), tail.end());

    BSONObj pre = BSON("control" << BSON("count" << 2) << "data" << binDoc("t", t, Column));
    BSONObjBuilder db;
    {
        BSONObjBuilder sdata(db.subobjStart("sdata"));
        BSONObjBuilder b(sdata.subobjStart("b"));
        BSONObjBuilder entry(b.subobjStart("t"));
        entry.append("o", 10);
        entry.appendBinData("d", static_cast<int>(tail.size()), BinDataGeneral, tail.data());
    }
    BSONObj diff =
        BSON("scontrol" << BSON("u" << BSON("count" << 3)) << "sdata" << db.obj()["sdata"].Obj());
    auto r = applyDiff(pre, diff);
    ASSERT_TRUE(r.isOK()) << r.getStatus();
    BSONObj want = BSON("control" << BSON("count" << 3) << "data" << binDoc("t", expected, Column));
    EXPECT_TRUE(r.getValue().binaryEqual(want)) << r.getValue();
}

TEST(DocDiffApplier, MalformedDiffsAreRejected) {
    EXPECT_EQ(applyCode(R"({"a": 1})", R"({"u": {"a": 1}, "d": {"b": false}})"),
              ErrorCodes::FailedToParse);
    EXPECT_EQ(applyCode(R"({"a": 1})", R"({"x": {}})"), ErrorCodes::FailedToParse);
    EXPECT_EQ(applyCode(R"({"a": 1})", R"({"u": 1})"), ErrorCodes::FailedToParse);
    EXPECT_EQ(applyCode(R"({"a": 1})", R"({"u": {"a": 1}, "i": {"a": 2}})"), 4728000);
    EXPECT_EQ(applyCode(R"({"a": 1})", R"({"sa": {"u": {"x": 1}}, "u": {"b": 1}})"),
              ErrorCodes::FailedToParse);
    EXPECT_EQ(
        applyCode(R"({"a": 1})",
                  R"({"b": {"a": {"o": 0, "d": {"$binary": {"base64": "", "subType": "00"}}}}})"),
        ErrorCodes::BadValue);
}

// Regressions from doc_diff_fuzzer: array diffs that would pad an array past any size a
// document can have fail fast with BSONObjectTooLarge instead of allocating gigabytes.
TEST(DocDiffApplier, HugeArrayLengthIsBSONObjectTooLarge) {
    EXPECT_EQ(applyCode(R"({"arr": [1]})", R"({"sarr": {"a": true, "l": 1000000000}})"),
              ErrorCodes::BSONObjectTooLarge);
    EXPECT_EQ(applyCode(R"({"arr": [1]})", R"({"sarr": {"a": true, "l": 1e300}})"),
              ErrorCodes::BSONObjectTooLarge);
}

TEST(DocDiffApplier, HugeArrayIndexIsBSONObjectTooLarge) {
    // An index past the range of long long used to escape as std::out_of_range.
    EXPECT_EQ(
        applyCode(R"({"arr": [1]})", R"({"sarr": {"a": true, "u99999999999999999999999": 1}})"),
        ErrorCodes::BSONObjectTooLarge);
    EXPECT_EQ(applyCode(R"({"arr": [1]})", R"({"sarr": {"a": true, "s900000000": {}}})"),
              ErrorCodes::BSONObjectTooLarge);
}

TEST(DocDiffApplier, NegativeArrayLengthIsFailedToParse) {
    EXPECT_EQ(applyCode(R"({"arr": [1, 2]})", R"({"sarr": {"a": true, "l": -1}})"),
              ErrorCodes::FailedToParse);
}

TEST(DocDiffApplier, PaddedArraysTogetherPastTheSizeLimitAreBSONObjectTooLarge) {
    // Each array alone fits (1,000,000 nulls, about 8 MB); the three together do not.
    const char* pre = R"({"x": [], "y": [], "z": []})";
    const char* diff = R"({"sx": {"a": true, "l": 1000000}, "sy": {"a": true, "l": 1000000},
                          "sz": {"a": true, "l": 1000000}})";
    EXPECT_EQ(applyCode(pre, diff), ErrorCodes::BSONObjectTooLarge);
    auto one = applyDiff(fromjson(pre), fromjson(R"({"sx": {"a": true, "l": 1000000}})"));
    ASSERT_TRUE(one.isOK());
    EXPECT_EQ(one.getValue()["x"].Obj().nFields(), 1000000);
}

TEST(DocDiffGenerator, DiffIsEmptyForIdenticalDocuments) {
    BSONObj d = fromjson(R"({"a": 1, "b": [1, 2]})");
    EXPECT_TRUE(computeDiff(d, d).isEmpty());
}

TEST(DocDiffGenerator, ProducesSectionsInOrder) {
    BSONObj pre = fromjson(
        R"({"_id": 1, "a": 1, "b": 2, "big": {"x": "aaaaaaaaaaaaaaaaaaaaaaaaa", "y": 1}})");
    BSONObj post = fromjson(
        R"({"_id": 1, "a": 10, "big": {"x": "aaaaaaaaaaaaaaaaaaaaaaaaa", "y": 2}, "f": 5})");
    BSONObj diff = computeDiff(pre, post);
    EXPECT_EQ(diff.toString(),
              "{ d: { b: false }, u: { a: 10 }, i: { f: 5 }, sbig: { u: { y: 2 } } }");
}

// ---- property test ----

class RandomDocs {
public:
    explicit RandomDocs(unsigned seed) : _rng(seed) {}

    BSONObj doc(int depth) {
        BSONObjBuilder b;
        int n = pick(0, 6);
        for (int i = 0; i < n; ++i)
            value(&b, "f" + std::to_string(pick(0, 9)), depth);
        return dedupe(b.obj());
    }

    /** A random edit of `pre`. */
    BSONObj mutate(const BSONObj& pre, int depth) {
        BSONObjBuilder b;
        for (BSONElement e : pre) {
            int r = pick(0, 9);
            if (r == 0)
                continue;  // delete
            if (r == 1) {
                value(&b, e.fieldNameStringData(), depth);  // replace
            } else if (r == 2 && e.type() == BSONType::kObject && depth > 0) {
                b.append(e.fieldNameStringData(), mutate(e.Obj(), depth - 1));
            } else if (r == 3 && e.type() == BSONType::kArray && depth > 0) {
                BSONArrayBuilder a(b.subarrayStart(e.fieldNameStringData()));
                int keep = pick(0, e.Obj().nFields());
                int i = 0;
                for (BSONElement x : e.Obj()) {
                    if (i++ >= keep)
                        break;
                    if (x.type() == BSONType::kObject && pick(0, 2) == 0)
                        a.append(mutate(x.Obj(), depth - 1));
                    else
                        a.append(x);
                }
                for (int k = pick(0, 2); k > 0; --k)
                    a.append(pick(0, 100));
            } else {
                b.append(e);
            }
        }
        for (int k = pick(0, 2); k > 0; --k)
            value(&b, "n" + std::to_string(pick(0, 9)), depth);
        return dedupe(b.obj());
    }

private:
    int pick(int lo, int hi) {
        return std::uniform_int_distribution<int>(lo, hi)(_rng);
    }

    void value(BSONObjBuilder* b, StringData name, int depth) {
        int t = pick(0, depth > 0 ? 6 : 4);
        switch (t) {
            case 0:
                b->append(name, pick(-5, 5));
                break;
            case 1:
                b->append(name, std::string(pick(0, 20), 'x'));
                break;
            case 2:
                b->append(name, pick(0, 1) == 1);
                break;
            case 3:
                b->appendNull(name);
                break;
            case 4:
                b->append(name, static_cast<double>(pick(0, 9)) / 4);
                break;
            case 5:
                b->append(name, doc(depth - 1));
                break;
            default: {
                BSONArrayBuilder a(b->subarrayStart(name));
                for (int i = pick(0, 4); i > 0; --i) {
                    if (pick(0, 2) == 0)
                        a.append(doc(depth - 1));
                    else
                        a.append(pick(0, 9));
                }
            }
        }
    }

    static BSONObj dedupe(const BSONObj& o) {
        BSONObjBuilder b;
        std::set<std::string> seen;
        for (BSONElement e : o)
            if (seen.insert(std::string(e.fieldNameStringData())).second)
                b.append(e);
        return b.obj();
    }

    std::mt19937 _rng;
};

TEST(DocDiffProperty, ApplyOfComputedDiffReproducesPostAndIsIdempotent) {
    RandomDocs gen(12345);
    for (int iter = 0; iter < 3000; ++iter) {
        BSONObj pre = gen.doc(3);
        BSONObj post = gen.mutate(pre, 3);
        BSONObj diff = computeDiff(pre, post);
        auto r = applyDiff(pre, diff);
        ASSERT_TRUE(r.isOK()) << r.getStatus() << "\npre " << pre << "\npost " << post << "\ndiff "
                              << diff;
        ASSERT_TRUE(r.getValue().binaryEqual(post))
            << "pre " << pre << "\npost " << post << "\ndiff " << diff << "\ngot " << r.getValue();
        if (!diff.isEmpty()) {
            auto again = applyDiff(r.getValue(), diff);
            ASSERT_TRUE(again.isOK());
            ASSERT_TRUE(again.getValue().binaryEqual(post)) << "not idempotent: " << diff;
        }
    }
}

TEST(DocDiffProperty, SmallChangeGivesDiffSmallerThanReplacement) {
    RandomDocs gen(777);
    for (int iter = 0; iter < 500; ++iter) {
        BSONObj base = gen.doc(3);
        BSONObjBuilder b;
        b.append("_id", iter);
        b.append("payload", std::string(200, 'p'));
        b.append("nested", base);
        b.append("counter", 1);
        BSONObj pre = b.obj();
        auto drv =
            UpdateDriver::parse(fromjson(R"({"$inc": {"counter": 1}, "$set": {"nested.zz": 1}})"));
        ASSERT_TRUE(drv.isOK());
        UpdateApplyParams p;
        p.computeDiff = true;
        auto r = drv.getValue().apply(pre, p);
        ASSERT_TRUE(r.isOK()) << r.getStatus();
        BSONObj diff = r.getValue().diff["diff"].Obj();
        EXPECT_LT(diff.objsize(), r.getValue().newDoc.objsize());
        auto back = applyDiff(pre, diff);
        ASSERT_TRUE(back.isOK());
        EXPECT_TRUE(back.getValue().binaryEqual(r.getValue().newDoc));
    }
}

}  // namespace
}  // namespace mongo
