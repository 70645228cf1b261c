#include "mongo/db/startup_collections.h"

#include <unistd.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/commands/write_commands.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/recovery_unit.h"

namespace mongo {

Status createStartupCollections(OperationContext* opCtx) {
    ServiceContext* sc = opCtx->getServiceContext();
    CollectionCatalog* catalog = sc->catalog;
    try {
        NamespaceString startupLog("local", "startup_log");
        auto log = catalog->lookup(startupLog);
        if (!log)
            log = uassertStatusOK(catalog->createCollection(
                opCtx, startupLog, BSON("capped" << true << "size" << 10 * 1024 * 1024)));
        char host[256] = {0};
        gethostname(host, sizeof(host) - 1);
        BSONObj entry = BSON("_id" << std::string(host) + "-" +
                                          std::to_string(Date_t::now().toMillisSinceEpoch())
                                   << "hostname" << host << "startTime" << Date_t::now()
                                   << "startTimeLocal" << Date_t::now().toString() << "cmdLine"
                                   << sc->options.cmdLine["parsed"].embeddedObject() << "pid"
                                   << static_cast<long long>(getpid()) << "buildinfo"
                                   << BSON("version"
                                           << "8.0.0"));
        insertDocumentsInOneUnit(opCtx, log.get(), {entry});

        NamespaceString version("admin", "system.version");
        if (!catalog->lookup(version)) {
            auto coll = uassertStatusOK(catalog->createCollection(opCtx, version, BSONObj()));
            insertDocumentsInOneUnit(opCtx, coll.get(),
                                     {BSON("_id"
                                           << "featureCompatibilityVersion"
                                           << "version"
                                           << "8.0")});
        }
    } catch (const DBException& ex) {
        return ex.toStatus();
    }
    return Status::OK();
}

}  // namespace mongo
