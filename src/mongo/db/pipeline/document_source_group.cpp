#include "mongo/db/pipeline/document_source_group.h"

#include "mongo/db/pipeline/document_source_sort.h"
#include "mongo/util/assert_util.h"

namespace mongo {

DocumentSourceGroup::DocumentSourceGroup(std::shared_ptr<ExpressionContext> expCtx,
                                         const BSONObj& spec)
    : DocumentSource(std::move(expCtx)), _spec(spec.getOwned()) {
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

DocumentSourceGroup::DocumentSourceGroup(std::shared_ptr<ExpressionContext> expCtx,
                                         ExprPtr idExpr, std::vector<AccumulationStatement> accs,
                                         BSONObj spec)
    : DocumentSource(std::move(expCtx)),
      _spec(spec.getOwned()),
      _idExpr(std::move(idExpr)),
      _accs(std::move(accs)) {}

void DocumentSourceGroup::populate() {
    _populated = true;
    Variables* vars = &_expCtx->variables;
    size_t mem = 0;
    const size_t limit = static_cast<size_t>(_expCtx->maxMemoryBytes);
    while (auto doc = _source->getNext()) {
        Value key = _idExpr->evaluate(*doc, vars);
        if (key.missing())
            key = Value::null();
        auto it = _index.find(key);
        size_t idx;
        if (it == _index.end()) {
            Group g;
            g.key = key.getOwned();
            g.accs.reserve(_accs.size());
            for (const auto& a : _accs)
                g.accs.push_back(a.factory());
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
            size_t before = acc->memUsage();
            acc->process(_accs[i].expr->evaluate(*doc, vars));
            mem += acc->memUsage() - before;
        }
        if (mem > limit) {
            uassert(ErrorCodes::QueryExceededMemoryLimitNoDiskUseAllowed,
                    "Exceeded memory limit for $group, but didn't allow external sort. Pass "
                    "allowDiskUse:true to opt in.",
                    _expCtx->allowDiskUse);
        }
    }
    _index.clear();
}

std::optional<BSONObj> DocumentSourceGroup::getNext() {
    if (!_populated)
        populate();
    if (_pos >= _groups.size())
        return std::nullopt;
    Group& g = _groups[_pos++];
    BSONObjBuilder b;
    g.key.addToBsonObj(&b, "_id");
    for (size_t i = 0; i < _accs.size(); ++i)
        g.accs[i]->getValue().addToBsonObj(&b, _accs[i].fieldName);
    g.accs.clear();
    g.key = Value();
    return b.obj();
}

void DocumentSourceGroup::serialize(BSONArrayBuilder* out) const {
    BSONObjBuilder b(out->subobjStart());
    b.append("$group", _spec);
}

namespace {

const bool kRegistered = [] {
    registerDocumentSource("$group", [](const BSONElement& e,
                                        const std::shared_ptr<ExpressionContext>& expCtx) {
        uassert(15947, "a group's fields must be specified in an object",
                e.type() == BSONType::kObject);
        std::vector<StagePtr> out;
        out.push_back(std::make_unique<DocumentSourceGroup>(expCtx, e.Obj()));
        return out;
    });
    registerDocumentSource("$sortByCount", [](const BSONElement& e,
                                              const std::shared_ptr<ExpressionContext>& expCtx) {
        if (e.type() == BSONType::kObject) {
            uassert(40147,
                    "the sortKey argument to $sortByCount must be an expression object",
                    !e.Obj().isEmpty() && e.Obj().firstElementFieldNameStringData().starts_with("$"));
        } else {
            uassert(40148, "the sortKey argument to $sortByCount must be a $-prefixed path or an "
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
