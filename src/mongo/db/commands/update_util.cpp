#include "mongo/db/commands/update_util.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/op_observer.h"
#include "mongo/db/commands/write_commands.h"
#include "mongo/db/db_raii.h"
#include "mongo/db/matcher/expression.h"
#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/matcher/expression_sort.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/db/storage/write_conflict_exception.h"
#include "mongo/db/timeseries/timeseries_commands.h"
#include "mongo/db/update/update_driver.h"
#include "mongo/idl/write_ops_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {

namespace {

void checkIdUnchanged(const BSONObj& pre, const BSONObj& post) {
    BSONElement a = pre["_id"], b = post["_id"];
    if (a.eoo())
        return;
    uassert(ErrorCodes::ImmutableField,
            "Performing an update on the path '_id' would modify the immutable field '_id'",
            !b.eoo() && a.binaryEqualValues(b));
}

/**
 * The filter as the positional `$` reads it: in canonical form (expression_sort.h), so the
 * array an $and evaluates last sets the position, as upstream. Null without a filter.
 */
std::unique_ptr<MatchExpression> positionalMatcher(const FindPlanParams& params) {
    if (!params.matcher)
        return nullptr;
    auto m = canonicalizeMatchExpression(uassertStatusOK(parseMatchExpression(params.filter)));
    m->setCollator(params.matcher->getCollator());
    return m;
}

std::optional<std::string> matchedIndexFor(const MatchExpression* matcher, const BSONObj& doc) {
    if (!matcher)
        return std::nullopt;
    MatchDetails details;
    details.requestElemMatchKey();
    matcher->matchesBSON(doc, &details);
    if (details.hasElemMatchKey())
        return details.elemMatchKey();
    return std::nullopt;
}

}  // namespace

void checkFindAndModifyOptions(const FindAndModifyCommandRequest& cmd) {
    const bool remove = cmd.getRemove().value_or(false);
    uassert(ErrorCodes::FailedToParse, "Either an update or remove=true must be specified",
            remove || cmd.getUpdate());
    uassert(ErrorCodes::FailedToParse, "Cannot specify both an update and remove=true",
            !(remove && cmd.getUpdate()));
    uassert(ErrorCodes::FailedToParse, "Cannot specify both upsert=true and remove=true",
            !(remove && cmd.getUpsert().value_or(false)));
    uassert(ErrorCodes::FailedToParse,
            "Cannot specify both new=true and remove=true; 'remove' always returns the deleted "
            "document",
            !(remove && cmd.getNew().value_or(false)));
}

UpdateOutcome performUpdate(OperationContext* opCtx, const NamespaceString& nss,
                            const FindPlanParams& params, const UpdateDriver& driver, bool multi,
                            bool upsert) {
    uassert(ErrorCodes::FailedToParse, "multi update is not supported for replacement-style update",
            !(multi && driver.isReplacement()));
    UpdateOutcome out;
    std::unique_ptr<MatchExpression> positional =
        driver.needsMatchDetails() ? positionalMatcher(params) : nullptr;
    AutoGetCollection coll(
        opCtx, nss,
        upsert ? AutoGetCollection::Mode::kWriteCreate : AutoGetCollection::Mode::kWrite);
    RecoveryUnit* ru = opCtx->recoveryUnit();
    writeConflictRetry(ru, "update", [&] {
        out = UpdateOutcome();
        WriteUnitOfWork wuow(ru);
        if (coll) {
            FindPlanParams p = params;
            if (!multi)
                p.limit = 1;
            auto exec = buildFindPlan(opCtx, coll.getCollection(), p);
            opCtx->setPlanSummary(exec->planSummary());
            std::vector<std::pair<RecordId, BSONObj>> targets;
            BSONObj doc;
            RecordId id;
            while (exec->getNext(opCtx, &doc, &id)) {
                if (targets.empty())
                    out.textScore = exec->lastTextScore();
                targets.emplace_back(id, doc.getOwned());
            }
            exec.reset();
            for (const auto& [tid, pre] : targets) {
                if ((out.matched & 127) == 127)
                    opCtx->checkForInterrupt();
                UpdateApplyParams ap;
                ap.computeDiff = getOpObserver()->wantsUpdateDiffs() && !driver.isReplacement();
                if (driver.needsMatchDetails())
                    ap.matchedArrayIndex = matchedIndexFor(positional.get(), pre);
                UpdateResult r = uassertStatusOK(driver.apply(pre, ap));
                ++out.matched;
                if (!out.preImage)
                    out.preImage = pre;
                if (r.changed) {
                    checkIdUnchanged(pre, r.newDoc);
                    uassert(ErrorCodes::BSONObjectTooLarge,
                            "Resulting document after update is larger than 16777216",
                            r.newDoc.objsize() <= BSONObjMaxUserSize);
                    // A direct update of a bucket may not make it mixed-schema (408); the
                    // validator (121, in updateDocument) is checked first, as upstream.
                    if (coll->ns().isTimeseriesBucketsCollection() &&
                        coll->passesValidation(opCtx, r.newDoc))
                        uassertStatusOK(
                            timeseries::checkDirectBucketInsert(*coll.getCollection(), r.newDoc));
                    coll->updateDocument(opCtx, tid, pre, r.newDoc, r.diff);
                    ++out.modified;
                }
                if (!out.postImage)
                    out.postImage = r.newDoc.getOwned();
            }
        }
        if (out.matched == 0 && upsert) {
            UpdateApplyParams ap;
            ap.isInsert = true;
            BSONObj doc = uassertStatusOK(driver.produceUpsertDocument(params.filter, ap));
            doc = uassertStatusOK(fixDocumentForInsert(doc));
            coll->insertDocument(opCtx, doc);
            BSONObjBuilder idb;
            idb.append(doc["_id"]);
            out.upsertedId = idb.obj();
            out.postImage = doc;
        }
        wuow.commit();
    });
    ru->abandonSnapshot();
    return out;
}

std::optional<BSONObj> performDeleteOne(OperationContext* opCtx, const NamespaceString& nss,
                                        const FindPlanParams& params,
                                        std::optional<double>* textScore) {
    AutoGetCollection coll(opCtx, nss, AutoGetCollection::Mode::kWrite);
    if (!coll)
        return std::nullopt;
    RecoveryUnit* ru = opCtx->recoveryUnit();
    std::optional<BSONObj> deleted;
    writeConflictRetry(ru, "findAndModify", [&] {
        deleted.reset();
        WriteUnitOfWork wuow(ru);
        FindPlanParams p = params;
        p.limit = 1;
        auto exec = buildFindPlan(opCtx, coll.getCollection(), p);
        BSONObj doc;
        RecordId id;
        if (exec->getNext(opCtx, &doc, &id)) {
            deleted = doc.getOwned();
            if (textScore)
                *textScore = exec->lastTextScore();
            exec.reset();
            coll->deleteDocument(opCtx, id, *deleted);
        }
        wuow.commit();
    });
    ru->abandonSnapshot();
    return deleted;
}

}  // namespace mongo
