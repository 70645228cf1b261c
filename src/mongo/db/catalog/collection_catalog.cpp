#include "mongo/db/catalog/collection_catalog.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/multikey_paths.h"
#include "mongo/db/catalog/op_observer.h"
#include "mongo/db/matcher/expression.h"
#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/query/collation/collator_factory.h"
#include "mongo/db/stats/top.h"
#include "mongo/db/storage/durable_catalog.h"
#include "mongo/db/storage/kv_engine.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/db/storage/write_conflict_exception.h"
#include "mongo/logv2/log.h"
#include "mongo/util/assert_util.h"

namespace mongo {

namespace {
std::function<void(const NamespaceString&)>& cursorKiller() {
    static std::function<void(const NamespaceString&)> f;
    return f;
}

void killCursors(const NamespaceString& nss) {
    if (cursorKiller())
        cursorKiller()(nss);
}

constexpr int kIndexBuildBatch = 1000;

/** Whether two index specs have the same collation (both none, or equal full specs). */
bool sameCollation(const BSONObj& a, const BSONObj& b) {
    BSONElement ca = a["collation"], cb = b["collation"];
    if (ca.eoo() || cb.eoo())
        return ca.eoo() && cb.eoo();
    return ca.type() == BSONType::kObject && cb.type() == BSONType::kObject &&
           ca.embeddedObject().binaryEqual(cb.embeddedObject());
}
}  // namespace

void setCursorKillerForNamespace(std::function<void(const NamespaceString&)> killer) {
    cursorKiller() = std::move(killer);
}

CollectionCatalog::CollectionCatalog(KVEngine* engine, DurableCatalog* durable)
    : _engine(engine), _durable(durable) {}

std::shared_ptr<Collection> CollectionCatalog::_open(OperationContext* opCtx,
                                                     const NamespaceString& nss,
                                                     RecordId catalogId) {
    auto entry = _durable->getEntry(opCtx->recoveryUnit(), catalogId);
    invariant(entry.has_value());
    BSONObj md = entry->md;
    auto coll =
        std::make_shared<Collection>(nss, catalogId, entry->uuid(), md["options"].embeddedObject(),
                                     _durable->getRecordStore(*entry));
    if (BSONElement f = md[kMixedSchemaFlag]; f.isBoolean())
        coll->timeseriesFlags().mayHaveMixedSchemaData = f.boolean();
    coll->timeseriesFlags().requiresExtendedRangeSupport = md[kExtendedRangeFlag].trueValue();
    coll->timeseriesFlags().bucketingParametersHaveChanged = md[kParametersChangedFlag].trueValue();
    coll->setRecordIdsFromIdTime(md[DurableCatalog::kRecordIdsFromIdTime].trueValue());
    for (auto idx : md["indexes"].embeddedObject()) {
        BSONObj idxMd = idx.embeddedObject();
        BSONObj spec = idxMd["spec"].embeddedObject();
        auto ie = std::make_shared<IndexEntry>();
        ie->desc = IndexDescriptor::fromSpec(spec);
        ie->ident = entry->indexIdent(ie->desc.name);
        ie->sdi = _durable->getIndex(*entry, ie->desc.name);
        ie->multikey = idxMd["multikey"].trueValue();
        if (BSONElement paths = idxMd["multikeyPaths"]; paths.type() == BSONType::kObject)
            ie->multikeyPaths = multikeyPathsFromCatalog(ie->desc.keyPattern, paths.Obj());
        if (!ie->desc.partialFilterExpression.isEmpty()) {
            auto sw = parseMatchExpression(ie->desc.partialFilterExpression);
            if (sw.isOK())
                ie->partialFilter = std::shared_ptr<MatchExpression>(std::move(sw.getValue()));
            if (ie->partialFilter)  // matched under the index's collation, as upstream
                ie->partialFilter->setCollator(ie->desc.collator());
        }
        coll->addIndex(std::move(ie));
    }
    return coll;
}

Status CollectionCatalog::init(OperationContext* opCtx) {
    RecoveryUnit* ru = opCtx->recoveryUnit();
    for (const auto& entry : _durable->getAllEntries(ru)) {
        // Indexes whose build did not finish before a crash are dropped.
        for (auto idx : entry.md["indexes"].embeddedObject()) {
            BSONObj idxMd = idx.embeddedObject();
            if (!idxMd["ready"].trueValue()) {
                std::string name = idxMd["spec"].embeddedObject()["name"].str();
                LOGV2_OPTIONS(4614100, logv2::Component::kIndex, "Dropping unfinished index build",
                              BSON("namespace" << entry.ns << "index" << name));
                writeConflictRetry(ru, "dropUnfinishedIndex", [&] {
                    WriteUnitOfWork wuow(ru);
                    uassertStatusOK(_durable->removeIndex(ru, entry.catalogId, name));
                    wuow.commit();
                });
            }
        }
        NamespaceString nss = NamespaceString::fromFullName(entry.ns);
        std::lock_guard<std::mutex> lk(_mapMutex);
        _collections[nss] = _open(opCtx, nss, entry.catalogId);
    }
    ru->abandonSnapshot();
    return Status::OK();
}

std::shared_ptr<Collection> CollectionCatalog::lookup(const NamespaceString& nss) const {
    std::lock_guard<std::mutex> lk(_mapMutex);
    auto it = _collections.find(nss);
    return it == _collections.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<Collection>> CollectionCatalog::collectionsInDb(StringData db) const {
    std::lock_guard<std::mutex> lk(_mapMutex);
    std::vector<std::shared_ptr<Collection>> out;
    for (const auto& [nss, coll] : _collections) {
        if (nss.db() == db)
            out.push_back(coll);
    }
    return out;
}

std::vector<std::string> CollectionCatalog::databaseNames() const {
    std::lock_guard<std::mutex> lk(_mapMutex);
    std::vector<std::string> out;
    for (const auto& [nss, coll] : _collections) {
        if (out.empty() || out.back() != nss.db())
            out.push_back(nss.db());
    }
    return out;
}

StatusWith<std::shared_ptr<Collection>> CollectionCatalog::createCollection(
    OperationContext* opCtx, const NamespaceString& nss, const BSONObj& options) {
    std::lock_guard<std::mutex> ddl(_ddlMutex);
    if (lookup(nss))
        return Status(ErrorCodes::NamespaceExists, "Collection " + nss.ns() + " already exists.");
    // Databases differing only in case are refused, as upstream.
    for (const auto& db : databaseNames()) {
        if (db != nss.db() && strcasecmp(db.c_str(), nss.db().c_str()) == 0)
            return Status(ErrorCodes::DatabaseDifferCase,
                          "db already exists with different case already have: [" + db +
                              "] trying to create [" + nss.db() + "]");
    }
    RecoveryUnit* ru = opCtx->recoveryUnit();
    // A clustered collection (time-series buckets) keeps its _id order in a unique
    // _id index marked `clustered` (our records are keyed by RecordId, not _id).
    BSONElement clustered = options["clusteredIndex"];
    bool wantIdIndex = clustered.ok() ||
                       !(options["autoIndexId"].isBoolean() && !options["autoIndexId"].boolean());
    // The _id index shares the collection's default collation (options hold its full spec).
    std::unique_ptr<CollatorInterface> defaultCollator;
    BSONObj defaultCollation;
    if (options["collation"].type() == BSONType::kObject) {
        auto sw = makeCollator(options["collation"].embeddedObject());
        if (!sw.isOK())
            return sw.getStatus();
        defaultCollator = std::move(sw.getValue());
        if (defaultCollator)
            defaultCollation = defaultCollator->getSpec();
    }
    std::shared_ptr<Collection> coll;
    try {
        writeConflictRetry(ru, "createCollection", [&] {
            WriteUnitOfWork wuow(ru);
            auto entry = uassertStatusOK(_durable->addCollection(ru, nss.ns(), options));
            if (wantIdIndex) {
                BSONObj idSpec = idIndexSpec(defaultCollation);
                if (clustered.ok()) {
                    std::string name =
                        clustered.type() == BSONType::kObject &&
                                clustered.embeddedObject()["name"].type() == BSONType::kString
                            ? clustered.embeddedObject()["name"].str()
                            : std::string(IndexDescriptor::kIdIndexName);
                    idSpec = BSON("v" << 2 << "key" << BSON("_id" << 1) << "name" << name
                                      << "unique" << true << "clustered" << true);
                } else if (options["idIndex"].type() == BSONType::kObject) {
                    idSpec =
                        uassertStatusOK(validateIndexSpec(options["idIndex"].embeddedObject()));
                    idSpec = applyCollationDefault(idSpec, defaultCollator.get());
                    BSONElement c = idSpec["collation"];
                    uassert(ErrorCodes::BadValue,
                            "'idIndex' must have the same collation as the collection.",
                            (c.eoo() && defaultCollation.isEmpty()) ||
                                (c.type() == BSONType::kObject &&
                                 c.embeddedObject().binaryEqual(defaultCollation)));
                }
                uassertStatusOK(_durable->addIndex(ru, entry.catalogId, idSpec, true));
            }
            coll = _open(opCtx, nss, entry.catalogId);
            getOpObserver()->onCreateCollection(opCtx, nss, options);
            wuow.commit();
        });
    } catch (const DBException& ex) {
        return ex.toStatus();
    }
    ru->abandonSnapshot();
    std::lock_guard<std::mutex> lk(_mapMutex);
    _collections[nss] = coll;
    LOGV2_OPTIONS(20320, logv2::Component::kStorage, "createCollection",
                  BSON("namespace" << nss.ns() << "options" << options));
    return coll;
}

std::shared_ptr<Collection> CollectionCatalog::getOrCreateCollection(OperationContext* opCtx,
                                                                     const NamespaceString& nss) {
    if (auto c = lookup(nss))
        return c;
    uassertStatusOK(nss.validateCollectionName());
    auto sw = createCollection(opCtx, nss, BSONObj());
    if (sw.isOK())
        return sw.getValue();
    if (sw.getStatus().code() == ErrorCodes::NamespaceExists) {
        if (auto c = lookup(nss))
            return c;
    }
    uassertStatusOK(sw.getStatus());
    return nullptr;
}

Status CollectionCatalog::_dropCollectionLocked(OperationContext* opCtx,
                                                const NamespaceString& nss) {
    auto coll = lookup(nss);
    if (!coll)
        return Status(ErrorCodes::NamespaceNotFound, "ns not found");
    killCursors(nss);
    std::unique_lock<std::shared_mutex> collLock(coll->lock());
    RecoveryUnit* ru = opCtx->recoveryUnit();
    try {
        writeConflictRetry(ru, "dropCollection", [&] {
            WriteUnitOfWork wuow(ru);
            uassertStatusOK(_durable->dropCollection(ru, coll->catalogId()));
            getOpObserver()->onDropCollection(opCtx, nss, coll->uuid());
            wuow.commit();
        });
    } catch (const DBException& ex) {
        return ex.toStatus();
    }
    ru->abandonSnapshot();
    coll->markDropped();
    Top::get().collectionDropped(nss);
    std::lock_guard<std::mutex> lk(_mapMutex);
    _collections.erase(nss);
    return Status::OK();
}

Status CollectionCatalog::dropCollection(OperationContext* opCtx, const NamespaceString& nss) {
    std::lock_guard<std::mutex> ddl(_ddlMutex);
    return _dropCollectionLocked(opCtx, nss);
}

Status CollectionCatalog::dropDatabase(OperationContext* opCtx, StringData db) {
    std::lock_guard<std::mutex> ddl(_ddlMutex);
    getOpObserver()->onDropDatabase(opCtx, db);
    for (const auto& coll : collectionsInDb(db)) {
        Status s = _dropCollectionLocked(opCtx, coll->ns());
        if (!s.isOK() && s.code() != ErrorCodes::NamespaceNotFound)
            return s;
    }
    return Status::OK();
}

Status CollectionCatalog::renameCollection(OperationContext* opCtx, const NamespaceString& from,
                                           const NamespaceString& to, bool dropTarget) {
    std::lock_guard<std::mutex> ddl(_ddlMutex);
    auto coll = lookup(from);
    if (!coll)
        return Status(ErrorCodes::NamespaceNotFound,
                      "Source collection " + from.ns() + " does not exist");
    if (from == to)
        return Status(ErrorCodes::IllegalOperation, "Can't rename a collection to itself");
    if (lookup(to)) {
        if (!dropTarget)
            return Status(ErrorCodes::NamespaceExists, "target namespace exists");
        Status s = _dropCollectionLocked(opCtx, to);
        if (!s.isOK())
            return s;
    }
    killCursors(from);
    std::unique_lock<std::shared_mutex> collLock(coll->lock());
    RecoveryUnit* ru = opCtx->recoveryUnit();
    try {
        writeConflictRetry(ru, "renameCollection", [&] {
            WriteUnitOfWork wuow(ru);
            uassertStatusOK(_durable->renameCollection(ru, coll->catalogId(), to.ns()));
            getOpObserver()->onRenameCollection(opCtx, from, to, coll->uuid(), dropTarget);
            wuow.commit();
        });
    } catch (const DBException& ex) {
        return ex.toStatus();
    }
    ru->abandonSnapshot();
    Top::get().collectionDropped(from);
    std::lock_guard<std::mutex> lk(_mapMutex);
    _collections.erase(from);
    coll->setNs(to);
    _collections[to] = coll;
    return Status::OK();
}

Status CollectionCatalog::_buildIndex(OperationContext* opCtx, Collection* coll,
                                      const BSONObj& spec) {
    RecoveryUnit* ru = opCtx->recoveryUnit();
    auto ie = std::make_shared<IndexEntry>();
    ie->desc = IndexDescriptor::fromSpec(spec);
    if (!ie->desc.partialFilterExpression.isEmpty()) {
        auto sw = parseMatchExpression(ie->desc.partialFilterExpression);
        if (!sw.isOK())
            return sw.getStatus();
        ie->partialFilter = std::shared_ptr<MatchExpression>(std::move(sw.getValue()));
        ie->partialFilter->setCollator(ie->desc.collator());
    }
    try {
        writeConflictRetry(ru, "createIndex", [&] {
            WriteUnitOfWork wuow(ru);
            ie->ident = uassertStatusOK(_durable->addIndex(ru, coll->catalogId(), spec, false));
            wuow.commit();
        });
        auto entry = _durable->getEntry(ru, coll->catalogId());
        ie->sdi = _durable->getIndex(*entry, ie->desc.name);
        ru->abandonSnapshot();

        // Scan in batches; writers are excluded by the caller's exclusive lock.
        auto cursor = coll->recordStore()->getCursor(ru, true);
        bool done = false;
        while (!done) {
            opCtx->checkForInterrupt();
            std::vector<Record> batch;
            while (batch.size() < static_cast<size_t>(kIndexBuildBatch)) {
                auto rec = cursor->next();
                if (!rec) {
                    done = true;
                    break;
                }
                batch.push_back(std::move(*rec));
            }
            cursor->save();
            writeConflictRetry(ru, "createIndexBatch", [&] {
                WriteUnitOfWork wuow(ru);
                for (const auto& rec : batch)
                    coll->indexDocument(opCtx, ie.get(), rec.id, rec.data);
                wuow.commit();
            });
            cursor->restore();
        }
        cursor.reset();
        writeConflictRetry(ru, "createIndexReady", [&] {
            WriteUnitOfWork wuow(ru);
            uassertStatusOK(_durable->setIndexReady(ru, coll->catalogId(), ie->desc.name));
            getOpObserver()->onCreateIndex(opCtx, coll->ns(), spec);
            wuow.commit();
        });
    } catch (const DBException& ex) {
        // Undo the catalog entry of the failed build.
        ru->abandonSnapshot();
        try {
            writeConflictRetry(ru, "abortIndexBuild", [&] {
                WriteUnitOfWork wuow(ru);
                Status s = _durable->removeIndex(ru, coll->catalogId(), ie->desc.name);
                (void)s;
                wuow.commit();
            });
        } catch (const DBException&) {
        }
        ru->abandonSnapshot();
        return ex.toStatus();
    }
    ru->abandonSnapshot();
    coll->addIndex(std::move(ie));
    return Status::OK();
}

StatusWith<CollectionCatalog::CreateIndexesResult> CollectionCatalog::createIndexes(
    OperationContext* opCtx, const NamespaceString& nss, const std::vector<BSONObj>& specs) {
    CreateIndexesResult result;
    std::shared_ptr<Collection> coll = lookup(nss);
    if (!coll) {
        auto sw = createCollection(opCtx, nss, BSONObj());
        if (!sw.isOK() && sw.getStatus().code() != ErrorCodes::NamespaceExists)
            return sw.getStatus();
        coll = lookup(nss);
        result.createdCollection = sw.isOK();
    }
    std::lock_guard<std::mutex> ddl(_ddlMutex);
    std::unique_lock<std::shared_mutex> collLock(coll->lock());
    if (coll->isDropped())
        return Status(ErrorCodes::NamespaceNotFound, "collection dropped during index build");
    result.numIndexesBefore = static_cast<int>(coll->indexes().size());

    std::vector<BSONObj> toBuild;
    for (const auto& requested : specs) {
        const BSONObj spec = applyCollationDefault(requested, coll->getDefaultCollator());
        std::string name = spec["name"].str();
        BSONObj key = spec["key"].embeddedObject();
        if (IndexEntry* existing = coll->findIndexByName(name)) {
            if (indexSpecsEquivalent(existing->desc.spec, spec))
                continue;
            // Another key pattern or collation is another index: it needs its own name.
            if (!existing->desc.keyPattern.binaryEqual(key) ||
                !sameCollation(existing->desc.spec, spec))
                return Status(
                    ErrorCodes::IndexKeySpecsConflict,
                    "An existing index has the same name as the requested index. When index names "
                    "are not specified, they are auto generated and can cause conflicts. Please "
                    "refer to our documentation. Requested index: " +
                        spec.toString() + ", existing index: " + existing->desc.spec.toString());
            return Status(ErrorCodes::IndexOptionsConflict,
                          "An equivalent index already exists with the same name but different "
                          "options. Requested index: " +
                              spec.toString() +
                              ", existing index: " + existing->desc.spec.toString());
        }
        bool skip = false;
        for (IndexEntry* same : coll->findIndexesByKeyPattern(key)) {
            if (!indexSpecsEquivalent(same->desc.spec, spec))
                continue;
            // The _id index exists whatever name the request gives it ({_id: 1} named
            // "_id_1" by the shells), as upstream.
            if (same->desc.name == IndexDescriptor::kIdIndexName) {
                skip = true;
                break;
            }
            return Status(ErrorCodes::IndexOptionsConflict,
                          "Index already exists with a different name: " + same->desc.name);
        }
        if (skip)
            continue;
        // One text index per collection (its $text queries would not know which to use).
        if (key.hasField("_fts")) {
            for (const auto& idx : coll->indexes())
                if (idx->desc.isTextIndex())
                    return Status(ErrorCodes::CannotCreateIndex,
                                  "only one text index per collection allowed, found existing text "
                                  "index \"" +
                                      idx->desc.name + "\"");
            for (const auto& other : toBuild)
                if (other["key"].embeddedObject().hasField("_fts") && other["name"].str() != name)
                    return Status(ErrorCodes::CannotCreateIndex,
                                  "only one text index per collection allowed, found existing text "
                                  "index \"" +
                                      other["name"].str() + "\"");
        }
        for (const auto& other : toBuild) {
            if (other["name"].str() == name)
                skip = true;
        }
        if (!skip)
            toBuild.push_back(spec);
    }
    if (toBuild.empty())
        result.allExisted = true;
    for (const auto& spec : toBuild) {
        Status s = _buildIndex(opCtx, coll.get(), spec);
        if (!s.isOK())
            return s;
        LOGV2_OPTIONS(20345, logv2::Component::kIndex, "Index build: done building",
                      BSON("namespace" << nss.ns() << "index" << spec["name"].str()));
    }
    result.numIndexesAfter = static_cast<int>(coll->indexes().size());
    return result;
}

Status CollectionCatalog::dropIndex(OperationContext* opCtx, const NamespaceString& nss,
                                    StringData name) {
    std::lock_guard<std::mutex> ddl(_ddlMutex);
    auto coll = lookup(nss);
    if (!coll)
        return Status(ErrorCodes::NamespaceNotFound, "ns not found " + nss.ns());
    std::unique_lock<std::shared_mutex> collLock(coll->lock());
    IndexEntry* idx = coll->findIndexByName(name);
    if (!idx)
        return Status(ErrorCodes::IndexNotFound,
                      "index not found with name [" + std::string(name) + "]");
    if (idx->desc.isIdIndex())
        return Status(ErrorCodes::InvalidOptions, "cannot drop _id index");
    killCursors(nss);
    RecoveryUnit* ru = opCtx->recoveryUnit();
    try {
        writeConflictRetry(ru, "dropIndex", [&] {
            WriteUnitOfWork wuow(ru);
            uassertStatusOK(_durable->removeIndex(ru, coll->catalogId(), name));
            getOpObserver()->onDropIndex(opCtx, nss, name);
            wuow.commit();
        });
    } catch (const DBException& ex) {
        return ex.toStatus();
    }
    ru->abandonSnapshot();
    coll->removeIndex(name);
    return Status::OK();
}

Status CollectionCatalog::updateIndexSpec(OperationContext* opCtx, const NamespaceString& nss,
                                          StringData name, const BSONObj& newSpec) {
    std::lock_guard<std::mutex> ddl(_ddlMutex);
    auto coll = lookup(nss);
    if (!coll)
        return Status(ErrorCodes::NamespaceNotFound, "ns does not exist");
    std::unique_lock<std::shared_mutex> collLock(coll->lock());
    IndexEntry* idx = coll->findIndexByName(name);
    if (!idx)
        return Status(ErrorCodes::IndexNotFound, "cannot find index " + std::string(name));
    RecoveryUnit* ru = opCtx->recoveryUnit();
    try {
        writeConflictRetry(ru, "collModIndex", [&] {
            WriteUnitOfWork wuow(ru);
            auto entry = _durable->getEntry(ru, coll->catalogId());
            BSONObjBuilder md;
            for (auto e : entry->md) {
                if (e.fieldNameStringData() != "indexes") {
                    md.append(e);
                    continue;
                }
                BSONArrayBuilder arr(md.subarrayStart("indexes"));
                for (auto ix : e.embeddedObject()) {
                    BSONObj ixObj = ix.embeddedObject();
                    if (ixObj["spec"].embeddedObject()["name"].valueStringData() != name) {
                        arr.append(ixObj);
                        continue;
                    }
                    BSONObjBuilder nb;
                    for (auto f : ixObj) {
                        if (f.fieldNameStringData() == "spec")
                            nb.append("spec", newSpec);
                        else
                            nb.append(f);
                    }
                    arr.append(nb.obj());
                }
            }
            uassertStatusOK(_durable->putMetaData(ru, coll->catalogId(), md.obj()));
            wuow.commit();
        });
    } catch (const DBException& ex) {
        return ex.toStatus();
    }
    ru->abandonSnapshot();
    bool multikey = idx->multikey;
    auto sdiHolder = std::move(idx->sdi);
    idx->desc = IndexDescriptor::fromSpec(newSpec);
    idx->desc.multikey = multikey;
    idx->sdi = std::move(sdiHolder);
    if (idx->partialFilter)  // the old collator went with the old descriptor
        idx->partialFilter->setCollator(idx->desc.collator());
    return Status::OK();
}

Status CollectionCatalog::modifyIndexOptions(OperationContext* opCtx, const NamespaceString& nss,
                                             const IndexEntry& index, const BSONElement& hidden,
                                             const BSONElement& ttl, BSONObjBuilder* result) {
    const IndexDescriptor& desc = index.desc;
    if (hidden.trueValue() && desc.isIdIndex())
        return Status(ErrorCodes::BadValue, "can't hide _id index");
    if (!ttl.eoo() && !desc.expireAfterSeconds)
        return Status(ErrorCodes::InvalidOptions, "no expireAfterSeconds field to update");
    BSONObjBuilder newSpec;
    for (auto e : desc.spec) {
        StringData f = e.fieldNameStringData();
        if ((f == "hidden" && !hidden.eoo()) || (f == "expireAfterSeconds" && !ttl.eoo()))
            continue;
        newSpec.append(e);
    }
    if (!hidden.eoo()) {
        result->append("hidden_old", desc.hidden);
        result->append("hidden_new", hidden.trueValue());
        if (hidden.trueValue())
            newSpec.append("hidden", true);
    }
    if (!ttl.eoo()) {
        result->append("expireAfterSeconds_old", *desc.expireAfterSeconds);
        result->append("expireAfterSeconds_new", ttl.numberLong());
        newSpec.append("expireAfterSeconds", ttl.numberLong());
    }
    std::string name = desc.name;  // `index` is replaced by updateIndexSpec
    return updateIndexSpec(opCtx, nss, name, newSpec.obj());
}

namespace {

constexpr size_t kMaxViolationBytes = BSONObjMaxUserSize / 2;

/**
 * The groups of documents sharing a key of `index` (consecutive equal keys of an index in
 * key order), as [{ids: [<_id>, ...]}, ...]; stops after ~8 MB of _ids. Empty: none.
 */
BSONObj findSharedKeys(OperationContext* opCtx, const Collection& coll, const IndexEntry& index) {
    RecoveryUnit* ru = opCtx->recoveryUnit();
    auto cursor = index.sdi->newCursor(ru, true);
    BSONArrayBuilder groups;
    size_t bytes = 0;
    std::optional<IndexKeyEntry> prev;
    std::vector<RecordId> group;
    auto flush = [&] {
        if (group.empty())
            return;
        BSONArrayBuilder ids;
        for (RecordId loc : group) {
            BSONObj doc;
            if (!coll.recordStore()->findRecord(ru, loc, &doc))
                continue;
            bytes += doc["_id"].size();
            ids.append(doc["_id"]);
        }
        groups.append(BSON("ids" << ids.arr()));
        group.clear();
    };
    long long n = 0;
    for (auto e = cursor->next(); e && bytes <= kMaxViolationBytes; e = cursor->next()) {
        if ((++n & 127) == 0)
            opCtx->checkForInterrupt();
        if (prev && e->key.woCompare(prev->key, false) == 0) {
            if (group.empty())
                group.push_back(prev->loc);
            group.push_back(e->loc);
        } else {
            flush();
        }
        prev = std::move(e);
    }
    flush();
    return groups.arr();
}

}  // namespace

Status CollectionCatalog::convertIndexUniqueness(OperationContext* opCtx,
                                                 const NamespaceString& nss, StringData name,
                                                 bool unique, bool dryRun, BSONObj* violations) {
    std::lock_guard<std::mutex> ddl(_ddlMutex);
    auto coll = lookup(nss);
    if (!coll)
        return Status(ErrorCodes::NamespaceNotFound,
                      "ns does not exist for unique index conversion: " + nss.ns());
    std::unique_lock<std::shared_mutex> collLock(coll->lock());
    IndexEntry* idx = coll->findIndexByName(name);
    if (!idx)
        return Status(ErrorCodes::IndexNotFound,
                      "cannot find index " + std::string(name) + " for ns " + nss.ns());
    RecoveryUnit* ru = opCtx->recoveryUnit();
    if (unique) {
        BSONObj shared;
        try {
            shared = findSharedKeys(opCtx, *coll, *idx);
        } catch (const DBException& ex) {
            ru->abandonSnapshot();
            return ex.toStatus();
        }
        ru->abandonSnapshot();
        if (!shared.isEmpty()) {
            *violations = shared;
            return Status(ErrorCodes::CannotConvertIndexToUnique,
                          "Cannot convert the index to unique. Please resolve conflicting "
                          "documents before running collMod again.");
        }
    }
    if (dryRun)
        return Status::OK();

    BSONObjBuilder nb;
    for (auto e : idx->desc.spec) {
        StringData f = e.fieldNameStringData();
        if (f != "unique" && f != "prepareUnique")
            nb.append(e);
    }
    if (unique)
        nb.append("unique", true);
    const BSONObj newSpec = nb.obj();
    killCursors(nss);
    std::shared_ptr<IndexEntry> rebuilt;
    try {
        writeConflictRetry(ru, "collModIndexUnique", [&] {
            rebuilt = std::make_shared<IndexEntry>();
            rebuilt->desc = IndexDescriptor::fromSpec(newSpec);
            rebuilt->partialFilter = idx->partialFilter;
            WriteUnitOfWork wuow(ru);
            uassertStatusOK(_durable->removeIndex(ru, coll->catalogId(), name));
            rebuilt->ident =
                uassertStatusOK(_durable->addIndex(ru, coll->catalogId(), newSpec, true));
            auto entry = _durable->getEntry(ru, coll->catalogId());
            rebuilt->sdi = _durable->getIndex(*entry, name);
            auto cursor = coll->recordStore()->getCursor(ru, true);
            long long n = 0;
            while (auto rec = cursor->next()) {
                if ((++n & 127) == 0)
                    opCtx->checkForInterrupt();
                coll->indexDocument(opCtx, rebuilt.get(), rec->id, rec->data);
            }
            cursor.reset();
            wuow.commit();
        });
    } catch (const DBException& ex) {
        ru->abandonSnapshot();
        return ex.toStatus();
    }
    ru->abandonSnapshot();
    coll->replaceIndex(std::move(rebuilt));
    LOGV2_OPTIONS(20345, logv2::Component::kIndex, "collMod: index rebuilt",
                  BSON("namespace" << nss.ns() << "index" << name << "unique" << unique));
    return Status::OK();
}

Status CollectionCatalog::setTimeseriesFlag(OperationContext* opCtx,
                                            const std::shared_ptr<Collection>& coll,
                                            StringData flag, bool value) {
    auto& flags = coll->timeseriesFlags();
    std::atomic<bool>* slot = flag == kMixedSchemaFlag     ? &flags.mayHaveMixedSchemaData
                              : flag == kExtendedRangeFlag ? &flags.requiresExtendedRangeSupport
                              : flag == kParametersChangedFlag
                                  ? &flags.bucketingParametersHaveChanged
                                  : nullptr;
    invariant(slot);
    if (slot->load() == value)
        return Status::OK();
    std::lock_guard<std::mutex> ddl(_ddlMutex);
    RecoveryUnit* ru = opCtx->recoveryUnit();
    bool stored = false;
    try {
        writeConflictRetry(ru, "setTimeseriesFlag", [&] {
            WriteUnitOfWork wuow(ru);
            auto entry = _durable->getEntry(ru, coll->catalogId());
            if (!entry)
                return;
            BSONElement current = entry->md[flag];
            if (current.isBoolean() && current.boolean() == value) {
                stored = true;
                return;
            }
            BSONObjBuilder md;
            for (auto e : entry->md)
                if (e.fieldNameStringData() != flag)
                    md.append(e);
            md.append(flag, value);
            uassertStatusOK(_durable->putMetaData(ru, coll->catalogId(), md.obj()));
            wuow.commit();
            stored = true;
        });
    } catch (const DBException& ex) {
        ru->abandonSnapshot();
        return ex.toStatus();
    }
    ru->abandonSnapshot();
    if (stored)
        slot->store(value);
    return Status::OK();
}

Status CollectionCatalog::updateCollectionOptions(OperationContext* opCtx,
                                                  const NamespaceString& nss,
                                                  const BSONObj& newOptions) {
    std::lock_guard<std::mutex> ddl(_ddlMutex);
    auto coll = lookup(nss);
    if (!coll)
        return Status(ErrorCodes::NamespaceNotFound, "ns does not exist");
    std::unique_lock<std::shared_mutex> collLock(coll->lock());
    RecoveryUnit* ru = opCtx->recoveryUnit();
    try {
        writeConflictRetry(ru, "collMod", [&] {
            WriteUnitOfWork wuow(ru);
            auto entry = _durable->getEntry(ru, coll->catalogId());
            BSONObjBuilder md;
            for (auto e : entry->md) {
                if (e.fieldNameStringData() != "options") {
                    md.append(e);
                    continue;
                }
                // The uuid identifies the collection for good (bucket catalog, collectionUUID).
                BSONObjBuilder opts(md.subobjStart("options"));
                if (BSONElement uuid = e.embeddedObject()["uuid"]; !uuid.eoo())
                    opts.append(uuid);
                for (auto o : newOptions)
                    if (o.fieldNameStringData() != "uuid")
                        opts.append(o);
            }
            uassertStatusOK(_durable->putMetaData(ru, coll->catalogId(), md.obj()));
            wuow.commit();
        });
    } catch (const DBException& ex) {
        return ex.toStatus();
    }
    ru->abandonSnapshot();
    // Reopen so the in-memory options match.
    auto reopened = _open(opCtx, nss, coll->catalogId());
    ru->abandonSnapshot();
    coll->markDropped();
    std::lock_guard<std::mutex> lk(_mapMutex);
    _collections[nss] = reopened;
    return Status::OK();
}

}  // namespace mongo
