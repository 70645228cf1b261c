// libFuzzer target for the DocDiff (`$v: 2`) applier and generator (README.md here).
// First byte even: the rest is raw bytes; a valid BSON object there is applied as a diff
// to fixed pre-images, and when a second BSON object follows the first, the first is the
// pre-image and the second the diff. Applying must succeed with valid BSON or fail with
// a Status (or a DBException); never crash. First byte odd: structured mode: a random
// pre-image and a random edit of it (post-image) are built from the bytes; then
// applyDiff(pre, computeDiff(pre, post)) must equal post byte for byte, and applying the
// diff again to its own result must give post again (diffs are idempotent).
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/update/document_diff.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

void check(bool cond, const char* what) {
    if (!cond) {
        std::fprintf(stderr, "doc_diff_fuzzer: invariant failed: %s\n", what);
        std::abort();
    }
}

const std::vector<BSONObj>& fixedPreImages() {
    static const std::vector<BSONObj> docs = [] {
        std::vector<BSONObj> v;
        v.push_back(BSONObj());
        v.push_back(BSON("_id" << 1 << "a" << 1 << "b"
                               << "x"
                               << "c" << BSON("d" << 2)));
        BSONArrayBuilder arr;
        arr.append(1);
        arr.append(BSON("x" << 1));
        arr.append(BSON_ARRAY(1 << 2));
        char bin[] = {1, 2, 3, 4, 5, 6, 7, 8};
        BSONObjBuilder b;
        b.append("_id", 2);
        b.append("arr", arr.arr());
        b.appendBinData("bin", sizeof(bin), BinDataType::BinDataGeneral, bin);
        b.append("o", BSON("p" << BSON("q" << BSON_ARRAY("s" << 3)) << "r" << 4.5));
        v.push_back(b.obj());
        return v;
    }();
    return docs;
}

/** Applies `diff` to `pre`; the only acceptable outcomes are valid BSON or an error. */
void applyChecked(const BSONObj& pre, const BSONObj& diff) {
    try {
        auto r = doc_diff::applyDiff(pre, diff);
        if (r.isOK()) {
            const BSONObj& out = r.getValue();
            check(validateBSON(out.objdata(), out.objsize()).isOK(), "applied diff is valid BSON");
        }
    } catch (const DBException&) {
    }
}

/** The length of the BSON object at the start of `p` if one is there and valid, else 0. */
std::size_t leadingObject(const char* p, std::size_t size) {
    if (size < 5)
        return 0;
    std::uint32_t len = static_cast<std::uint8_t>(p[0]) | static_cast<std::uint8_t>(p[1]) << 8 |
                        static_cast<std::uint8_t>(p[2]) << 16 |
                        std::uint32_t(static_cast<std::uint8_t>(p[3])) << 24;
    if (len < 5 || len > size || !validateBSON(p, len).isOK())
        return 0;
    return len;
}

void rawMode(const std::uint8_t* data, std::size_t size) {
    const char* p = reinterpret_cast<const char*>(data);
    std::size_t len = leadingObject(p, size);
    if (len == 0)
        return;
    BSONObj first(p);
    for (const auto& pre : fixedPreImages())
        applyChecked(pre, first);
    if (leadingObject(p + len, size - len) > 0)
        applyChecked(first, BSONObj(p + len));
}

// --- structured mode --------------------------------------------------------------------

constexpr int kMaxDepth = 4;

std::string fieldName(FuzzedDataProvider& fdp) {
    static const char* kNames[] = {"a", "b", "c", "d", "i", "u", "s", "l", "_id", "sa", "x.y", ""};
    return kNames[fdp.ConsumeIntegralInRange<int>(0, 11)];
}

void appendValue(BSONObjBuilder& b, StringData name, FuzzedDataProvider& fdp, int depth);

BSONObj randomObject(FuzzedDataProvider& fdp, int depth, bool asArray) {
    BSONObjBuilder b;
    int n = fdp.ConsumeIntegralInRange<int>(0, 5);
    std::vector<std::string> used;
    for (int i = 0; i < n && fdp.remaining_bytes() > 0; ++i) {
        std::string name = asArray ? std::to_string(i) : fieldName(fdp);
        bool dup = false;
        for (const auto& u : used)
            dup = dup || u == name;
        if (dup)
            continue;
        used.push_back(name);
        appendValue(b, name, fdp, depth + 1);
    }
    return b.obj();
}

void appendBin(BSONObjBuilder& b, StringData name, const std::string& bytes) {
    b.appendBinData(name, static_cast<int>(bytes.size()), BinDataType::BinDataGeneral,
                    bytes.data());
}

void appendValue(BSONObjBuilder& b, StringData name, FuzzedDataProvider& fdp, int depth) {
    switch (fdp.ConsumeIntegralInRange<int>(0, depth >= kMaxDepth ? 6 : 8)) {
        case 0:
            b.append(name, fdp.ConsumeIntegral<int>());
            break;
        case 1:
            b.append(name, fdp.ConsumeIntegral<long long>());
            break;
        case 2:
            b.append(name, fdp.ConsumeFloatingPoint<double>());
            break;
        case 3:
            b.append(name, fdp.ConsumeRandomLengthString(16));
            break;
        case 4:
            b.appendNull(name);
            break;
        case 5:
            b.append(name, fdp.ConsumeBool());
            break;
        case 6:
            appendBin(b, name, fdp.ConsumeRandomLengthString(16));
            break;
        case 7:
            b.append(name, randomObject(fdp, depth, false));
            break;
        case 8:
            b.appendArray(name, randomObject(fdp, depth, true));
            break;
    }
}

/** A random edit of `pre`: fields kept, dropped, changed, recursed into, or added. */
BSONObj mutate(const BSONObj& pre, FuzzedDataProvider& fdp, int depth, bool isArray) {
    BSONObjBuilder b;
    std::vector<std::string> used;
    int idx = 0;
    auto nextName = [&](const std::string& want) { return isArray ? std::to_string(idx++) : want; };
    for (BSONElement e : pre) {
        std::string name = e.fieldName();
        switch (fdp.ConsumeIntegralInRange<int>(0, 4)) {
            case 0:  // keep
                b.appendAs(e, nextName(name));
                break;
            case 1:  // drop
                if (!isArray)
                    continue;
                return b.obj();  // arrays: truncate here
            case 2:              // replace
                appendValue(b, nextName(name), fdp, depth + 1);
                break;
            case 3:  // recurse or append to BinData
                if (e.type() == BSONType::kObject || e.type() == BSONType::kArray) {
                    bool arr = e.type() == BSONType::kArray;
                    BSONObj sub = mutate(e.Obj(), fdp, depth + 1, arr);
                    std::string n = nextName(name);
                    if (arr)
                        b.appendArray(n, sub);
                    else
                        b.append(n, sub);
                } else if (e.type() == BSONType::kBinData) {
                    int len = 0;
                    const char* d = e.binData(len);
                    appendBin(b, nextName(name),
                              std::string(d, len) + fdp.ConsumeRandomLengthString(8));
                } else {
                    b.appendAs(e, nextName(name));
                }
                break;
            case 4:  // keep, then insert a new field after it
                b.appendAs(e, nextName(name));
                if (!isArray) {
                    std::string n = fieldName(fdp);
                    bool dup = n == name;
                    for (BSONElement o : pre)
                        dup = dup || n == o.fieldName();
                    for (const auto& u : used)
                        dup = dup || u == n;
                    if (!dup) {
                        used.push_back(n);
                        appendValue(b, n, fdp, depth + 1);
                    }
                }
                break;
        }
    }
    int extra = fdp.ConsumeIntegralInRange<int>(0, 2);
    for (int i = 0; i < extra && isArray; ++i)
        appendValue(b, nextName(""), fdp, depth + 1);
    return b.obj();
}

void structuredMode(const std::uint8_t* data, std::size_t size) {
    FuzzedDataProvider fdp(data, size);
    BSONObj pre = randomObject(fdp, 0, false);
    BSONObj post = mutate(pre, fdp, 0, false);
    BSONObj diff = doc_diff::computeDiff(pre, post);
    auto applied = doc_diff::applyDiff(pre, diff);
    if (!applied.isOK())
        std::fprintf(stderr, "pre %s\npost %s\ndiff %s\nerror %s\n", pre.toString().c_str(),
                     post.toString().c_str(), diff.toString().c_str(),
                     applied.getStatus().toString().c_str());
    check(applied.isOK(), "a computed diff applies");
    if (!applied.getValue().binaryEqual(post))
        std::fprintf(stderr, "pre %s\npost %s\ndiff %s\ngot %s\n", pre.toString().c_str(),
                     post.toString().c_str(), diff.toString().c_str(),
                     applied.getValue().toString().c_str());
    check(applied.getValue().binaryEqual(post), "applyDiff(pre, computeDiff(pre, post)) == post");
    auto twice = doc_diff::applyDiff(applied.getValue(), diff);
    check(twice.isOK() && twice.getValue().binaryEqual(post), "applying a diff twice is a no-op");
}

}  // namespace
}  // namespace mongo

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1 || size > 1 << 16)
        return 0;
    if (data[0] % 2 == 0)
        mongo::rawMode(data + 1, size - 1);
    else
        mongo::structuredMode(data + 1, size - 1);
    return 0;
}
