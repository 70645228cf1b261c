#include "mongo/db/update/document_diff.h"

#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/matcher/path.h"

namespace mongo {
namespace doc_diff {

namespace {

constexpr StringData kDelete = "d";
constexpr StringData kUpdate = "u";
constexpr StringData kInsert = "i";
constexpr StringData kBinary = "b";
constexpr char kSubDiff = 's';
constexpr StringData kArrayMarker = "a";
constexpr StringData kArrayLength = "l";

bool sameElementValue(const BSONElement& a, const BSONElement& b) {
    return a.type() == b.type() && a.binaryEqualValues(b);
}

BSONObj diffArrays(const BSONObj& pre, const BSONObj& post);

/** The smaller of a nested diff and the new value; returns the nested diff or an empty obj. */
BSONObj nestedDiffIfSmaller(const BSONElement& before, const BSONElement& after) {
    if (before.type() != after.type())
        return BSONObj();
    BSONObj nested;
    if (after.type() == BSONType::kObject)
        nested = computeDiff(before.Obj(), after.Obj());
    else if (after.type() == BSONType::kArray)
        nested = diffArrays(before.Obj(), after.Obj());
    else
        return BSONObj();
    // The nested diff costs its size plus one byte ('s' prefix); the update costs the value.
    if (nested.isEmpty() || nested.objsize() + 1 >= after.valuesize())
        return BSONObj();
    return nested;
}

BSONObj diffArrays(const BSONObj& pre, const BSONObj& post) {
    std::vector<BSONElement> a;
    for (BSONElement e : pre)
        a.push_back(e);
    std::vector<BSONElement> b;
    for (BSONElement e : post)
        b.push_back(e);
    BSONObjBuilder out;
    out.append(kArrayMarker, true);
    if (a.size() != b.size())
        out.append(kArrayLength, static_cast<int>(b.size()));
    bool any = a.size() != b.size();
    for (size_t i = 0; i < b.size(); ++i) {
        if (i < a.size() && sameElementValue(a[i], b[i]))
            continue;
        any = true;
        BSONObj nested = i < a.size() ? nestedDiffIfSmaller(a[i], b[i]) : BSONObj();
        if (!nested.isEmpty())
            out.append(std::string(1, kSubDiff) + std::to_string(i), nested);
        else
            out.appendAs(b[i], std::string(1, 'u') + std::to_string(i));
    }
    if (!any)
        return BSONObj();
    return out.obj();
}

}  // namespace

namespace {

/**
 * The common case of computeDiff: `post` starts with exactly `pre`'s field names in order
 * (values may differ) and may add fields after them. Same output as the general path: no
 * deletions, an update or sub-diff per changed field, the added fields as inserts.
 */
std::optional<BSONObj> computeDiffSamePrefix(const BSONObj& pre, const BSONObj& post) {
    auto pi = pre.begin(), qi = post.begin();
    std::optional<BSONObjBuilder> upd, ins;
    std::vector<std::pair<std::string, BSONObj>> subs;
    while (pi.more()) {
        if (!qi.more())
            return std::nullopt;
        BSONElement before = pi.next(), e = qi.next();
        if (before.fieldNameStringData() != e.fieldNameStringData())
            return std::nullopt;
        if (sameElementValue(before, e))
            continue;
        BSONObj nested = nestedDiffIfSmaller(before, e);
        if (!nested.isEmpty()) {
            subs.emplace_back(std::string(1, kSubDiff) + std::string(e.fieldNameStringData()),
                              nested);
        } else {
            if (!upd)
                upd.emplace();
            upd->append(e);
        }
    }
    while (qi.more()) {
        BSONElement e = qi.next();
        if (pre.hasField(e.fieldNameStringData()))
            return std::nullopt;  // a duplicate name: let the general path decide
        if (!ins)
            ins.emplace();
        ins->append(e);
    }
    BSONObjBuilder out;
    if (upd)
        out.append(kUpdate, upd->obj());
    if (ins)
        out.append(kInsert, ins->obj());
    for (const auto& [n, d] : subs)
        out.append(n, d);
    return out.obj();
}

}  // namespace

BSONObj computeDiff(const BSONObj& pre, const BSONObj& post) {
    if (auto fast = computeDiffSamePrefix(pre, post))
        return *fast;
    std::map<StringData, BSONElement> preFields;
    for (BSONElement e : pre)
        preFields.emplace(e.fieldNameStringData(), e);
    std::map<StringData, BSONElement> postFields;
    for (BSONElement e : post)
        postFields.emplace(e.fieldNameStringData(), e);

    BSONObjBuilder del, upd, ins;
    std::vector<std::pair<std::string, BSONObj>> subs;
    bool anyDel = false, anyUpd = false, anyIns = false;
    for (BSONElement e : pre) {
        if (!postFields.count(e.fieldNameStringData())) {
            del.append(e.fieldNameStringData(), false);
            anyDel = true;
        }
    }
    // Fields kept from pre must appear in post in pre order; from the first field that
    // breaks that order (or is new) on, everything is (re)inserted at the end.
    std::vector<BSONElement> kept;
    for (BSONElement e : pre)
        if (postFields.count(e.fieldNameStringData()))
            kept.push_back(e);
    size_t j = 0;
    bool appending = false;
    for (BSONElement e : post) {
        StringData name = e.fieldNameStringData();
        if (!appending && j < kept.size() && kept[j].fieldNameStringData() == name) {
            ++j;
            BSONElement before = kept[j - 1];
            if (sameElementValue(before, e))
                continue;
            BSONObj nested = nestedDiffIfSmaller(before, e);
            if (!nested.isEmpty()) {
                subs.emplace_back(std::string(1, kSubDiff) + std::string(name), nested);
            } else {
                upd.append(e);
                anyUpd = true;
            }
            continue;
        }
        appending = true;
        ins.append(e);
        anyIns = true;
    }
    BSONObjBuilder out;
    if (anyDel)
        out.append(kDelete, del.obj());
    if (anyUpd)
        out.append(kUpdate, upd.obj());
    if (anyIns)
        out.append(kInsert, ins.obj());
    for (const auto& [n, d] : subs)
        out.append(n, d);
    return out.obj();
}

BSONObj makeUpdateOplogObject(const BSONObj& diff) {
    BSONObjBuilder b;
    b.append("$v", 2);
    b.append("diff", diff);
    return b.obj();
}

// ---------------------------------------------------------------------------------
// Applier

namespace {

Status malformed(std::string msg) {
    return Status(ErrorCodes::FailedToParse, std::move(msg));
}

struct Mod {
    enum class Kind { kDelete, kUpdate, kInsert, kBinary, kSubDiff } kind;
    BSONElement value;  // update/insert value, binary spec, or sub-diff
    bool done = false;
};

Status applyDocDiff(const BSONObj& pre, const BSONObj& diff, BSONObjBuilder* out);
Status applyArrayDiff(const BSONObj& pre, const BSONObj& diff, BSONArrayBuilder* out,
                      const BufBuilder& buf);

bool isArrayDiff(const BSONObj& d) {
    return !d.isEmpty() && d.firstElementFieldNameStringData() == kArrayMarker;
}

/** Applies a sub-diff to `e`, appending the result (or null on a type mismatch). */
template <typename Builder, typename AppendNull>
Status applySub(const BSONElement& e, const BSONObj& sub, Builder* sb, AppendNull appendNull,
                StringData name) {
    bool arr = isArrayDiff(sub);
    if (!arr && e.type() == BSONType::kObject) {
        // Built in place in the parent's buffer (no copy of the sub-document).
        BSONObjBuilder nb(sb->subobjStart(name));
        Status s = applyDocDiff(e.Obj(), sub, &nb);
        if (!s.isOK())
            return s;
        nb.done();
    } else if (arr && e.type() == BSONType::kArray) {
        BufBuilder& buf = sb->subarrayStart(name);
        BSONArrayBuilder nb(buf);
        Status s = applyArrayDiff(e.Obj(), sub, &nb, buf);
        if (!s.isOK())
            return s;
        nb.done();
    } else {
        appendNull();
    }
    return Status::OK();
}

Status applyBinary(const BSONElement& e, const BSONElement& spec, BSONObjBuilder* out) {
    if (e.type() != BSONType::kBinData)
        return Status(ErrorCodes::BadValue, "binary diff on a non-BinData field '" +
                                                std::string(e.fieldNameStringData()) + "'");
    if (spec.type() != BSONType::kObject)
        return malformed("binary diff entry must be an object");
    BSONElement o = spec.Obj()["o"];
    BSONElement d = spec.Obj()["d"];
    if (!o.isNumber() || d.type() != BSONType::kBinData)
        return malformed("binary diff entry needs o: <int> and d: <BinData>");
    int preLen = 0, dLen = 0;
    const char* preBytes = e.binData(preLen);
    const char* dBytes = d.binData(dLen);
    long long off = o.numberLong();
    if (off < 0 || off > preLen)
        return Status(ErrorCodes::BadValue, "binary diff offset is past the end of the field");
    // The kept prefix and the new bytes go straight into the output buffer.
    const long long total = off + dLen;
    if (total > std::numeric_limits<int32_t>::max())
        return Status(ErrorCodes::BadValue, "binary diff result is too large");
    BufBuilder& bb = out->bb();
    bb.appendChar(static_cast<char>(BSONType::kBinData));
    bb.appendStr(e.fieldNameStringData());
    bb.appendNum(static_cast<int32_t>(total));
    bb.appendChar(static_cast<char>(e.binDataType()));
    bb.appendBuf(preBytes, static_cast<size_t>(off));
    bb.appendBuf(dBytes, static_cast<size_t>(dLen));
    return Status::OK();
}

Status parseDocDiff(const BSONObj& diff, std::map<StringData, Mod>* table,
                    std::vector<StringData>* appendOrder) {
    int stage = -1;  // 0: d, 1: u, 2: i, 3: b, 4: s...
    auto add = [&](StringData name, Mod m) -> Status {
        auto [it, inserted] = table->emplace(name, m);
        if (!inserted)
            return Status(ErrorCodes::Error(4728000),
                          "duplicate field name in diff: " + std::string(name));
        if (m.kind == Mod::Kind::kUpdate || m.kind == Mod::Kind::kInsert)
            appendOrder->push_back(name);
        return Status::OK();
    };
    for (BSONElement sec : diff) {
        StringData n = sec.fieldNameStringData();
        if (n.empty())
            return malformed("empty field name in diff");
        int st;
        Mod::Kind kind;
        switch (n[0]) {
            case 'd':
                st = 0;
                kind = Mod::Kind::kDelete;
                break;
            case 'u':
                st = 1;
                kind = Mod::Kind::kUpdate;
                break;
            case 'i':
                st = 2;
                kind = Mod::Kind::kInsert;
                break;
            case 'b':
                st = 3;
                kind = Mod::Kind::kBinary;
                break;
            case 's':
                st = 4;
                kind = Mod::Kind::kSubDiff;
                break;
            default:
                return malformed("unexpected section in diff: " + std::string(n));
        }
        if (st < 4 && n.size() != 1)
            return malformed("unexpected section in diff: " + std::string(n));
        if (st < stage || (st == stage && st < 4) || (stage == 4 && st != 4))
            return malformed("diff sections out of order at " + std::string(n));
        stage = st;
        if (sec.type() != BSONType::kObject)
            return malformed("diff section " + std::string(n) + " must be an object");
        if (st == 4) {
            Status s = add(n.substr(1), Mod{kind, sec});
            if (!s.isOK())
                return s;
            continue;
        }
        for (BSONElement f : sec.Obj()) {
            Status s = add(f.fieldNameStringData(), Mod{kind, f});
            if (!s.isOK())
                return s;
        }
    }
    return Status::OK();
}

Status applyDocDiff(const BSONObj& pre, const BSONObj& diff, BSONObjBuilder* out) {
    // Field names are views into `diff` and `pre`, which outlive this call.
    std::map<StringData, Mod> table;
    std::vector<StringData> appendOrder;
    Status s = parseDocDiff(diff, &table, &appendOrder);
    if (!s.isOK())
        return s;
    for (BSONElement e : pre) {
        auto it = table.find(e.fieldNameStringData());
        if (it == table.end()) {
            out->append(e);
            continue;
        }
        Mod& m = it->second;
        switch (m.kind) {
            case Mod::Kind::kDelete:
            case Mod::Kind::kInsert:
                break;
            case Mod::Kind::kUpdate:
                if (!m.done)
                    out->appendAs(m.value, e.fieldNameStringData());
                m.done = true;
                break;
            case Mod::Kind::kBinary:
                s = applyBinary(e, m.value, out);
                if (!s.isOK())
                    return s;
                break;
            case Mod::Kind::kSubDiff:
                s = applySub(
                    e, m.value.Obj(), out, [&] { out->appendNull(e.fieldNameStringData()); },
                    e.fieldNameStringData());
                if (!s.isOK())
                    return s;
                break;
        }
    }
    // Updates first, then inserts, each in diff order (appendOrder is already u then i).
    for (const auto& name : appendOrder) {
        Mod& m = table[name];
        if (m.done)
            continue;
        out->appendAs(m.value, name);
        m.done = true;
    }
    return Status::OK();
}

// An array element takes at least 3 bytes (type, a one-digit name, NUL): no array that a
// BSON document can hold is longer. Lengths and indexes past it cannot be applied.
constexpr long long kMaxArrayLength = BSONObjMaxInternalSize / 3;

Status tooLarge() {
    return Status(ErrorCodes::BSONObjectTooLarge, "applying the diff makes the document too large");
}

/** The index of a `u<i>`/`s<i>` field: its digits as a number, or -1 past kMaxArrayLength. */
long long arrayIndexOf(StringData digits) {
    long long v = 0;
    for (char c : digits) {
        v = v * 10 + (c - '0');
        if (v > kMaxArrayLength)
            return -1;
    }
    return v;
}

/** `buf` is the buffer `out` writes into (its length bounds what padding may add). */
Status applyArrayDiff(const BSONObj& pre, const BSONObj& diff, BSONArrayBuilder* out,
                      const BufBuilder& buf) {
    std::optional<long long> newLen;
    std::map<long long, BSONElement> updates, subs;
    bool first = true;
    for (BSONElement f : diff) {
        StringData n = f.fieldNameStringData();
        if (first) {
            if (n != kArrayMarker)
                return malformed("array diff must start with 'a'");
            first = false;
            continue;
        }
        if (n == kArrayLength) {
            if (!f.isNumber() || f.numberDouble() < 0)
                return malformed("array diff length must be a non-negative number");
            newLen = f.numberLong();
            if (*newLen > kMaxArrayLength)
                return tooLarge();
            continue;
        }
        if (n.size() < 2 || (n[0] != 'u' && n[0] != 's') || !isArrayIndexComponent(n.substr(1)))
            return malformed("unexpected field in array diff: " + std::string(n));
        long long idx = arrayIndexOf(n.substr(1));
        if (idx < 0)
            return tooLarge();
        if (updates.count(idx) || subs.count(idx))
            return Status(ErrorCodes::Error(4728000), "duplicate index in array diff");
        if (n[0] == 'u') {
            updates[idx] = f;
        } else {
            if (f.type() != BSONType::kObject)
                return malformed("array sub-diff must be an object");
            subs[idx] = f;
        }
    }
    long long maxMod = -1;
    if (!updates.empty())
        maxMod = std::max(maxMod, updates.rbegin()->first);
    if (!subs.empty())
        maxMod = std::max(maxMod, subs.rbegin()->first);
    long long i = 0;
    for (BSONElement e : pre) {
        if (newLen && i >= *newLen)
            break;
        if (auto u = updates.find(i); u != updates.end()) {
            out->append(u->second);
        } else if (auto sd = subs.find(i); sd != subs.end()) {
            BSONObjBuilder tmp;
            Status s = applySub(
                e, sd->second.Obj(), &tmp, [&] { tmp.appendNull("x"); }, "x");
            if (!s.isOK())
                return s;
            out->append(tmp.obj().firstElement());
        } else {
            out->append(e);
        }
        ++i;
    }
    for (; newLen ? i < *newLen : i <= maxMod; ++i) {
        // Many padded arrays together can still pass the limit: stop as soon as they do.
        if (buf.len() > BSONObjMaxInternalSize)
            return tooLarge();
        if (auto u = updates.find(i); u != updates.end())
            out->append(u->second);
        else
            out->append(BSONNULL);
    }
    return Status::OK();
}

}  // namespace

StatusWith<BSONObj> applyDiff(const BSONObj& pre, const BSONObj& diff) {
    BSONObjBuilder b;
    Status s = applyDocDiff(pre, diff, &b);
    if (!s.isOK())
        return s;
    if (b.len() > BSONObjMaxInternalSize)
        return tooLarge();
    return b.obj();
}

}  // namespace doc_diff
}  // namespace mongo
