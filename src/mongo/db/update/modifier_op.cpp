#include "mongo/db/update/modifier_op.h"

#include <cmath>
#include <cstdlib>
#include <functional>

#include "mongo/bson/bson_comparator.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/query/collation/collator_interface.h"
#include "mongo/db/update/update_driver.h"
#include "mongo/util/assert_util.h"

namespace mongo {

namespace {

Status badValue(std::string msg) {
    return Status(ErrorCodes::BadValue, std::move(msg));
}

std::string joinPath(const std::vector<std::string>& comps, size_t upto) {
    std::string s;
    for (size_t i = 0; i < upto && i < comps.size(); ++i)
        s += (i ? "." : "") + comps[i];
    return s;
}

using LeafFn =
    std::function<Status(MutableNode* container, const std::string& name, MutableNode* existing)>;

/** Upstream's limit on the nulls an update may add to reach an array index. */
constexpr size_t kMaxArrayPadding = 1500000;

/**
 * Replaces (or adds) `name` in `container` (object field or array index, padding with null).
 * Throws CannotBackfillArray 34 when that would add more than kMaxArrayPadding nulls.
 */
MutableNode* assign(MutableNode* container, const std::string& name,
                    std::unique_ptr<MutableNode> v) {
    if (container->isArray()) {
        auto& els = container->elems();
        // strtoull saturates at ULLONG_MAX for an index too long to represent.
        size_t idx = std::strtoull(name.c_str(), nullptr, 10);
        uassert(ErrorCodes::CannotBackfillArray,
                "can't backfill more than " + std::to_string(kMaxArrayPadding) + " elements",
                idx < els.size() || idx - els.size() <= kMaxArrayPadding);
        while (els.size() <= idx)
            els.push_back(MutableNode::null());
        els[idx] = std::move(v);
        return els[idx].get();
    }
    container->setField(name, std::move(v));
    return container->field(name);
}

class PathWalker {
public:
    PathWalker(const std::vector<std::string>& comps, bool create, const ModifierApplyContext& ctx,
               const LeafFn& leaf)
        : _comps(comps), _create(create), _ctx(ctx), _leaf(leaf) {}

    /** A path blocked by a scalar (or an array met with a field name) fails (28), as $pop's. */
    void failOnNonViablePath() {
        _failNonViable = true;
    }

    Status walk(MutableNode* container, size_t i) {
        const std::string& comp = _comps[i];
        bool last = i + 1 == _comps.size();
        if (comp.size() >= 3 && comp[0] == '$' && comp[1] == '[') {
            if (!container->isArray())
                return badValue("Cannot apply array updates to non-array element " +
                                joinPath(_comps, i) + ": " + container->element().toString(false));
            std::string id = comp.substr(2, comp.size() - 3);
            auto& els = container->elems();
            for (size_t idx = 0; idx < els.size(); ++idx) {
                if (!id.empty() && !filterMatches(id, els[idx].get()))
                    continue;
                Status s = last ? _leaf(container, std::to_string(idx), els[idx].get())
                                : descend(els[idx].get(), i + 1);
                if (!s.isOK())
                    return s;
            }
            return Status::OK();
        }
        MutableNode* child = nullptr;
        if (container->isObject()) {
            child = container->field(comp);
        } else if (isArrayIndexComponent(comp)) {
            auto& els = container->elems();
            size_t idx = std::strtoull(comp.c_str(), nullptr, 10);
            child = idx < els.size() ? els[idx].get() : nullptr;
        } else {
            if (!_create)
                return nonViable(container, i);
            return Status(ErrorCodes::PathNotViable,
                          "Cannot create field '" + comp + "' in element {" +
                              (i ? _comps[i - 1] : std::string()) + ": " +
                              container->element().toString(false) + "}");
        }
        if (last)
            return _leaf(container, comp, child);
        if (!child) {
            if (!_create)
                return Status::OK();
            const std::string& next = _comps[i + 1];
            if (next.size() >= 3 && next[0] == '$' && next[1] == '[')
                return badValue("The path '" + joinPath(_comps, i + 1) +
                                "' must exist in the document in order to apply array updates.");
            child = assign(container, comp, MutableNode::emptyObject());
        }
        return descend(child, i + 1);
    }

private:
    Status descend(MutableNode* node, size_t j) {
        if (node->isObject() || node->isArray())
            return walk(node, j);
        const std::string& next = _comps[j];
        if (next.size() >= 3 && next[0] == '$' && next[1] == '[')
            return badValue("Cannot apply array updates to non-array element " + _comps[j - 1] +
                            ": " + node->element().toString(false));
        if (!_create)
            return nonViable(node, j);
        return Status(ErrorCodes::PathNotViable, "Cannot create field '" + _comps[j] +
                                                     "' in element {" + _comps[j - 1] + ": " +
                                                     node->element().toString(false) + "}");
    }

    /** The path cannot go through `node` at part `j`: no-op, or 28 with failOnNonViablePath. */
    Status nonViable(MutableNode* node, size_t j) {
        if (!_failNonViable)
            return Status::OK();
        return Status(ErrorCodes::PathNotViable, "Cannot use the part (" + _comps[j] + ") of (" +
                                                     joinPath(_comps, _comps.size()) +
                                                     ") to traverse the element ({" +
                                                     (j ? _comps[j - 1] : std::string()) + ": " +
                                                     node->element().toString(false) + "})");
    }

    bool filterMatches(const std::string& id, MutableNode* elem) {
        auto it = _ctx.arrayFilters->find(id);
        if (it == _ctx.arrayFilters->end())
            return false;
        BSONObjBuilder b;
        b.appendAs(elem->element(), id);
        return it->second->matchesBSON(b.obj());
    }

    const std::vector<std::string>& _comps;
    bool _create;
    bool _failNonViable = false;
    const ModifierApplyContext& _ctx;
    const LeafFn& _leaf;
};

struct OpName {
    StringData name;
    ModifierOp::Kind kind;
};
constexpr OpName kOps[] = {
    {"$set", ModifierOp::Kind::kSet},
    {"$unset", ModifierOp::Kind::kUnset},
    {"$inc", ModifierOp::Kind::kInc},
    {"$mul", ModifierOp::Kind::kMul},
    {"$min", ModifierOp::Kind::kMin},
    {"$max", ModifierOp::Kind::kMax},
    {"$rename", ModifierOp::Kind::kRename},
    {"$setOnInsert", ModifierOp::Kind::kSetOnInsert},
    {"$currentDate", ModifierOp::Kind::kCurrentDate},
    {"$push", ModifierOp::Kind::kPush},
    {"$addToSet", ModifierOp::Kind::kAddToSet},
    {"$pop", ModifierOp::Kind::kPop},
    {"$pull", ModifierOp::Kind::kPull},
    {"$pullAll", ModifierOp::Kind::kPullAll},
    {"$bit", ModifierOp::Kind::kBit},
};

}  // namespace

std::string ModifierApplyContext::docId() const {
    if (!preDoc)
        return "{}";
    BSONElement id = preDoc->getField("_id");
    if (id.eoo())
        return "{}";
    return "{_id: " + id.toString(false) + "}";
}

bool ModifierOp::kindFromName(StringData name, Kind* out) {
    for (const auto& o : kOps) {
        if (o.name == name) {
            *out = o.kind;
            return true;
        }
    }
    return false;
}

bool ModifierOp::createsPath() const {
    switch (_kind) {
        case Kind::kUnset:
        case Kind::kPop:
        case Kind::kPull:
        case Kind::kPullAll:
            return false;
        default:
            return true;
    }
}

Status ModifierOp::apply(MutableNode* root, const ModifierApplyContext& ctx) const {
    if (_kind == Kind::kSetOnInsert && !ctx.params->isInsert)
        return Status::OK();
    if (_kind == Kind::kRename)
        return applyRename(root, ctx);
    std::vector<std::string> comps = _path.parts();
    for (auto& c : comps) {
        if (c == "$") {
            if (!ctx.params->matchedArrayIndex)
                return badValue(
                    "The positional operator did not find the match needed from the "
                    "query.");
            c = *ctx.params->matchedArrayIndex;
        }
    }
    LeafFn leaf = [&](MutableNode* container, const std::string& name, MutableNode* existing) {
        return applyLeaf(container, name, existing, ctx);
    };
    PathWalker w(comps, createsPath(), ctx, leaf);
    if (_kind == Kind::kPop)
        w.failOnNonViablePath();
    return w.walk(root, 0);
}

Status ModifierOp::applyLeaf(MutableNode* container, const std::string& name, MutableNode* existing,
                             const ModifierApplyContext& ctx) const {
    switch (_kind) {
        case Kind::kSet:
        case Kind::kSetOnInsert:
            assign(container, name, MutableNode::view(_arg));
            return Status::OK();
        case Kind::kUnset:
            if (!existing)
                return Status::OK();
            if (container->isArray())
                assign(container, name, MutableNode::null());
            else
                container->removeField(name);
            return Status::OK();
        case Kind::kInc:
        case Kind::kMul:
            return applyArith(container, name, existing, ctx);
        case Kind::kMin:
        case Kind::kMax: {
            if (existing) {
                int c = compareElementValues(_arg, existing->element(), _collator);
                if (_kind == Kind::kMin ? c >= 0 : c <= 0)
                    return Status::OK();
            }
            assign(container, name, MutableNode::view(_arg));
            return Status::OK();
        }
        case Kind::kCurrentDate: {
            BSONObjBuilder b;
            if (_timestamp)
                b.append(
                    "",
                    Timestamp(static_cast<std::uint32_t>(ctx.now.toMillisSinceEpoch() / 1000), 1));
            else
                b.append("", ctx.now);
            assign(container, name, MutableNode::copyOf(b.obj().firstElement()));
            return Status::OK();
        }
        case Kind::kPush:
            return applyPush(container, name, existing, ctx);
        case Kind::kAddToSet:
            return applyAddToSet(container, name, existing, ctx);
        case Kind::kPop: {
            if (!existing)
                return Status::OK();
            if (!existing->isArray())
                return Status(ErrorCodes::TypeMismatch,
                              "Path '" + _path.dotted() +
                                  "' contains an element of non-array type '" +
                                  std::string(typeName(existing->type())) + "'");
            auto& els = existing->elems();
            if (els.empty())
                return Status::OK();
            if (_arg.numberDouble() > 0)
                els.pop_back();
            else
                els.erase(els.begin());
            return Status::OK();
        }
        case Kind::kPull:
        case Kind::kPullAll:
            if (!existing)
                return Status::OK();
            return applyPull(existing, ctx);
        case Kind::kBit:
            return applyBit(container, name, existing, ctx);
        case Kind::kRename:
            break;
    }
    return Status::OK();
}

namespace {
Status arithmetic(bool multiply, const BSONElement& cur, const BSONElement& arg,
                  BSONObjBuilder* out) {
    BSONType a = cur.type(), b = arg.type();
    if (a == BSONType::kNumberDecimal || b == BSONType::kNumberDecimal) {
        Decimal128 x = cur.numberDecimal(), y = arg.numberDecimal();
        out->append("", multiply ? x.multiply(y) : x.add(y));
        return Status::OK();
    }
    if (a == BSONType::kNumberDouble || b == BSONType::kNumberDouble) {
        double x = cur.numberDouble(), y = arg.numberDouble();
        out->append("", multiply ? x * y : x + y);
        return Status::OK();
    }
    long long x = cur.numberLong(), y = arg.numberLong(), r;
    bool overflow = multiply ? __builtin_mul_overflow(x, y, &r) : __builtin_add_overflow(x, y, &r);
    if (overflow)
        return Status(ErrorCodes::BadValue, "overflow");
    if (a == BSONType::kNumberInt && b == BSONType::kNumberInt && r >= INT32_MIN && r <= INT32_MAX)
        out->append("", static_cast<int>(r));
    else
        out->append("", r);
    return Status::OK();
}
}  // namespace

Status ModifierOp::applyArith(MutableNode* container, const std::string& name,
                              MutableNode* existing, const ModifierApplyContext& ctx) const {
    bool mul = _kind == Kind::kMul;
    if (!existing) {
        if (!mul) {
            assign(container, name, MutableNode::view(_arg));
            return Status::OK();
        }
        BSONObjBuilder b;
        if (_arg.type() == BSONType::kNumberDouble)
            b.append("", 0.0);
        else if (_arg.type() == BSONType::kNumberLong)
            b.append("", 0LL);
        else if (_arg.type() == BSONType::kNumberDecimal)
            b.append("", Decimal128(0).multiply(_arg._numberDecimal()));
        else
            b.append("", 0);
        assign(container, name, MutableNode::copyOf(b.obj().firstElement()));
        return Status::OK();
    }
    BSONElement cur = existing->element();
    if (!cur.isNumber())
        return Status(ErrorCodes::TypeMismatch,
                      "Cannot apply " + _opName + " to a value of non-numeric type. " +
                          ctx.docId() + " has the field '" + name + "' of non-numeric type " +
                          std::string(typeName(cur.type())));
    BSONObjBuilder b;
    Status s = arithmetic(mul, cur, _arg, &b);
    if (!s.isOK())
        return badValue("Failed to apply " + _opName + " operations to current value (" +
                        cur.toString(false) + ") for document " + ctx.docId());
    assign(container, name, MutableNode::copyOf(b.obj().firstElement()));
    return Status::OK();
}

Status ModifierOp::applyBit(MutableNode* container, const std::string& name, MutableNode* existing,
                            const ModifierApplyContext& ctx) const {
    long long v = 0;
    bool isLong = false;
    if (existing) {
        BSONElement cur = existing->element();
        if (cur.type() != BSONType::kNumberInt && cur.type() != BSONType::kNumberLong)
            return badValue("Cannot apply $bit to a value of non-integral type." + ctx.docId() +
                            " has the field " + name + " of non-integer type " +
                            std::string(typeName(cur.type())));
        v = cur.numberLong();
        isLong = cur.type() == BSONType::kNumberLong;
    }
    for (BSONElement op : _arg.Obj()) {
        long long x = op.numberLong();
        isLong = isLong || op.type() == BSONType::kNumberLong;
        StringData n = op.fieldNameStringData();
        if (n == "and")
            v &= x;
        else if (n == "or")
            v |= x;
        else
            v ^= x;
    }
    BSONObjBuilder b;
    if (isLong)
        b.append("", v);
    else
        b.append("", static_cast<int>(v));
    assign(container, name, MutableNode::copyOf(b.obj().firstElement()));
    return Status::OK();
}

Status ModifierOp::applyRename(MutableNode* root, const ModifierApplyContext& ctx) const {
    // Find the source through objects only.
    MutableNode* parent = root;
    for (size_t i = 0; i + 1 < _path.numParts(); ++i) {
        MutableNode* next = parent->field(_path.part(i));
        if (!next)
            return Status::OK();
        if (next->isArray())
            return badValue("The source field cannot be an array element, '" + _path.dotted() +
                            "' in doc with " + std::string(_path.part(i)) + " being an array");
        if (!next->isObject())
            return Status::OK();
        parent = next;
    }
    StringData leafName = _path.part(_path.numParts() - 1);
    MutableNode* src = parent->field(leafName);
    if (!src)
        return Status::OK();
    auto moved = MutableNode::copyOf(src->element());
    // Validate the destination before removing the source.
    MutableNode* dest = root;
    for (size_t i = 0; i + 1 < _to.numParts(); ++i) {
        MutableNode* next = dest->field(_to.part(i));
        if (next && next->isArray())
            return badValue("The destination field cannot be an array element, '" + _to.dotted() +
                            "' in doc with " + std::string(_to.part(i)) + " being an array");
        if (next && !next->isObject())
            return Status(ErrorCodes::PathNotViable,
                          "Cannot create field '" + std::string(_to.part(i + 1)) +
                              "' in element {" + std::string(_to.part(i)) + ": " +
                              next->element().toString(false) + "}");
        if (!next)
            break;
        dest = next;
    }
    parent->removeField(leafName);
    dest = root;
    for (size_t i = 0; i + 1 < _to.numParts(); ++i) {
        MutableNode* next = dest->field(_to.part(i));
        if (!next)
            next = dest->addField(_to.part(i), MutableNode::emptyObject());
        dest = next;
    }
    dest->setField(_to.part(_to.numParts() - 1), std::move(moved));
    (void)ctx;
    return Status::OK();
}

}  // namespace mongo
