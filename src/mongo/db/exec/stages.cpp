#include "mongo/db/exec/stages.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>

#include "mongo/bson/bson_comparator.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/exec/sorter.h"
#include "mongo/db/matcher/explain_filter.h"
#include "mongo/db/matcher/expression.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/query/collation/collator_interface.h"
#include "mongo/db/query/sort_pattern.h"
#include "mongo/db/stats/top.h"
#include "mongo/util/assert_util.h"

namespace mongo {

namespace {
void appendFilter(BSONObjBuilder* bob, const std::shared_ptr<MatchExpression>& filter) {
    if (!filter)
        return;
    BSONObj shown = serializeForExplain(*filter);
    if (!shown.isEmpty())  // always true: upstream has no filter
        bob->append("filter", shown);
}
}  // namespace

CollectionScanStage::CollectionScanStage(std::shared_ptr<Collection> coll, bool forward,
                                         std::shared_ptr<MatchExpression> filter,
                                         std::optional<RecordId> resumeAfter)
    : _coll(std::move(coll)),
      _forward(forward),
      _filter(std::move(filter)),
      _resumeAfter(resumeAfter) {
    if (_coll)
        Top::get().incrementCollectionScans(_coll->ns(), /*tailable=*/false);
}

std::optional<WorkingMember> CollectionScanStage::next(OperationContext* opCtx) {
    if (!_cursor) {
        _cursor = _coll->recordStore()->getCursor(opCtx->recoveryUnit(), _forward);
        if (_resumeAfter) {
            // Positions on the record; next() then continues after it.
            uassert(ErrorCodes::KeyNotFound,
                    "Failed to resume collection scan: the recordId from which we are "
                    "attempting to resume no longer exists in the collection: " +
                        _resumeAfter->toString(),
                    !_resumeAfter->isNull() && _cursor->seekExact(*_resumeAfter));
        }
    }
    // Each record is matched in place; only those returned are copied.
    auto rec = _cursor->nextIf([&](const BSONObj& doc) {
        ++_stats.works;
        ++_stats.docsExamined;
        if (!_filter || _filter->matchesBSON(doc))
            return true;
        if ((_stats.docsExamined & 127) == 0)
            opCtx->checkForInterrupt();
        return false;
    });
    if (!rec) {
        ++_stats.works;
        return std::nullopt;
    }
    ++_stats.advanced;
    return WorkingMember{rec->id, std::move(rec->data)};
}

void CollectionScanStage::save() {
    if (_cursor)
        _cursor->save();
}

void CollectionScanStage::restore(OperationContext*) {
    if (_cursor)
        _cursor->restore();
}

void CollectionScanStage::appendExplainInfo(BSONObjBuilder* bob) const {
    appendFilter(bob, _filter);
    bob->append("direction", _forward ? "forward" : "backward");
}

IndexScanStage::IndexScanStage(std::shared_ptr<Collection> coll, IndexEntry* index,
                               IndexBounds bounds, bool forward)
    : _coll(std::move(coll)), _index(index), _bounds(std::move(bounds)), _forward(forward) {
    _index->accessOps.fetch_add(1, std::memory_order_relaxed);
}

std::optional<IndexKeyEntry> IndexScanStage::_seekInterval() {
    // Intervals are ascending; a backward scan reads them last to first.
    const size_t n = _bounds.intervals.size();
    const IndexInterval& iv = _bounds.intervals[_forward ? _interval : n - 1 - _interval];
    _cursor->setEndPosition(_forward ? iv.end : iv.start,
                            _forward ? iv.endInclusive : iv.startInclusive);
    return _cursor->seek(_forward ? iv.start : iv.end,
                         _forward ? iv.startInclusive : iv.endInclusive);
}

std::optional<WorkingMember> IndexScanStage::next(OperationContext* opCtx) {
    std::optional<IndexKeyEntry> e;
    const bool multiInterval = !_bounds.intervals.empty();
    if (!_started) {
        _started = true;
        _cursor = _index->sdi->newCursor(opCtx->recoveryUnit(), _forward);
        _cursor->setReturnKeys(_returnKeys);  // else record ids are all this stage returns
        ++_stats.works;
        if (multiInterval) {
            e = _seekInterval();
        } else {
            const BSONObj& first = _forward ? _bounds.start : _bounds.end;
            const BSONObj& last = _forward ? _bounds.end : _bounds.start;
            bool firstInc = _forward ? _bounds.startInclusive : _bounds.endInclusive;
            bool lastInc = _forward ? _bounds.endInclusive : _bounds.startInclusive;
            if (!last.isEmpty())
                _cursor->setEndPosition(last, lastInc);
            e = first.isEmpty() ? _cursor->next() : _cursor->seek(first, firstInc);
        }
    } else {
        ++_stats.works;
        e = _cursor->next();
    }
    const bool dedupe = multiInterval || _index->multikey || _index->desc.multikey;
    while (true) {
        if (!e) {
            if (!multiInterval) {
                _stoppedAtBound = _cursor->stoppedAtEndPosition();
                return std::nullopt;
            }
            if (_cursor->stoppedAtEndPosition()) {
                std::string_view past = _cursor->positionedKeyBytes();
                if (past != _countedPastBound) {
                    ++_stats.keysExamined;
                    _countedPastBound.assign(past.data(), past.size());
                }
            }
            if (++_interval >= _bounds.intervals.size())
                return std::nullopt;
            e = _seekInterval();
            continue;
        }
        if (multiInterval && !_countedPastBound.empty()) {
            // The key that ended the previous interval may begin this one: examined once.
            if (_cursor->positionedKeyBytes() != _countedPastBound)
                ++_stats.keysExamined;
            _countedPastBound.clear();
        } else {
            ++_stats.keysExamined;
        }
        if ((_stats.keysExamined & 127) == 0)
            opCtx->checkForInterrupt();
        if (dedupe && !_seen.insert(e->loc).second) {
            e = _cursor->next();
            continue;
        }
        if (!_returnKeys) {
            ++_stats.advanced;
            return WorkingMember{e->loc, BSONObj()};
        }
        BSONObjBuilder key;
        auto names = _index->desc.keyPattern.begin();
        for (BSONElement v : e->key) {
            if (!names.more())
                break;
            key.appendAs(v, names.next().fieldNameStringData());
        }
        BSONObj named = key.obj();
        if (_keyFilter) {
            std::vector<std::pair<StringData, BSONElement>> fields;
            for (auto k : named)
                fields.emplace_back(k.fieldNameStringData(), k);
            if (!_keyFilter->matchesBSON(nestDottedFields(fields))) {
                e = _cursor->next();
                continue;
            }
        }
        ++_stats.advanced;
        return WorkingMember{e->loc, BSONObj(), std::move(named)};
    }
}

void IndexScanStage::save() {
    if (_cursor)
        _cursor->save();
}

void IndexScanStage::restore(OperationContext*) {
    if (_cursor)
        _cursor->restore();
}

void IndexScanStage::appendExplainInfo(BSONObjBuilder* bob) const {
    if (_keyFilter)
        appendFilter(bob, _keyFilter);
    bob->append("keyPattern", _index->desc.keyPattern);
    bob->append("indexName", _index->desc.name);
    bob->append("isMultiKey", _index->multikey);
    if (BSONObj paths = _index->multikeyPathsForExplain(); !paths.isEmpty())
        bob->append("multiKeyPaths", paths);
    bob->append("isUnique", _index->desc.unique);
    bob->append("isSparse", _index->desc.sparse);
    bob->append("isPartial", !_index->desc.partialFilterExpression.isEmpty());
    bob->append("indexVersion", 2);
    bob->append("direction", _forward ? "forward" : "backward");
    bob->append("indexBounds", _bounds.explain);
}

bool IndexScanStage::isClusteredScan() const {
    return _index->desc.spec["clustered"].trueValue() && _bounds.intervals.empty();
}

namespace {
/** Whether the one-field key `key` bounds the scan (is not empty nor the open end `open`). */
bool isRecordBound(const BSONObj& key, BSONType open) {
    return !key.isEmpty() && key.firstElement().type() != open;
}
}  // namespace

void IndexScanStage::appendClusteredScanInfo(BSONObjBuilder* bob) const {
    bob->append("direction", _forward ? "forward" : "backward");
    if (isRecordBound(_bounds.start, BSONType::kMinKey))
        bob->appendAs(_bounds.start.firstElement(), "minRecord");
    if (isRecordBound(_bounds.end, BSONType::kMaxKey))
        bob->appendAs(_bounds.end.firstElement(), "maxRecord");
}

const char* IndexScanStage::clusteredScanStageName() const {
    return isRecordBound(_bounds.start, BSONType::kMinKey) ||
                   isRecordBound(_bounds.end, BSONType::kMaxKey)
               ? "CLUSTERED_IXSCAN"
               : "COLLSCAN";
}

FetchStage::FetchStage(std::shared_ptr<Collection> coll, std::unique_ptr<PlanStage> child,
                       std::shared_ptr<MatchExpression> filter)
    : _coll(std::move(coll)), _filter(std::move(filter)) {
    _children.push_back(std::move(child));
}

namespace {
/** The 8 bytes after the time of an ObjectId are all zero (the bound of a whole second). */
bool oidTailIsZero(const OID& oid) {
    const unsigned char* p = oid.view();
    for (int i = 4; i < OID::kOIDSize; ++i)
        if (p[i] != 0)
            return false;
    return true;
}
bool isOpenBound(const BSONElement& e) {
    return e.eoo() || e.type() == BSONType::kMinKey || e.type() == BSONType::kMaxKey;
}
}  // namespace

void FetchStage::_setUpTimeRange(OperationContext* opCtx) {
    _rangeChecked = true;
    auto* scan =
        _children.size() == 1 ? dynamic_cast<IndexScanStage*>(_children[0].get()) : nullptr;
    if (!scan || !scan->isClusteredScan() || !_coll->recordIdsFromIdTime())
        return;
    const IndexBounds& b = scan->bounds();
    BSONElement lo = b.start.isEmpty() ? BSONElement() : b.start.firstElement();
    BSONElement hi = b.end.isEmpty() ? BSONElement() : b.end.firstElement();
    // Only ObjectId or open bounds: other types would compare under the index's collation.
    if ((!isOpenBound(lo) && lo.type() != BSONType::kOid) ||
        (!isOpenBound(hi) && hi.type() != BSONType::kOid))
        return;
    if ((!lo.eoo() && lo.type() == BSONType::kMaxKey) ||
        (!hi.eoo() && hi.type() == BSONType::kMinKey))
        return;
    RecordId first(1), last(std::numeric_limits<std::int64_t>::max());
    if (lo.type() == BSONType::kOid)
        first = RecordStore::timeRangeStart(lo.OID().getTimestamp());
    if (hi.type() == BSONType::kOid) {
        const uint32_t s = hi.OID().getTimestamp();
        // `_id < ObjectId(s, 0...)` holds no record of second s.
        if (!b.endInclusive && oidTailIsZero(hi.OID()) && s > 0)
            last = RecordStore::timeRangeEnd(s - 1);
        else
            last = RecordStore::timeRangeEnd(s);
    }
    _rangeScan = scan;
    const bool forward = scan->isForward();
    _range = _coll->recordStore()->getCursor(opCtx->recoveryUnit(), forward);
    if (forward) {
        (void)_range->seekExact(RecordId(first.getLong() - 1));  // next(): from `first` on
        _range->setEndBound(last);
    } else {
        if (last.getLong() < std::numeric_limits<std::int64_t>::max())
            (void)_range->seekExact(RecordId(last.getLong() + 1));
        _range->setEndBound(first);
    }
}

namespace {

/** compareElementValues() of an _id and a bound; two ObjectIds (buckets') by their bytes. */
int compareId(const BSONElement& id, const BSONElement& bound) {
    if (id.type() == BSONType::kOid && bound.type() == BSONType::kOid)
        return std::memcmp(id.value(), bound.value(), OID::kOIDSize);
    return compareElementValues(id, bound);
}

}  // namespace

bool FetchStage::_inIdBounds(const BSONObj& doc) const {
    const IndexBounds& b = _rangeScan->bounds();
    BSONElement id = doc["_id"];
    if (!b.start.isEmpty()) {
        int c = compareId(id, b.start.firstElement());
        if (c < 0 || (c == 0 && !b.startInclusive))
            return false;
    }
    if (!b.end.isEmpty()) {
        int c = compareId(id, b.end.firstElement());
        if (c > 0 || (c == 0 && !b.endInclusive))
            return false;
    }
    return true;
}

std::optional<WorkingMember> FetchStage::_nextInTimeRange(OperationContext* opCtx) {
    // The records of one second come in insertion order; the index gives _id order. Those
    // kept of each second are collected and sorted by _id before they are returned.
    const bool forward = _rangeScan->isForward();
    while (_pendingPos >= _pending.size()) {
        _pending.clear();
        _pendingPos = 0;
        if (_carry) {
            _pending.push_back(std::move(*_carry));
            _carry.reset();
        }
        while (!_rangeDone) {
            // Matched in place; only a document kept is copied.
            auto r = _range->nextIf([&](const BSONObj& d) {
                ++_stats.works;
                ++_stats.docsExamined;
                if ((_stats.docsExamined & 127) == 0)
                    opCtx->checkForInterrupt();
                return _inIdBounds(d) && (!_filter || _filter->matchesBSON(d));
            });
            if (!r) {
                _rangeDone = true;
                ++_stats.works;
                _rangeScan->setStoppedAtBound(_range->readPastBound());
                break;
            }
            WorkingMember m{r->id, std::move(r->data)};
            if (!_pending.empty() && (_pending.front().id.getLong() >> RecordStore::kTimeShift) !=
                                         (m.id.getLong() >> RecordStore::kTimeShift)) {
                _carry = std::move(m);
                break;
            }
            _pending.push_back(std::move(m));
        }
        if (_pending.size() > 1) {
            const StringComparator* strings = _coll->getDefaultCollator();
            std::stable_sort(_pending.begin(), _pending.end(),
                             [&](const WorkingMember& a, const WorkingMember& b) {
                                 int c = compareElementValues(a.doc["_id"], b.doc["_id"], strings);
                                 return forward ? c < 0 : c > 0;
                             });
        }
        if (_pending.empty())
            return std::nullopt;
    }
    ++_stats.advanced;
    return std::move(_pending[_pendingPos++]);
}

void FetchStage::save() {
    PlanStage::save();
    if (_range)
        _range->save();
}

void FetchStage::restore(OperationContext* opCtx) {
    PlanStage::restore(opCtx);
    if (_range)
        _range->restore();
}

std::optional<WorkingMember> FetchStage::next(OperationContext* opCtx) {
    if (!_rangeChecked)
        _setUpTimeRange(opCtx);
    if (_range)
        return _nextInTimeRange(opCtx);
    while (true) {
        ++_stats.works;
        auto m = _children[0]->next(opCtx);
        if (!m)
            return std::nullopt;
        // Matched in place; only a document returned is copied.
        BSONObj doc;
        bool kept = false;
        if (!_coll->recordStore()->findRecordIf(
                opCtx->recoveryUnit(), m->id,
                [&](const BSONObj& d) { return !_filter || _filter->matchesBSON(d); }, &doc, &kept))
            continue;
        ++_stats.docsExamined;
        if (!kept) {
            if ((_stats.docsExamined & 127) == 0)
                opCtx->checkForInterrupt();
            continue;
        }
        ++_stats.advanced;
        return WorkingMember{m->id, std::move(doc), std::move(m->indexKey), m->textScore};
    }
}

void FetchStage::appendExplainInfo(BSONObjBuilder* bob) const {
    appendFilter(bob, _filter);
}

SortStage::SortStage(std::unique_ptr<PlanStage> child, std::shared_ptr<SortPattern> pattern,
                     BSONObj patternObj, long long limit, long long maxMemoryBytes,
                     bool allowDiskUse)
    : _pattern(std::move(pattern)),
      _patternObj(patternObj.getOwned()),
      _limit(limit),
      _maxMemory(maxMemoryBytes),
      _allowDiskUse(allowDiskUse) {
    _children.push_back(std::move(child));
}

namespace {
constexpr StringData kSpillIdField = "i";
constexpr StringData kSpillDocField = "d";
constexpr StringData kSpillScoreField = "s";

/** A spilled member: its record id (update/delete-with-sort need it), document, text score. */
BSONObj spillRecord(const WorkingMember& m) {
    BSONObjBuilder b;
    b.append(kSpillIdField, m.id.getLong());
    b.append(kSpillDocField, m.doc);
    if (m.textScore)
        b.append(kSpillScoreField, *m.textScore);
    return b.obj();
}
}  // namespace

SortStage::~SortStage() = default;

void SortStage::_spill() {
    _external = std::make_unique<ExternalSorter>(_pattern, _maxMemory, true);
    for (auto& k : _sorted) {
        // The record id travels with the document: update/delete-with-sort need it.
        _external->add(k.key, spillRecord(k.member));
    }
    _sorted.clear();
    _sorted.shrink_to_fit();
}

void SortStage::_load(OperationContext* opCtx) {
    _loaded = true;
    long long bytes = 0;
    auto less = [this](const Keyed& a, const Keyed& b) {
        return _pattern->compareSortKeys(a.key, b.key) < 0;
    };
    while (auto m = _children[0]->next(opCtx)) {
        ++_stats.works;
        if (opCtx && (_stats.works & 127) == 0)  // null in stage unit tests
            opCtx->checkForInterrupt();
        if (_external) {
            _external->add(_pattern->getSortKey(m->doc, m->textScore), spillRecord(*m));
            continue;
        }
        BSONObj key = _pattern->getSortKey(m->doc, m->textScore);
        bytes += m->doc.objsize() + key.objsize();
        _sorted.push_back(Keyed{std::move(key), std::move(*m)});
        if (_limit > 0 && static_cast<long long>(_sorted.size()) > 2 * _limit + 64) {
            // Keep the top `limit` only: bounded memory for top-k sorts.
            std::stable_sort(_sorted.begin(), _sorted.end(), less);
            _sorted.resize(_limit);
            bytes = 0;
            for (const auto& k : _sorted)
                bytes += k.member.doc.objsize() + k.key.objsize();
        }
        if (bytes > _maxMemory) {
            uassert(ErrorCodes::QueryExceededMemoryLimitNoDiskUseAllowed,
                    "Sort exceeded memory limit of " + std::to_string(_maxMemory) +
                        " bytes, but did not opt in to external sorting.",
                    _allowDiskUse);
            _spill();
        }
    }
    if (_external) {
        _external->finish();
        return;
    }
    std::stable_sort(_sorted.begin(), _sorted.end(), less);
    if (_limit > 0 && static_cast<long long>(_sorted.size()) > _limit)
        _sorted.resize(_limit);
}

std::optional<WorkingMember> SortStage::next(OperationContext* opCtx) {
    if (!_loaded)
        _load(opCtx);
    if (_external) {
        if (_limit > 0 && _returned >= _limit)
            return std::nullopt;
        auto wrapped = _external->next();
        if (!wrapped)
            return std::nullopt;
        ++_returned;
        ++_stats.advanced;
        WorkingMember m{RecordId(wrapped->getField(kSpillIdField).numberLong()),
                        wrapped->getField(kSpillDocField).Obj().getOwned()};
        if (BSONElement score = wrapped->getField(kSpillScoreField); score.isNumber())
            m.textScore = score.numberDouble();
        return m;
    }
    if (_pos >= _sorted.size())
        return std::nullopt;
    ++_stats.advanced;
    return std::move(_sorted[_pos++].member);
}

void SortStage::appendExplainInfo(BSONObjBuilder* bob) const {
    bob->append("sortPattern", _patternObj);
    bob->append("memLimit", _maxMemory);
    if (_limit > 0)
        bob->append("limitAmount", _limit);
    bob->append("type", "simple");
}

void SortStage::appendExecutionStats(BSONObjBuilder* bob) const {
    bob->append("usedDisk", _external && _external->usedDisk());
    bob->appendNumber("spills", _external ? static_cast<long long>(_external->numRuns()) : 0);
}

namespace {
/** One component of nestDottedFields' tree: a value, or the fields below. */
struct DottedNode {
    StringData name;
    BSONElement value;
    std::vector<DottedNode> children;
};

void insertDotted(std::vector<DottedNode>* level, StringData path, const BSONElement& v) {
    const size_t dot = path.find('.');
    StringData head = dot == StringData::npos ? path : path.substr(0, dot);
    auto it = std::find_if(level->begin(), level->end(),
                           [&](const DottedNode& n) { return n.name == head; });
    if (it == level->end()) {
        level->push_back(DottedNode{head, BSONElement(), {}});
        it = level->end() - 1;
    }
    if (dot == StringData::npos)
        it->value = v;
    else
        insertDotted(&it->children, path.substr(dot + 1), v);
}

void buildDotted(BSONObjBuilder* b, const std::vector<DottedNode>& level) {
    for (const auto& n : level) {
        if (!n.value.eoo()) {
            b->appendAs(n.value, n.name);
        } else {
            BSONObjBuilder sub(b->subobjStart(n.name));
            buildDotted(&sub, n.children);
        }
    }
}
}  // namespace

BSONObj nestDottedFields(const std::vector<std::pair<StringData, BSONElement>>& fields) {
    std::vector<DottedNode> top;
    for (const auto& [path, v] : fields)
        insertDotted(&top, path, v);
    BSONObjBuilder b;
    buildDotted(&b, top);
    return b.obj();
}

ProjectionCoveredStage::ProjectionCoveredStage(std::unique_ptr<PlanStage> child,
                                               std::vector<std::string> paths)
    : _paths(std::move(paths)) {
    _children.push_back(std::move(child));
}

std::optional<WorkingMember> ProjectionCoveredStage::next(OperationContext* opCtx) {
    ++_stats.works;
    auto m = _children[0]->next(opCtx);
    if (!m)
        return std::nullopt;
    std::vector<std::pair<StringData, BSONElement>> fields;
    for (const auto& p : _paths) {
        BSONElement v = m->indexKey[p];
        if (!v.eoo())
            fields.emplace_back(p, v);
    }
    ++_stats.advanced;
    return WorkingMember{m->id, nestDottedFields(fields)};
}

void ProjectionCoveredStage::appendExplainInfo(BSONObjBuilder* bob) const {
    BSONObjBuilder t(bob->subobjStart("transformBy"));
    t.append("_id", std::find(_paths.begin(), _paths.end(), "_id") != _paths.end() ? 1 : 0);
    for (const auto& p : _paths)
        if (p != "_id")
            t.append(p, 1);
}

ExpressIndexScanStage::ExpressIndexScanStage(std::unique_ptr<PlanStage> inner,
                                             std::string keyPattern, std::string indexName)
    : _inner(std::move(inner)),
      _keyPattern(std::move(keyPattern)),
      _indexName(std::move(indexName)) {}

std::optional<WorkingMember> ExpressIndexScanStage::next(OperationContext* opCtx) {
    ++_stats.works;
    auto m = _inner->next(opCtx);
    StageStats inner;
    std::function<void(const PlanStage*)> add = [&](const PlanStage* s) {
        inner.keysExamined += s->stats().keysExamined;
        inner.docsExamined += s->stats().docsExamined;
        for (const auto& c : s->children())
            add(c.get());
    };
    add(_inner.get());
    _stats.keysExamined = inner.keysExamined;
    _stats.docsExamined = inner.docsExamined;
    if (m)
        ++_stats.advanced;
    return m;
}

void ExpressIndexScanStage::save() {
    _inner->save();
}

void ExpressIndexScanStage::restore(OperationContext* opCtx) {
    _inner->restore(opCtx);
}

void ExpressIndexScanStage::appendExplainInfo(BSONObjBuilder* bob) const {
    bob->append("keyPattern", _keyPattern);
    bob->append("indexName", _indexName);
}

SkipStage::SkipStage(std::unique_ptr<PlanStage> child, long long skip) : _skip(skip) {
    _children.push_back(std::move(child));
}

std::optional<WorkingMember> SkipStage::next(OperationContext* opCtx) {
    while (true) {
        ++_stats.works;
        auto m = _children[0]->next(opCtx);
        if (!m)
            return std::nullopt;
        if (_skipped < _skip) {
            if ((++_skipped & 127) == 0 && opCtx)
                opCtx->checkForInterrupt();
            continue;
        }
        ++_stats.advanced;
        return m;
    }
}

LimitStage::LimitStage(std::unique_ptr<PlanStage> child, long long limit) : _limit(limit) {
    _children.push_back(std::move(child));
}

std::optional<WorkingMember> LimitStage::next(OperationContext* opCtx) {
    if (_returned >= _limit)
        return std::nullopt;
    ++_stats.works;
    auto m = _children[0]->next(opCtx);
    if (m) {
        ++_returned;
        ++_stats.advanced;
    }
    return m;
}

ProjectionStage::ProjectionStage(std::unique_ptr<PlanStage> child, ProjectionFn fn, BSONObj spec,
                                 bool simple)
    : _fn(std::move(fn)), _spec(spec.getOwned()), _simple(simple) {
    _children.push_back(std::move(child));
}

std::optional<WorkingMember> ProjectionStage::next(OperationContext* opCtx) {
    ++_stats.works;
    auto m = _children[0]->next(opCtx);
    if (!m)
        return std::nullopt;
    m->doc = _useIndexKey && !m->indexKey.isEmpty() ? m->indexKey : _fn(*m);
    ++_stats.advanced;
    return m;
}

}  // namespace mongo
