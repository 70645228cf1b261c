#include "mongo/db/repl/dbhash.h"

#include <algorithm>
#include <map>

#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/repl/md5.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/record_store.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/db/storage/sorted_data_interface.h"

namespace mongo {
namespace repl {

std::string hashCollection(OperationContext* opCtx, Collection* coll) {
    RecoveryUnit* ru = opCtx->recoveryUnit();
    Md5 md5;
    if (IndexEntry* idx = coll->findIndexByName(IndexDescriptor::kIdIndexName)) {
        auto cursor = idx->sdi->newCursor(ru, true);
        while (auto e = cursor->next()) {
            BSONObj doc;
            if (coll->recordStore()->findRecord(ru, e->loc, &doc))
                md5.update(doc.objdata(), doc.objsize());
        }
    } else {
        auto cursor = coll->recordStore()->getCursor(ru, true);
        while (auto rec = cursor->next())
            md5.update(rec->data.objdata(), rec->data.objsize());
    }
    return md5.finishHex();
}

void appendDbHash(OperationContext* opCtx, StringData db, const std::vector<std::string>& only,
                  const std::string& host, BSONObjBuilder* result) {
    Date_t start = Date_t::now();
    std::map<std::string, std::shared_ptr<Collection>> colls;
    for (auto& c : opCtx->getServiceContext()->catalog->collectionsInDb(db)) {
        const std::string& name = c->ns().coll();
        if (name == "system.profile")
            continue;
        if (!only.empty() && std::find(only.begin(), only.end(), name) == only.end())
            continue;
        colls[name] = c;
    }
    BSONObjBuilder hashes, uuids;
    BSONArrayBuilder capped;
    Md5 dbMd5;
    for (auto& [name, coll] : colls) {
        std::shared_lock<std::shared_mutex> lk(coll->lock());
        std::string h = hashCollection(opCtx, coll.get());
        hashes.append(name, h);
        const std::string& uuid = coll->uuid();
        uuids.appendBinData(name, static_cast<int>(uuid.size()), newUUID, uuid.data());
        if (coll->isCapped())
            capped.append(name);
        dbMd5.update(name.data(), name.size());
        dbMd5.update(h.data(), h.size());
    }
    opCtx->recoveryUnit()->abandonSnapshot();
    result->append("host", host);
    result->append("collections", hashes.obj());
    result->append("capped", capped.arr());
    result->append("uuids", uuids.obj());
    result->append("md5", dbMd5.finishHex());
    result->append("timeMillis", Date_t::now().toMillisSinceEpoch() - start.toMillisSinceEpoch());
}

}  // namespace repl
}  // namespace mongo
