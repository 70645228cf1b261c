#include "mongo/db/pipeline/document_source_group.h"

#include "mongo/db/pipeline/collation_keys.h"
#include "mongo/db/pipeline/document_source_internal_unpack_bucket.h"
#include "mongo/db/pipeline/document_source_sort.h"
#include "mongo/db/pipeline/group_over_buckets.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

/** The bytes of groups $group may hold before it spills (allowDiskUse) or fails. */
long long groupMemoryLimit(const ExpressionContext& expCtx) {
    return std::min(expCtx.maxMemoryBytes, gInternalDocumentSourceGroupMaxMemoryBytes.load());
}

}  // namespace

DocumentSourceGroup::DocumentSourceGroup(std::shared_ptr<ExpressionContext> expCtx,
                                         const BSONObj& spec)
    : DocumentSource(std::move(expCtx)), _spec(spec.getOwned()), _specIsGroupSpec(true) {
    auto vps = _expCtx->makeParseState();
    for (auto e : _spec) {
        if (e.fieldNameStringData() == "_id") {
            uassert(15948, "a group's _id may only be specified once", !_idExpr);
            _idExpr = Expression::parseOperand(_expCtx.get(), e, vps);
            continue;
        }
        _accs.push_back(parseAccumulationStatement(_expCtx.get(), e, vps));
    }
    uassert(15955, "a group specification must include an _id", _idExpr);
}

DocumentSourceGroup::DocumentSourceGroup(std::shared_ptr<ExpressionContext> expCtx, ExprPtr idExpr,
                                         std::vector<AccumulationStatement> accs, BSONObj spec)
    : DocumentSource(std::move(expCtx)),
      _spec(spec.getOwned()),
      _idExpr(std::move(idExpr)),
      _accs(std::move(accs)) {}

bool DocumentSourceGroup::populateFromBuckets() {
    auto* unpack = dynamic_cast<DocumentSourceInternalUnpackBucket*>(_source);
    if (!unpack || !_specIsGroupSpec || _expCtx->getCollator())
        return false;  // the block path groups with the simple collation only
    auto block = GroupOverBuckets::make(_expCtx, _spec, *unpack);
    if (!block)
        return false;
    block->processAll(unpack);
    for (auto& g : block->releaseGroups())
        _groups.push_back(Group{std::move(g.key), std::move(g.accs)});
    return true;
}

/**
 * The field name of a one-field literal-object _id ({_id: {a: "$a"}}), whose missing value
 * upstream groups as null (SERVER-21992; with several fields a missing one stays missing);
 * empty for any other _id.
 */
std::vector<std::string> objectIdFieldNames(const BSONObj& groupSpec) {
    std::vector<std::string> names;
    BSONElement id = groupSpec["_id"];
    if (id.type() != BSONType::kObject || id.embeddedObject().nFields() != 1 ||
        id.embeddedObject().firstElementFieldNameStringData().substr(0, 1) == "$")
        return names;
    for (auto f : id.embeddedObject())
        names.emplace_back(f.fieldNameStringData());
    return names;
}

/** `key` with each of `names` it lacks present as null, in the _id's order. */
Value withNullForMissingFields(const Value& key, const std::vector<std::string>& names) {
    if (names.empty() || !key.isObject())
        return key;
    BSONObj obj = key.getDocument();
    if (static_cast<size_t>(obj.nFields()) == names.size())
        return key;
    BSONObjBuilder b;
    for (const auto& n : names) {
        BSONElement e = obj[n];
        if (e.eoo())
            b.appendNull(n);
        else
            b.appendAs(e, n);
    }
    return Value(b.obj());
}

void DocumentSourceGroup::populate() {
    _populated = true;
    if (populateFromBuckets())
        return;
    Variables* vars = &_expCtx->variables;
    const StringComparator* strings = _expCtx->getCollator();
    // Keys equal under the collation share a group (the first-seen key is output).
    _index = decltype(_index)(0, ValueHash{strings}, ValueEq{strings});
    size_t mem = 0;
    const size_t limit = static_cast<size_t>(groupMemoryLimit(*_expCtx));
    bool canSpillPartials = true;
    for (const auto& a : _accs)
        canSpillPartials = canSpillPartials && a.factory()->canSpill();
    const std::vector<std::string> idNames = objectIdFieldNames(_spec);
    _inputCannotFail.clear();
    for (const auto& a : _accs)
        _inputCannotFail.push_back(dynamic_cast<const ExpressionFieldPath*>(a.expr.get()) !=
                                   nullptr);
    while (auto doc = _source->getNext()) {
        _expCtx->checkForInterruptEvery128();
        ScopedFieldCache fieldCache(vars, *doc);
        Value key = withNullForMissingFields(_idExpr->evaluate(*doc, vars), idNames);
        if (key.missing())
            key = Value::null();
        auto it = _index.find(key);
        if (it == _index.end() && _spill) {
            BSONObjBuilder kb;
            key.addToBsonObj(&kb, "");
            _spill->add(toComparisonKeys(kb.obj(), strings), *doc);
            continue;
        }
        size_t idx;
        if (it == _index.end()) {
            Group g;
            g.key = key.getOwned();
            g.accs.reserve(_accs.size());
            for (const auto& a : _accs)
                g.accs.push_back(a.makeForGroup(g.key));
            idx = _groups.size();
            _groups.push_back(std::move(g));
            _index.emplace(_groups.back().key, idx);
            mem += 128 + static_cast<size_t>(key.elem().size()) + 64 * _accs.size();
        } else {
            idx = it->second;
        }
        Group& g = _groups[idx];
        for (size_t i = 0; i < _accs.size(); ++i) {
            Accumulator* acc = g.accs[i].get();
            // ({$first: "$$ROOT"} after the sort of the last-point rewrite: each later
            // document of the group would be copied into a Value for nothing.)
            if (!acc->needsInput() && _inputCannotFail[i])
                continue;
            size_t before = acc->memUsage();
            acc->process(_accs[i].expr->evaluate(*doc, vars));
            mem += acc->memUsage() - before;
        }
        if (mem > limit && !_spill) {
            uassert(ErrorCodes::QueryExceededMemoryLimitNoDiskUseAllowed,
                    "Exceeded memory limit for $group, but didn't allow external sort. Pass "
                    "allowDiskUse:true to opt in.",
                    _expCtx->allowDiskUse);
            if (canSpillPartials) {
                spillPartialGroups();
                mem = 0;
                continue;
            }
            ++_spills;
            _spill = std::make_unique<ExternalSorter>(
                std::make_shared<SortPattern>(uassertStatusOK(SortPattern::parse(BSON("k" << 1)))),
                _expCtx->maxMemoryBytes, true);
        }
    }
    if (_partialSpill) {
        spillPartialGroups();  // the rest joins the sorted partials
        _partialSpill->finish();
    }
    if (_spill)
        _spill->finish();
    else
        _index.clear();
}

namespace {
const std::shared_ptr<SortPattern>& byKeyPattern() {
    static const auto kPattern =
        std::make_shared<SortPattern>(uassertStatusOK(SortPattern::parse(BSON("k" << 1))));
    return kPattern;
}
}  // namespace

void DocumentSourceGroup::spillPartialGroups() {
    if (!_partialSpill)
        _partialSpill = std::make_unique<ExternalSorter>(
            byKeyPattern(), std::max<long long>(1, groupMemoryLimit(*_expCtx) / 4), true);
    // The sorter keeps equal keys in insertion order, so the partials of one key come
    // back oldest first, as mergePartial() needs.
    const StringComparator* strings = _expCtx->getCollator();
    for (auto& g : _groups) {
        BSONObjBuilder kb;
        g.key.addToBsonObj(&kb, "");
        BSONObjBuilder db;
        g.key.addToBsonObj(&db, "k");
        {
            BSONArrayBuilder parts(db.subarrayStart("p"));
            for (const auto& acc : g.accs)
                acc->getPartial().addToBsonArray(&parts);
        }
        _partialSpill->add(toComparisonKeys(kb.obj(), strings), db.obj());
    }
    _groups.clear();
    _index.clear();
    ++_spills;
}

std::optional<BSONObj> DocumentSourceGroup::nextMergedGroup() {
    std::optional<Group> current;
    while (true) {
        if (!_pendingPartial) {
            _pendingPartial = _partialSpill->next();
            if (!_pendingPartial)
                break;
        }
        Value key(_pendingPartial->getField("k"));
        if (current && Value::compare(current->key, key, _expCtx->getCollator()) != 0)
            break;  // `_pendingPartial` starts the next group
        if (!current) {
            current.emplace();
            current->key = key.getOwned();
            for (const auto& a : _accs)
                current->accs.push_back(a.makeForGroup(current->key));
        }
        size_t i = 0;
        for (auto part : _pendingPartial->getField("p").Obj())
            current->accs[i++]->mergePartial(Value(part));
        _pendingPartial.reset();
    }
    if (!current)
        return std::nullopt;
    return current->release(_accs);
}

std::optional<BSONObj> DocumentSourceGroup::nextSpilledGroup() {
    Variables* vars = &_expCtx->variables;
    const std::vector<std::string> idNames = objectIdFieldNames(_spec);
    std::optional<Group> current;
    while (true) {
        if (!_pendingSpilled) {
            _pendingSpilled = _spill->next();
            if (!_pendingSpilled)
                break;
        }
        const BSONObj& doc = *_pendingSpilled;
        ScopedFieldCache fieldCache(vars, doc);
        Value key = withNullForMissingFields(_idExpr->evaluate(doc, vars), idNames);
        if (key.missing())
            key = Value::null();
        Group* target;
        auto it = _index.find(key);
        if (it != _index.end()) {
            target = &_groups[it->second];  // a group kept in memory
        } else if (current && Value::compare(current->key, key, _expCtx->getCollator()) == 0) {
            target = &*current;
        } else if (current) {
            break;  // key changed: `_pendingSpilled` starts the next group
        } else {
            current.emplace();
            current->key = key.getOwned();
            for (const auto& a : _accs)
                current->accs.push_back(a.makeForGroup(current->key));
            target = &*current;
        }
        for (size_t i = 0; i < _accs.size(); ++i)
            target->accs[i]->process(_accs[i].expr->evaluate(doc, vars));
        _pendingSpilled.reset();
    }
    if (!current)
        return std::nullopt;
    return current->release(_accs);
}

std::optional<BSONObj> DocumentSourceGroup::getNext() {
    if (!_populated)
        populate();
    clearMetadata();
    if (_partialSpill) {
        if (auto g = nextMergedGroup())
            return g;
        _partialSpill.reset();
        return std::nullopt;
    }
    if (_spill) {
        // Spilled groups first: they may still add to the groups kept in memory.
        if (auto g = nextSpilledGroup())
            return g;
        _spill.reset();
        _index.clear();
    }
    if (_pos >= _groups.size())
        return std::nullopt;
    return _groups[_pos++].release(_accs);
}

void DocumentSourceGroup::serialize(BSONArrayBuilder* out) const {
    BSONObjBuilder b(out->subobjStart());
    b.append("$group", _spec);
}

void DocumentSourceGroup::appendExplainStats(BSONObjBuilder* b) const {
    b->append("usedDisk", _spills > 0);
    b->append("spills", _spills);
}

namespace {

const bool kRegistered = [] {
    registerDocumentSource(
        "$group", [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& expCtx) {
            uassert(15947, "a group's fields must be specified in an object",
                    e.type() == BSONType::kObject);
            std::vector<StagePtr> out;
            out.push_back(std::make_unique<DocumentSourceGroup>(expCtx, e.Obj()));
            return out;
        });
    registerDocumentSource(
        "$sortByCount", [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& expCtx) {
            if (e.type() == BSONType::kObject) {
                uassert(40147, "the sortKey argument to $sortByCount must be an expression object",
                        !e.Obj().isEmpty() &&
                            e.Obj().firstElementFieldNameStringData().starts_with("$"));
            } else {
                uassert(40148,
                        "the sortKey argument to $sortByCount must be a $-prefixed path or an "
                        "expression object",
                        e.type() == BSONType::kString && e.valueStringData().starts_with("$"));
            }
            BSONObjBuilder spec;
            spec.appendAs(e, "_id");
            spec.append("count", BSON("$sum" << 1));
            std::vector<StagePtr> out;
            out.push_back(std::make_unique<DocumentSourceGroup>(expCtx, spec.obj()));
            out.push_back(std::make_unique<DocumentSourceSort>(expCtx, BSON("count" << -1)));
            return out;
        });
    return true;
}();

}  // namespace
}  // namespace mongo
