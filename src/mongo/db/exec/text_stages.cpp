#include "mongo/db/exec/text_stages.h"

#include <absl/container/flat_hash_map.h>

#include "mongo/db/catalog/collection.h"
#include "mongo/db/exec/stages.h"
#include "mongo/db/fts/fts_matcher.h"
#include "mongo/db/fts/fts_query.h"
#include "mongo/db/fts/fts_spec.h"
#include "mongo/db/matcher/expression.h"
#include "mongo/db/matcher/expression_text.h"
#include "mongo/db/operation_context.h"
#include "mongo/util/assert_util.h"

namespace mongo {

TextOrStage::TextOrStage(std::shared_ptr<Collection> coll,
                         std::vector<std::unique_ptr<PlanStage>> scans,
                         std::shared_ptr<MatchExpression> filter)
    : _coll(std::move(coll)), _filter(std::move(filter)) {
    for (auto& s : scans)
        _children.push_back(std::move(s));
}

void TextOrStage::_scoreAll(OperationContext* opCtx) {
    _scored = true;
    absl::flat_hash_map<RecordId, size_t> slot;
    for (auto& scan : _children) {
        while (auto m = scan->next(opCtx)) {
            ++_stats.works;
            if (opCtx && (_stats.works & 127) == 0)
                opCtx->checkForInterrupt();
            // The key is {<prefix>.., _fts: term, _ftsx: score, <suffix>..}.
            const double score = m->indexKey[fts::FTSSpec::kFtsxField].numberDouble();
            auto [it, inserted] = slot.try_emplace(m->id, _scores.size());
            if (inserted)
                _scores.emplace_back(m->id, score);
            else
                _scores[it->second].second += score;
        }
    }
}

std::optional<WorkingMember> TextOrStage::next(OperationContext* opCtx) {
    if (!_scored)
        _scoreAll(opCtx);
    while (_pos < _scores.size()) {
        ++_stats.works;
        const auto& [id, score] = _scores[_pos++];
        BSONObj doc;
        bool kept = false;
        if (!_coll->recordStore()->findRecordIf(
                opCtx->recoveryUnit(), id,
                [&](const BSONObj& d) { return !_filter || _filter->matchesBSON(d); }, &doc, &kept))
            continue;  // deleted since the scan
        ++_stats.docsExamined;
        if (!kept) {
            if ((_stats.docsExamined & 127) == 0)
                opCtx->checkForInterrupt();
            continue;
        }
        ++_stats.advanced;
        WorkingMember m{id, std::move(doc)};
        m.textScore = score;
        return m;
    }
    return std::nullopt;
}

void TextOrStage::appendExplainInfo(BSONObjBuilder*) const {}

IndexUnionStage::IndexUnionStage(std::vector<std::unique_ptr<PlanStage>> scans) {
    for (auto& s : scans)
        _children.push_back(std::move(s));
}

std::optional<WorkingMember> IndexUnionStage::next(OperationContext* opCtx) {
    while (_current < _children.size()) {
        ++_stats.works;
        auto m = _children[_current]->next(opCtx);
        if (!m) {
            ++_current;
            continue;
        }
        ++_dupsTested;
        if (!_seen.insert(m->id).second) {
            ++_dupsDropped;
            if ((_dupsDropped & 127) == 0)
                opCtx->checkForInterrupt();
            continue;
        }
        ++_stats.advanced;
        return WorkingMember{m->id, BSONObj()};
    }
    return std::nullopt;
}

void IndexUnionStage::appendExecutionStats(BSONObjBuilder* bob) const {
    bob->append("dupsTested", _dupsTested);
    bob->append("dupsDropped", _dupsDropped);
}

TextMatchStage::TextMatchStage(std::unique_ptr<PlanStage> child,
                               std::shared_ptr<const fts::FTSMatcher> matcher, bool needsCheck,
                               std::string indexName, BSONObj indexPrefix)
    : _matcher(std::move(matcher)),
      _needsCheck(needsCheck),
      _indexName(std::move(indexName)),
      _indexPrefix(indexPrefix.getOwned()) {
    _children.push_back(std::move(child));
}

std::optional<WorkingMember> TextMatchStage::next(OperationContext* opCtx) {
    while (true) {
        ++_stats.works;
        auto m = _children[0]->next(opCtx);
        if (!m)
            return std::nullopt;
        if (_needsCheck && !_matcher->matches(m->doc)) {
            ++_docsRejected;
            continue;
        }
        ++_stats.advanced;
        return m;
    }
}

void TextMatchStage::appendExplainInfo(BSONObjBuilder* bob) const {
    bob->append("indexPrefix", _indexPrefix);
    bob->append("indexName", _indexName);
    bob->append("parsedTextQuery", _matcher->query().toExplainBSON());
    bob->append("textIndexVersion", static_cast<int>(_matcher->spec().version()));
}

void TextMatchStage::appendExecutionStats(BSONObjBuilder* bob) const {
    bob->append("docsRejected", _docsRejected);
}

}  // namespace mongo

namespace mongo {

namespace {

/**
 * The value of a top-level equality on `field` in `filter` (also inside a top-level $and),
 * or EOO. Unlike the field predicates it keeps arrays and objects: a prefix field of a text
 * index never holds an array, so an array equality pins a part of the index with no keys.
 */
BSONElement prefixEquality(const BSONObj& filter, StringData field) {
    for (BSONElement e : filter) {
        const StringData name = e.fieldNameStringData();
        if (name == "$and" && e.type() == BSONType::kArray) {
            for (BSONElement sub : e.embeddedObject())
                if (sub.type() == BSONType::kObject)
                    if (BSONElement v = prefixEquality(sub.embeddedObject(), field); !v.eoo())
                        return v;
            continue;
        }
        if (name != field)
            continue;
        if (e.type() != BSONType::kObject ||
            !e.embeddedObject().firstElementFieldNameStringData().starts_with("$"))
            return e.type() == BSONType::kRegEx ? BSONElement() : e;
        for (BSONElement op : e.embeddedObject())
            if (op.fieldNameStringData() == "$eq")
                return op;
    }
    return BSONElement();
}

}  // namespace

std::unique_ptr<PlanStage> buildTextPlan(const std::shared_ptr<Collection>& coll,
                                         const TextMatchExpression& text,
                                         const std::shared_ptr<MatchExpression>& filter,
                                         const BSONObj& filterSpec,
                                         const std::map<std::string, FieldPredicate>& preds,
                                         bool apiStrict, bool needsScore) {
    // Text indexes are outside API Version 1: under apiStrict none is usable.
    IndexEntry* index = nullptr;
    bool excluded = false;  // a text index the query may not use (apiStrict)
    for (const auto& idx : coll->indexes())
        if (idx->desc.textSpec && !idx->desc.hidden) {
            if (apiStrict)
                excluded = true;
            else
                index = idx.get();
        }
    uassert(ErrorCodes::NoQueryExecutionPlans,
            "error processing query: ns=" + coll->ns().ns() +
                " planner returned error :: caused by :: No query solutions",
            index || !excluded);
    uassert(ErrorCodes::IndexNotFound, "text index required for $text query", index);
    const fts::FTSSpec& spec = *index->desc.textSpec;
    const auto& params = text.params();
    auto query = uassertStatusOK(
        fts::FTSQuery::parse(params.search, params.language, params.caseSensitive,
                             params.diacriticSensitive, spec.defaultLanguage(), spec.version()));
    // Equalities on the prefix fields pin the part of the index each term is looked up in.
    BSONObjBuilder prefixExplain;
    BSONObjBuilder prefixKey;
    for (const std::string& field : spec.prefixFields()) {
        auto p = preds.find(field);
        BSONElement eq = p != preds.end() && p->second.eq ? p->second.eq->firstElement()
                                                          : prefixEquality(filterSpec, field);
        uassert(ErrorCodes::NoQueryExecutionPlans,
                "error processing query: ns=" + coll->ns().ns() +
                    " planner returned error :: caused by :: failed to use text index to satisfy "
                    "$text query (if text index is compound, are equality predicates given for "
                    "all prefix fields?)",
                !eq.eoo());
        prefixKey.appendAs(eq, "");
        prefixExplain.appendAs(eq, field);
    }
    const BSONObj prefix = prefixKey.obj();
    std::vector<std::unique_ptr<PlanStage>> scans;
    for (const std::string& term : query.termsForBounds()) {
        BSONObjBuilder k;
        k.appendElements(prefix);
        k.append("", fts::FTSSpec::indexTerm(term));
        IndexBounds bounds;
        bounds.start = k.obj();
        bounds.end = bounds.start;
        auto scan = std::make_unique<IndexScanStage>(coll, index, bounds, true);
        scan->setReturnKeys(true);
        scans.push_back(std::move(scan));
    }
    auto matcher = std::make_shared<const fts::FTSMatcher>(query, index->desc.textSpec);
    const bool needsCheck = matcher->hasNegationsOrPhrasesOrSensitivity();
    // The filter's own $text node accepts every candidate; TEXT_MATCH does the checking.
    text.bind(matcher, false);
    std::unique_ptr<PlanStage> candidates;
    if (needsScore)
        candidates = std::make_unique<TextOrStage>(coll, std::move(scans), filter);
    else if (scans.size() == 1)  // one term: its scan finds each record once
        candidates = std::make_unique<FetchStage>(coll, std::move(scans.front()), filter);
    else
        candidates = std::make_unique<FetchStage>(
            coll, std::make_unique<IndexUnionStage>(std::move(scans)), filter);
    return std::make_unique<TextMatchStage>(std::move(candidates), matcher, needsCheck,
                                            index->desc.name, prefixExplain.obj());
}

namespace {

const std::string kTextUnderOrError =
    " planner returned error :: caused by :: Failed to produce a solution for TEXT under OR - "
    "other non-TEXT clauses under OR have to be indexed as well.";

/** Whether the $or clause `clause` is `text` or an $and holding it ({$text, pre: 3}). */
bool holdsText(const MatchExpression* clause, const TextMatchExpression* text) {
    return topLevelTextExpression(clause) == text;
}

/** The $or of `root` (the root itself, or in its $and) that has `text` as a clause, or null. */
const MatchExpression* orHolding(const MatchExpression* root, const TextMatchExpression* text) {
    if (root->matchType() == MatchExpression::MatchType::kOr) {
        for (size_t i = 0; i < root->numChildren(); ++i)
            if (holdsText(root->getChild(i), text))
                return root;
        return nullptr;
    }
    if (root->matchType() != MatchExpression::MatchType::kAnd)
        return nullptr;
    for (size_t i = 0; i < root->numChildren(); ++i)
        if (const MatchExpression* o = orHolding(root->getChild(i), text))
            return o;
    return nullptr;
}

/** Whether some index of `coll` could answer `clause` (a predicate on its leading field). */
bool clauseIsIndexed(const Collection& coll, const MatchExpression& clause, bool apiStrict) {
    std::map<std::string, FieldPredicate> preds;
    analyzeFieldPredicates(clause.serialize(), &preds);
    for (const auto& [path, p] : preds) {
        if (!p.eq && !p.low && !p.high && !p.hasUnion())
            continue;
        for (const auto& idx : coll.indexes()) {
            const IndexDescriptor& d = idx->desc;
            if (d.hidden || d.isTextIndex() || !d.partialFilterExpression.isEmpty() ||
                (apiStrict && d.sparse))
                continue;
            if (d.keyPattern.firstElementFieldNameStringData() == path)
                return true;
        }
    }
    return false;
}

}  // namespace

std::unique_ptr<PlanStage> buildTextUnderOrPlan(const std::shared_ptr<Collection>& coll,
                                                const TextMatchExpression& text,
                                                const std::shared_ptr<MatchExpression>& filter,
                                                const BSONObj& filterSpec,
                                                const std::map<std::string, FieldPredicate>& preds,
                                                bool apiStrict) {
    const MatchExpression* orNode = orHolding(filter.get(), &text);
    uassert(ErrorCodes::NoQueryExecutionPlans,
            "error processing query: ns=" + coll->ns().ns() + kTextUnderOrError, orNode);
    for (size_t i = 0; i < orNode->numChildren(); ++i) {
        const MatchExpression* clause = orNode->getChild(i);
        uassert(ErrorCodes::NoQueryExecutionPlans,
                "error processing query: ns=" + coll->ns().ns() + kTextUnderOrError,
                holdsText(clause, &text) || clauseIsIndexed(*coll, *clause, apiStrict));
    }
    // The prefix equalities may also come from the $text clause itself ({$text, pre: 3}).
    BSONObj clause;
    for (size_t i = 0; i < orNode->numChildren(); ++i)
        if (holdsText(orNode->getChild(i), &text))
            clause = orNode->getChild(i)->serialize();
    const BSONObj prefixSpec = BSON("$and" << BSON_ARRAY(filterSpec << clause));
    auto textPlan = buildTextPlan(coll, text, nullptr, prefixSpec, preds, apiStrict);
    auto scan = std::make_unique<CollectionScanStage>(coll, true, filter);
    return std::make_unique<TextUnionStage>(std::move(textPlan), std::move(scan), text);
}

TextUnionStage::TextUnionStage(std::unique_ptr<PlanStage> text, std::unique_ptr<PlanStage> scan,
                               const TextMatchExpression& node)
    : _node(node) {
    _children.push_back(std::move(text));
    _children.push_back(std::move(scan));
}

std::optional<WorkingMember> TextUnionStage::next(OperationContext* opCtx) {
    if (!_collected) {
        _collected = true;
        auto members = std::make_shared<TextMatchExpression::Members>();
        while (auto m = _children[0]->next(opCtx)) {
            ++_stats.works;
            if ((_stats.works & 127) == 0)
                opCtx->checkForInterrupt();
            members->insert(TextMatchExpression::memberKey(m->doc));
            _scores[m->id] = m->textScore.value_or(0);
        }
        _node.bindMembers(std::move(members));
    }
    ++_stats.works;
    auto m = _children[1]->next(opCtx);
    if (!m)
        return std::nullopt;
    if (auto it = _scores.find(m->id); it != _scores.end())
        m->textScore = it->second;
    ++_stats.advanced;
    return m;
}

}  // namespace mongo
