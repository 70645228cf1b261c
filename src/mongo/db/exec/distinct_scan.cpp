#include "mongo/db/exec/distinct_scan.h"

#include <algorithm>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/exec/planner.h"
#include "mongo/db/exec/stages.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/query/collation/collator_interface.h"

namespace mongo {

namespace {

bool isPathOrBelow(StringData path, StringData base) {
    return path == base ||
           (path.size() > base.size() && path.starts_with(base) && path[base.size()] == '.');
}

/** 1 / -1 for an ascending / descending key or sort field, 0 for anything else. */
int direction(const BSONElement& e) {
    if (!e.isNumber())
        return 0;
    double d = e.numberDouble();
    return d > 0 ? 1 : d < 0 ? -1 : 0;
}

/**
 * Whether a predicate on the key field gives one answer for all values sharing an index key
 * (equal under the comparison rules: 1 and 1.0, strings equal under the collation). Not
 * $type (1 vs 1.0) nor regexes (strings equal under a collation may differ).
 */
bool decidedByIndexKey(const BSONElement& predicate) {
    if (predicate.type() == BSONType::kRegEx)
        return false;
    if (predicate.type() != BSONType::kObject)
        return true;
    BSONObj ops = predicate.embeddedObject();
    if (!ops.firstElementFieldNameStringData().starts_with("$"))
        return true;  // equality with an object
    for (auto op : ops) {
        StringData name = op.fieldNameStringData();
        if (name != "$eq" && name != "$ne" && name != "$gt" && name != "$gte" && name != "$lt" &&
            name != "$lte" && name != "$in" && name != "$nin" && name != "$exists")
            return false;
        if (op.type() == BSONType::kRegEx)
            return false;
        if (op.type() == BSONType::kArray)
            for (auto v : op.embeddedObject())
                if (v.type() == BSONType::kRegEx)
                    return false;
    }
    return true;
}

}  // namespace

std::optional<bool> distinctScanDirection(const BSONObj& keyPattern,
                                          const std::vector<std::string>& groupPaths,
                                          const BSONObj& sortSpec) {
    if (groupPaths.empty())
        return std::nullopt;
    std::vector<BSONElement> keys;
    for (auto k : keyPattern) {
        if (direction(k) == 0)
            return std::nullopt;  // hashed, 2dsphere, text...: no order to rely on
        keys.push_back(k);
    }
    if (keys.size() <= groupPaths.size())
        return std::nullopt;
    std::vector<std::string> prefix;
    for (size_t i = 0; i < groupPaths.size(); ++i)
        prefix.emplace_back(keys[i].fieldNameStringData());
    std::vector<std::string> wanted = groupPaths;
    std::sort(prefix.begin(), prefix.end());
    std::sort(wanted.begin(), wanted.end());
    if (prefix != wanted || std::adjacent_find(wanted.begin(), wanted.end()) != wanted.end())
        return std::nullopt;

    size_t pos = groupPaths.size();
    std::optional<bool> forward;
    for (auto s : sortSpec) {
        StringData name = s.fieldNameStringData();
        bool constant = std::any_of(groupPaths.begin(), groupPaths.end(),
                                    [&](const auto& g) { return isPathOrBelow(name, g); });
        if (constant)
            continue;
        int dir = direction(s);
        if (dir == 0 || pos >= keys.size() || keys[pos].fieldNameStringData() != name)
            return std::nullopt;
        bool fwd = dir == direction(keys[pos]);
        if (forward && *forward != fwd)
            return std::nullopt;
        forward = fwd;
        ++pos;
    }
    return forward;
}

DistinctScanStage::DistinctScanStage(std::shared_ptr<Collection> coll, IndexEntry* index,
                                     int prefixFields, bool forward, NullKeys nullKeys,
                                     std::optional<IndexBounds> bounds, bool returnKeys)
    : _coll(std::move(coll)),
      _index(index),
      _prefixFields(prefixFields),
      _forward(forward),
      _nullKeys(nullKeys),
      _bounds(std::move(bounds)),
      _returnKeys(returnKeys) {
    _index->accessOps.fetch_add(1, std::memory_order_relaxed);
}

std::optional<WorkingMember> DistinctScanStage::next(OperationContext* opCtx) {
    if (_eof)
        return std::nullopt;
    ++_stats.works;
    std::optional<IndexKeyEntry> e;
    if (!_started) {
        _started = true;
        _cursor = _index->sdi->newCursor(opCtx->recoveryUnit(), _forward);
        if (_bounds) {
            const BSONObj& first = _forward ? _bounds->start : _bounds->end;
            const BSONObj& last = _forward ? _bounds->end : _bounds->start;
            if (!last.isEmpty())
                _cursor->setEndPosition(last,
                                        _forward ? _bounds->endInclusive : _bounds->startInclusive);
            e = first.isEmpty() ? _cursor->next()
                                : _cursor->seek(first, _forward ? _bounds->startInclusive
                                                                : _bounds->endInclusive);
        } else {
            e = _cursor->next();
        }
    } else {
        if ((_stats.works & 1023) == 0)
            opCtx->checkForInterrupt();
        // Exclusive seek on the prefix: every entry sharing it lies on the excluded side.
        e = _lastHasNull && _nullKeys == NullKeys::kAll ? _cursor->next()
                                                        : _cursor->seek(_lastPrefix, false);
    }
    if (!e) {
        _eof = true;
        return std::nullopt;
    }
    ++_stats.keysExamined;
    BSONObjBuilder prefix;
    int i = 0;
    _lastHasNull = false;
    for (auto k : e->key) {
        if (i++ == _prefixFields)
            break;
        _lastHasNull = _lastHasNull || k.type() == BSONType::kNull;
        prefix.appendAs(k, "");
    }
    _lastPrefix = prefix.obj();
    ++_stats.advanced;
    if (!_returnKeys)
        return WorkingMember{e->loc, BSONObj()};
    BSONObjBuilder key;
    auto names = _index->desc.keyPattern.begin();
    for (auto k : e->key)
        key.appendAs(k, names.more() ? names.next().fieldNameStringData() : StringData());
    return WorkingMember{e->loc, BSONObj(), key.obj()};
}

void DistinctScanStage::save() {
    if (_cursor)
        _cursor->save();
}

void DistinctScanStage::restore(OperationContext*) {
    if (_cursor)
        _cursor->restore();
}

void DistinctScanStage::appendExplainInfo(BSONObjBuilder* bob) const {
    const IndexDescriptor& d = _index->desc;
    bob->append("keyPattern", d.keyPattern);
    bob->append("indexName", d.name);
    bob->append("isMultiKey", _index->multikey || d.multikey);
    if (BSONObj paths = _index->multikeyPathsForExplain(); !paths.isEmpty())
        bob->append("multiKeyPaths", paths);
    bob->append("isUnique", d.unique);
    bob->append("isSparse", d.sparse);
    bob->append("isPartial", !d.partialFilterExpression.isEmpty());
    bob->append("indexVersion", 2);
    bob->append("direction", _forward ? "forward" : "backward");
    if (_bounds) {
        bob->append("indexBounds", _bounds->explain);
        return;
    }
    BSONObjBuilder bounds(bob->subobjStart("indexBounds"));
    for (auto k : d.keyPattern) {
        // The scan covers the whole key range, listed in scan order.
        bool ascending = !k.isNumber() || k.numberDouble() >= 0;
        BSONArrayBuilder arr(bounds.subarrayStart(k.fieldNameStringData()));
        arr.append(ascending == _forward ? "[MinKey, MaxKey]" : "[MaxKey, MinKey]");
    }
}

std::unique_ptr<PlanExecutor> buildDistinctScanPlan(const std::shared_ptr<Collection>& coll,
                                                    StringData key, const FindPlanParams& params) {
    if (!coll || key.empty() || key.find('.') != StringData::npos || !params.sort.isEmpty() ||
        params.skip > 0 || params.limit > 0 || !params.hint.isEmpty() || !params.hintName.empty())
        return nullptr;
    for (auto f : params.filter)
        if (f.fieldNameStringData() != key || !decidedByIndexKey(f))
            return nullptr;  // another field, or a top-level operator ($and, $expr...)
    for (const auto& index : coll->indexes()) {
        const IndexDescriptor& d = index->desc;
        BSONElement first = d.keyPattern.firstElement();
        if (!index->sdi || d.hidden || d.sparse || !d.partialFilterExpression.isEmpty() ||
            index->multikey || d.multikey || !first.isNumber() ||
            first.fieldNameStringData() != key ||
            !CollatorInterface::collatorsMatch(d.collator(), params.collator))
            continue;
        // No bounds ($in, or nothing the index bounds): the whole index, and FETCH filters.
        auto bounds = singleIntervalBounds(*index, params.filter, params.collator, true);
        bool covered = d.collator() == nullptr;
        for (auto f : params.filter)
            covered = covered && boundsAreExactFor(f);
        if (covered) {
            auto scan = std::make_unique<DistinctScanStage>(
                coll, index.get(), 1, true, DistinctScanStage::NullKeys::kOnePerValue,
                std::move(bounds), true);
            return std::make_unique<PlanExecutor>(std::make_unique<ProjectionCoveredStage>(
                std::move(scan), std::vector<std::string>{std::string(key)}));
        }
        auto scan = std::make_unique<DistinctScanStage>(
            coll, index.get(), 1, true, DistinctScanStage::NullKeys::kAll, std::move(bounds));
        return std::make_unique<PlanExecutor>(
            std::make_unique<FetchStage>(coll, std::move(scan), params.matcher));
    }
    return nullptr;
}

}  // namespace mongo
