#include "mongo/db/exec/plan_stage.h"

#include <algorithm>

#include "mongo/db/operation_context.h"

namespace mongo {

bool PlanExecutor::getNext(OperationContext* opCtx, BSONObj* out, RecordId* id) {
    if (_eof)
        return false;
    opCtx->checkForInterrupt();
    auto m = _root->next(opCtx);
    if (!m) {
        _eof = true;
        return false;
    }
    *out = std::move(m->doc);
    if (id)
        *id = m->id;
    ++_nReturned;
    return true;
}

namespace {
void appendStage(const PlanStage* s, BSONObjBuilder* b, bool withStats) {
    b->append("stage", s->stageName());
    if (withStats) {
        b->appendNumber("nReturned", s->stats().advanced);
        b->appendNumber("works", s->stats().works);
        if (s->stageName() == "IXSCAN" || s->stageName() == "DISTINCT_SCAN")
            b->appendNumber("keysExamined", s->stats().keysExamined);
        if (s->stageName() == "COLLSCAN" || s->stageName() == "FETCH")
            b->appendNumber("docsExamined", s->stats().docsExamined);
        s->appendExecutionStats(b);
    }
    s->appendExplainInfo(b);
    const auto& kids = s->children();
    if (kids.size() == 1) {
        BSONObjBuilder in(b->subobjStart("inputStage"));
        appendStage(kids[0].get(), &in, withStats);
    } else if (kids.size() > 1) {
        BSONArrayBuilder arr(b->subarrayStart("inputStages"));
        for (const auto& k : kids) {
            BSONObjBuilder in(arr.subobjStart());
            appendStage(k.get(), &in, withStats);
        }
    }
}

void collectLeaves(const PlanStage* s, std::vector<std::string>* out) {
    const auto& kids = s->children();
    if (!kids.empty()) {
        for (const auto& k : kids)
            collectLeaves(k.get(), out);
        return;
    }
    std::string leaf = s->stageName();
    BSONObjBuilder info;
    s->appendExplainInfo(&info);
    BSONObj infoObj = info.obj();
    if (infoObj["keyPattern"].type() == BSONType::kObject)
        leaf += " " + infoObj["keyPattern"].Obj().toString();
    if (std::find(out->begin(), out->end(), leaf) == out->end())
        out->push_back(std::move(leaf));
}

void sumStats(const PlanStage* s, StageStats* t) {
    t->keysExamined += s->stats().keysExamined;
    t->docsExamined += s->stats().docsExamined;
    for (const auto& k : s->children())
        sumStats(k.get(), t);
}
}  // namespace

BSONObj PlanExecutor::explainPlan(bool withStats) const {
    BSONObjBuilder b;
    appendStage(_root.get(), &b, withStats);
    return b.obj();
}

std::string PlanExecutor::planSummary() const {
    std::vector<std::string> leaves;
    collectLeaves(_root.get(), &leaves);
    std::string out;
    for (const auto& l : leaves)
        out += (out.empty() ? "" : ", ") + l;
    return out;
}

StageStats PlanExecutor::totals() const {
    StageStats t;
    sumStats(_root.get(), &t);
    return t;
}

}  // namespace mongo
