// listCollections, listDatabases.
#include <algorithm>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/catalog/view_catalog.h"
#include "mongo/db/commands.h"
#include "mongo/db/commands/cursor_response.h"
#include "mongo/db/matcher/expression.h"
#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/service_context.h"
#include "mongo/db/timeseries/timeseries_commands.h"
#include "mongo/idl/list_commands_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

BSONObj collectionInfo(const Collection& coll, bool nameOnly) {
    BSONObjBuilder b;
    b.append("name", coll.ns().coll());
    b.append("type", "collection");
    if (nameOnly)
        return b.obj();
    b.append("options", coll.options().removeField("uuid"));
    {
        BSONObjBuilder info(b.subobjStart("info"));
        info.append("readOnly", false);
        BSONElement uuid = coll.options()["uuid"];
        if (uuid.type() == BSONType::kBinData)
            info.appendAs(uuid, "uuid");
    }
    // A clustered collection has no separate _id index to show (its records are the index).
    IndexEntry* id = coll.findIndexByName(IndexDescriptor::kIdIndexName);
    if (id && !coll.isClustered())
        b.append("idIndex", id->desc.spec);
    return b.obj();
}

class ListCollectionsCmd : public Command {
public:
    ListCollectionsCmd() : Command("listCollections") {}

    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        auto cmd = ListCollectionsCommand::parse(req.body);
        std::shared_ptr<MatchExpression> filter;
        if (cmd.getFilter() && !cmd.getFilter()->isEmpty())
            filter = uassertStatusOK(parseMatchExpression(cmd.getFilter()->getOwned()));
        auto colls = opCtx->getServiceContext()->catalog->collectionsInDb(req.dbName);
        std::sort(colls.begin(), colls.end(),
                  [](const auto& a, const auto& b) { return a->ns().coll() < b->ns().coll(); });
        // Collections and views, ordered by name.
        std::vector<std::pair<std::string, std::pair<BSONObj, BSONObj>>> entries;
        for (const auto& c : colls)
            entries.push_back(
                {c->ns().coll(), {collectionInfo(*c, false), collectionInfo(*c, true)}});
        for (const auto& v : viewsInDb(opCtx, req.dbName)) {
            if (timeseries::isTimeseriesViewDefinition(v)) {
                entries.push_back(
                    {v.name.coll(),
                     {timeseries::makeTimeseriesListCollectionsEntry(opCtx, v, false),
                      timeseries::makeTimeseriesListCollectionsEntry(opCtx, v, true)}});
                continue;
            }
            BSONObjBuilder options;
            options.append("viewOn", v.viewOn.coll());
            BSONArrayBuilder p(options.subarrayStart("pipeline"));
            for (const auto& st : v.pipeline)
                p.append(st);
            p.done();
            if (!v.collation.isEmpty())
                options.append("collation", v.collation);
            BSONObj full =
                BSON("name" << v.name.coll() << "type"
                            << "view"
                            << "options" << options.obj() << "info" << BSON("readOnly" << true));
            entries.push_back({v.name.coll(),
                               {full, BSON("name" << v.name.coll() << "type"
                                                  << "view")}});
        }
        std::stable_sort(entries.begin(), entries.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        std::vector<BSONObj> docs;
        for (const auto& [name, infos] : entries) {
            if (filter && !filter->matchesBSON(infos.first))
                continue;
            docs.push_back(cmd.getNameOnly() ? infos.second : infos.first);
        }
        long long batchSize = -1;  // no limit unless the cursor option gives one
        if (cmd.getCursor() && cmd.getCursor()->getBatchSize())
            batchSize = *cmd.getCursor()->getBatchSize();
        auto cursor = std::make_unique<ClientCursor>();
        cursor->nss = NamespaceString(req.dbName, "$cmd.listCollections");
        cursor->source = std::make_unique<VectorCursorSource>(std::move(docs));
        runBatchAndReply(opCtx, std::move(cursor), batchSize, false, true, result);
    }
};
MONGO_REGISTER_COMMAND(ListCollectionsCmd)

class ListDatabasesCmd : public Command {
public:
    ListDatabasesCmd() : Command("listDatabases") {}
    bool adminOnly() const override {
        return true;
    }

    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        auto cmd = ListDatabasesCommand::parse(req.body);
        std::shared_ptr<MatchExpression> filter;
        if (cmd.getFilter() && !cmd.getFilter()->isEmpty())
            filter = uassertStatusOK(parseMatchExpression(cmd.getFilter()->getOwned()));
        auto* catalog = opCtx->getServiceContext()->catalog;
        long long total = 0;
        BSONArrayBuilder dbs(result.subarrayStart("databases"));
        for (const auto& db : catalog->databaseNames()) {
            long long size = 0;
            bool empty = true;
            for (const auto& c : catalog->collectionsInDb(db)) {
                auto* ru = opCtx->recoveryUnit();
                size += c->recordStore()->storageSize(ru);
                for (const auto& idx : c->indexes())
                    size += idx->sdi->storageSize(ru);
                if (c->recordStore()->numRecords(ru) > 0)
                    empty = false;
            }
            BSONObj entry = cmd.getNameOnly()
                                ? BSON("name" << db)
                                : BSON("name" << db << "sizeOnDisk" << size << "empty" << empty);
            if (filter && !filter->matchesBSON(
                              BSON("name" << db << "sizeOnDisk" << size << "empty" << empty)))
                continue;
            total += size;
            dbs.append(entry);
        }
        dbs.done();
        if (!cmd.getNameOnly()) {
            result.append("totalSize", total);
            result.append("totalSizeMb", total / (1024 * 1024));
        }
    }
};
MONGO_REGISTER_COMMAND(ListDatabasesCmd)

}  // namespace
}  // namespace mongo
