#include "mongo/db/pipeline/document_source_group_by_distinct_scan.h"

#include <set>
#include <string>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/exec/distinct_scan.h"
#include "mongo/db/exec/stages.h"
#include "mongo/db/pipeline/document_source_group.h"
#include "mongo/db/pipeline/document_source_internal_unpack_bucket.h"
#include "mongo/db/pipeline/document_source_project.h"
#include "mongo/db/pipeline/expression.h"
#include "mongo/db/pipeline/unpack_dependencies.h"
#include "mongo/db/query/collation/collator_interface.h"

namespace mongo {

namespace {

constexpr StringData kStageName = "$groupByDistinctScan";

/** "$a.b" -> "a.b"; nullopt for anything but a plain field path. */
std::optional<std::string> fieldPath(const BSONElement& e) {
    if (e.type() != BSONType::kString)
        return std::nullopt;
    StringData s = e.valueStringData();
    if (s.size() < 2 || !s.starts_with("$") || s.starts_with("$$"))
        return std::nullopt;
    return std::string(s.substr(1));
}

/** The parts of a $group spec a distinct scan needs. */
struct DistinctGroup {
    std::vector<std::string> paths;  // group key paths
    bool last = false;               // $last accumulators: the last document per group
    BSONObj newRoot;                 // explain form {_id: <key>, f: <operand>...}
    BSONObj evalRoot;                // the same with $group's null for missing values
};

BSONObj nullIfMissing(const BSONElement& e) {
    BSONObjBuilder b;
    if (e.type() == BSONType::kString && e.valueStringData() == "$$ROOT") {
        b.append("", e.valueStringData());
        return b.obj();
    }
    BSONObjBuilder ifNull(b.subobjStart(""));
    BSONArrayBuilder args(ifNull.subarrayStart("$ifNull"));
    args.append(e);
    args.append(BSONNULL);
    args.done();
    ifNull.done();
    return b.obj();
}

std::optional<DistinctGroup> parseGroup(const BSONObj& spec) {
    DistinctGroup g;
    BSONObjBuilder root, eval;
    std::optional<bool> last;
    for (auto f : spec) {
        StringData name = f.fieldNameStringData();
        if (name == "_id") {
            if (f.type() == BSONType::kObject) {
                BSONObjBuilder sub(eval.subobjStart("_id"));
                for (auto k : f.embeddedObject()) {
                    auto p = fieldPath(k);
                    if (!p || k.fieldNameStringData().starts_with("$"))
                        return std::nullopt;
                    g.paths.push_back(*p);
                    sub.appendAs(nullIfMissing(k).firstElement(), k.fieldNameStringData());
                }
            } else {
                auto p = fieldPath(f);
                if (!p)
                    return std::nullopt;
                g.paths.push_back(*p);
                eval.appendAs(nullIfMissing(f).firstElement(), "_id");
            }
            root.append(f);
            continue;
        }
        if (f.type() != BSONType::kObject || f.embeddedObject().nFields() != 1)
            return std::nullopt;
        BSONElement acc = f.embeddedObject().firstElement();
        StringData op = acc.fieldNameStringData();
        if (op != "$first" && op != "$last")
            return std::nullopt;
        if (last && *last != (op == "$last"))
            return std::nullopt;
        last = op == "$last";
        root.appendAs(acc, name);
        eval.appendAs(nullIfMissing(acc).firstElement(), name);
    }
    if (g.paths.empty() || !last)
        return std::nullopt;
    g.last = *last;
    g.newRoot = root.obj();
    g.evalRoot = eval.obj();
    return g;
}

BSONObj reversedSort(const BSONObj& sort) {
    BSONObjBuilder b;
    for (auto s : sort)
        b.append(s.fieldNameStringData(), s.isNumber() ? -s.numberDouble() : 0.0);
    return b.obj();
}

/** Whether the find layer's filter is decided by the group key alone. */
bool filterConstantPerGroup(const BSONObj& filter, const std::vector<std::string>& paths) {
    if (filter.isEmpty())
        return true;
    auto fields = matchFilterFields(filter);
    if (!fields)
        return false;
    for (const auto& f : *fields)
        if (std::find(paths.begin(), paths.end(), f) == paths.end())
            return false;
    return true;
}

bool indexEligible(const IndexEntry& index, const CollatorInterface* collator) {
    const IndexDescriptor& d = index.desc;
    return index.sdi && !d.hidden && !d.sparse && d.isBtreeOnly() &&
           d.partialFilterExpression.isEmpty() && !index.multikey && !d.multikey &&
           CollatorInterface::collatorsMatch(d.collator(), collator);
}

/** The last-point shape: $group, then $replaceRoot, then $_internalUnpackBucket. */
bool isLastPointGroup(StageList& stages) {
    if (stages.size() < 3)
        return false;
    auto it = stages.begin();
    if (!dynamic_cast<DocumentSourceGroup*>(it->get()))
        return false;
    ++it;
    if (std::string((*it)->getSourceName()) != "$replaceRoot")
        return false;
    ++it;
    return dynamic_cast<DocumentSourceInternalUnpackBucket*>(it->get()) != nullptr;
}

}  // namespace

std::unique_ptr<PlanExecutor> planGroupByDistinctScan(OperationContext* opCtx,
                                                      const std::shared_ptr<Collection>& coll,
                                                      Pipeline* pipeline,
                                                      const FindPlanParams& params) {
    if (!coll || params.sort.isEmpty() || !params.sortPattern || params.skip > 0 ||
        params.limit > 0 || !params.hint.isEmpty() || !params.hintName.empty())
        return nullptr;
    StageList& stages = pipeline->stages();
    if (!isLastPointGroup(stages))
        return nullptr;
    auto* group = static_cast<DocumentSourceGroup*>(stages.front().get());
    if (!group->groupSpec())
        return nullptr;
    auto g = parseGroup(*group->groupSpec());
    if (!g || !filterConstantPerGroup(params.filter, g->paths))
        return nullptr;
    const BSONObj sort = g->last ? reversedSort(params.sort) : params.sort;

    for (const auto& index : coll->indexes()) {
        if (!indexEligible(*index, params.collator))
            continue;
        auto forward = distinctScanDirection(index->desc.keyPattern, g->paths, sort);
        if (!forward)
            continue;
        auto scan = std::make_unique<DistinctScanStage>(
            coll, index.get(), static_cast<int>(g->paths.size()), *forward);
        auto fetch = std::make_unique<FetchStage>(coll, std::move(scan), params.matcher);

        const auto& expCtx = pipeline->getExpCtx();
        BSONObj evalSpec = BSON("newRoot" << g->evalRoot);
        auto newRoot = Expression::parseOperand(expCtx.get(), evalSpec.firstElement(),
                                                expCtx->makeParseState());
        stages.front() = std::make_unique<DocumentSourceSingleDocumentTransformation>(
            expCtx, std::move(newRoot), std::string(kStageName), BSON("newRoot" << g->newRoot));
        return std::make_unique<PlanExecutor>(std::move(fetch));
    }
    return nullptr;
}

}  // namespace mongo
