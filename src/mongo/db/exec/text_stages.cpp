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
                [&](const BSONObj& d) { return !_filter || _filter->matchesBSON(d); }, &doc,
                &kept))
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

std::unique_ptr<PlanStage> buildTextPlan(const std::shared_ptr<Collection>& coll,
                                         const TextMatchExpression& text,
                                         const std::shared_ptr<MatchExpression>& filter,
                                         const std::map<std::string, FieldPredicate>& preds,
                                         bool apiStrict) {
    // Text indexes are outside API Version 1: under apiStrict none is usable.
    IndexEntry* index = nullptr;
    for (const auto& idx : coll->indexes())
        if (idx->desc.textSpec && !idx->desc.hidden && !apiStrict)
            index = idx.get();
    uassert(ErrorCodes::IndexNotFound, "text index required for $text query", index);
    const fts::FTSSpec& spec = *index->desc.textSpec;
    const auto& params = text.params();
    auto query = uassertStatusOK(fts::FTSQuery::parse(params.search, params.language,
                                                      params.caseSensitive,
                                                      params.diacriticSensitive,
                                                      spec.defaultLanguage(), spec.version()));
    // Equalities on the prefix fields pin the part of the index each term is looked up in.
    BSONObjBuilder prefixExplain;
    BSONObjBuilder prefixKey;
    for (const std::string& field : spec.prefixFields()) {
        auto p = preds.find(field);
        uassert(ErrorCodes::NoQueryExecutionPlans,
                "error processing query: ns=" + coll->ns().ns() +
                    " planner returned error :: caused by :: failed to use text index to satisfy "
                    "$text query (if text index is compound, are equality predicates given for "
                    "all prefix fields?)",
                p != preds.end() && p->second.eq);
        prefixKey.appendAs(p->second.eq->firstElement(), "");
        prefixExplain.appendAs(p->second.eq->firstElement(), field);
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
    auto textOr = std::make_unique<TextOrStage>(coll, std::move(scans), filter);
    return std::make_unique<TextMatchStage>(std::move(textOr), matcher, needsCheck,
                                            index->desc.name, prefixExplain.obj());
}

}  // namespace mongo
