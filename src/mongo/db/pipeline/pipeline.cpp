#include "mongo/db/pipeline/pipeline.h"

#include "mongo/db/matcher/expression_text.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/pipeline/document_source_internal_unpack_bucket.h"
#include "mongo/db/pipeline/document_source_limit.h"
#include "mongo/db/pipeline/document_source_match.h"
#include "mongo/db/pipeline/document_source_sort.h"
#include "mongo/db/pipeline/expression.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/util/assert_util.h"
#include "mongo/util/time_support.h"

namespace mongo {

std::unique_ptr<Pipeline> Pipeline::parse(const std::vector<BSONObj>& stages,
                                          std::shared_ptr<ExpressionContext> expCtx) {
    ensureExprMatchParserInstalled();
    // Before parsing anything, refuse a pipeline so long that parsing it could exhaust memory.
    const int maxStages = gInternalPipelineLengthLimit.load();
    uassert(7749501,
            "Pipeline length must be no longer than " + std::to_string(maxStages) + " stages.",
            stages.size() <= static_cast<size_t>(maxStages));
    std::unique_ptr<Pipeline> p(new Pipeline(expCtx));
    for (const auto& s : stages) {
        for (auto& st : parseDocumentSource(s, expCtx))
            p->_stages.push_back(std::move(st));
    }
    size_t i = 0, n = p->_stages.size();
    // {aggregate: 1} needs a first stage that makes its own documents; said before the
    // stages' positions are checked, as upstream does.
    if (expCtx->subPipelineDepth == 0 && expCtx->ns.coll() == "$cmd.aggregate")
        p->uassertCollectionless();
    for (const auto& st : p->_stages) {
        StageConstraints c = st->constraints();
        // $text needs the find layer's TEXT plan, which only a leading $match reaches.
        if (auto* m = dynamic_cast<const DocumentSourceMatch*>(st.get()))
            uassert(17313, "$match with $text is only allowed as the first pipeline stage",
                    (i == 0 && expCtx->subPipelineDepth == 0) || !m->getMatcher() ||
                        !findTextExpression(m->getMatcher().get()));
        if (c.requiresLast)
            uassert(
                40601,
                std::string(st->getSourceName()) + " can only be the final stage in the pipeline",
                i + 1 == n);
        if (c.requiresFirst)
            uassert(40602,
                    std::string(st->getSourceName()) +
                        " is only valid as the first stage in a pipeline",
                    i == 0);
        ++i;
    }
    // At the top level $documents makes the documents of {aggregate: 1}: it has no place in
    // an aggregate over a collection.
    uassert(ErrorCodes::InvalidNamespace, "$documents can only be run with {aggregate: 1}",
            n == 0 || expCtx->subPipelineDepth > 0 ||
                std::string_view(p->_stages.front()->getSourceName()) != "$documents" ||
                expCtx->ns.coll() == "$cmd.aggregate");
    return p;
}

void Pipeline::optimize() {
    auto it = _stages.begin();
    int guard = 0;
    while (it != _stages.end() && guard++ < 10000)
        it = (*it)->optimizeAt(it, &_stages);
}

FindPlanParams Pipeline::extractFindParams() {
    FindPlanParams params = _takeFindStages();
    // The $text plan scores its documents only when a later stage (or the sort) reads them.
    if (!params.matcher || !findTextExpression(params.matcher.get()))
        return params;
    BSONArrayBuilder rest;
    for (const auto& stage : _stages)
        stage->serialize(&rest);
    params.needsTextScore = mentionsTextScore(params.sort) || mentionsTextScore(rest.arr());
    return params;
}

FindPlanParams Pipeline::_takeFindStages() {
    FindPlanParams params;
    params.allowDiskUse = _expCtx->allowDiskUse;
    params.maxSortMemoryBytes = _expCtx->maxMemoryBytes;
    if (_stages.empty() || isCollectionless())
        return params;
    // The find layer uses the operation's collation: the $match's matcher already has it
    // (DocumentSourceMatch), the sort pattern gets it here. The context owns it.
    params.collator = _expCtx->getCollator();
    if (auto* m = dynamic_cast<DocumentSourceMatch*>(_stages.front().get())) {
        params.filter = m->getQuery();
        params.matcher = m->getMatcher();
        _stages.pop_front();
    }
    if (_stages.empty())
        return params;
    if (auto* s = dynamic_cast<DocumentSourceSort*>(_stages.front().get())) {
        params.sort = s->getSpec();
        params.sortPattern = std::make_shared<SortPattern>(s->getPattern());
        params.sortPattern->setCollator(_expCtx->getCollator());
        params.limit = s->getLimit();
        _stages.pop_front();
        if (params.limit > 0) {
            takeSkipWithinLimit(&params);
            return params;
        }
    }
    if (!_stages.empty())
        if (auto* s = dynamic_cast<DocumentSourceSkip*>(_stages.front().get())) {
            params.skip = s->getSkip();
            _stages.pop_front();
        }
    if (!_stages.empty())
        if (auto* l = dynamic_cast<DocumentSourceLimit*>(_stages.front().get())) {
            params.limit = l->getLimit();
            _stages.pop_front();
            if (params.skip == 0)
                takeSkipWithinLimit(&params);
        }
    return params;
}

void Pipeline::takeSkipWithinLimit(FindPlanParams* params) {
    // {$limit: l}, {$skip: s} with s < l (what $skip + $limit optimise to) is the find layer's
    // skip s, limit l - s.
    if (_stages.empty())
        return;
    auto* s = dynamic_cast<DocumentSourceSkip*>(_stages.front().get());
    if (!s || s->getSkip() >= params->limit)
        return;
    params->skip = s->getSkip();
    params->limit -= s->getSkip();
    _stages.pop_front();
}

void Pipeline::attachExecutor(std::unique_ptr<PlanExecutor> exec,
                              std::shared_ptr<const SortPattern> order) {
    _exec = exec.get();
    _input = std::make_unique<DocumentSourceCursor>(_expCtx, std::move(exec), std::move(order));
}

void Pipeline::attachSource(StagePtr source) {
    _input = std::move(source);
}

bool Pipeline::isCollectionless() const {
    return !_stages.empty() && !_stages.front()->constraints().needsInput;
}

void Pipeline::uassertCollectionless() const {
    uassert(ErrorCodes::InvalidNamespace,
            "{aggregate: 1} is not valid for '" +
                std::string(_stages.empty() ? "" : _stages.front()->getSourceName()) +
                "'; a collection is required.",
            isCollectionless());
}

namespace {

/** Counts and times the documents a stage returns (explain executionStats). */
class DocumentSourceStatsProxy final : public DocumentSource {
public:
    DocumentSourceStatsProxy(std::shared_ptr<ExpressionContext> expCtx, DocumentSource* inner,
                             StageExecStats* stats)
        : DocumentSource(std::move(expCtx)), _inner(inner), _stats(stats) {}
    std::optional<BSONObj> getNext() override {
        long long start = curTimeMicros64();
        auto doc = _inner->getNext();
        _stats->micros += curTimeMicros64() - start;
        if (doc)
            ++_stats->nReturned;
        return doc;
    }
    const char* getSourceName() const override {
        return _inner->getSourceName();
    }
    void serialize(BSONArrayBuilder* out) const override {
        _inner->serialize(out);
    }

private:
    DocumentSource* _inner;
    StageExecStats* _stats;
};

}  // namespace

void Pipeline::stitch() {
    _stitched = true;
    _stats.assign(_stages.size(), StageExecStats{});
    _measured.assign(_stages.size(), false);
    auto wrap = [this](DocumentSource* s, StageExecStats* stats, bool* measured) {
        if (!_collectStats || !s || dynamic_cast<DocumentSourceInternalUnpackBucket*>(s))
            return s;
        *measured = true;
        _proxies.push_back(std::make_unique<DocumentSourceStatsProxy>(_expCtx, s, stats));
        return _proxies.back().get();
    };
    DocumentSource* prev = wrap(_input.get(), &_inputStats, &_inputMeasured);
    size_t i = 0;
    for (auto& st : _stages) {
        st->setSource(prev);
        bool measured = false;
        prev = wrap(st.get(), &_stats[i], &measured);
        _measured[i++] = measured;
    }
    _output = prev;
}

std::optional<BSONObj> Pipeline::getNext() {
    if (!_stitched)
        stitch();
    return _output ? _output->getNext() : std::nullopt;
}

const StageExecStats* Pipeline::stageStats(int i) const {
    if (i < 0)
        return _inputMeasured ? &_inputStats : nullptr;
    if (static_cast<size_t>(i) >= _measured.size() || !_measured[i])
        return nullptr;
    return &_stats[i];
}

std::vector<BSONObj> Pipeline::serialize() const {
    BSONArrayBuilder arr;
    for (const auto& st : _stages)
        st->serialize(&arr);
    std::vector<BSONObj> out;
    for (auto e : arr.arr())
        out.push_back(e.Obj().getOwned());
    return out;
}

std::optional<BSONObj> DocumentSourceCursor::getNext() {
    BSONObj doc;
    RecordId id;
    if (!_exec->getNext(_expCtx->opCtx, &doc, &id))
        return std::nullopt;
    clearMetadata();
    if (_order && !_order->empty())
        setSortKeyMetadata(*_order, doc);
    if (_expCtx->needsRecordIdMetadata && id.isValid()) {
        _metadata.recordId = id.getLong();
        _expCtx->variables.metadata = &_metadata;
    }
    if (auto score = _exec->lastTextScore()) {
        _metadata.textScore = score;
        _expCtx->variables.metadata = &_metadata;
    }
    return doc;
}

}  // namespace mongo
