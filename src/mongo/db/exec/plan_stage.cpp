#include "mongo/db/exec/plan_stage.h"

#include <algorithm>
#include <cmath>

#include "mongo/util/assert_util.h"

#include "mongo/db/exec/stages.h"
#include "mongo/db/operation_context.h"

namespace mongo {

bool PlanExecutor::getNext(OperationContext* opCtx, BSONObj* out, RecordId* id) {
    if (_eof)
        return false;
    opCtx->checkForInterrupt();
    std::optional<WorkingMember> m;
    try {
        m = _root->next(opCtx);
    } catch (const DBException& ex) {
        if (!_makeBackup || _nReturned > 0 ||
            ex.code() != ErrorCodes::QueryExceededMemoryLimitNoDiskUseAllowed)
            throw;
        _root = _makeBackup();
        _makeBackup = nullptr;
        return getNext(opCtx, out, id);
    }
    if (!m) {
        _eof = true;
        return false;
    }
    *out = std::move(m->doc);
    if (id)
        *id = m->id;
    _lastTextScore = m->textScore;
    ++_nReturned;
    return true;
}

namespace {
/** The clustered-index scan under FETCH `s`, when explain shows the pair as CLUSTERED_IXSCAN. */
const IndexScanStage* clusteredScanUnder(const PlanStage* s) {
    if (s->stageName() != "FETCH" || s->children().size() != 1)
        return nullptr;
    auto* scan = dynamic_cast<const IndexScanStage*>(s->children()[0].get());
    return scan && scan->isClusteredScan() ? scan : nullptr;
}

void appendClusteredScan(const PlanStage* fetch, const IndexScanStage* scan, BSONObjBuilder* b,
                         bool withStats) {
    b->append("stage", scan->clusteredScanStageName());
    if (withStats) {
        b->appendNumber("nReturned", fetch->stats().advanced);
        b->appendNumber("works", fetch->stats().works);
        b->appendNumber("docsExamined", fetch->stats().docsExamined + scan->recordsReadPastBound());
    }
    fetch->appendExplainInfo(b);  // the filter
    scan->appendClusteredScanInfo(b);
}

void appendStage(const PlanStage* s, BSONObjBuilder* b, bool withStats) {
    if (auto* scan = clusteredScanUnder(s)) {
        appendClusteredScan(s, scan, b, withStats);
        return;
    }
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

/**
 * A key pattern as upstream's plan summaries print it: "{ a: 1, b: -1 }", whole numbers
 * without a fraction whatever their BSON type (shells send 1 as a double), other values as
 * BSON prints them ("2dsphere" quoted).
 */
std::string keyPatternSummary(const BSONObj& keyPattern) {
    std::string out = "{";
    bool first = true;
    for (BSONElement e : keyPattern) {
        out += first ? " " : ", ";
        first = false;
        out += std::string(e.fieldNameStringData()) + ": ";
        const double d = e.isNumber() ? e.numberDouble() : 0;
        if (e.isNumber() && std::trunc(d) == d && std::abs(d) < 1e15)
            out += std::to_string(static_cast<long long>(d));
        else
            out += e.toString(false);
    }
    return out + (first ? "}" : " }");
}

void collectLeaves(const PlanStage* s, std::vector<std::string>* out) {
    const auto& kids = s->children();
    if (!kids.empty()) {
        for (const auto& k : kids)
            collectLeaves(k.get(), out);
        return;
    }
    if (auto* scan = dynamic_cast<const IndexScanStage*>(s); scan && scan->isClusteredScan()) {
        std::string leaf = scan->clusteredScanStageName();
        if (std::find(out->begin(), out->end(), leaf) == out->end())
            out->push_back(std::move(leaf));
        return;
    }
    std::string leaf = s->stageName();
    BSONObjBuilder info;
    s->appendExplainInfo(&info);
    BSONObj infoObj = info.obj();
    if (infoObj["keyPattern"].type() == BSONType::kObject)
        leaf += " " + keyPatternSummary(infoObj["keyPattern"].Obj());
    else if (infoObj["keyPattern"].type() == BSONType::kString)  // EXPRESS_IXSCAN
        leaf += " " + infoObj["keyPattern"].str();
    if (std::find(out->begin(), out->end(), leaf) == out->end())
        out->push_back(std::move(leaf));
}

void sumStats(const PlanStage* s, StageStats* t) {
    // A clustered scan reads records, not keys (upstream counts none).
    auto* scan = dynamic_cast<const IndexScanStage*>(s);
    if (!(scan && scan->isClusteredScan()))
        t->keysExamined += s->stats().keysExamined;
    else
        t->docsExamined += scan->recordsReadPastBound();
    t->docsExamined += s->stats().docsExamined;
    for (const auto& k : s->children())
        sumStats(k.get(), t);
}
}  // namespace

QueryExecutorCounters& queryExecutorCounters() {
    static QueryExecutorCounters counters;
    return counters;
}

PlanExecutor::~PlanExecutor() {
    if (!_root)
        return;
    StageStats t = totals();
    auto& c = queryExecutorCounters();
    c.scanned.fetch_add(t.keysExamined, std::memory_order_relaxed);
    c.scannedObjects.fetch_add(t.docsExamined, std::memory_order_relaxed);
}

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

namespace {
bool hasStageNamed(const PlanStage* s, StringData name) {
    if (s->stageName() == name)
        return true;
    for (const auto& k : s->children())
        if (hasStageNamed(k.get(), name))
            return true;
    return false;
}
}  // namespace

bool PlanExecutor::hasStage(StringData name) const {
    return hasStageNamed(_root.get(), name);
}

StageStats PlanExecutor::totals() const {
    StageStats t;
    sumStats(_root.get(), &t);
    return t;
}

}  // namespace mongo
