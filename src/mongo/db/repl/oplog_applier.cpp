#include "mongo/db/repl/oplog_applier.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/catalog/index_key_generator.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/query/collation/collator_interface.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/record_store.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/db/storage/write_conflict_exception.h"
#include "mongo/db/update/document_diff.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace repl {

std::optional<FoundDocument> findDocumentById(OperationContext* opCtx, Collection* coll,
                                              BSONElement idElem) {
    RecoveryUnit* ru = opCtx->recoveryUnit();
    if (IndexEntry* idx = coll->findIndexByName(IndexDescriptor::kIdIndexName)) {
        BSONObjBuilder kb;
        kb.appendAs(idElem, "");
        auto cursor = idx->sdi->newCursor(ru, true);
        // A collated _id index holds comparison keys for string _ids.
        auto e = cursor->seekExact(collationAwareKey(kb.obj(), idx->desc.collator()));
        if (!e)
            return std::nullopt;
        BSONObj doc;
        if (!coll->recordStore()->findRecord(ru, e->loc, &doc))
            return std::nullopt;
        return FoundDocument{e->loc, doc};
    }
    auto cursor = coll->recordStore()->getCursor(ru, true);
    while (auto rec = cursor->next()) {
        if (rec->data["_id"].binaryEqualValues(idElem))
            return FoundDocument{rec->id, rec->data};
    }
    return std::nullopt;
}

namespace {

void applyCrud(OperationContext* opCtx, char op, const NamespaceString& nss, const BSONObj& o,
               const BSONObj& o2, const ApplyOpsOptions& options) {
    auto* catalog = opCtx->getServiceContext()->catalog;
    std::shared_ptr<Collection> coll =
        op == 'i' ? catalog->getOrCreateCollection(opCtx, nss) : catalog->lookup(nss);
    uassert(ErrorCodes::NamespaceNotFound,
            "Failed to apply operation due to missing collection: " + nss.ns(), coll);
    std::shared_lock<std::shared_mutex> collLock(coll->lock());
    RecoveryUnit* ru = opCtx->recoveryUnit();
    writeConflictRetry(ru, "applyOps", [&] {
        WriteUnitOfWork wuow(ru);
        if (op == 'i') {
            BSONElement id = o["_id"];
            uassert(ErrorCodes::FailedToParse, "insert oplog entry requires o._id", !id.eoo());
            if (auto existing = findDocumentById(opCtx, coll.get(), id))
                coll->updateDocument(opCtx, existing->id, existing->doc, o);
            else
                coll->insertDocument(opCtx, o);
        } else if (op == 'u') {
            BSONElement id = o2["_id"];
            uassert(ErrorCodes::FailedToParse, "update oplog entry requires o2._id", !id.eoo());
            bool isDelta = o["$v"].ok();
            auto existing = findDocumentById(opCtx, coll.get(), id);
            if (isDelta) {
                uassert(ErrorCodes::FailedToParse, "unsupported $v in update oplog entry",
                        o["$v"].isNumber() && o["$v"].numberInt() == 2 &&
                            o["diff"].type() == BSONType::kObject);
                uassert(ErrorCodes::UpdateOperationFailed,
                        "Failed to apply delta update to a missing document: " + o2.toString(),
                        existing);
                BSONObj post = uassertStatusOK(doc_diff::applyDiff(existing->doc, o["diff"].Obj()));
                coll->updateDocument(opCtx, existing->id, existing->doc, post, o);
            } else if (existing) {
                BSONObj post = o;
                if (o["_id"].eoo()) {
                    BSONObjBuilder b;
                    b.append(id);
                    b.appendElements(o);
                    post = b.obj();
                }
                coll->updateDocument(opCtx, existing->id, existing->doc, post);
            } else {
                uassert(ErrorCodes::UpdateOperationFailed,
                        "Failed to apply update to a missing document: " + o2.toString(),
                        options.alwaysUpsert);
                BSONObjBuilder b;
                b.append(id);
                for (auto e : o) {
                    if (e.fieldNameStringData() != "_id")
                        b.append(e);
                }
                coll->insertDocument(opCtx, b.obj());
            }
        } else {
            BSONElement id = o["_id"];
            uassert(ErrorCodes::FailedToParse, "delete oplog entry requires o._id", !id.eoo());
            if (auto existing = findDocumentById(opCtx, coll.get(), id))
                coll->deleteDocument(opCtx, existing->id, existing->doc);
        }
        wuow.commit();
    });
    ru->abandonSnapshot();
}

}  // namespace

Status applyOplogEntry(OperationContext* opCtx, const BSONObj& entry,
                       const ApplyOpsOptions& options) {
    try {
        BSONElement opElem = entry["op"];
        uassert(ErrorCodes::FailedToParse, "oplog entry requires a string 'op' field",
                opElem.type() == BSONType::kString && opElem.valueStringData().size() == 1);
        char op = opElem.valueStringData()[0];
        if (op == 'n')
            return Status::OK();
        BSONElement nsElem = entry["ns"];
        BSONElement oElem = entry["o"];
        uassert(ErrorCodes::FailedToParse, "oplog entry requires a string 'ns' field",
                nsElem.type() == BSONType::kString);
        uassert(ErrorCodes::FailedToParse, "oplog entry requires an object 'o' field",
                oElem.type() == BSONType::kObject);
        NamespaceString nss = NamespaceString::fromFullName(nsElem.valueStringData());
        BSONObj o2 = entry["o2"].type() == BSONType::kObject ? entry["o2"].Obj() : BSONObj();
        switch (op) {
            case 'i':
            case 'u':
            case 'd':
                applyCrud(opCtx, op, nss, oElem.Obj(), o2, options);
                return Status::OK();
            case 'c':
                uassert(ErrorCodes::OplogOperationUnsupported,
                        "command entries cannot be applied here", options.runCommand);
                options.runCommand(opCtx, nss.db(), oElem.Obj());
                return Status::OK();
            default:
                return Status(ErrorCodes::BadValue,
                              std::string("invalid op type in oplog entry: ") + op);
        }
    } catch (const DBException& ex) {
        return ex.toStatus();
    }
}

}  // namespace repl
}  // namespace mongo
