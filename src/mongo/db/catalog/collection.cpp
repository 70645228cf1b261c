#include "mongo/db/catalog/collection.h"

#include "mongo/bson/bson_comparator.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/index_key_generator.h"
#include "mongo/db/catalog/multikey_paths.h"
#include "mongo/db/catalog/op_observer.h"
#include "mongo/db/matcher/expression.h"
#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/query/collation/collator_factory.h"
#include "mongo/db/query/collation/collator_interface.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/durable_catalog.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/logv2/log.h"
#include "mongo/util/assert_util.h"

namespace mongo {

bool IndexEntry::covers(const BSONObj& doc) const {
    return !partialFilter || partialFilter->matchesBSON(doc);
}

BSONObj IndexEntry::multikeyPathsForExplain() const {
    if (!indexTracksMultikeyPaths(desc.keyPattern))
        return BSONObj();
    std::lock_guard<std::mutex> lk(multikeyPathsMutex);
    return mongo::multikeyPathsForExplain(desc.keyPattern, multikeyPaths);
}

void DocumentValidationFailureInfo::serialize(BSONObjBuilder* bob) const {
    bob->append("errInfo", _errInfo);
}

void CollectionUUIDMismatchInfo::serialize(BSONObjBuilder* bob) const {
    bob->append("db", _db);
    bob->appendAs(_uuid.firstElement(), "collectionUUID");
    bob->append("expectedCollection", _expected);
    if (_actual)
        bob->append("actualCollection", *_actual);
    else
        bob->appendNull("actualCollection");
}

void CannotConvertIndexToUniqueInfo::serialize(BSONObjBuilder* bob) const {
    bob->appendArray("violations", _violations);
}

void DuplicateKeyErrorInfo::serialize(BSONObjBuilder* bob) const {
    bob->append("keyPattern", _keyPattern);
    bob->append("keyValue", _keyValue);
}

void throwDuplicateKey(const NamespaceString& nss, const IndexEntry& index, const BSONObj& key) {
    BSONObjBuilder kv;
    auto it = key.begin();
    const bool collated = index.desc.collator() != nullptr;
    for (auto f : index.desc.keyPattern) {
        if (!it.more())
            break;
        BSONElement v = it.next();
        if (collated && v.type() == BSONType::kString) {
            // The key holds a comparison key, not the value: shown in hex, as upstream.
            static constexpr char kHex[] = "0123456789abcdef";
            std::string hex = "CollationKey(0x";
            for (unsigned char c : v.valueStringData()) {
                hex.push_back(kHex[c >> 4]);
                hex.push_back(kHex[c & 15]);
            }
            kv.append(f.fieldNameStringData(), hex + ")");
            continue;
        }
        kv.appendAs(v, f.fieldNameStringData());
    }
    BSONObj keyValue = kv.obj();
    std::string msg =
        "E11000 duplicate key error collection: " + nss.ns() + " index: " + index.desc.name +
        (collated ? " collation: " + index.desc.spec["collation"].embeddedObject().toString()
                  : std::string()) +
        " dup key: " + keyValue.toString();
    uassertedWithInfo(Status(ErrorCodes::DuplicateKey, msg),
                      std::make_shared<DuplicateKeyErrorInfo>(index.desc.keyPattern, keyValue));
}

Collection::Collection(NamespaceString nss, RecordId catalogId, std::string uuid, BSONObj options,
                       std::unique_ptr<RecordStore> rs)
    : _nss(std::move(nss)),
      _catalogId(catalogId),
      _uuid(std::move(uuid)),
      _options(options.getOwned()),
      _rs(std::move(rs)) {
    if (_options["collation"].type() == BSONType::kObject) {
        auto sw = makeCollator(_options["collation"].embeddedObject());
        if (sw.isOK())
            _defaultCollator = std::move(sw.getValue());
        else
            LOGV2_WARNING(4915901, "Collection default collation cannot be built",
                          BSON("namespace" << _nss.ns() << "error" << sw.getStatus().reason()));
    }
    BSONElement validator = _options["validator"];
    bool off = _options["validationLevel"].type() == BSONType::kString &&
               _options["validationLevel"].valueStringData() == "off";
    if (validator.type() == BSONType::kObject && !validator.embeddedObject().isEmpty() && !off) {
        auto sw = parseMatchExpression(validator.embeddedObject());
        if (sw.isOK()) {
            _validator = std::shared_ptr<MatchExpression>(std::move(sw.getValue()));
            _validator->setCollator(_defaultCollator.get());  // as upstream
        }
    }
}

void Collection::checkValidation(OperationContext* opCtx, const BSONObj& doc,
                                 const BSONObj* oldDoc) const {
    if (!_validator || opCtx->bypassDocumentValidation() || _validator->matchesBSON(doc))
        return;
    BSONElement level = _options["validationLevel"];
    if (oldDoc && level.type() == BSONType::kString && level.valueStringData() == "moderate" &&
        !_validator->matchesBSON(*oldDoc))
        return;
    BSONObjBuilder info;
    info.appendAs(doc["_id"], "failingDocumentId");
    info.append("details",
                BSON("operatorName" << _validator->serialize().firstElementFieldNameStringData()
                                    << "specifiedAs" << _options["validator"].embeddedObject()));
    BSONObj errInfo = info.obj();
    BSONElement action = _options["validationAction"];
    if (action.type() == BSONType::kString && action.valueStringData() == "warn") {
        LOGV2_WARNING(20294, "Document would fail validation",
                      BSON("namespace" << _nss.ns() << "document" << doc));
        return;
    }
    uassertedWithInfo(Status(ErrorCodes::DocumentValidationFailure, "Document failed validation"),
                      std::make_shared<DocumentValidationFailureInfo>(errInfo));
}

bool Collection::passesValidation(OperationContext* opCtx, const BSONObj& doc) const {
    if (!_validator || opCtx->bypassDocumentValidation() || _validator->matchesBSON(doc))
        return true;
    BSONElement action = _options["validationAction"];
    return action.type() == BSONType::kString && action.valueStringData() == "warn";
}

IndexEntry* Collection::findIndexByName(StringData name) const {
    for (const auto& i : _indexes) {
        if (i->desc.name == name)
            return i.get();
    }
    return nullptr;
}

std::vector<IndexEntry*> Collection::findIndexesByKeyPattern(const BSONObj& key) const {
    std::vector<IndexEntry*> out;
    // Compared as values, as upstream: {a: 1.0} (the legacy shell's numbers) names {a: 1}.
    for (const auto& i : _indexes) {
        if (compareObjects(i->desc.keyPattern, key, ComparisonRules::kConsiderFieldName) == 0)
            out.push_back(i.get());
    }
    return out;
}

void Collection::addIndex(std::shared_ptr<IndexEntry> entry) {
    _indexes.push_back(std::move(entry));
}

void Collection::replaceIndex(std::shared_ptr<IndexEntry> entry) {
    for (auto& i : _indexes) {
        if (i->desc.name == entry->desc.name) {
            i = std::move(entry);
            return;
        }
    }
    _indexes.push_back(std::move(entry));
}

void Collection::removeIndex(StringData name) {
    for (auto it = _indexes.begin(); it != _indexes.end(); ++it) {
        if ((*it)->desc.name == name) {
            _indexes.erase(it);
            return;
        }
    }
}

void Collection::_markMultikey(OperationContext* opCtx, IndexEntry* index,
                               const MultikeyPaths& paths) {
    const bool tracked = indexTracksMultikeyPaths(index->desc.keyPattern);
    MultikeyPaths merged;
    {
        std::lock_guard<std::mutex> lk(index->multikeyPathsMutex);
        merged = index->multikeyPaths;
    }
    const bool newPaths = tracked && mergeMultikeyPaths(&merged, paths);
    if (index->multikey && !newPaths)
        return;
    auto* durable = opCtx->getServiceContext()->durableCatalog;
    RecoveryUnit* ru = opCtx->recoveryUnit();
    if (tracked) {  // earlier writes of this unit of work are not committed yet: keep theirs
        auto entry = durable->getEntry(ru, _catalogId);
        BSONObj indexMd = entry ? entry->indexEntry(index->desc.name) : BSONObj();
        BSONElement pending = indexMd["multikeyPaths"];
        if (pending.type() == BSONType::kObject) {
            MultikeyPaths written = multikeyPathsFromCatalog(index->desc.keyPattern, pending.Obj());
            if (indexMd["multikey"].trueValue() && !mergeMultikeyPaths(&written, merged))
                return;  // already written by this unit of work, which commits it
            merged = std::move(written);
        }
    }
    BSONObj stored = tracked ? multikeyPathsToCatalog(index->desc.keyPattern, merged) : BSONObj();
    uassertStatusOK(durable->setIndexMultikey(ru, _catalogId, index->desc.name, true, stored));
    ru->onCommit([index, paths, tracked] {
        index->multikey = true;
        if (tracked) {
            std::lock_guard<std::mutex> lk(index->multikeyPathsMutex);
            mergeMultikeyPaths(&index->multikeyPaths, paths);
        }
    });
}

void Collection::_insertKeys(OperationContext* opCtx, IndexEntry* index, RecordId id,
                             const BSONObj& doc) {
    if (!index->covers(doc))
        return;
    IndexKeys keys;
    uassertStatusOK(index->desc.getKeys(doc, &keys));
    if (keys.multikey)
        _markMultikey(opCtx, index, keys.multikeyPaths);
    for (const auto& key : keys.keys)
        _insertKey(opCtx, index, id, key);
}

void Collection::_insertKey(OperationContext* opCtx, IndexEntry* index, RecordId id,
                            const BSONObj& key) {
    RecoveryUnit* ru = opCtx->recoveryUnit();
    Status s = index->sdi->insert(ru, key, id, !index->desc.unique);
    // prepareUnique: the table keeps duplicates made before it was set, but no new one.
    if (s.isOK() && index->desc.prepareUnique)
        s = index->sdi->dupKeyCheck(ru, key, id);
    if (s.code() == ErrorCodes::DuplicateKey)
        throwDuplicateKey(_nss, *index, key);
    uassertStatusOK(s);
}

void Collection::_removeKeys(OperationContext* opCtx, IndexEntry* index, RecordId id,
                             const BSONObj& doc) {
    if (!index->covers(doc))
        return;
    IndexKeys keys;
    if (!index->desc.getKeys(doc, &keys).isOK())
        return;
    for (const auto& key : keys.keys)
        index->sdi->unindex(opCtx->recoveryUnit(), key, id);
}

RecordId Collection::insertDocument(OperationContext* opCtx, const BSONObj& doc) {
    checkValidation(opCtx, doc);
    RecoveryUnit* ru = opCtx->recoveryUnit();
    RecordId id;
    if (_recordIdsFromIdTime) {
        BSONElement idElem = doc["_id"];
        const uint32_t seconds = idElem.type() == BSONType::kOid ? idElem.OID().getTimestamp() : 0;
        id = uassertStatusOK(_rs->insertRecordForTime(ru, seconds, doc.objdata(), doc.objsize()));
    } else {
        id = uassertStatusOK(_rs->insertRecord(ru, doc.objdata(), doc.objsize()));
    }
    for (const auto& index : _indexes)
        _insertKeys(opCtx, index.get(), id, doc);
    getOpObserver()->onInserts(opCtx, *this, {doc});
    if (isCapped())
        _enforceCappedLimits(opCtx);
    return id;
}

void Collection::indexDocument(OperationContext* opCtx, IndexEntry* index, RecordId id,
                               const BSONObj& doc) {
    _insertKeys(opCtx, index, id, doc);
}

void Collection::updateDocument(OperationContext* opCtx, RecordId id, const BSONObj& oldDoc,
                                const BSONObj& newDoc, const BSONObj& diff) {
    checkValidation(opCtx, newDoc, &oldDoc);
    RecoveryUnit* ru = opCtx->recoveryUnit();
    for (const auto& index : _indexes) {
        IndexKeys before, after;
        bool coveredBefore = index->covers(oldDoc), coveredAfter = index->covers(newDoc);
        if (coveredBefore)
            uassertStatusOK(index->desc.getKeys(oldDoc, &before));
        if (coveredAfter)
            uassertStatusOK(index->desc.getKeys(newDoc, &after));
        if (after.multikey)
            _markMultikey(opCtx, index.get(), after.multikeyPaths);
        // Keys are sorted: remove those only in `before`, add those only in `after`.
        auto less = [](const BSONObj& a, const BSONObj& b) { return a.woCompare(b, false) < 0; };
        std::vector<BSONObj> removed, added;
        std::set_difference(before.keys.begin(), before.keys.end(), after.keys.begin(),
                            after.keys.end(), std::back_inserter(removed), less);
        std::set_difference(after.keys.begin(), after.keys.end(), before.keys.begin(),
                            before.keys.end(), std::back_inserter(added), less);
        for (const auto& k : removed)
            index->sdi->unindex(ru, k, id);
        for (const auto& k : added)
            _insertKey(opCtx, index.get(), id, k);
    }
    uassertStatusOK(_rs->updateRecord(ru, id, newDoc.objdata(), newDoc.objsize()));
    getOpObserver()->onUpdate(opCtx, *this, oldDoc, newDoc, diff);
}

void Collection::deleteDocument(OperationContext* opCtx, RecordId id, const BSONObj& doc) {
    for (const auto& index : _indexes)
        _removeKeys(opCtx, index.get(), id, doc);
    _rs->deleteRecord(opCtx->recoveryUnit(), id);
    getOpObserver()->onDelete(opCtx, *this, doc);
}

void Collection::_enforceCappedLimits(OperationContext* opCtx) {
    long long maxSize = _options["size"].numberLong();
    long long maxDocs = _options["max"].isNumber() ? _options["max"].numberLong() : 0;
    RecoveryUnit* ru = opCtx->recoveryUnit();
    // The counters reflect committed data; account for this unit of work's insert.
    long long count = _rs->numRecords(ru) + 1;
    long long size = _rs->dataSize(ru);
    if ((maxSize <= 0 || size <= maxSize) && (maxDocs <= 0 || count <= maxDocs))
        return;
    auto cursor = _rs->getCursor(ru, true);
    while ((maxSize > 0 && size > maxSize) || (maxDocs > 0 && count > maxDocs)) {
        auto rec = cursor->next();
        if (!rec)
            break;
        size -= rec->data.objsize();
        --count;
        deleteDocument(opCtx, rec->id, rec->data);
    }
}

long long Collection::numRecords(OperationContext* opCtx) const {
    return _rs->numRecords(opCtx->recoveryUnit());
}

long long Collection::dataSize(OperationContext* opCtx) const {
    return _rs->dataSize(opCtx->recoveryUnit());
}

}  // namespace mongo
