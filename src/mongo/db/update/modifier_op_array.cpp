// The array modifiers: $push (with $each/$position/$sort/$slice), $addToSet,
// $pull and $pullAll.
#include <algorithm>

#include "mongo/bson/bson_comparator.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/query/collation/collator_interface.h"
#include "mongo/db/update/modifier_op.h"

namespace mongo {

namespace {

bool sameValue(const BSONElement& a, const BSONElement& b, const StringComparator* strings) {
    return canonicalizeBSONType(a.type()) == canonicalizeBSONType(b.type()) &&
           compareElementValues(a, b, strings) == 0;
}

Status notAnArray(StringData opName, StringData name, MutableNode* existing,
                  const ModifierApplyContext& ctx) {
    return Status(ErrorCodes::BadValue,
                  "The field '" + std::string(name) + "' must be an array but is of type " +
                      std::string(typeName(existing->type())) + " in document " + ctx.docId());
}

MutableNode* ensureArray(MutableNode* container, const std::string& name, MutableNode* existing) {
    if (existing)
        return existing;
    if (container->isArray()) {
        auto& els = container->elems();
        size_t idx = std::strtoull(name.c_str(), nullptr, 10);
        while (els.size() <= idx)
            els.push_back(MutableNode::null());
        els[idx] = MutableNode::emptyArray();
        return els[idx].get();
    }
    container->setField(name, MutableNode::emptyArray());
    return container->field(name);
}

}  // namespace

Status ModifierOp::applyPush(MutableNode* container, const std::string& name, MutableNode* existing,
                             const ModifierApplyContext& ctx) const {
    if (existing && !existing->isArray())
        return notAnArray("$push", name, existing, ctx);
    MutableNode* arr = ensureArray(container, name, existing);
    auto& els = arr->elems();
    long long size = static_cast<long long>(els.size());
    long long pos = size;
    if (_position) {
        pos = *_position >= 0 ? std::min(*_position, size) : std::max(0LL, size + *_position);
    }
    std::vector<std::unique_ptr<MutableNode>> added;
    for (const auto& e : _each)
        added.push_back(MutableNode::view(e));
    els.insert(els.begin() + pos, std::make_move_iterator(added.begin()),
               std::make_move_iterator(added.end()));
    if (_sortDirection || _sortPattern) {
        // Materialise elements once, then sort stably.
        std::vector<std::pair<BSONObj, std::unique_ptr<MutableNode>>> keyed;
        for (auto& n : els) {
            BSONObjBuilder b;
            b.appendAs(n->element(), "");
            keyed.emplace_back(b.obj(), std::move(n));
        }
        std::stable_sort(keyed.begin(), keyed.end(), [&](const auto& x, const auto& y) {
            BSONElement ex = x.first.firstElement(), ey = y.first.firstElement();
            if (_sortDirection) {
                int c = compareElementValues(ex, ey, _collator);
                return *_sortDirection > 0 ? c < 0 : c > 0;
            }
            BSONObj ox = ex.type() == BSONType::kObject ? ex.Obj() : BSONObj();
            BSONObj oy = ey.type() == BSONType::kObject ? ey.Obj() : BSONObj();
            return _sortPattern->compare(ox, oy) < 0;
        });
        els.clear();
        for (auto& [holder, n] : keyed)
            els.push_back(MutableNode::copyOf(holder.firstElement()));
    }
    if (_slice) {
        long long n = static_cast<long long>(els.size());
        if (*_slice >= 0 && *_slice < n)
            els.resize(*_slice);
        else if (*_slice < 0 && -*_slice < n)
            els.erase(els.begin(), els.begin() + (n + *_slice));
    }
    return Status::OK();
}

Status ModifierOp::applyAddToSet(MutableNode* container, const std::string& name,
                                 MutableNode* existing, const ModifierApplyContext& ctx) const {
    if (existing && !existing->isArray())
        return Status(ErrorCodes::BadValue,
                      "Cannot apply $addToSet to non-array field. Field named '" + name +
                          "' has non-array type " + std::string(typeName(existing->type())));
    MutableNode* arr = ensureArray(container, name, existing);
    auto& els = arr->elems();
    std::vector<BSONObj> present;
    for (auto& n : els) {
        BSONObjBuilder b;
        b.appendAs(n->element(), "");
        present.push_back(b.obj());
    }
    for (const auto& e : _each) {
        bool found = false;
        for (const auto& p : present) {
            if (sameValue(p.firstElement(), e, _collator)) {
                found = true;
                break;
            }
        }
        if (found)
            continue;
        els.push_back(MutableNode::view(e));
        BSONObjBuilder b;
        b.appendAs(e, "");
        present.push_back(b.obj());
    }
    return Status::OK();
}

bool ModifierOp::pullMatches(const BSONElement& e) const {
    if (_kind == Kind::kPullAll) {
        for (const auto& v : _each)
            if (sameValue(v, e, _collator))
                return true;
        return false;
    }
    if (_pullMatcher) {
        if (_pullMatcherOnValues)
            return _pullMatcher->matchesSingleElement(e, nullptr);
        return e.type() == BSONType::kObject && _pullMatcher->matchesBSON(e.Obj());
    }
    if (_pullRegex)
        return RegexMatchExpression::matchesWith(*_pullRegex, e);
    return sameValue(_arg, e, _collator);
}

void ModifierOp::setCollator(const CollatorInterface* collator) {
    _collator = collator;
    if (_pullMatcher)
        _pullMatcher->setCollator(collator);
    if (_sortPattern)
        _sortPattern->setCollator(collator);
}

Status ModifierOp::applyPull(MutableNode* existing, const ModifierApplyContext& ctx) const {
    if (!existing->isArray())
        return Status(ErrorCodes::BadValue, "Cannot apply $pull to a non-array value");
    auto& els = existing->elems();
    std::vector<std::unique_ptr<MutableNode>> kept;
    for (auto& n : els) {
        BSONElement e = n->element();
        if (!pullMatches(e))
            kept.push_back(std::move(n));
    }
    els = std::move(kept);
    return Status::OK();
}

}  // namespace mongo
