#include "mongo/db/pipeline/pipeline.h"

#include "mongo/db/operation_context.h"
#include "mongo/db/pipeline/document_source_limit.h"
#include "mongo/db/pipeline/document_source_match.h"
#include "mongo/db/pipeline/document_source_sort.h"
#include "mongo/db/pipeline/expression.h"
#include "mongo/util/assert_util.h"

namespace mongo {

std::unique_ptr<Pipeline> Pipeline::parse(const std::vector<BSONObj>& stages,
                                          std::shared_ptr<ExpressionContext> expCtx) {
    ensureExprMatchParserInstalled();
    std::unique_ptr<Pipeline> p(new Pipeline(expCtx));
    for (const auto& s : stages) {
        for (auto& st : parseDocumentSource(s, expCtx))
            p->_stages.push_back(std::move(st));
    }
    size_t i = 0, n = p->_stages.size();
    for (const auto& st : p->_stages) {
        StageConstraints c = st->constraints();
        if (c.requiresLast)
            uassert(40601, std::string(st->getSourceName()) +
                               " can only be the final stage in the pipeline",
                    i + 1 == n);
        if (c.requiresFirst)
            uassert(40602, std::string(st->getSourceName()) +
                               " is only valid as the first stage in a pipeline",
                    i == 0);
        ++i;
    }
    return p;
}

void Pipeline::optimize() {
    auto it = _stages.begin();
    int guard = 0;
    while (it != _stages.end() && guard++ < 10000)
        it = (*it)->optimizeAt(it, &_stages);
}

FindPlanParams Pipeline::extractFindParams() {
    FindPlanParams params;
    params.allowDiskUse = _expCtx->allowDiskUse;
    params.maxSortMemoryBytes = _expCtx->maxMemoryBytes;
    if (_stages.empty() || isCollectionless())
        return params;
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
        params.limit = s->getLimit();
        _stages.pop_front();
        if (params.limit > 0)
            return params;
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
        }
    return params;
}

void Pipeline::attachExecutor(std::unique_ptr<PlanExecutor> exec) {
    _exec = exec.get();
    _input = std::make_unique<DocumentSourceCursor>(_expCtx, std::move(exec));
}

void Pipeline::attachSource(StagePtr source) {
    _input = std::move(source);
}

bool Pipeline::isCollectionless() const {
    return !_stages.empty() && !_stages.front()->constraints().needsInput;
}

void Pipeline::stitch() {
    _stitched = true;
    DocumentSource* prev = _input.get();
    for (auto& st : _stages) {
        st->setSource(prev);
        prev = st.get();
    }
}

std::optional<BSONObj> Pipeline::getNext() {
    if (!_stitched)
        stitch();
    if (_stages.empty())
        return _input ? _input->getNext() : std::nullopt;
    return _stages.back()->getNext();
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
    if (!_exec->getNext(_expCtx->opCtx, &doc))
        return std::nullopt;
    return doc;
}

}  // namespace mongo
