#include "mongo/db/pipeline/document_source_internal_streaming_group.h"

#include <algorithm>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/util/assert_util.h"

namespace mongo {

DocumentSourceInternalStreamingGroup::DocumentSourceInternalStreamingGroup(
    std::shared_ptr<ExpressionContext> expCtx, const BSONObj& groupSpec,
    std::vector<std::string> monotonicIdFields)
    : DocumentSource(std::move(expCtx)),
      _spec(groupSpec.getOwned()),
      _monotonicIdFields(std::move(monotonicIdFields)) {
    auto vps = _expCtx->makeParseState();
    BSONElement idElem;
    for (auto e : _spec) {
        if (e.fieldNameStringData() == "_id") {
            uassert(15948, "a group's _id may only be specified once", !_idExpr);
            _idExpr = Expression::parseOperand(_expCtx.get(), e, vps);
            idElem = e;
            continue;
        }
        _accs.push_back(parseAccumulationStatement(_expCtx.get(), e, vps));
    }
    uassert(15955, "a group specification must include an _id", _idExpr);
    uassert(7026702, "$_internalStreamingGroup needs a non-empty $monotonicIdFields",
            !_monotonicIdFields.empty());
    _scalarId = _monotonicIdFields.size() == 1 && _monotonicIdFields[0] == "_id";
    bool objectId = idElem.type() == BSONType::kObject && !idElem.Obj().isEmpty() &&
                    !idElem.Obj().firstElementFieldNameStringData().starts_with("$");
    for (const auto& f : _monotonicIdFields)
        uassert(7026705, "$monotonicIdFields names a field the group _id does not have: " + f,
                _scalarId || (objectId && idElem.Obj().hasField(f)));
    // A constant _id makes one group: nothing to stream over.
    const bool expressionId =
        idElem.type() == BSONType::kObject ||
        (idElem.type() == BSONType::kString && idElem.valueStringData().starts_with("$"));
    uassert(7026708, "$monotonicIdFields: [\"_id\"] needs a group _id that is not a constant",
            !_scalarId || expressionId);
}

Value DocumentSourceInternalStreamingGroup::monotonicPart(const Value& key) const {
    if (_scalarId)
        return key;
    std::vector<Value> parts;
    BSONObj doc = key.isObject() ? key.getDocument() : BSONObj();
    for (const auto& f : _monotonicIdFields) {
        BSONElement e = doc.getField(f);
        parts.push_back(e.eoo() ? Value::null() : Value(e));
    }
    return Value(parts);
}

void DocumentSourceInternalStreamingGroup::fillRun() {
    _groups.clear();
    const StringComparator* strings = _expCtx->getCollator();
    _index = decltype(_index)(0, ValueHash{strings}, ValueEq{strings});
    _pos = 0;
    Variables* vars = &_expCtx->variables;
    std::optional<Value> runValue;
    while (true) {
        std::optional<BSONObj> doc = _pending ? std::move(_pending) : _source->getNext();
        _expCtx->checkForInterruptEvery128();
        _pending.reset();
        if (!doc) {
            _eof = true;
            break;
        }
        ScopedFieldCache fieldCache(vars, *doc);
        Value key = _idExpr->evaluate(*doc, vars);
        if (key.missing())
            key = Value::null();
        Value mono = monotonicPart(key);
        if (!runValue) {
            runValue = mono.getOwned();
        } else if (Value::compare(*runValue, mono, strings) != 0) {
            _pending = doc->getOwned();  // starts the next run
            break;
        }
        auto it = _index.find(key);
        size_t idx;
        if (it == _index.end()) {
            Group g;
            g.key = key.getOwned();
            for (const auto& a : _accs)
                g.accs.push_back(a.makeForGroup(g.key));
            idx = _groups.size();
            _groups.push_back(std::move(g));
            _index.emplace(_groups.back().key, idx);
        } else {
            idx = it->second;
        }
        Group& g = _groups[idx];
        for (size_t i = 0; i < _accs.size(); ++i)
            g.accs[i]->process(_accs[i].expr->evaluate(*doc, vars));
    }
    if (!_groups.empty())
        ++_runs;
    _maxGroupsInRun = std::max(_maxGroupsInRun, _groups.size());
    _index.clear();
}

std::optional<BSONObj> DocumentSourceInternalStreamingGroup::getNext() {
    while (_pos >= _groups.size()) {
        if (_eof)
            return std::nullopt;
        fillRun();
    }
    clearMetadata();
    return _groups[_pos++].release(_accs);
}

void DocumentSourceInternalStreamingGroup::serialize(BSONArrayBuilder* out) const {
    BSONObjBuilder b(out->subobjStart());
    BSONObjBuilder spec(b.subobjStart(kStageName));
    spec.appendElements(_spec);
    BSONArrayBuilder names(spec.subarrayStart(kMonotonicIdFields));
    for (const auto& f : _monotonicIdFields)
        names.append(f);
}

void DocumentSourceInternalStreamingGroup::appendExplainStats(BSONObjBuilder* b) const {
    b->append("usedDisk", false);
    b->append("spills", 0LL);
}

namespace {

const bool kRegistered = [] {
    registerDocumentSource(
        DocumentSourceInternalStreamingGroup::kStageName,
        [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& expCtx) {
            uassert(15947, "a group's fields must be specified in an object",
                    e.type() == BSONType::kObject);
            BSONObjBuilder group;
            std::vector<std::string> monotonic;
            for (auto f : e.Obj()) {
                if (f.fieldNameStringData() !=
                    DocumentSourceInternalStreamingGroup::kMonotonicIdFields) {
                    group.append(f);
                    continue;
                }
                uassert(ErrorCodes::FailedToParse, "$monotonicIdFields must be an array",
                        f.type() == BSONType::kArray);
                for (auto n : f.Obj()) {
                    uassert(ErrorCodes::FailedToParse, "$monotonicIdFields must hold field names",
                            n.type() == BSONType::kString);
                    monotonic.push_back(n.str());
                }
            }
            std::vector<StagePtr> out;
            out.push_back(std::make_unique<DocumentSourceInternalStreamingGroup>(
                expCtx, group.obj(), std::move(monotonic)));
            return out;
        });
    return true;
}();

}  // namespace
}  // namespace mongo
