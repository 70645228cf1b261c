#include "mongo/db/storage/durable_catalog.h"

#include <algorithm>
#include <atomic>
#include <random>
#include <set>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/logv2/log.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

constexpr StringData kNs = "ns";
constexpr StringData kIdent = "ident";
constexpr StringData kIdxIdent = "idxIdent";
constexpr StringData kMd = "md";
constexpr StringData kOptions = "options";
constexpr StringData kIndexes = "indexes";
constexpr StringData kSpec = "spec";
constexpr StringData kReady = "ready";
constexpr StringData kMultikey = "multikey";
constexpr StringData kMultikeyPaths = "multikeyPaths";
constexpr StringData kUuid = "uuid";

std::uint64_t random64() {
    thread_local std::mt19937_64 gen{std::random_device{}()};
    return gen();
}

// Time-series buckets: zstd blocks whatever the engine-wide default is (as upstream), leaf
// pages of 256 KB (WiredTiger's default is 32 KB) and file blocks allocated in units of 512 B
// (the default is 4 KB). Buckets are a few KB each and share their field names, meta values and
// control layout, so that a page compresses better with more of them; they are read by scans,
// and a page is read whole from cache. A compressed page is stored rounded up to the allocation
// unit, which with 4 KB cost about 2 KB a page. peer_bench.py, int data: 4.25 MB with the
// defaults, 3.82 MB with 128 KB pages, 3.78 MB now (bucket counts vary between loads). A key the
// collection's own configString names is not added.
constexpr StringData kBucketsTableDefaults[] = {"block_compressor=zstd", "leaf_page_max=256KB",
                                                "allocation_size=512B"};
// The buckets' indexes (the default {meta, time} index and the user's): zstd blocks of 512 B
// units as well, beside WiredTiger's prefix compression. Their keys repeat the meta value, which
// prefix compression only shares with the entry before (peer_bench.py: 147 KB -> 21 KB).
constexpr StringData kBucketsIndexTableConfig = "block_compressor=zstd,allocation_size=512B";

// NamespaceString::kSystemBucketsPrefix, spelled here because storage sits below the
// namespace classes (ARCHITECTURE.md layers 6 and db_base).
bool isBucketsNamespace(StringData ns) {
    auto dot = ns.find('.');
    return dot != std::string::npos && ns.substr(dot + 1).starts_with("system.buckets.");
}

}  // namespace

StatusWith<std::string> DurableCatalog::tableConfigString(StringData ns, const BSONObj& options) {
    std::string config;
    BSONElement se = options["storageEngine"];
    if (!se.eoo()) {
        if (se.type() != BSONType::kObject)
            return Status(ErrorCodes::BadValue, "'storageEngine' has to be a document.");
        for (auto&& engine : se.embeddedObject()) {
            StringData name = engine.fieldNameStringData();
            if (engine.type() != BSONType::kObject)
                return Status(ErrorCodes::BadValue, "'storageEngine." + std::string(name) +
                                                        "' has to be an embedded document.");
            if (name != "wiredTiger")
                return Status(
                    ErrorCodes::InvalidOptions,
                    std::string(name) + " is not a registered storage engine for this server");
            for (auto&& opt : engine.embeddedObject()) {
                if (opt.fieldNameStringData() != "configString")
                    return Status(ErrorCodes::InvalidOptions,
                                  "'" + std::string(opt.fieldNameStringData()) +
                                      "' is not a supported option in storageEngine.wiredTiger");
                if (opt.type() != BSONType::kString)
                    return Status(ErrorCodes::TypeMismatch, "'configString' must be a string.");
                config = opt.str();
            }
        }
    }
    if (isBucketsNamespace(ns)) {
        std::string defaults;
        for (StringData d : kBucketsTableDefaults) {
            StringData key = d.substr(0, d.find('=') + 1);
            if (config.find(std::string(key)) == std::string::npos)
                defaults += std::string(d) + ",";
        }
        config = defaults + config;
        if (!config.empty() && config.back() == ',')
            config.pop_back();
    }
    return config;
}

namespace {

BSONObj toDocument(const DurableCatalog::Entry& e) {
    BSONObjBuilder b;
    b.append(kNs, e.ns);
    b.append(kIdent, e.ident);
    b.append(kIdxIdent, e.idxIdent);
    b.append(kMd, e.md);
    return b.obj();
}

DurableCatalog::Entry fromDocument(RecordId id, const BSONObj& doc) {
    DurableCatalog::Entry e;
    e.catalogId = id;
    e.ns = doc[kNs].str();
    e.ident = doc[kIdent].str();
    e.idxIdent = doc[kIdxIdent].Obj().getOwned();
    e.md = doc[kMd].Obj().getOwned();
    return e;
}

/** md with its `indexes` array replaced. */
BSONObj withIndexes(const BSONObj& md, const std::vector<BSONObj>& indexes) {
    BSONObjBuilder b;
    for (auto e : md)
        if (e.fieldNameStringData() != kIndexes)
            b.append(e);
    BSONArrayBuilder arr(b.subarrayStart(kIndexes));
    for (auto& i : indexes)
        arr.append(i);
    arr.done();
    return b.obj();
}

std::vector<BSONObj> indexesOf(const BSONObj& md) {
    std::vector<BSONObj> out;
    for (auto e : md[kIndexes].Obj())
        out.push_back(e.Obj().getOwned());
    return out;
}

BSONObj withStringField(const BSONObj& o, StringData name, StringData value) {
    BSONObjBuilder b;
    for (auto e : o) {
        if (e.fieldNameStringData() == name)
            b.append(name, value);
        else
            b.append(e);
    }
    return b.obj();
}

BSONObj withoutField(const BSONObj& o, StringData name) {
    BSONObjBuilder b;
    for (auto e : o)
        if (e.fieldNameStringData() != name)
            b.append(e);
    return b.obj();
}

std::atomic<std::uint64_t> gIdentCounter{0};

}  // namespace

std::string DurableCatalog::Entry::uuid() const {
    BSONElement u = md[kOptions].Obj()[kUuid];
    if (u.type() != BSONType::kBinData)
        return {};
    int len;
    const char* d = u.binData(len);
    return std::string(d, len);
}

BSONObj DurableCatalog::Entry::indexEntry(StringData name) const {
    for (auto& i : indexesOf(md))
        if (i[kSpec].Obj()["name"].valueStringData() == name)
            return i;
    return BSONObj();
}

std::string DurableCatalog::Entry::indexIdent(StringData name) const {
    return idxIdent[name].str();
}

DurableCatalog::DurableCatalog(KVEngine* engine, std::unique_ptr<RecordStore> rs)
    : _engine(engine), _rs(std::move(rs)) {}

StatusWith<std::unique_ptr<DurableCatalog>> DurableCatalog::open(KVEngine* engine) {
    Status st = engine->createRecordStore(kCatalogIdent);
    if (!st.isOK())
        return st;
    auto rs = engine->getRecordStore(kCatalogIdent);
    if (!rs)
        return Status(ErrorCodes::InternalError, "cannot open _mdb_catalog");
    std::unique_ptr<DurableCatalog> cat(new DurableCatalog(engine, std::move(rs)));

    // Drop tables that no catalog entry references (a crash between a table's
    // creation and the commit of its catalog entry, or between commit and drop).
    std::set<std::string> referenced;
    {
        auto ru = engine->newRecoveryUnit();
        for (auto& e : cat->getAllEntries(ru.get())) {
            referenced.insert(e.ident);
            for (auto i : e.idxIdent)
                referenced.insert(i.str());
        }
    }
    gIdentCounter.fetch_add(referenced.size());
    for (auto& ident : engine->getAllIdents()) {
        bool ours = ident.rfind("collection-", 0) == 0 || ident.rfind("index-", 0) == 0;
        if (ours && !referenced.count(ident)) {
            LOGV2_OPTIONS(22251, logv2::Component::kStorage, "Dropping orphaned ident",
                          BSON("ident" << ident));
            Status d = engine->dropIdent(ident);
            if (!d.isOK())
                return d;
        }
    }
    return cat;
}

std::string DurableCatalog::_newIdent(StringData kind) {
    return std::string(kind) + "-" + std::to_string(gIdentCounter.fetch_add(1)) + "-" +
           std::to_string(random64() & 0x7fffffffffffffffull);
}

std::vector<DurableCatalog::Entry> DurableCatalog::getAllEntries(RecoveryUnit* ru) const {
    std::vector<Entry> out;
    auto c = _rs->getCursor(ru, true);
    while (auto r = c->next())
        out.push_back(fromDocument(r->id, r->data));
    return out;
}

std::optional<DurableCatalog::Entry> DurableCatalog::getEntry(RecoveryUnit* ru,
                                                              RecordId catalogId) const {
    BSONObj doc;
    if (!_rs->findRecord(ru, catalogId, &doc))
        return std::nullopt;
    return fromDocument(catalogId, doc);
}

std::optional<DurableCatalog::Entry> DurableCatalog::findByNs(RecoveryUnit* ru,
                                                              StringData ns) const {
    for (auto& e : getAllEntries(ru))
        if (e.ns == ns)
            return e;
    return std::nullopt;
}

std::vector<std::string> DurableCatalog::getDatabaseNames(RecoveryUnit* ru) const {
    std::set<std::string> dbs;
    for (auto& e : getAllEntries(ru))
        dbs.insert(e.ns.substr(0, e.ns.find('.')));
    return {dbs.begin(), dbs.end()};
}

std::string DurableCatalog::generateUUID() {
    std::string u(16, '\0');
    std::uint64_t a = random64(), b = random64();
    std::memcpy(u.data(), &a, 8);
    std::memcpy(u.data() + 8, &b, 8);
    u[6] = static_cast<char>((u[6] & 0x0f) | 0x40);  // version 4
    u[8] = static_cast<char>((u[8] & 0x3f) | 0x80);  // RFC 4122 variant
    return u;
}

Status DurableCatalog::_writeEntry(RecoveryUnit* ru, const Entry& e) {
    BSONObj doc = toDocument(e);
    return _rs->updateRecord(ru, e.catalogId, doc.objdata(), doc.objsize());
}

StatusWith<DurableCatalog::Entry> DurableCatalog::addCollection(RecoveryUnit* ru, StringData ns,
                                                                const BSONObj& options) {
    invariant(ru->inUnitOfWork());
    if (findByNs(ru, ns))
        return Status(ErrorCodes::NamespaceExists,
                      "Collection " + std::string(ns) + " already exists.");
    BSONObj opts = options;
    if (opts[kUuid].eoo()) {
        std::string uuid = generateUUID();
        BSONObjBuilder b;
        b.appendBinData(kUuid, 16, newUUID, uuid.data());
        b.appendElements(options);
        opts = b.obj();
    }
    Entry e;
    e.ns = std::string(ns);
    e.ident = _newIdent("collection");
    e.idxIdent = BSONObj();
    {
        BSONObjBuilder md;
        md.append(kNs, ns);
        md.append(kOptions, opts);
        md.appendArray(kIndexes, BSONObj());
        if (isBucketsNamespace(ns) && opts["clusteredIndex"].ok())
            md.append(kRecordIdsFromIdTime, true);
        e.md = md.obj();
    }
    auto config = tableConfigString(ns, opts);
    if (!config.isOK())
        return config.getStatus();
    Status st = _engine->createRecordStore(e.ident, config.getValue());
    if (!st.isOK())
        return st;
    KVEngine* engine = _engine;
    std::string ident = e.ident;
    ru->onRollback([engine, ident] { (void)engine->dropIdent(ident); });
    BSONObj doc = toDocument(e);
    auto id = _rs->insertRecord(ru, doc.objdata(), doc.objsize());
    if (!id.isOK())
        return id.getStatus();
    e.catalogId = id.getValue();
    return e;
}

Status DurableCatalog::putMetaData(RecoveryUnit* ru, RecordId catalogId, const BSONObj& md) {
    auto e = getEntry(ru, catalogId);
    if (!e)
        return Status(ErrorCodes::NamespaceNotFound, "no catalog entry " + catalogId.toString());
    if (md[kNs].str() != e->ns)
        return Status(ErrorCodes::BadValue, "md.ns must equal the entry's ns " + e->ns);
    e->md = md.getOwned();
    return _writeEntry(ru, *e);
}

bool DurableCatalog::isUniqueIndexSpec(const BSONObj& spec) {
    return spec["unique"].trueValue() || spec["name"].valueStringData() == "_id_";
}

IndexConfig DurableCatalog::indexConfigFromSpec(StringData ns, const BSONObj& spec) {
    IndexConfig c;
    c.keyPattern = spec["key"].Obj().getOwned();
    c.unique = isUniqueIndexSpec(spec);
    c.indexName = spec["name"].str();
    c.ns = std::string(ns);
    if (isBucketsNamespace(ns))
        c.tableConfig = std::string(kBucketsIndexTableConfig);
    return c;
}

StatusWith<std::string> DurableCatalog::addIndex(RecoveryUnit* ru, RecordId catalogId,
                                                 const BSONObj& spec, bool ready) {
    invariant(ru->inUnitOfWork());
    auto e = getEntry(ru, catalogId);
    if (!e)
        return Status(ErrorCodes::NamespaceNotFound, "no catalog entry " + catalogId.toString());
    std::string name = spec["name"].str();
    if (name.empty() || spec["key"].type() != BSONType::kObject)
        return Status(ErrorCodes::BadValue, "index spec needs a name and a key");
    if (!e->indexEntry(name).isEmpty())
        return Status(ErrorCodes::IndexAlreadyExists, "index " + name + " already exists");
    std::string ident = _newIdent("index");
    Status st = _engine->createSortedDataInterface(ident, indexConfigFromSpec(e->ns, spec));
    if (!st.isOK())
        return st;
    KVEngine* engine = _engine;
    ru->onRollback([engine, ident] { (void)engine->dropIdent(ident); });

    auto indexes = indexesOf(e->md);
    BSONObjBuilder ib;
    ib.append(kSpec, spec);
    ib.append(kReady, ready);
    ib.append(kMultikey, false);
    indexes.push_back(ib.obj());
    e->md = withIndexes(e->md, indexes);
    BSONObjBuilder idx;
    idx.appendElements(e->idxIdent);
    idx.append(name, ident);
    e->idxIdent = idx.obj();
    st = _writeEntry(ru, *e);
    if (!st.isOK())
        return st;
    return ident;
}

Status DurableCatalog::removeIndex(RecoveryUnit* ru, RecordId catalogId, StringData indexName) {
    invariant(ru->inUnitOfWork());
    auto e = getEntry(ru, catalogId);
    if (!e)
        return Status(ErrorCodes::NamespaceNotFound, "no catalog entry " + catalogId.toString());
    if (e->indexEntry(indexName).isEmpty())
        return Status(ErrorCodes::IndexNotFound,
                      "index not found with name [" + std::string(indexName) + "]");
    std::string ident = e->indexIdent(indexName);
    auto indexes = indexesOf(e->md);
    std::erase_if(indexes, [&](const BSONObj& i) {
        return i[kSpec].Obj()["name"].valueStringData() == indexName;
    });
    e->md = withIndexes(e->md, indexes);
    e->idxIdent = withoutField(e->idxIdent, indexName);
    Status st = _writeEntry(ru, *e);
    if (!st.isOK())
        return st;
    KVEngine* engine = _engine;
    ru->onCommit([engine, ident] { (void)engine->dropIdent(ident); });
    return Status::OK();
}

namespace {
Status updateIndexEntry(const std::vector<BSONObj>& in, StringData name,
                        const std::function<BSONObj(const BSONObj&)>& f,
                        std::vector<BSONObj>* out) {
    bool found = false;
    for (auto& i : in) {
        if (i[kSpec].Obj()["name"].valueStringData() == name) {
            out->push_back(f(i));
            found = true;
        } else {
            out->push_back(i);
        }
    }
    if (!found)
        return Status(ErrorCodes::IndexNotFound,
                      "index not found with name [" + std::string(name) + "]");
    return Status::OK();
}
}  // namespace

Status DurableCatalog::setIndexReady(RecoveryUnit* ru, RecordId catalogId, StringData indexName) {
    auto e = getEntry(ru, catalogId);
    if (!e)
        return Status(ErrorCodes::NamespaceNotFound, "no catalog entry " + catalogId.toString());
    std::vector<BSONObj> indexes;
    Status st = updateIndexEntry(
        indexesOf(e->md), indexName,
        [](const BSONObj& i) {
            BSONObjBuilder b;
            for (auto f : i)
                if (f.fieldNameStringData() != kReady)
                    b.append(f);
            b.append(kReady, true);
            return b.obj();
        },
        &indexes);
    if (!st.isOK())
        return st;
    e->md = withIndexes(e->md, indexes);
    return _writeEntry(ru, *e);
}

Status DurableCatalog::setIndexMultikey(RecoveryUnit* ru, RecordId catalogId, StringData indexName,
                                        bool multikey, const BSONObj& multikeyPaths) {
    auto e = getEntry(ru, catalogId);
    if (!e)
        return Status(ErrorCodes::NamespaceNotFound, "no catalog entry " + catalogId.toString());
    std::vector<BSONObj> indexes;
    Status st = updateIndexEntry(
        indexesOf(e->md), indexName,
        [&](const BSONObj& i) {
            BSONObjBuilder b;
            for (auto f : i) {
                StringData n = f.fieldNameStringData();
                if (n != kMultikey && n != kMultikeyPaths)
                    b.append(f);
            }
            b.append(kMultikey, multikey);
            if (!multikeyPaths.isEmpty())
                b.append(kMultikeyPaths, multikeyPaths);
            return b.obj();
        },
        &indexes);
    if (!st.isOK())
        return st;
    e->md = withIndexes(e->md, indexes);
    return _writeEntry(ru, *e);
}

Status DurableCatalog::dropCollection(RecoveryUnit* ru, RecordId catalogId) {
    invariant(ru->inUnitOfWork());
    auto e = getEntry(ru, catalogId);
    if (!e)
        return Status(ErrorCodes::NamespaceNotFound, "no catalog entry " + catalogId.toString());
    _rs->deleteRecord(ru, catalogId);
    std::vector<std::string> idents{e->ident};
    for (auto i : e->idxIdent)
        idents.push_back(i.str());
    KVEngine* engine = _engine;
    ru->onCommit([engine, idents] {
        for (auto& i : idents)
            (void)engine->dropIdent(i);
    });
    return Status::OK();
}

Status DurableCatalog::renameCollection(RecoveryUnit* ru, RecordId catalogId, StringData toNs) {
    invariant(ru->inUnitOfWork());
    auto e = getEntry(ru, catalogId);
    if (!e)
        return Status(ErrorCodes::NamespaceNotFound, "no catalog entry " + catalogId.toString());
    if (findByNs(ru, toNs))
        return Status(ErrorCodes::NamespaceExists, "target namespace exists: " + std::string(toNs));
    e->ns = std::string(toNs);
    e->md = withStringField(e->md, kNs, toNs);
    return _writeEntry(ru, *e);
}

std::unique_ptr<RecordStore> DurableCatalog::getRecordStore(const Entry& entry) const {
    return _engine->getRecordStore(entry.ident);
}

std::unique_ptr<SortedDataInterface> DurableCatalog::getIndex(const Entry& entry,
                                                              StringData indexName) const {
    BSONObj ie = entry.indexEntry(indexName);
    if (ie.isEmpty())
        return nullptr;
    return _engine->getSortedDataInterface(entry.indexIdent(indexName),
                                           indexConfigFromSpec(entry.ns, ie[kSpec].Obj()));
}

}  // namespace mongo
